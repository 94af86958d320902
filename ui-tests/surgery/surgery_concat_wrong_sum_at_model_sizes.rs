// Two vocabularies of 32000 concatenated into 65536: the sum is checked on the sizes' hex
// digits, as it is for small sizes.
use shapecast::{names, shape, Tensor, S};
names!(EMBED, VOCAB);

fn main() {
    let a = Tensor::<f32, shape![EMBED: 4096, VOCAB: 32000]>::zeros().unwrap();
    let _ = a.concat::<VOCAB<S<65536>>, _>(&a);
}
