use shapecast::{names, shape, Tensor};
names!(CHANNEL, H, W, COLOR);

fn main() {
    let t = Tensor::<f32, shape![?, CHANNEL: 3, H, W]>::from_vec_sized(&[1, 3, 1, 1], vec![0.0; 3]).unwrap();
    let _ = t.select::<COLOR>(0);
}
