use shapecast::{names, shape, Pad, PadMode, Padding, Tensor};
names!(C, H, W);
fn main() {
    let x = Tensor::<f32, shape![C: 3, H: 4, W: 4]>::zeros().unwrap();
    // A causal padding of one axis, the axis selected twice.
    let _ = x.pad::<(H, H), Pad<2, 0>>(&PadMode::Constant(0.0));
}
