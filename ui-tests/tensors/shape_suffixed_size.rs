use shapecast::shape;
type Bad = shape![3usize];
fn main() {}
