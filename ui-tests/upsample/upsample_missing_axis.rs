use shapecast::prelude::*;
names!(C, H, W, D);

fn main() {
    let x = Tensor::<f32, shape![C: 3, H: 4, W: 4]>::from_vec(vec![0.0; 48]).unwrap();
    let linear = Interpolation::Linear { align_corners: false, antialias: false };
    let _ = x.upsample::<(D, H, W), Scale<2>>(linear);
}
