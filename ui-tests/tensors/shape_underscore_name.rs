use shapecast::shape;
type Bad = shape![_: 3];
fn main() {}
