// Assignment never changes the destination's shape: its 1 cannot grow to 4.
use shapecast::{names, rule::Assign, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Assign, shape![1, 3], shape![4, 3]>> = None;
}
