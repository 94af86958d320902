// Where both axes are named, the names must be equal.
use shapecast::rule::{Pdpd};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Pdpd, shape![H: 2, W: 3], shape![C: 3]>> = None;
}
