// Sizes known only at run time still have their names checked at compile time.
use shapecast::{names, rule::Numpy, shape, BroadcastBy};
names!(H, W);
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![?, H], shape![?, W]>> = None;
}
