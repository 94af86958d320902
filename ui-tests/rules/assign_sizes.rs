// TML: a has length 3, and an array of length 2 cannot be broadcast into it.
use shapecast::{names, rule::Assign, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Assign, shape![3], shape![2]>> = None;
}
