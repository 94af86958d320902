// A generic function that asks for a broadcast: the call names both shapes and the rule.
use shapecast::{shape, BroadcastWith, Shape};
fn add<A: BroadcastWith<B>, B: Shape>() {}
fn main() {
    add::<shape![2, 3], shape![3, 2]>();
}
