use shapecast::{names, shape, StackArray, Tensor};
names!(H, W);

fn main() {
    let a = Tensor::<f32, shape![H: 2, W: 3]>::from_vec(vec![0.0; 6]).unwrap();
    // W already names an axis: the stacked axis needs a new name.
    let _ = [a.view(), a.view()].stack_at::<1, W>();
}
