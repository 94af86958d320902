// The strict rule (OpenVINO NONE) never broadcasts, not even a 1.
use shapecast::{names, rule::Strict, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Strict, shape![2, 3], shape![1, 3]>> = None;
}
