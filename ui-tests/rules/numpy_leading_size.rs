use shapecast::{rule::Numpy, shape, BroadcastBy};
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![2, 3], shape![4, 3]>> = None;
}
