use shapecast::{shape, MatMul};

fn main() {
    let _: Option<MatMul<shape![2, 3], shape![4, 5]>> = None;
}
