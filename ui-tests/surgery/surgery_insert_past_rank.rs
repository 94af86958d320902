use shapecast::{names, shape, InsertAxis};
names!(N, H);

fn main() {
    let _: Option<InsertAxis<shape![H: 2], 2, N>> = None;
}
