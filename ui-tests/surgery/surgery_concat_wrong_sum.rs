use shapecast::{names, shape, Concat, S};
names!(T, F);

fn main() {
    let _: Option<Concat<T<S<9>>, shape![T: 3, F], shape![T: 5, F]>> = None;
}
