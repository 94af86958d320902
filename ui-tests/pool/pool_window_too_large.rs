use shapecast::prelude::*;
names!(C, H, W);

fn main() {
    let x = Tensor::<f32, shape![C: 8, H: 2, W: 2]>::from_vec(vec![0.0; 32]).unwrap();
    // A 3 x 3 window over a 2 x 2 map.
    let _ = x.max_pool::<(H, W), Pool<3>>();
}
