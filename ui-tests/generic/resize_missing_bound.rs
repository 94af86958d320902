// A generic function that resizes without the bound that says its shape resizes over the axes.
use shapecast::prelude::*;
names!(H, W);

fn to_224<X: Shape>(x: &Tensor<f32, X>) {
    let _ = x.resize::<(H, W), S<224>>(Interpolation::Nearest);
}

fn main() {}
