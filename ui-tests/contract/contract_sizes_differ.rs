// Contracted sizes never stretch: J is 3 on the left and 4 on the right.
use shapecast::{names, shape, Contract};
names!(I, J, K);

fn main() {
    let _: Option<Contract<shape![I: 2, J: 3], shape![J: 4, K: 4], J>> = None;
}
