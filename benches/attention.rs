//! Attention by name, fused (`Attention::attention`: one pass per block of queries, the
//! scores never held whole) against its unfused composition (`dot`, mask, `softmax_into`,
//! `dot`), at the sizes of one head group of a Llama-7B-like layer: 32 query heads over 8 KV
//! heads (`[SEQ, KVH: 8, GROUP: 4, HD: 128]` queries, `[KSEQ, KVH: 8, HD: 128]` keys and
//! values), causal. The prompt at 512 and 2048 positions (the composition only at 512: at
//! 2048 its scores alone take 512 MB), and generation's step (one query against 2048 cached
//! keys). `scripts/bench_attention.py` times PyTorch's `scaled_dot_product_attention` on
//! the same sizes and layout.
//!
//! Run: `cargo bench --bench attention` (one thread) and `cargo bench --bench attention
//! --features rayon` (rayon's pool); the groups' names end in `[1 thread]` or `[rayon]`.
// `shape![..]` expands to a tuple of axis types, which clippy counts as a complex type.
#![allow(clippy::type_complexity)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use shapecast::{names, shape, Attention, Causal, Dot, NoMask, Tensor};
use std::time::Duration;

names!(SEQ, KSEQ, KVH, GROUP, HD);

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};

type Q = Tensor<f32, shape![SEQ, KVH: 8, GROUP: 4, HD: 128]>;
type KV = Tensor<f32, shape![KSEQ, KVH: 8, HD: 128]>;

fn wave(n: usize, a: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * a) % 97) as f32 / 97.0 - 0.5).collect()
}

fn operands(queries: usize, keys: usize) -> (Q, KV, KV) {
    let q = Q::from_vec_sized(&[queries, 8, 4, 128], wave(queries * 4096, 7)).unwrap();
    let k = KV::from_vec_sized(&[keys, 8, 128], wave(keys * 1024, 5)).unwrap();
    let v = KV::from_vec_sized(&[keys, 8, 128], wave(keys * 1024, 3)).unwrap();
    (q, k, v)
}

/// The composition the fused operation replaces.
fn unfused(
    q: &Q,
    k: &KV,
    v: &KV,
    offset: usize,
) -> Tensor<f32, shape![SEQ, KVH: 8, GROUP: 4, HD: 128]> {
    let (n, s) = (q.size::<SEQ>(), k.size::<KSEQ>());
    let mask = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[n, s], |i| {
        if i[1] > i[0] + offset {
            f32::NEG_INFINITY
        } else {
            0.0
        }
    })
    .unwrap();
    let scores = q.dot::<HD>(k) * (1.0 / 128f32.sqrt()) + &mask;
    scores.softmax_into::<KSEQ>().dot::<KSEQ>(v)
}

fn attention(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("attention, 32 heads over 8, HD 128 [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for seq in [512, 2048] {
        let (q, k, v) = operands(seq, seq);
        // The two agree before either is timed.
        if seq == 512 {
            let (a, b) = (
                q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None),
                unfused(&q, &k, &v, 0),
            );
            let d = a
                .data()
                .iter()
                .zip(b.data())
                .map(|(x, y)| (x - y).abs())
                .fold(0f32, f32::max);
            assert!(d < 1e-4, "fused and unfused differ by {d}");
            g.bench_with_input(
                BenchmarkId::new("unfused, causal prompt", seq),
                &seq,
                |b, _| b.iter(|| unfused(&q, &k, &v, 0)),
            );
        }
        g.bench_with_input(
            BenchmarkId::new("fused, causal prompt", seq),
            &seq,
            |b, _| b.iter(|| q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None)),
        );
    }
    let (q, k, v) = operands(1, 2048);
    g.bench_function("fused, one query against 2048 keys", |b| {
        b.iter(|| q.attention::<HD, KSEQ>(&k, &v, NoMask, None))
    });
    g.bench_function("unfused, one query against 2048 keys", |b| {
        b.iter(|| unfused(&q, &k, &v, 2047))
    });
    g.finish();
}

criterion_group!(benches, attention);
criterion_main!(benches);
