use shapecast::prelude::*;
names!(C, H, W, T);

fn main() {
    let x = Tensor::<f32, shape![C: 8, H: 4, W: 4]>::from_vec(vec![0.0; 128]).unwrap();
    let _ = x.avg_pool::<(H, T), Pool<2>>();
}
