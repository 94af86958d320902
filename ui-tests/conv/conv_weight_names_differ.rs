use shapecast::prelude::*;
names!(N, C, K, H, W, KH, KW);

fn main() {
    let img = Tensor::<f32, shape![N, C: 3, H: 32, W: 32]>::from_vec_sized(&[1, 3, 32, 32], vec![0.0; 3072]).unwrap();
    // Kernel axes named KH, KW: they pair with nothing, so the weight has three candidate
    // output channels.
    let w = Tensor::<f32, shape![K: 16, C: 3, KH: 3, KW: 3]>::from_vec(vec![0.0; 432]).unwrap();
    let _ = img.conv::<C, Conv>(&w);
}
