use shapecast::{names, shape, SplitAxis, S};
names!(HW, H, W);

fn main() {
    let _: Option<SplitAxis<shape![?, HW: 12], HW, (H<S<5>>, W<S<2>>)>> = None;
}
