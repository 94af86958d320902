// A scalar broadcasts with anything, but [3] does not broadcast with [2].
use shapecast::{shape, Broadcast};
fn main() {
    let _: Option<Broadcast<shape![], shape![3]>> = None;
    let _: Option<Broadcast<shape![3], shape![2]>> = None;
}
