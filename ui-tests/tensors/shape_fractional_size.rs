use shapecast::shape;
type Bad = shape![3.5];
fn main() {}
