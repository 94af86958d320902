// Comparisons want equal sizes.
use shapecast::{names, rule::Compare, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Compare, shape![3], shape![2]>> = None;
}
