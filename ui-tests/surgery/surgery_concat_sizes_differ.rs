use shapecast::{names, shape, Concat};
names!(T, F);

fn main() {
    let _: Option<Concat<T, shape![T: 3, F: 8], shape![F: 4, T: 5]>> = None;
}
