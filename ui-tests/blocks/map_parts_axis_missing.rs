use shapecast::{names, shape, Parts, Tensor};
names!(SEQ, DIM, HEAD);

fn main() {
    let x = Tensor::<f32, shape![SEQ: 4, DIM: 2]>::from_vec(vec![0.0; 8]).unwrap();
    // HEAD is not an axis of x: there is nothing to cut into parts.
    let _ = x.map_parts::<HEAD, _, _>(|rows, _| Ok(rows.to_tensor()));
}
