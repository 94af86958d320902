// Embedding preserves order: [3, 2] is no subsequence of [2, 3].
use shapecast::rule::{Embed};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Embed, shape![2, 3], shape![3, 2]>> = None;
}
