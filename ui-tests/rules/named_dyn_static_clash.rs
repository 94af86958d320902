// The namesake C has size 3 on the left and 4 on the right, whatever the `?` sizes.
use shapecast::{names, shape, Broadcast};
names!(C, H, W);
fn main() {
    let _: Option<Broadcast<shape![?, C: 3, H, W], shape![?, C: 4, H, W]>> = None;
}
