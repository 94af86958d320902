// A generic function that pools without the bound that says its shape pools over the axes.
use shapecast::prelude::*;
names!(H, W);

fn halve<X: Shape>(x: &Tensor<f32, X>) {
    let _ = x.max_pool::<(H, W), Pool<2>>();
}

fn main() {}
