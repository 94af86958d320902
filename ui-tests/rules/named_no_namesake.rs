// The seed's lbl_prob with lbl_pred: CLASS has no namesake and no unnamed axis is free for it.
use shapecast::{names, shape, Broadcast};
names!(CLASS, SCALE1, SCALE2, SCALE3, H, W);
type Prob = shape![20, CLASS: 3, H: 512, W: 512];
type Pred = shape![20, SCALE1: 1, SCALE2: 17, SCALE3: 15, H: 512, W: 512];
fn main() {
    let _: Option<Broadcast<Prob, Pred>> = None;
}
