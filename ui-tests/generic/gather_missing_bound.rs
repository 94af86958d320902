// A generic function that gathers the labels' scores without the bound that says it can.
use shapecast::prelude::*;
names!(B, CLASS);

fn scores<X: Shape>(logits: &Tensor<f32, X>, labels: &Tensor<i64, shape![B, CLASS: 1]>) {
    let _ = logits.gather::<CLASS, _>(labels);
}

fn main() {}
