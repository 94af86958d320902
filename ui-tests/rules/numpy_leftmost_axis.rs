// OpenVINO: "broadcast won't happen due to dimensions mismatch on the leftmost axis".
use shapecast::{rule::Numpy, shape, BroadcastBy};
fn main() {
    let _: Option<BroadcastBy<Numpy, shape![3, 1, 5], shape![4, 4, 5]>> = None;
}
