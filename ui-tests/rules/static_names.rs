// Named pairing under the static rule: H meets W.
use shapecast::{names, rule::Static, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Static, shape![H: 2], shape![W: 2]>> = None;
}
