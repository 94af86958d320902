// Static sizes of namesakes clash even when other sizes are run-time.
use shapecast::rule::{Outer};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Outer, shape![?, C: 3], shape![C: 5, ?]>> = None;
}
