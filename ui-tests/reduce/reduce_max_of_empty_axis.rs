use shapecast::{shape, Pos, Reductions, Tensor};

fn main() {
    let t: Tensor<f32, shape![0, 3]> = Tensor::from_vec(vec![]).unwrap();
    let _ = t.max::<Pos<0>>();
}
