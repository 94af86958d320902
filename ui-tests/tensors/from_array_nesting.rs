use shapecast::{shape, Tensor};

fn main() {
    // A 2x3 array for a [3, 2] shape: caught by `cargo check`.
    let _ = Tensor::<i32, shape![3, 2]>::from_array([[1, 2, 3], [4, 5, 6]]);
}
