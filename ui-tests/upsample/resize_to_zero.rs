use shapecast::prelude::*;
names!(C, H, W);

fn main() {
    let x = Tensor::<f32, shape![C: 3, H, W]>::from_vec_sized(&[3, 4, 4], vec![0.0; 48]).unwrap();
    let _ = x.resize::<(H, W), S<0>>(Interpolation::Area);
}
