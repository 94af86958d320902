// OpenVINO: only B broadcasts to A under PDPD.
use shapecast::rule::{Pdpd, Start};
use shapecast::{names, shape, BroadcastBy};
names!(H, W, C);
fn main() {
    let _: Option<BroadcastBy<Pdpd<Start<1>>, shape![8, 1, 6, 1], shape![7, 1, 5]>> = None;
}
