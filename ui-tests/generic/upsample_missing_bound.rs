// A generic function that upsamples without the bound that says its shape upsamples over the axes.
use shapecast::prelude::*;
names!(H, W);

fn double<X: Shape>(x: &Tensor<f32, X>) {
    let _ = x.upsample::<(H, W), Scale<2>>(Interpolation::Nearest);
}

fn main() {}
