// No axis of the frame can take a 7.
use shapecast::rule::{Embed};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Embed, shape![64, 32, 8, 5], shape![7]>> = None;
}
