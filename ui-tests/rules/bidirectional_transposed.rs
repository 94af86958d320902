// Unnamed axes are never reordered.
use shapecast::{names, rule::Bidirectional, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Bidirectional, shape![2, 3], shape![3, 2]>> = None;
}
