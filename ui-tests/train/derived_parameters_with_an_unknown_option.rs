// The one option of `#[parameters(..)]` is `skip`: anything else is refused where written.
use shapecast::prelude::*;
use shapecast::train::{Param, Parameters};

names!(OUT);

#[derive(Parameters)]
struct Head {
    w: Param<f32, shape![OUT: 3]>,
    #[parameters(frozen)]
    steps: usize,
}

fn main() {}
