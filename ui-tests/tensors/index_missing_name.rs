// A named index asked for a name the shape lacks.
use shapecast::{names, shape, Tensor};
names!(SEQ, KSEQ, QSEQ);

fn main() {
    let _ = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[2, 2], |i| (i.at::<QSEQ>() + i[0]) as f32);
}
