// Sizes models use print as written: GPT-2's hidden 3072 and vocabulary 50257 against
// LLaMA's vocabulary 32000 (multiples of 64 and of 1000 up to 65,536 and common vocabulary
// sizes are in the size table).
use shapecast::{names, shape, Broadcast};
names!(HIDDEN, VOCAB);
fn main() {
    let _: Option<Broadcast<shape![HIDDEN: 3072, VOCAB: 50257], shape![VOCAB: 32000]>> = None;
}
