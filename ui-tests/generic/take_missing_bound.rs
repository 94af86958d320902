// A generic embedding lookup without the bound that says its table can be taken along VOCAB.
use shapecast::prelude::*;
names!(VOCAB, T);

fn look_up<E: Shape>(table: &Tensor<f32, E>, tokens: &Tensor<i64, shape![T]>) {
    let _ = table.take::<VOCAB, _>(tokens);
}

fn main() {}
