use shapecast::{shape, MatMul};

fn main() {
    let _: Option<MatMul<shape![], shape![3]>> = None;
}
