use shapecast::{names, shape, Norms, Tensor};
names!(SEQ, DIM, HD);

fn main() {
    let x = Tensor::<f32, shape![SEQ: 2, DIM: 8]>::from_vec(vec![0.0; 16]).unwrap();
    // A weight over HD, which the input does not have.
    let g = Tensor::<f32, shape![HD: 8]>::from_vec(vec![1.0; 8]).unwrap();
    let _ = x.rms_norm::<DIM>(&g, 1e-5);
}
