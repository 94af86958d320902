// A method that broadcasts, called on generic shapes without the bound: the error names it.
use shapecast::{Shape, Tensor};

fn centre<A: Shape, B: Shape>(x: &Tensor<f32, A>, m: &Tensor<f32, B>) {
    let _ = x.try_sub(m);
}

fn main() {}
