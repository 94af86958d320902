use shapecast::{names, shape, Tensor};
names!(H, W, C);

fn main() {
    let t = Tensor::<f32, shape![H: 2, W: 3]>::full(0.0).unwrap();
    let _ = t.align_to::<shape![W: 3, H: 2, C: 1]>();
}
