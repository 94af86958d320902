// Tracked values broadcast by the same rules as tensors, and refuse the same way.
use shapecast::prelude::*;
use shapecast::train::{Param, Tape};

fn main() -> Result<(), Error> {
    let a = Param::new("a", Tensor::<f32, shape![3, 4]>::zeros()?);
    let b = Param::new("b", Tensor::<f32, shape![5]>::zeros()?);
    let tape = Tape::new();
    let _ = &tape.watch(&a) + &tape.watch(&b);
    Ok(())
}
