use shapecast::prelude::*;
names!(C, H, W);

fn main() {
    let x = Tensor::<f32, shape![C: 8, H: 4, W: 4]>::from_vec(vec![0.0; 128]).unwrap();
    // Padding 2 with a kernel of 3: more than half the kernel (PyTorch refuses it too).
    let _ = x.max_pool::<(H, W), Pool<3, 1, 2>>();
}
