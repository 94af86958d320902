use shapecast::prelude::*;
names!(C, K, T);

fn main() {
    let x = Tensor::<f32, shape![C: 2, T: 4]>::from_vec(vec![0.0; 8]).unwrap();
    let w = Tensor::<f32, shape![K: 2, C: 2, T: 3]>::from_vec(vec![0.0; 12]).unwrap();
    // Dilation 2 spreads the kernel over 5 elements: more than the 4 there are.
    let _ = x.conv::<C, Conv<1, 0, 2>>(&w);
}
