use shapecast::{names, shape, Attention, NoMask, Tensor};
names!(SEQ, KSEQ, HD);

fn main() {
    let q = Tensor::<f32, shape![SEQ: 4, HD: 8]>::from_vec(vec![0.0; 32]).unwrap();
    let k = Tensor::<f32, shape![KSEQ: 5, HD: 8]>::from_vec(vec![0.0; 40]).unwrap();
    let v = Tensor::<f32, shape![KSEQ: 6, HD: 8]>::from_vec(vec![0.0; 48]).unwrap();
    let _ = q.attention::<HD, KSEQ>(&k, &v, NoMask, None);
}
