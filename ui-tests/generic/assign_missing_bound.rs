// A generic function that writes a tensor into a view without the bound that says the source
// broadcasts into the view's shape by the assignment rule.
use shapecast::prelude::*;
use shapecast::Storage;

fn write<S: Shape, X: Shape>(dst: &mut Tensor<f32, S>, src: &Tensor<f32, X>)
where
    S: Storage<f32>,
    X: Storage<f32>,
{
    dst.view_mut().assign(src).unwrap();
}

fn main() {}
