//! Contractions (f32, one thread) through the typed API, each timed in the same run against
//! ndarray's `dot` (looping the batches by hand) and a naive triple loop:
//!
//! - M1 matmul 512×512×512;
//! - M2 attention scores `[8, 8, 256, 64] · [8, 8, 256, 64]` over the last axis (`DK`);
//! - M3 batch-broadcast matmul `[16, 256, 256] @ [256, 256]` (the right operand is not
//!   copied per batch);
//! - M4 a small contraction `[BATCH: 2, SEQ: 3, DK: 4] · [BATCH: 2, KSEQ: 5, DK: 4]` with `?`
//!   sizes, where the plan and the kernel's bookkeeping rather than the arithmetic set the
//!   time: typed `dot` (the plan is a constant of the types) against `DynTensor::dot` (the
//!   rule runs at run time) and a naive loop;
//! - M5 a linear layer `[T: 128, E: 512]` by a weight of `[E, F: 1376]` as written against the
//!   same weight as files store it (`nn.Linear`'s `[F, E]`, contracted over its last axis);
//! - M6 the same weight `[F, E]` stored `f32`, `bf16` and `f16`, by one position (a generated
//!   token) and by 128 (a prompt): products of half-precision weights accumulate in `f32`;
//!   and the weight `[E, F]` (GPT-2's `Conv1D` layout, and the Llama example's) the same ways;
//!   and a bf16 prompt by bf16 weights of both layouts.
//!
//! Run: `cargo bench --bench contractions`. `shapecast::guide::performance` reports the medians.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::{s, Array2, Array3, Array4, ArrayView2};
use shapecast::{bf16, f16, names, shape, Cast, Dot, Tensor};

names!(BATCH, HEADS, SEQ, KSEQ, DK, T, E, F);

fn data(n: usize, m: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * m) % 17) as f32 / 8.0 - 1.0).collect()
}

/// `c[i][j] = sum_p a[i][p] * b[p][j]`, row-major, the loop order a person writes first.
fn naive(a: &[f32], b: &[f32], m: usize, k: usize, n: usize, c: &mut [f32]) {
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0;
            for p in 0..k {
                s += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

fn contractions(c: &mut Criterion) {
    let mut group = c.benchmark_group("contractions");
    group.sample_size(10);

    // M1
    let (a, b) = (data(512 * 512, 7), data(512 * 512, 11));
    let ta = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[512, 512], a.clone()).unwrap();
    let tb = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[512, 512], b.clone()).unwrap();
    let (na, nb) = (
        Array2::from_shape_vec((512, 512), a.clone()).unwrap(),
        Array2::from_shape_vec((512, 512), b.clone()).unwrap(),
    );
    group.bench_function("M1 matmul 512x512x512/shapecast", |bch| {
        bch.iter(|| black_box(ta.matmul(&tb)))
    });
    group.bench_function("M1 matmul 512x512x512/ndarray", |bch| {
        bch.iter(|| black_box(na.dot(&nb)))
    });
    group.bench_function("M1 matmul 512x512x512/naive loop", |bch| {
        bch.iter(|| {
            let mut out = vec![0.0; 512 * 512];
            naive(&a, &b, 512, 512, 512, &mut out);
            black_box(out)
        })
    });

    // M2
    let (q, k) = (data(8 * 8 * 256 * 64, 5), data(8 * 8 * 256 * 64, 3));
    let tq = Tensor::<f32, shape![BATCH, HEADS, SEQ, DK: 64]>::from_vec_sized(
        &[8, 8, 256, 64],
        q.clone(),
    )
    .unwrap();
    let tk = Tensor::<f32, shape![BATCH, HEADS, KSEQ, DK: 64]>::from_vec_sized(
        &[8, 8, 256, 64],
        k.clone(),
    )
    .unwrap();
    let (nq, nk) = (
        Array4::from_shape_vec((8, 8, 256, 64), q.clone()).unwrap(),
        Array4::from_shape_vec((8, 8, 256, 64), k.clone()).unwrap(),
    );
    group.bench_function(
        "M2 attention scores [8,8,256,64].[8,8,256,64]/shapecast",
        |bch| bch.iter(|| black_box(tq.dot::<DK>(&tk))),
    );
    group.bench_function(
        "M2 attention scores [8,8,256,64].[8,8,256,64]/ndarray",
        |bch| {
            bch.iter(|| {
                let mut out = Array4::<f32>::zeros((8, 8, 256, 256));
                for bi in 0..8 {
                    for h in 0..8 {
                        let (qs, ks): (ArrayView2<f32>, ArrayView2<f32>) =
                            (nq.slice(s![bi, h, .., ..]), nk.slice(s![bi, h, .., ..]));
                        let r = qs.dot(&ks.t());
                        out.slice_mut(s![bi, h, .., ..]).assign(&r);
                    }
                }
                black_box(out)
            })
        },
    );
    group.bench_function(
        "M2 attention scores [8,8,256,64].[8,8,256,64]/naive loop",
        |bch| {
            bch.iter(|| {
                let mut out = vec![0.0f32; 64 * 256 * 256];
                for bh in 0..64 {
                    let (qs, ks) = (
                        &q[bh * 256 * 64..][..256 * 64],
                        &k[bh * 256 * 64..][..256 * 64],
                    );
                    for s in 0..256 {
                        for t in 0..256 {
                            let mut acc = 0.0;
                            for d in 0..64 {
                                acc += qs[s * 64 + d] * ks[t * 64 + d];
                            }
                            out[(bh * 256 + s) * 256 + t] = acc;
                        }
                    }
                }
                black_box(out)
            })
        },
    );

    // M3
    let (x, w) = (data(16 * 256 * 256, 13), data(256 * 256, 9));
    let tx = Tensor::<f32, shape![?, ?, ?]>::from_vec_sized(&[16, 256, 256], x.clone()).unwrap();
    let tw = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[256, 256], w.clone()).unwrap();
    let (nx, nw) = (
        Array3::from_shape_vec((16, 256, 256), x.clone()).unwrap(),
        Array2::from_shape_vec((256, 256), w.clone()).unwrap(),
    );
    group.bench_function(
        "M3 batch-broadcast matmul [16,256,256]@[256,256]/shapecast",
        |bch| bch.iter(|| black_box(tx.matmul(&tw))),
    );
    group.bench_function(
        "M3 batch-broadcast matmul [16,256,256]@[256,256]/ndarray",
        |bch| {
            bch.iter(|| {
                let mut out = Array3::<f32>::zeros((16, 256, 256));
                for bi in 0..16 {
                    let xs: ArrayView2<f32> = nx.slice(s![bi, .., ..]);
                    out.slice_mut(s![bi, .., ..]).assign(&xs.dot(&nw));
                }
                black_box(out)
            })
        },
    );
    group.bench_function(
        "M3 batch-broadcast matmul [16,256,256]@[256,256]/naive loop",
        |bch| {
            bch.iter(|| {
                let mut out = vec![0.0f32; 16 * 256 * 256];
                for bi in 0..16 {
                    naive(
                        &x[bi * 65536..][..65536],
                        &w,
                        256,
                        256,
                        256,
                        &mut out[bi * 65536..][..65536],
                    );
                }
                black_box(out)
            })
        },
    );
    // M4
    let (q, k) = (data(2 * 3 * 4, 5), data(2 * 5 * 4, 3));
    let tq = Tensor::<f32, shape![BATCH, SEQ, DK]>::from_vec_sized(&[2, 3, 4], q.clone()).unwrap();
    let tk = Tensor::<f32, shape![BATCH, KSEQ, DK]>::from_vec_sized(&[2, 5, 4], k.clone()).unwrap();
    let (dq, dk) = (tq.to_dyn(), tk.to_dyn());
    let over = ["DK".parse().unwrap()];
    group.sample_size(50);
    group.bench_function("M4 small dot [2,3,4].[2,5,4]/shapecast", |bch| {
        bch.iter(|| black_box(black_box(&tq).dot::<DK>(black_box(&tk))))
    });
    group.bench_function("M4 small dot [2,3,4].[2,5,4]/DynTensor::dot", |bch| {
        bch.iter(|| black_box(black_box(&dq).dot(black_box(&dk), &over).unwrap()))
    });
    group.bench_function("M4 small dot [2,3,4].[2,5,4]/naive loop", |bch| {
        bch.iter(|| {
            let mut out = vec![0.0f32; 2 * 3 * 5];
            for bi in 0..2 {
                for s in 0..3 {
                    for t in 0..5 {
                        let mut acc = 0.0;
                        for d in 0..4 {
                            acc += q[(bi * 3 + s) * 4 + d] * k[(bi * 5 + t) * 4 + d];
                        }
                        out[(bi * 3 + s) * 5 + t] = acc;
                    }
                }
            }
            black_box(out)
        })
    });
    // M5
    let x = Tensor::<f32, shape![T: 128, E: 512]>::from_vec(data(128 * 512, 5)).unwrap();
    let w_ef = Tensor::<f32, shape![E: 512, F: 1376]>::from_vec(data(512 * 1376, 3)).unwrap();
    let w_fe: Tensor<f32, shape![F: 1376, E: 512]> = w_ef.view().align_to().unwrap().to_tensor();
    assert_eq!(x.dot::<E>(&w_ef).data(), x.dot::<E>(&w_fe).data());
    group.bench_function("M5 linear 128x512x1376/weight [E, F]", |bch| {
        bch.iter(|| black_box(black_box(&x).dot::<E>(&w_ef)))
    });
    group.bench_function(
        "M5 linear 128x512x1376/weight [F, E] (files' layout)",
        |bch| bch.iter(|| black_box(black_box(&x).dot::<E>(&w_fe))),
    );
    // M6: one position (a generated token) and a prompt of 128 by the same weight in the
    // files' layout, stored f32, bf16 and f16 (the products accumulate in f32).
    let w_b = w_fe.cast::<bf16>();
    let w_h = w_fe.cast::<f16>();
    for (name, n) in [("1x512x1376", 1usize), ("128x512x1376", 128)] {
        let xs =
            Tensor::<f32, shape![T, E: 512]>::from_vec_sized(&[n, 512], data(n * 512, 5)).unwrap();
        group.bench_function(format!("M6 weight [F, E] {name}/f32"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_fe)))
        });
        group.bench_function(format!("M6 weight [F, E] {name}/bf16"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_b)))
        });
        group.bench_function(format!("M6 weight [F, E] {name}/f16"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_h)))
        });
    }
    // M6 with the weight `[E, F]`, and the bf16 prompt by bf16 weights of both layouts
    // (gemmkit's bf16 GEMM where the CPU has AVX512-BF16).
    let (w_eb, w_eh) = (w_ef.cast::<bf16>(), w_ef.cast::<f16>());
    for (name, n) in [("1x512x1376", 1usize), ("128x512x1376", 128)] {
        let xs =
            Tensor::<f32, shape![T, E: 512]>::from_vec_sized(&[n, 512], data(n * 512, 5)).unwrap();
        group.bench_function(format!("M6 weight [E, F] {name}/f32"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_ef)))
        });
        group.bench_function(format!("M6 weight [E, F] {name}/bf16"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_eb)))
        });
        group.bench_function(format!("M6 weight [E, F] {name}/f16"), |bch| {
            bch.iter(|| black_box(black_box(&xs).dot::<E>(&w_eh)))
        });
    }
    let xb = x.cast::<bf16>();
    group.bench_function("M6 bf16 by bf16 128x512x1376/weight [F, E]", |bch| {
        bch.iter(|| black_box(black_box(&xb).dot::<E>(&w_b)))
    });
    group.bench_function("M6 bf16 by bf16 128x512x1376/weight [E, F]", |bch| {
        bch.iter(|| black_box(black_box(&xb).dot::<E>(&w_eb)))
    });
    // M6 at a vocabulary's size: the weight (65 MB in f32) is read from memory, not cache.
    let vocab = Tensor::<f32, shape![F: 32000, E: 512]>::from_vec(data(32000 * 512, 3)).unwrap();
    let (vocab_b, x1) = (
        vocab.cast::<bf16>(),
        Tensor::<f32, shape![T, E: 512]>::from_vec_sized(&[1, 512], data(512, 5)).unwrap(),
    );
    group.bench_function("M6 weight [F, E] 1x512x32000/f32", |bch| {
        bch.iter(|| black_box(black_box(&x1).dot::<E>(&vocab)))
    });
    group.bench_function("M6 weight [F, E] 1x512x32000/bf16", |bch| {
        bch.iter(|| black_box(black_box(&x1).dot::<E>(&vocab_b)))
    });
    group.finish();
}

criterion_group!(benches, contractions);
criterion_main!(benches);
