use shapecast::prelude::*;
names!(N, C, CHANNEL, K, H, W);

fn main() {
    let img = Tensor::<f32, shape![N, CHANNEL: 3, H: 8, W: 8]>::from_vec_sized(&[1, 3, 8, 8], vec![0.0; 192]).unwrap();
    let w = Tensor::<f32, shape![K: 4, C: 3, H: 3, W: 3]>::from_vec(vec![0.0; 108]).unwrap();
    let _ = img.conv::<C, Conv>(&w);
}
