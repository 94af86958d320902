//! A GPT-2-style pre-norm transformer block (`benches/common/block.rs`) at two sizes, in
//! typed shapecast on the fused operations (`layer_norm`, `attention`), in typed shapecast
//! on the operations they replace, and in ndarray, one forward pass per iteration; and GELU
//! written with the operators against the same GELU as one `map` and as `FloatMath::gelu`.
//!
//! Run: `cargo bench --bench transformer` (one thread) and
//! `cargo bench --bench transformer --features rayon` (rayon's pool: two threads on a 2-core
//! machine); `python3 scripts/bench_transformer.py` times the same block in NumPy and PyTorch
//! CPU. The groups' names end in `[1 thread]` or `[rayon]`. `BLOCK_THREADS=1` (with the
//! `rayon` feature) times the fused block, split per operation and by regions, at both
//! sizes, alternating every iteration between a pool of one thread and rayon's global pool,
//! and prints the medians and their ratio (this VM's speed drifts between runs tens of
//! seconds apart, which alternating cancels).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

use shapecast::{FloatMath, Tensor};

#[cfg(feature = "rayon")]
#[path = "common/alternate.rs"]
mod alternate;
#[path = "common/block.rs"]
mod block;

use block::{Dims, Flat, Nd, Typed, LARGE, SMALL};

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};

fn one_size(c: &mut Criterion, d: Dims, samples: usize) {
    let flat = Flat::new(d);
    let (x, w) = Typed::new(d, &flat);
    let (xn, wn) = Nd::new(d, &flat);
    // Both blocks compute the same thing.
    let (ours, theirs) = (
        block::typed_block(&x, &w, d.dk),
        block::nd_block(&xn, &wn, d),
    );
    let gelu = block::typed_block_gelu(&x, &w, d.dk);
    let fused = block::fused_block(&x, &w);
    let parts = block::fused_block_parts(&x, &w);
    let max_diff = |other: &mut dyn Iterator<Item = &f32>| {
        ours.data()
            .iter()
            .zip(other)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max)
    };
    let diff = max_diff(&mut theirs.iter());
    assert!(diff < 1e-3, "the blocks disagree by {diff}");
    let diff = max_diff(&mut gelu.data().iter());
    assert!(diff < 1e-3, "the two GELUs disagree by {diff}");
    let diff = max_diff(&mut fused.data().iter());
    assert!(diff < 1e-3, "the fused block disagrees by {diff}");
    let diff = max_diff(&mut parts.data().iter());
    assert!(diff < 1e-3, "the fused block by parts disagrees by {diff}");
    // The same checksum as `scripts/bench_transformer.py` prints for NumPy and PyTorch.
    let sum: f64 = ours.data().iter().map(|&v| v as f64).sum();
    eprintln!("{}: checksum {sum:.4} / {:.6}", d.label(), ours.data()[0]);
    let mut g = c.benchmark_group(format!("transformer/{} [{THREADS}]", d.label()));
    g.sample_size(samples)
        .measurement_time(Duration::from_secs(8));
    // One after the other in one process: the ratio between them is from one run.
    g.bench_function("shapecast, fused", |b| {
        b.iter(|| block::fused_block(black_box(&x), &w))
    });
    g.bench_function("shapecast, fused, parts", |b| {
        b.iter(|| block::fused_block_parts(black_box(&x), &w))
    });
    g.bench_function("shapecast", |b| {
        b.iter(|| block::typed_block(black_box(&x), &w, d.dk))
    });
    g.bench_function("shapecast, FloatMath::gelu", |b| {
        b.iter(|| block::typed_block_gelu(black_box(&x), &w, d.dk))
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| block::nd_block(black_box(&xn), &wn, d))
    });
    g.finish();
}

/// With `BLOCK_THREADS` set (and the `rayon` feature): the fused block at one thread (a pool
/// of one) and on rayon's global pool, alternating every iteration, split per operation and
/// by regions, at both sizes: the medians and the ratio, printed.
fn threads_alternating() -> bool {
    if std::env::var_os("BLOCK_THREADS").is_none() {
        return false;
    }
    #[cfg(feature = "rayon")]
    {
        type Block = fn(&Tensor<f32, block::X>, &Typed) -> Tensor<f32, block::X>;
        let blocks: [(&str, Block); 2] = [
            ("fused", block::fused_block),
            ("fused, parts", block::fused_block_parts),
        ];
        for (d, rounds) in [(SMALL, 200), (LARGE, 20)] {
            let flat = Flat::new(d);
            let (x, w) = Typed::new(d, &flat);
            for (name, f) in blocks {
                let (a, b) = alternate::one_against_all(rounds, || {
                    black_box(f(&x, &w));
                });
                let threads = rayon::current_num_threads();
                eprintln!(
                    "{} {name}: {a:.3} ms at one thread, {b:.3} ms at {threads}: {:.2}x",
                    d.label(),
                    a / b
                );
            }
        }
    }
    #[cfg(not(feature = "rayon"))]
    eprintln!("BLOCK_THREADS: needs the rayon feature");
    true
}

fn transformer(c: &mut Criterion) {
    if threads_alternating() {
        return;
    }
    one_size(c, SMALL, 40);
    one_size(c, LARGE, 10);
}

fn gelu(c: &mut Criterion) {
    if std::env::var_os("BLOCK_THREADS").is_some() {
        return;
    }
    let d = SMALL;
    let u = Tensor::from_vec_sized(
        &[d.batch, d.seq, d.ff],
        block::wave(20, d.batch * d.seq * d.ff, 3.0),
    )
    .unwrap();
    let ops = block::gelu_ops(u.clone());
    let map = block::gelu_map(&u);
    let fused = (&u).gelu();
    for (a, (b, f)) in ops.data().iter().zip(map.data().iter().zip(fused.data())) {
        assert!((a - b).abs() < 1e-5 && (a - f).abs() < 1e-5, "{a} {b} {f}");
    }
    let mut g = c.benchmark_group(format!("gelu/{}x{}x{} [{THREADS}]", d.batch, d.seq, d.ff));
    g.bench_function("operators (owned)", |b| {
        b.iter_batched(
            || u.clone(),
            block::gelu_ops,
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("map", |b| b.iter(|| block::gelu_map(black_box(&u))));
    g.bench_function("FloatMath::gelu", |b| b.iter(|| black_box(&u).gelu()));
    g.bench_function("tanh", |b| b.iter(|| black_box(&u).tanh()));
    g.bench_function("exp", |b| b.iter(|| black_box(&u).exp()));
    g.finish();
}

criterion_group!(benches, gelu, transformer);
criterion_main!(benches);
