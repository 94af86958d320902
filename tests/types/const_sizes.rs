//! Sizes from constants in `shape!`: a path (`EMBED: E`, `EMBED: config::VOCAB`), a const
//! expression (`EMBED: {E * 2}`) or an unnamed `{F}` give the same types as the literals, so
//! one model's shapes can follow its configuration's constants.
use shapecast::{names, shape, Dot, Tensor};
names!(SEQ, EMBED, FF);
const E: usize = 4;
const F: usize = 2 * E;
mod config {
    pub const VOCAB: usize = 32000;
}
static_assertions::assert_type_eq_all!(shape![SEQ, EMBED: E], shape![SEQ, EMBED: 4]);
static_assertions::assert_type_eq_all!(shape![EMBED: {E * 2}], shape![EMBED: 8]);
static_assertions::assert_type_eq_all!(shape![{F}, EMBED: config::VOCAB], shape![8, EMBED: 32000]);
#[test]
fn constant_sizes_are_the_literal_sizes() {
    let x = Tensor::<f32, shape![SEQ, EMBED: E]>::from_vec_sized(&[1, 4], vec![1.0; 4]).unwrap();
    let w = Tensor::<f32, shape![EMBED: E, FF: F]>::full(0.5).unwrap();
    let y: Tensor<f32, shape![SEQ, FF: 8]> = x.dot::<EMBED>(&w);
    assert_eq!(y.data(), &[2.0; 8]);
}
