// A reduction on a generic shape without its bound: the error names `ReduceOver`.
use shapecast::{Reductions, Shape, Tensor};

fn mean_over<S: Shape, X>(t: &Tensor<f32, S>) -> f32 {
    t.mean::<X>().iter().sum()
}

fn main() {}
