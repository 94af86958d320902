use shapecast::prelude::*;
names!(N, CLASS);

fn main() {
    let logits = Tensor::<f32, shape![N: 2, CLASS: 3]>::from_vec(vec![0.0; 6]).unwrap();
    let labels = Tensor::<f32, shape![N: 2]>::from_array([0.0, 2.0]);
    let _ = logits.cross_entropy::<CLASS>(&labels);
}
