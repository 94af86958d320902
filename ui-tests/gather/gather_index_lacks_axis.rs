use shapecast::prelude::*;
names!(B, CLASS);

fn main() {
    let scores = Tensor::<f32, shape![B: 2, CLASS: 10]>::from_vec(vec![0.0; 20]).unwrap();
    let labels = Tensor::<i64, shape![B: 2]>::from_array([3, 7]);
    // PyTorch's gather wants the index with the class axis kept (size 1): `[B: 2, CLASS: 1]`.
    let _ = scores.gather::<CLASS, _>(&labels);
}
