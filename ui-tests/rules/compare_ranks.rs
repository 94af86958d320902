// Comparisons take a scalar or an identical shape: no broadcasting (TML).
use shapecast::{names, rule::Compare, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Compare, shape![3], shape![1, 3]>> = None;
}
