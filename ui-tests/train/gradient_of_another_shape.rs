// A gradient has its parameter's shape type: read as another shape, it does not compile.
use shapecast::prelude::*;
use shapecast::train::{Param, Tape};

names!(IN, OUT);

fn main() -> Result<(), Error> {
    let w = Param::new("w", Tensor::<f32, shape![IN: 4, OUT: 3]>::zeros()?);
    let tape = Tape::new();
    let grads = tape.watch(&w).sum::<(IN, OUT)>().backward()?;
    let g: Tensor<f32, shape![OUT: 3, IN: 4]> = grads.of(&w)?;
    let _ = g;
    Ok(())
}
