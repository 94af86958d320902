// A hand-written update with the gradient of another parameter: the shapes do not fit.
use shapecast::prelude::*;
use shapecast::train::{Param, Tape};

names!(IN, OUT);

fn main() -> Result<(), Error> {
    let w = Param::new("w", Tensor::<f32, shape![IN: 4, OUT: 3]>::zeros()?);
    let mut b = Param::new("b", Tensor::<f32, shape![OUT: 3]>::zeros()?);
    let tape = Tape::new();
    let grads = (&tape.watch(&w) + &tape.watch(&b)).sum::<(IN, OUT)>().backward()?;
    let gw = grads.of(&w)?;
    *b.value_mut() -= &(&gw * 0.1);
    Ok(())
}
