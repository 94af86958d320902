use shapecast::{Shape, Tensor};

// Reducing needs `S: ReduceOver<A>`; the error names it.
fn mean_over<S: Shape, A>(t: &Tensor<f32, S>) -> f32 {
    t.mean::<A>().iter().sum()
}

fn main() {}
