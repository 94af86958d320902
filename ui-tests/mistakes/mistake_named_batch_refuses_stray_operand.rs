// With the batch axis named, an operand whose name has no namesake cannot take the batch
// axis: `[BATCH, SEQ, HIDDEN: 1024] + [EMBED: 256]` is refused (with `?` for the batch it
// compiles, and at batch 1 stretches the batch 256-fold).
use shapecast::{names, shape, Tensor};
names!(BATCH, SEQ, HIDDEN, EMBED);

fn main() {
    let h = Tensor::<f32, shape![BATCH, SEQ, HIDDEN: 1024]>::zeros_sized(&[1, 4, 1024]).unwrap();
    let bias = Tensor::<f32, shape![EMBED: 256]>::zeros().unwrap();
    let _ = &h + &bias;
}
