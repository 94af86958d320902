use shapecast::shape;
type Bad = shape![99999999999999999999999];
fn main() {}
