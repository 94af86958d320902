use shapecast::prelude::*;
names!(N, CLASS, H);

fn main() {
    let logits = Tensor::<f32, shape![N: 2, CLASS: 3, H: 3]>::from_vec(vec![0.0; 18]).unwrap();
    let labels = Tensor::<i64, shape![N: 2, H: 3]>::from_vec(vec![0; 6]).unwrap();
    // Weights over the spatial axis, not the classes.
    let w = Tensor::<f32, shape![H: 3]>::from_array([1.0, 2.0, 3.0]);
    let _ = logits.try_cross_entropy::<CLASS>(&labels, &Loss::default().class_weights(&w));
}
