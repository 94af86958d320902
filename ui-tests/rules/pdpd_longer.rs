// B may not have more axes than A (after its trailing 1s are dropped).
use shapecast::rule::{Pdpd};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Pdpd, shape![4, 5], shape![3, 4, 5]>> = None;
}
