// Stacking rank-2 views under a new axis at position 3: past the rank of the result.
use shapecast::{names, shape, stack_at, Tensor};
names!(H, W, N);

fn main() {
    let t = Tensor::<f32, shape![H: 2, W: 3]>::zeros().unwrap();
    let _ = stack_at::<3, N, _, _>(&[t.view(), t.view()]);
}
