use shapecast::prelude::*;
names!(C, H, W, D);

fn main() {
    let x = Tensor::<f32, shape![C: 3, H: 480, W: 640]>::from_vec(vec![0.0; 3 * 480 * 640]).unwrap();
    let resize = Interpolation::Linear { align_corners: false, antialias: true };
    let _ = x.resize::<(D, W), S<224>>(resize);
}
