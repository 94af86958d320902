// Attention whose keys were not renamed `SEQ -> KSEQ`: with a named batch axis the causal
// mask `[SEQ, KSEQ]` finds no `KSEQ` and no unnamed axis to take it, so the scores are refused.
use shapecast::{names, shape, Dot, Tensor};
names!(BATCH, SEQ, KSEQ, HEADS, DK);

fn main() {
    let q = Tensor::<f32, shape![BATCH, SEQ, HEADS: 2, DK: 4]>::zeros_sized(&[1, 3, 2, 4]).unwrap();
    let k = Tensor::<f32, shape![BATCH, SEQ, HEADS: 2, DK: 4]>::zeros_sized(&[1, 3, 2, 4]).unwrap();
    let mask = Tensor::<f32, shape![SEQ, KSEQ]>::zeros_sized(&[3, 3]).unwrap();
    let _scores = q.dot::<DK>(&k) + &mask;
}
