use shapecast::{names, shape};
names!(H);
type Bad = shape![H: 2, 3, H];
fn main() {}
