// Sizes up to 2048 (SIZE_TABLE_MAX) print as written: an HD image against a 720p one.
use shapecast::{names, shape, Broadcast};
names!(H, W);
fn main() {
    let _: Option<Broadcast<shape![?, H: 1080, W: 1920], shape![H: 720, W: 1280]>> = None;
}
