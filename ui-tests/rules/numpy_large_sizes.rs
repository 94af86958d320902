// Sizes up to 1024 print as written.
use shapecast::{rule::Numpy, shape, BroadcastBy};
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![1000, 1024], shape![999, 1]>> = None;
}
