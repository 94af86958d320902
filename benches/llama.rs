//! A Llama-style decoder (`examples/llama/model.rs`, llama2.c's architecture with grouped-query
//! attention, on the fused `rms_norm`, `rope` and `attention`) at two sizes: the prompt's
//! forward pass (128 tokens) and greedy generation (one token per iteration, the KV cache
//! filled by the prompt), on the weights `scripts/bench_llama.py` writes; and the same
//! fused decoder with one parallel region per chain of a layer (`parts` on) rather than each
//! operation splitting over the threads on its own; and the same decoder written with the
//! operations the fused ones replace
//! (`benches/common/llama_unfused.rs`); and the fused decoder on the same weights published
//! in bfloat16 and kept so (products of `f32` activations by `bf16` weights, accumulated in
//! `f32`). Each is first checked against PyTorch's logits and tokens stored in the same file
//! (for bf16, PyTorch's run on the bf16 weights).
//!
//! Run: `python3 scripts/bench_llama.py --threads 1` (writes the weights, times PyTorch), then
//! `cargo bench --bench llama --features safetensors` (one thread) and
//! `cargo bench --bench llama --features safetensors,rayon` (rayon's pool). The groups' names
//! end in `[1 thread]` or `[rayon]`. `LLAMA_MEMORY=dim512.bf16` (or `dim512`) loads and
//! checks that one model and times nothing, for measuring its peak memory.
//! `LLAMA_THREADS=dim288` (or `dim512`, with the `rayon` feature) times that model's prompt,
//! split per operation and by regions, alternating every iteration between a pool of one
//! thread and rayon's global pool, and prints the medians and their ratio: this VM's speed
//! drifts between runs tens of seconds apart, which alternating cancels.

use criterion::{criterion_group, criterion_main, Criterion};
use shapecast::{bf16, shape, Tensor};
use std::time::Duration;

use llama::VOCAB;

#[cfg(feature = "rayon")]
#[path = "common/alternate.rs"]
mod alternate;
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
trait Decoder: Send {
    fn forward(&mut self, tokens: &[usize], pos: usize) -> Tensor<f32, shape![VOCAB]>;
    fn decode(
        &mut self,
        logits: Tensor<f32, shape![VOCAB]>,
        pos: usize,
        count: usize,
    ) -> Vec<usize>;
}

macro_rules! decoder {
    ($m:ident, $t:ty) => {
        impl Decoder for $t {
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
decoder!(llama, llama::Llama<f32>);
decoder!(llama, llama::Llama<bf16>);
decoder!(unfused, unfused::Llama);

/// A prompt's last logits.
type Logits = Tensor<f32, shape![VOCAB]>;

/// The weights of `target/llama-bench/<file>.safetensors` (written by
/// `scripts/bench_llama.py`).
fn load(file: &str) -> shapecast::io::Weights {
    let path = format!(
        "{}/target/llama-bench/{file}.safetensors",
        env!("CARGO_MANIFEST_DIR")
    );
    shapecast::io::load_safetensors(&path)
        .unwrap_or_else(|e| panic!("{e}: run python3 scripts/bench_llama.py first"))
}

/// The largest difference between two sets of logits.
fn distance(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max)
}

/// `model`'s prompt logits and greedy tokens against what PyTorch stored beside the weights:
/// the same numbers (within 1e-3), the same tokens. A model whose products round the
/// activations to bf16 (`rounded`) is held to PyTorch's bf16 model instead: its logits no
/// farther from PyTorch's `f32` computation than PyTorch's bf16 model's are (0.05–0.06 on
/// logits of up to 4.3: bf16 keeps 8 bits), and its tokens counted. Gives the prompt, its
/// logits and tokens.
fn check(
    model: &mut dyn Decoder,
    weights: &shapecast::io::Weights,
    name: &str,
    rounded: bool,
) -> (Vec<usize>, Logits, Vec<usize>) {
    let expected = llama::Expected::load(weights).unwrap();
    let prompt = expected.prompt.clone();
    let logits = model.forward(&prompt, 0);
    let diff = distance(logits.data(), &expected.logits);
    let tokens = model.decode(logits.clone(), prompt.len(), GENERATE);
    let agree = tokens
        .iter()
        .zip(&expected.tokens)
        .filter(|(a, b)| a == b)
        .count();
    if rounded {
        let bf16: Logits = weights
            .get("expected.bf16_logits")
            .unwrap_or_else(|e| panic!("{e}: run python3 scripts/bench_llama.py again"));
        let theirs = distance(bf16.data(), &expected.logits);
        assert!(
            diff <= theirs,
            "{name}: the logits differ from PyTorch's f32 ones by {diff}, its bf16 model's by {theirs}"
        );
        let apart = distance(logits.data(), bf16.data());
        eprintln!(
            "{name}: logits within {diff:.2e} of PyTorch's f32 ones (its bf16 model: {theirs:.2e}; \
             {apart:.2e} from it), {agree}/{GENERATE} tokens agree"
        );
        return (prompt, logits, tokens);
    }
    assert!(
        diff < 1e-3,
        "{name}: the logits differ from PyTorch's by {diff}"
    );
    assert_eq!(
        tokens, expected.tokens,
        "{name}: the greedy tokens differ from PyTorch's"
    );
    eprintln!("{name}: logits within {diff:.2e} of PyTorch's, {GENERATE}/{GENERATE} tokens agree");
    (prompt, logits, tokens)
}

/// Which decoder a group times.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    /// `examples/llama/model.rs` on `f32` weights.
    Fused,
    /// The same, a prompt's chains of operations run as parallel regions over the positions
    /// (`parts` on).
    Regions,
    /// `benches/common/llama_unfused.rs`.
    Unfused,
    /// `examples/llama/model.rs` on the bf16 checkpoint, its weights kept in bf16.
    Bf16,
    /// The same, a prompt's products rounding the activations to bf16 (`half_products`).
    Bf16Products,
}

/// The decoder `which` names, on `weights`.
fn build(weights: &shapecast::io::Weights, which: Which) -> Box<dyn Decoder> {
    match which {
        Which::Fused => Box::new(llama::Llama::<f32>::load(weights, MAX_SEQ).unwrap()),
        Which::Regions => {
            let mut model = llama::Llama::<f32>::load(weights, MAX_SEQ).unwrap();
            model.parts = true;
            Box::new(model)
        }
        Which::Unfused => Box::new(unfused::Llama::load(weights, MAX_SEQ).unwrap()),
        Which::Bf16 => Box::new(llama::Llama::<bf16>::load(weights, MAX_SEQ).unwrap()),
        Which::Bf16Products => {
            let mut model = llama::Llama::<bf16>::load(weights, MAX_SEQ).unwrap();
            model.half_products = true;
            Box::new(model)
        }
    }
}

fn one(c: &mut Criterion, name: &str, which: Which) {
    let file = match which {
        Which::Bf16 | Which::Bf16Products => format!("{name}.bf16"),
        _ => name.to_string(),
    };
    let weights = load(&file);
    let mut model = build(&weights, which);
    let label = match which {
        Which::Fused => "",
        Which::Regions => ", regions",
        Which::Unfused => ", unfused",
        Which::Bf16 => ", bf16 weights",
        Which::Bf16Products => ", bf16 products",
    };
    // The same numbers as PyTorch, and the same greedy tokens.
    let rounded = which == Which::Bf16Products;
    let (prompt, _, tokens) = check(model.as_mut(), &weights, &format!("{name}{label}"), rounded);
    let prompt = &prompt;
    let mut g = c.benchmark_group(format!("llama/{name}{label} [{THREADS}]"));
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

/// With `LLAMA_MEMORY=<config>` (`f32` weights) or `<config>.bf16` (kept in bf16) set, only
/// that model is loaded, checked (its prompt and 32 greedy tokens) and dropped, with nothing
/// timed: the process's peak resident memory (`/usr/bin/time -v`) is then that model's.
fn memory_only() -> bool {
    let Ok(file) = std::env::var("LLAMA_MEMORY") else {
        return false;
    };
    let weights = load(&file);
    let which = if file.ends_with(".bf16") {
        Which::Bf16
    } else {
        Which::Fused
    };
    check(build(&weights, which).as_mut(), &weights, &file, false);
    true
}

/// With `LLAMA_THREADS=<config>` set (and the `rayon` feature), that model's prompt at one
/// thread (a pool of one) and on rayon's global pool, alternating every iteration for 60
/// rounds, split per operation and by regions: the medians and the ratio, printed.
fn threads_alternating() -> bool {
    let Ok(name) = std::env::var("LLAMA_THREADS") else {
        return false;
    };
    #[cfg(feature = "rayon")]
    {
        let weights = load(&name);
        for (which, label) in [(Which::Fused, ""), (Which::Regions, ", regions")] {
            let mut model = build(&weights, which);
            let (prompt, _, _) = check(model.as_mut(), &weights, &name, false);
            let (a, b) = alternate::one_against_all(60, || {
                model.forward(&prompt, 0);
            });
            let threads = rayon::current_num_threads();
            eprintln!(
                "{name}{label}: prompt {a:.2} ms at one thread, {b:.2} ms at {threads}: {:.2}x",
                a / b
            );
        }
    }
    #[cfg(not(feature = "rayon"))]
    eprintln!("LLAMA_THREADS={name}: needs the rayon feature");
    true
}

fn decoders(c: &mut Criterion) {
    if memory_only() || threads_alternating() {
        return;
    }
    for name in ["dim288", "dim512"] {
        // The checkpoint in bfloat16 widened into f32 at load: checked against PyTorch on the
        // same bf16 weights, not timed (once loaded it is the f32 model).
        let half = load(&format!("{name}.bf16"));
        let mut model = llama::Llama::<f32>::load(&half, MAX_SEQ).unwrap();
        check(&mut model, &half, &format!("{name}, bf16 widened"), false);
        one(c, name, Which::Fused);
        one(c, name, Which::Regions);
        one(c, name, Which::Unfused);
        one(c, name, Which::Bf16);
        one(c, name, Which::Bf16Products);
    }
}

criterion_group!(benches, decoders);
criterion_main!(benches);
