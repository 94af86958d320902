use shapecast::{names, shape, Tensor};
names!(N, C);

fn main() {
    let mut a = Tensor::<f32, shape![N: 2, 3]>::full(0.0).unwrap();
    let b = Tensor::<f32, shape![N: 2, C: 3]>::full(1.0).unwrap();
    a += &b; // C would be lost: rename it first
}
