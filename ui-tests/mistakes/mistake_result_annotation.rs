// Operands swapped in the scores' product: the result is a valid shape, `[BATCH, KSEQ, HEADS,
// SEQ]`, and only the annotation of what the scores must be catches it.
use shapecast::{names, shape, Dot, Tensor};
names!(BATCH, SEQ, KSEQ, HEADS, DK);

fn main() {
    let q = Tensor::<f32, shape![BATCH, SEQ, HEADS: 2, DK: 4]>::zeros_sized(&[1, 3, 2, 4]).unwrap();
    let k = Tensor::<f32, shape![BATCH, KSEQ, HEADS: 2, DK: 4]>::zeros_sized(&[1, 3, 2, 4]).unwrap();
    let _scores: Tensor<f32, shape![BATCH, SEQ, HEADS: 2, KSEQ]> = k.dot::<DK>(&q);
}
