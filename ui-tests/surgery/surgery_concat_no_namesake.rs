use shapecast::{names, shape, Concat};
names!(T, F, G);

fn main() {
    let _: Option<Concat<T, shape![T: 1, F: 2], shape![T: 1, G: 2]>> = None;
}
