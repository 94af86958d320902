//! A Llama-style decoder (`examples/llama/model.rs`, llama2.c's architecture with grouped-query
//! attention) at two sizes: the prompt's forward pass (128 tokens) and greedy generation (one
//! token per iteration, the KV cache filled by the prompt), on the weights
//! `scripts/bench_llama.py` writes; the model is first checked against PyTorch's logits and
//! tokens stored in the same file.
//!
//! Run: `python3 scripts/bench_llama.py --threads 1` (writes the weights, times PyTorch), then
//! `cargo bench --bench llama --features safetensors` (one thread) and
//! `cargo bench --bench llama --features safetensors,rayon` (rayon's pool). The groups' names
//! end in `[1 thread]` or `[rayon]`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

#[path = "../examples/llama/model.rs"]
mod llama;

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};
const MAX_SEQ: usize = 256;
const GENERATE: usize = 32;

fn one(c: &mut Criterion, name: &str) {
    let path = format!(
        "{}/target/llama-bench/{name}.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    let weights = shapecast::io::load_safetensors(&path)
        .unwrap_or_else(|e| panic!("{e}: run python3 scripts/bench_llama.py first"));
    let mut model = llama::Llama::load(&weights, MAX_SEQ).unwrap();
    let expected = llama::Expected::load(&weights).unwrap();
    let prompt = &expected.prompt;
    // The same numbers as PyTorch, and the same greedy tokens.
    let logits = model.forward(prompt, 0).unwrap();
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
    let tokens = model
        .decode(logits.clone(), prompt.len(), GENERATE)
        .unwrap();
    assert_eq!(
        tokens, expected.tokens,
        "{name}: the greedy tokens differ from PyTorch's"
    );
    eprintln!("{name}: logits within {diff:.2e} of PyTorch's, {GENERATE}/{GENERATE} tokens agree");
    let mut g = c.benchmark_group(format!("llama/{name} [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("prompt, 128 tokens", |b| {
        b.iter(|| model.forward(prompt, 0).unwrap())
    });
    // One generated token per iteration, the cache holding the prompt and the tokens before
    // it (positions 128..160, as PyTorch's tokens per second measure).
    let mut step = 0;
    g.bench_function("one generated token", |b| {
        b.iter(|| {
            let pos = prompt.len() + step % GENERATE;
            step += 1;
            model.forward(&[tokens[pos - prompt.len()]], pos).unwrap()
        })
    });
    g.finish();
}

fn decoders(c: &mut Criterion) {
    one(c, "dim288");
    one(c, "dim512");
}

criterion_group!(benches, decoders);
criterion_main!(benches);
