// A row of 4 written into a view of [H: 2, W: 3]: W is 3 in the destination.
use shapecast::prelude::*;
names!(H, W);

fn main() {
    let mut t = Tensor::<f32, shape![H: 2, W: 3]>::full(0.0).unwrap();
    let row = Tensor::<f32, shape![W: 4]>::full(1.0).unwrap();
    t.view_mut().assign(&row).unwrap();
}
