use shapecast::{shape, Broadcast};
fn main() {
    let _: Option<Broadcast<shape![3, 4], shape![5]>> = None;
}
