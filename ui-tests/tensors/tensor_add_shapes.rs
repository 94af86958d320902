// Tensors whose static shapes cannot broadcast do not add: the error points at the `+`.
use shapecast::{shape, Tensor};
fn main() {
    let a: Tensor<f32, shape![3, 4]> = Tensor::full(0.0).unwrap();
    let b: Tensor<f32, shape![5]> = Tensor::full(0.0).unwrap();
    let _ = &a + &b;
}
