// The reductions are methods of `Reductions` (in the prelude): without the import, rustc
// names the trait to import.
use shapecast::{names, shape, Tensor};
names!(CLASS);

fn main() {
    let t = Tensor::<f32, shape![?, CLASS: 10]>::from_vec_sized(&[2, 10], vec![0.0; 20]).unwrap();
    let _ = t.sum::<CLASS>();
}
