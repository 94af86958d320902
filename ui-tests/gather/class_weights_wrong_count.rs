use shapecast::prelude::*;
names!(N, CLASS);

fn main() {
    let logits = Tensor::<f32, shape![N: 2, CLASS: 3]>::from_vec(vec![0.0; 6]).unwrap();
    let labels = Tensor::<i64, shape![N: 2]>::from_array([0, 2]);
    let w = Tensor::<f32, shape![CLASS: 4]>::from_array([1.0, 2.0, 3.0, 4.0]);
    let _ = logits.try_cross_entropy::<CLASS>(&labels, &Loss::default().class_weights(&w));
}
