// Names are checked at compile time even when every size is known only at run time.
use shapecast::{names, shape, Tensor};
names!(H, W);
fn mul(a: &Tensor<f32, shape![?, H]>, b: &Tensor<f32, shape![?, W]>) {
    let _ = a * b;
}
fn main() {}
