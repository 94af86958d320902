use shapecast::{shape, Pos, Tensor};

fn main() {
    let t = Tensor::<f32, shape![0, 3]>::from_vec(vec![]).unwrap();
    let _ = t.max::<Pos<0>>();
}
