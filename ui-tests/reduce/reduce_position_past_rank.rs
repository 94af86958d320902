use shapecast::{shape, Pos, Reduce};

fn main() {
    let _: Option<Reduce<shape![4, 5], Pos<2>>> = None;
}
