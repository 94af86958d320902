use shapecast::prelude::*;
names!(C, H, W);

fn main() {
    let x = Tensor::<f32, shape![C: 3, H: 4, W: 4]>::from_vec(vec![0.0; 48]).unwrap();
    let _ = x.upsample::<(H, W), Scale<0>>(Interpolation::Nearest);
}
