// The seed's (64, 32, 8, 5) with (64, 32, 8): right alignment pairs 8 with 5.
use shapecast::{rule::Numpy, shape, BroadcastBy};
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![64, 32, 8, 5], shape![64, 32, 8]>> = None;
}
