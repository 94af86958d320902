use shapecast::prelude::*;
names!(B, CLASS);

fn main() {
    let scores = Tensor::<f32, shape![B: 2, CLASS: 10]>::from_vec(vec![0.0; 20]).unwrap();
    let labels = Tensor::<i64, shape![B: 3, CLASS: 1]>::from_array([[3], [7], [1]]);
    let _ = scores.gather::<CLASS, _>(&labels);
}
