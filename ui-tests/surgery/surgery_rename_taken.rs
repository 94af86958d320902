use shapecast::{names, shape, Tensor};
names!(N, C);

fn main() {
    let t = Tensor::<f32, shape![N: 2, C: 3]>::full(0.0).unwrap();
    let _ = t.rename::<C, N>();
}
