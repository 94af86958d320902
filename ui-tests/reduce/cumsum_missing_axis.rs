// A running sum along a name the shape does not have.
use shapecast::{names, shape, Reductions, Tensor};
names!(T, D);

fn main() {
    let t = Tensor::<f32, shape![T: 4, 2]>::full(0.0).unwrap();
    let _ = t.cumsum::<D>();
}
