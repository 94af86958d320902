// A typed weight is refused by the run-time convolution: it takes a `DynTensor` or a
// `ConvWeight` of one.
use shapecast::dynamic::conv::ConvSpec;
use shapecast::{names, shape, DynTensor, Tensor};

names!(K, C, H, W);

fn main() {
    let x = DynTensor::full("[N: 1, C: 2, H: 4, W: 4]".parse().unwrap(), 0.0f32).unwrap();
    let w = Tensor::<f32, shape![K: 1, C: 2, H: 3, W: 3]>::zeros().unwrap();
    let _ = x.conv(&w, "C", &ConvSpec::default());
}
