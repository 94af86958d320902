// Names must be declared with names!.
use shapecast::shape;
type Bad = shape![3, H: 4];
fn main() {}
