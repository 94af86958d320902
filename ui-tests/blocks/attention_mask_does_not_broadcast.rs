use shapecast::{names, shape, Attention, Tensor};
names!(SEQ, KSEQ, HD);

fn main() {
    let q = Tensor::<f32, shape![SEQ: 4, HD: 8]>::from_vec(vec![0.0; 32]).unwrap();
    let k = Tensor::<f32, shape![KSEQ: 5, HD: 8]>::from_vec(vec![0.0; 40]).unwrap();
    // The scores are [SEQ: 4, KSEQ: 5]: a mask over six keys does not fit them.
    let mask = Tensor::<f32, shape![SEQ: 4, KSEQ: 6]>::from_vec(vec![0.0; 24]).unwrap();
    let _ = q.attention::<HD, KSEQ>(&k, &k, &mask, None);
}
