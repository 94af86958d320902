// Two vocabularies of 32000 concatenated into 65536: the sum is checked on the sizes' hex
// digits, as it is for small sizes.
use shapecast::{names, shape, Concat, S};
names!(EMBED, VOCAB);

fn main() {
    let _: Option<
        Concat<VOCAB<S<65536>>, shape![EMBED: 4096, VOCAB: 32000], shape![EMBED: 4096, VOCAB: 32000]>,
    > = None;
}
