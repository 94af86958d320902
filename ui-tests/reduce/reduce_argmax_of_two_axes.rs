use shapecast::{names, shape, Reductions, Tensor};
names!(H, W);

fn main() {
    let t = Tensor::<f32, shape![H: 2, W: 3]>::from_vec(vec![0.0; 6]).unwrap();
    let _ = t.argmax::<(H, W)>();
}
