use shapecast::{names, shape, Reduce};
names!(H, W);

fn main() {
    let _: Option<Reduce<shape![H: 2], W>> = None;
}
