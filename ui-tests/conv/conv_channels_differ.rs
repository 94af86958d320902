use shapecast::prelude::*;
names!(N, C, K, H, W);

fn main() {
    let img = Tensor::<f32, shape![N, C: 3, H: 32, W: 32]>::from_vec_sized(&[1, 3, 32, 32], vec![0.0; 3072]).unwrap();
    // A weight saved for four input channels.
    let w = Tensor::<f32, shape![K: 16, C: 4, H: 3, W: 3]>::from_vec(vec![0.0; 576]).unwrap();
    let _ = img.conv::<C, Conv<1, 1>>(&w);
}
