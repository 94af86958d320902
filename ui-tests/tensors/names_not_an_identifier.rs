shapecast::names!(H, 3);
fn main() {}
