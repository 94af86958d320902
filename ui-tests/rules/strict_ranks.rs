// Identical shapes have equal ranks.
use shapecast::{names, rule::Strict, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Strict, shape![3], shape![1, 3]>> = None;
}
