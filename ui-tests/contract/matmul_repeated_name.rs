// M on both sides would name two output axes alike.
use shapecast::{names, shape, MatMul};
names!(M);

fn main() {
    let _: Option<MatMul<shape![M: 2, 3], shape![3, M: 4]>> = None;
}
