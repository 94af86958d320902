// Axis 3 plus B's rank 2 exceeds A's rank 4.
use shapecast::rule::{Pdpd, Start};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Pdpd<Start<3>>, shape![2, 3, 4, 5], shape![3, 4]>> = None;
}
