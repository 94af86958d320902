// The static rule still refuses static sizes that differ.
use shapecast::{names, rule::Static, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Static, shape![?, 3], shape![4]>> = None;
}
