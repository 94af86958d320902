// The NumPy rule pairs by position; two paired axes must not carry different names.
use shapecast::{names, rule::Numpy, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![H: 2], shape![W: 2]>> = None;
}
