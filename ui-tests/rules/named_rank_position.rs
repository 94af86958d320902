// Without names the named rule is NumPy's.
use shapecast::{shape, Broadcast};
fn main() {
    let _: Option<Broadcast<shape![64, 32, 8, 5], shape![64, 32, 8]>> = None;
}
