// Positional pairing puts H against the unnamed 3 and H against 1: the result would name two
// axes H. (The named rule pairs the namesakes instead.)
use shapecast::{names, rule::Numpy, shape, BroadcastBy};
names!(H);
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![H: 1, 3], shape![H: 3]>> = None;
}
