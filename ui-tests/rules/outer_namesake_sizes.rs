// The outer rule keeps every axis, but namesakes must still agree.
use shapecast::rule::{Outer};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Outer, shape![H: 2, W: 3], shape![W: 4]>> = None;
}
