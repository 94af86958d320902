// Generic code that needs a broadcast without asking for it: the error names the bound.
use shapecast::{BroadcastWith, Shape};

fn need<A: BroadcastWith<B>, B: Shape>() {}

fn centre<A: Shape, B: Shape>() {
    need::<A, B>();
}

fn main() {}
