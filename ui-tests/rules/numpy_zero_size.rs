// 0 only broadcasts with 1 or 0.
use shapecast::{rule::Numpy, shape, BroadcastBy};
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![0], shape![3, 4]>> = None;
}
