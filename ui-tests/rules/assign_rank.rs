// The source may not have more axes than the destination.
use shapecast::{names, rule::Assign, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Assign, shape![3], shape![1, 3]>> = None;
}
