// Tracked attention checks its names as the tensors' does: the keys have no axis `HD`.
use shapecast::prelude::*;
use shapecast::train::{Param, Tape};

names!(SEQ, KSEQ, HD, DK);

fn main() -> Result<(), Error> {
    let q = Param::new("q", Tensor::<f32, shape![SEQ: 4, HD: 8]>::zeros()?);
    let tape = Tape::new();
    let k = tape.constant(Tensor::<f32, shape![KSEQ: 4, DK: 8]>::zeros()?);
    let _ = tape.watch(&q).attention::<HD, KSEQ>(&k, &k, Causal::<SEQ>::new(), None)?;
    Ok(())
}
