// A generic loss over a class axis without the bound that says the logits have it.
use shapecast::prelude::*;
names!(CLASS);

fn loss<X: Shape, L: Shape>(logits: &Tensor<f32, X>, labels: &Tensor<i64, L>) {
    let _ = logits.cross_entropy::<CLASS>(labels);
}

fn main() {}
