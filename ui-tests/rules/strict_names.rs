// Identical shapes carry identical names.
use shapecast::{names, rule::Strict, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Strict, shape![H: 2, 3], shape![2, 3]>> = None;
}
