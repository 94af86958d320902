use shapecast::prelude::*;
names!(VOCAB, EMBED, TOKENS, T);

fn main() {
    let embed = Tensor::<f32, shape![VOCAB: 10, EMBED: 4]>::from_vec(vec![0.0; 40]).unwrap();
    let tokens = Tensor::<usize, shape![T: 3]>::from_vec(vec![1, 2, 3]).unwrap();
    let _ = embed.take::<TOKENS, _>(&tokens);
}
