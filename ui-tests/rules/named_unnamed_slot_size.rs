// CLASS takes the free unnamed axis of the frame (step 2), whose size is 20.
use shapecast::{names, shape, Broadcast};
names!(CLASS, H, W);
fn main() {
    let _: Option<Broadcast<shape![20, H: 512, W: 512], shape![CLASS: 3]>> = None;
}
