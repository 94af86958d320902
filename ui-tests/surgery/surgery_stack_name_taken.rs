use shapecast::{names, shape, stack, Tensor};
names!(H);

fn main() {
    let a = Tensor::<f32, shape![H: 2]>::full(0.0).unwrap();
    let _ = stack::<H, _, _>(&[a.view(), a.view()]);
}
