// OpenVINO: (3) to [4] is refused.
use shapecast::{names, rule::Bidirectional, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Bidirectional, shape![3], shape![4]>> = None;
}
