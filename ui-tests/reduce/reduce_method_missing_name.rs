use shapecast::{names, shape, Reductions, Tensor};
names!(CLASS, W);

fn main() {
    let t = Tensor::<f32, shape![?, CLASS: 10]>::from_vec_sized(&[2, 10], vec![0.0; 20]).unwrap();
    let _ = t.sum::<W>();
}
