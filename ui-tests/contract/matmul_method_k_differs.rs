use shapecast::{shape, Dot, Tensor};

fn main() {
    let a = Tensor::<f32, shape![2, 3]>::from_vec(vec![0.0; 6]).unwrap();
    let b = Tensor::<f32, shape![2, 3]>::from_vec(vec![0.0; 6]).unwrap();
    let _ = a.matmul(&b);
}
