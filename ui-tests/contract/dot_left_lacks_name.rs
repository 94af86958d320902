// A name only the right operand has: reported once, with both operands' shapes.
use shapecast::{names, shape, Dot, Tensor};
names!(SEQ, KSEQ, DK, DV);

fn main() {
    let q = Tensor::<f32, shape![SEQ: 2, DK: 4]>::from_vec(vec![0.0; 8]).unwrap();
    let v = Tensor::<f32, shape![KSEQ: 3, DV: 4]>::from_vec(vec![0.0; 12]).unwrap();
    let _ = q.dot::<DV>(&v);
}
