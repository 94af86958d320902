// A generic sampler without the bound that says its axis is the last of the shape.
use shapecast::prelude::*;
use shapecast::{Reduce, Sampling, Storage};

fn next<S: Shape, A>(logits: &Tensor<f32, S>, rng: &mut impl rand::Rng) -> Tensor<usize, Reduce<S, A>>
where
    S: Storage<f32> + shapecast::ReduceOver<A>,
    Reduce<S, A>: Storage<usize>,
    A: shapecast::OneAxis,
{
    logits.sample::<A>(&Sampling::default(), rng).unwrap()
}

fn main() {}
