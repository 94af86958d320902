use shapecast::{names, shape};
names!(H);
type Bad = shape![H: -1];
fn main() {}
