// A constant size must be one of the size table's; a literal may be any size.
use shapecast::{names, shape, Tensor};
names!(EMBED);
const E: usize = 3001;
fn embed(x: Tensor<f32, shape![EMBED: E]>) -> usize {
    x.data().len()
}
fn main() {}
