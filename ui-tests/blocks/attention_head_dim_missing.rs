use shapecast::{names, shape, Attention, NoMask, Tensor};
names!(SEQ, KSEQ, HEADS, HD, DK);

fn main() {
    let q = Tensor::<f32, shape![SEQ: 4, HEADS: 2, HD: 8]>::from_vec(vec![0.0; 64]).unwrap();
    let k = Tensor::<f32, shape![KSEQ: 5, HEADS: 2, DK: 8]>::from_vec(vec![0.0; 80]).unwrap();
    // The keys name their head dimension DK: nothing to contract the queries' HD with.
    let _ = q.attention::<HD, KSEQ>(&k, &k, NoMask, None);
}
