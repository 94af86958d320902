// C has no namesake and no unnamed axis is free for it.
use shapecast::{names, rule::Static, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Static, shape![H: 2, W: 3], shape![C: 3]>> = None;
}
