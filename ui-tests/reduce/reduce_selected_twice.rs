use shapecast::{names, shape, Pos, ReduceKeep};
names!(H);

fn main() {
    let _: Option<ReduceKeep<shape![H: 2, 3], (H, Pos<0>)>> = None;
}
