use shapecast::{rule::Numpy, shape, BroadcastBy};
type Out = BroadcastBy<Numpy, shape![3, 4], shape![5]>;
fn main() {
    let _: Option<Out> = None;
}
