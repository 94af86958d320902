// C has no namesake, and every axis of the frame has another name.
use shapecast::rule::{Embed};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Embed, shape![H: 3, W: 3], shape![C: 3]>> = None;
}
