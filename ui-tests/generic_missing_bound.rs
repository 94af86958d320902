use shapecast::{Shape, Tensor};

// Subtracting needs `A: BroadcastWith<B>`; the error names it.
fn centre<A: Shape, B: Shape>(x: &Tensor<f32, A>, m: &Tensor<f32, B>) -> Tensor<f32, A> {
    x - m
}

fn main() {}
