// Batch norm places its weight by name: an image without the axis `CH` cannot take it.
use shapecast::prelude::*;
use shapecast::train::{Param, RunningStats, Tape};

names!(N, C, CH, H, W);

fn main() -> Result<(), Error> {
    let w = Param::new("bn.weight", Tensor::<f32, shape![CH: 3]>::ones()?);
    let mut stats = RunningStats::new(&[3])?;
    let tape = Tape::new();
    let x = tape.constant(Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 4]>::zeros()?);
    let (w, b) = (tape.watch(&w), tape.watch(&w));
    let _ = x.batch_norm(&w, &b, &mut stats)?;
    Ok(())
}
