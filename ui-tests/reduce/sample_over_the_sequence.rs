// Sampling the next token over the sequence axis instead of the vocabulary: refused, the
// sampled axis must be the last (the categories).
use rand::SeedableRng;
use shapecast::prelude::*;
use shapecast::Sampling;
names!(SEQ, VOCAB);

fn main() {
    let logits = Tensor::<f32, shape![SEQ: 4, VOCAB: 8]>::full(0.0).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let _ = logits.sample::<SEQ>(&Sampling::default(), &mut rng);
}
