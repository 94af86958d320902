// `size::<A>()` of a name the shape lacks.
use shapecast::{names, shape, Tensor};
names!(BATCH, SEQ, DK);

fn main() {
    let q = Tensor::<f32, shape![BATCH, SEQ]>::zeros_sized(&[1, 2]).unwrap();
    let _ = q.size::<DK>();
}
