use shapecast::shape;
type Bad = shape![3 4];
fn main() {}
