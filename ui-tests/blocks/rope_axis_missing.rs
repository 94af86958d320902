use shapecast::{names, shape, Rope, RopeStyle, Rotary, Tensor};
names!(SEQ, POS, HD);

fn main() {
    let rot = Rotary::<f32>::new(RopeStyle::Adjacent, 8, 16, 10000.0).unwrap();
    let x = Tensor::<f32, shape![SEQ: 2, HD: 8]>::from_vec(vec![0.0; 16]).unwrap();
    let _ = x.rope::<POS, HD>(&rot, 0);
}
