use shapecast::prelude::*;
names!(C, T);

fn main() {
    let x = Tensor::<f32, shape![C: 3, T: 0]>::from_vec(vec![]).unwrap();
    let _ = x.resize::<T, S<8>>(Interpolation::Nearest);
}
