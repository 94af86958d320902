// `Parameters` is derived for structs; an enum's `visit` is written by hand.
use shapecast::prelude::*;
use shapecast::train::{Param, Parameters};

names!(OUT);

#[derive(Parameters)]
enum Head {
    Small(Param<f32, shape![OUT: 3]>),
    Large(Param<f32, shape![OUT: 30]>),
}

fn main() {}
