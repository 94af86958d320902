use shapecast::{names, shape, Contract};
names!(I, J, K);

fn main() {
    let _: Option<Contract<shape![5, I: 2, J: 3], shape![4, J: 3, K: 4], J>> = None;
}
