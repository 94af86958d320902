use shapecast::{shape, MatMul};

fn main() {
    let _: Option<MatMul<shape![2, 2, 3], shape![5, 3, 4]>> = None;
}
