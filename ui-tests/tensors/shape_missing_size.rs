use shapecast::{names, shape};
names!(H);
type Bad = shape![2, H:];
fn main() {}
