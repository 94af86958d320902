// The input's H meets the target's W.
use shapecast::{names, rule::Bidirectional, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Bidirectional, shape![H: 2, 1], shape![W: 2, 5]>> = None;
}
