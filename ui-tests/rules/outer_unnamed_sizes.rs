// Unnamed axes pair as NumPy pairs them: 3 meets 4.
use shapecast::rule::{Outer};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Outer, shape![3, H: 2], shape![4]>> = None;
}
