// Namesakes pair wherever they stand, and their sizes must agree.
use shapecast::{names, shape, Broadcast};
names!(H, W);
fn main() {
    let _: Option<Broadcast<shape![H: 2, W: 3], shape![W: 4, H: 2]>> = None;
}
