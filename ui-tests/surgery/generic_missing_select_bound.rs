// A generic function that selects along an axis without the bound that says its shape has
// that axis: the error names the public bound to add.
use shapecast::{names, Error, Shape, Tensor};
names!(PAIR);

fn first<X: Shape>(x: &Tensor<f32, X>) -> Result<Vec<f32>, Error> {
    Ok(x.select::<PAIR>(0)?.iter().copied().collect())
}

fn main() {}
