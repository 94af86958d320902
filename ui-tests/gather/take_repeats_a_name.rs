use shapecast::prelude::*;
names!(VOCAB, EMBED, T);

fn main() {
    let embed = Tensor::<f32, shape![VOCAB: 10, EMBED: 4]>::from_vec(vec![0.0; 40]).unwrap();
    // Indices whose axis is named like the embedding's other axis.
    let tokens = Tensor::<usize, shape![EMBED: 3]>::from_vec(vec![1, 2, 3]).unwrap();
    let _ = embed.take::<VOCAB, _>(&tokens);
}
