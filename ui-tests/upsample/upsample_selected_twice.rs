use shapecast::prelude::*;
names!(C, H, W);

fn main() {
    let x = Tensor::<f32, shape![C: 3, H: 4, W: 4]>::from_vec(vec![0.0; 48]).unwrap();
    // `Pos<1>` is `H`: the axis would be upsampled twice.
    let _ = x.upsample::<(H, Pos<1>), Scale<2>>(Interpolation::Nearest);
}
