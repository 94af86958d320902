// `backward` starts from a loss of shape `[]`: a value of another shape needs its seed.
use shapecast::prelude::*;
use shapecast::train::{Param, Tape};

names!(N);

fn main() -> Result<(), Error> {
    let p = Param::new("p", Tensor::<f32, shape![N: 2]>::zeros()?);
    let tape = Tape::new();
    let per_sample = &tape.watch(&p) * 2.0;
    let _ = per_sample.backward()?;
    Ok(())
}
