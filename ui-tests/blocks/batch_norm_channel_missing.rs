// A batch norm's statistics over a channel the input does not name: the norm would broadcast
// into the input by the assignment rule, which refuses a name the destination lacks.
use shapecast::{names, shape, BatchNorm, Tensor};

names!(N, C, K, H, W);

fn main() -> Result<(), shapecast::Error> {
    let x = Tensor::<f32, shape![N, C: 3, H: 4, W: 4]>::from_vec_sized(&[1, 3, 4, 4], vec![0.0; 48])?;
    let s = Tensor::<f32, shape![K: 3]>::from_array([0.0, 1.0, 2.0]);
    let bn = BatchNorm::new(&s, &s, &s, &s, 1e-5)?;
    let _y = x.batch_norm(&bn);
    Ok(())
}
