use shapecast::{names, shape, MatMul};
names!(M, K, J, N);

fn main() {
    let _: Option<MatMul<shape![M: 2, K: 3], shape![J: 3, N: 4]>> = None;
}
