use shapecast::{names, shape, Tensor, Unnamed};
names!(A, B, C);

fn main() {
    let t = Tensor::<f32, shape![A: 2, B: 3, C: 4]>::full(0.0).unwrap();
    let _ = t.merge_axes::<(A, C), Unnamed>();
}
