use shapecast::{names, shape, Attention, Causal, Tensor};
names!(SEQ, POS, KSEQ, HD);

fn main() {
    let q = Tensor::<f32, shape![SEQ: 4, HD: 8]>::from_vec(vec![0.0; 32]).unwrap();
    let k = Tensor::<f32, shape![KSEQ: 5, HD: 8]>::from_vec(vec![0.0; 40]).unwrap();
    // The queries' positions are along SEQ; the scores have no POS.
    let _ = q.attention::<HD, KSEQ>(&k, &k, Causal::<POS>::new(), None);
}
