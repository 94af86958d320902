use shapecast::{names, shape, Dot, Tensor};
names!(T, IN, OUT);

fn main() {
    // f32 activations take f32, bf16 or f16 weights; f64 weights are converted first.
    let x = Tensor::<f32, shape![T: 2, IN: 4]>::from_vec(vec![0.0; 8]).unwrap();
    let w = Tensor::<f64, shape![OUT: 3, IN: 4]>::from_vec(vec![0.0; 12]).unwrap();
    let _ = x.dot::<IN>(&w);
}
