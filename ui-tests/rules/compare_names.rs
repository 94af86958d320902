// Comparisons want identical names.
use shapecast::{names, rule::Compare, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Compare, shape![H: 3], shape![W: 3]>> = None;
}
