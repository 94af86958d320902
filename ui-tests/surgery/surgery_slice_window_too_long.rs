use shapecast::{names, shape, Tensor, S};
names!(T);

fn main() {
    let t = Tensor::<f32, shape![T: 4, 2]>::full(0.0).unwrap();
    let _ = t.slice_to::<T, S<5>>(0);
}
