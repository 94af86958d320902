//! A Llama-style decoder (`examples/llama/model.rs`, llama2.c's architecture with grouped-query
//! attention, on the fused `rms_norm`, `rope` and `attention`) at two sizes: the prompt's
//! forward pass (128 tokens) and greedy generation (one token per iteration, the KV cache
//! filled by the prompt), on the weights `scripts/bench_llama.py` writes; and the same
//! decoder written with the operations the fused ones replace
//! (`benches/common/llama_unfused.rs`). Each is first checked against PyTorch's logits and
//! tokens stored in the same file.
//!
//! Run: `python3 scripts/bench_llama.py --threads 1` (writes the weights, times PyTorch), then
//! `cargo bench --bench llama --features safetensors` (one thread) and
//! `cargo bench --bench llama --features safetensors,rayon` (rayon's pool). The groups' names
//! end in `[1 thread]` or `[rayon]`.

use criterion::{criterion_group, criterion_main, Criterion};
use shapecast::{shape, Tensor};
use std::time::Duration;

use llama::VOCAB;

#[path = "../examples/llama/model.rs"]
mod llama;
#[path = "common/llama_unfused.rs"]
mod unfused;

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};
const MAX_SEQ: usize = 256;
const GENERATE: usize = 32;

/// What both decoders do: the logits after the tokens at positions `pos..`, and greedy
/// decoding after them.
trait Decoder {
    fn forward(&mut self, tokens: &[usize], pos: usize) -> Tensor<f32, shape![VOCAB]>;
    fn decode(
        &mut self,
        logits: Tensor<f32, shape![VOCAB]>,
        pos: usize,
        count: usize,
    ) -> Vec<usize>;
}

macro_rules! decoder {
    ($m:ident) => {
        impl Decoder for $m::Llama {
            fn forward(&mut self, tokens: &[usize], pos: usize) -> Tensor<f32, shape![VOCAB]> {
                let logits = $m::Llama::forward(self, tokens, pos).unwrap();
                // The two modules name their vocabulary axis alike, as two types.
                let sizes = logits.sizes().to_vec();
                Tensor::from_vec_sized(&sizes, logits.into_vec()).unwrap()
            }
            fn decode(
                &mut self,
                logits: Tensor<f32, shape![VOCAB]>,
                pos: usize,
                count: usize,
            ) -> Vec<usize> {
                let sizes = logits.sizes().to_vec();
                let logits = Tensor::from_vec_sized(&sizes, logits.into_vec()).unwrap();
                $m::Llama::decode(self, logits, pos, count).unwrap()
            }
        }
    };
}
decoder!(llama);
decoder!(unfused);

fn one(c: &mut Criterion, name: &str, fused: bool) {
    let path = format!(
        "{}/target/llama-bench/{name}.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    let weights = shapecast::io::load_safetensors(&path)
        .unwrap_or_else(|e| panic!("{e}: run python3 scripts/bench_llama.py first"));
    let mut model: Box<dyn Decoder> = if fused {
        Box::new(llama::Llama::load(&weights, MAX_SEQ).unwrap())
    } else {
        Box::new(unfused::Llama::load(&weights, MAX_SEQ).unwrap())
    };
    let expected = llama::Expected::load(&weights).unwrap();
    let prompt = &expected.prompt;
    // The same numbers as PyTorch, and the same greedy tokens.
    let logits = model.forward(prompt, 0);
    let diff = logits
        .data()
        .iter()
        .zip(&expected.logits)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(
        diff < 1e-3,
        "{name}: the logits differ from PyTorch's by {diff}"
    );
    let tokens = model.decode(logits.clone(), prompt.len(), GENERATE);
    assert_eq!(
        tokens, expected.tokens,
        "{name}: the greedy tokens differ from PyTorch's"
    );
    eprintln!("{name}: logits within {diff:.2e} of PyTorch's, {GENERATE}/{GENERATE} tokens agree");
    let which = if fused { "" } else { ", unfused" };
    let mut g = c.benchmark_group(format!("llama/{name}{which} [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("prompt, 128 tokens", |b| {
        b.iter(|| model.forward(prompt, 0))
    });
    // One generated token per iteration, the cache holding the prompt and the tokens before
    // it (positions 128..160, as PyTorch's tokens per second measure).
    let mut step = 0;
    g.bench_function("one generated token", |b| {
        b.iter(|| {
            let pos = prompt.len() + step % GENERATE;
            step += 1;
            model.forward(&[tokens[pos - prompt.len()]], pos)
        })
    });
    g.finish();
}

fn decoders(c: &mut Criterion) {
    for name in ["dim288", "dim512"] {
        one(c, name, true);
        one(c, name, false);
    }
}

criterion_group!(benches, decoders);
criterion_main!(benches);
