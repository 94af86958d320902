// `?` sizes defer the size check to run time, never the name check: [N, ?] has two axes
// without a namesake but the frame has one free unnamed axis, so N meets C.
use shapecast::{names, shape, Broadcast};
names!(N, C, H, W);
fn main() {
    let _: Option<Broadcast<shape![?, C, H, W], shape![N, ?, W]>> = None;
}
