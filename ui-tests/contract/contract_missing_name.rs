use shapecast::{names, shape, Contract};
names!(I, J, K);

fn main() {
    let _: Option<Contract<shape![I: 2, J: 3], shape![K: 4], J>> = None;
}
