// C has no namesake in [H: 2, W: 3], which has no unnamed axis for it: C meets W.
use shapecast::{names, shape, Broadcast};
names!(H, W, C);
fn main() {
    let _: Option<Broadcast<shape![H: 2, W: 3], shape![C: 3]>> = None;
}
