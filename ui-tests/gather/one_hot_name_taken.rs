use shapecast::prelude::*;
names!(N, CLASS);

fn main() {
    let labels = Tensor::<usize, shape![N: 2, CLASS: 1]>::from_vec(vec![0, 1]).unwrap();
    let _ = labels.one_hot::<CLASS<S<3>>, f32>();
}
