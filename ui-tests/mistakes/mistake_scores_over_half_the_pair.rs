// A decoder's scores contracted over `HALF` alone, forgetting the turned pair's `TURNED`: the
// pair's two parts stay in the scores as a batch axis, and the annotated result refuses it.
use shapecast::{names, shape, Dot, Tensor};
names!(SEQ, KSEQ, KVH, GROUP, HALF, TURNED);

fn main() {
    let q = Tensor::<f32, shape![SEQ, KVH, GROUP, HALF, TURNED: 2]>::zeros_sized(&[4, 2, 2, 3]).unwrap();
    let k = Tensor::<f32, shape![KSEQ, KVH, HALF, TURNED: 2]>::zeros_sized(&[4, 2, 3]).unwrap();
    let _scores: Tensor<f32, shape![SEQ, KVH, GROUP, KSEQ]> = q.dot::<HALF>(&k);
}
