//! One training step (forward, backward, AdamW) of the seed's segmentation network (batch 8,
//! 3x128x192: normalised input, two 3x3 convolutions with ReLU and a 2x2 max pool, a class
//! head per pixel, cross-entropy with void pixels ignored) and of a GPT-2 block (B4 T256 E512,
//! 8 heads of 64, MLP 2048, a mean-square loss: layer norm and attention written with the
//! operators, then the fused `layer_norm` and `attention`); beside each, its forward pass
//! alone: on `Tensor`s, on frozen `Var`s (nothing recorded) and tracked (recorded, no
//! backward). Then ResNet-18's distinct convolutions (`train convolutions`, batch 8 at
//! 224x224's stages) on a tracked input and weight: the forward pass and both gradients of
//! `Σ y`.
//!
//! Run: `cargo bench --bench train` (one thread) and `--features rayon`;
//! `python3 scripts/bench_train.py --threads 1` (and `2`) times the same steps in PyTorch CPU
//! and prints the same first losses; `--convs`, the convolutions.

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

use shapecast::prelude::*;
use shapecast::train::{Adam, Param, ParamSlot, Parameters, Tape, Var, VarAttention, VarNorms};
use shapecast::Storage;

names!(N, CHANNEL, C1, C2, CLASS, H, W, SEQ, KSEQ, EMBED, HEADS, DK, HIDDEN);

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};

/// The same deterministic values as `scripts/bench_train.py`: a hash of the index, scaled.
fn wave(which: u64, n: usize, scale: f32) -> Vec<f32> {
    (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_mul(2_654_435_761) ^ (which * 40_503)) % 1000;
            (h as f32 / 500.0 - 1.0) * scale
        })
        .collect()
}

fn param<S: Storage<f32>>(name: &str, which: u64, scale: f32) -> Param<f32, S> {
    let n = <S as Shape>::SIZES.iter().map(|s| s.unwrap()).product();
    Param::new(name, Tensor::from_vec(wave(which, n, scale)).unwrap())
}

type Img = shape![N: 8, CHANNEL: 3, H: 128, W: 192];
type Labels = shape![N: 8, H: 64, W: 96];

struct Seg {
    w1: Param<f32, shape![C1: 8, CHANNEL: 3, H: 3, W: 3]>,
    b1: Param<f32, shape![C1: 8]>,
    w2: Param<f32, shape![C2: 8, C1: 8, H: 3, W: 3]>,
    b2: Param<f32, shape![C2: 8]>,
    head: Param<f32, shape![CLASS: 3, C2: 8]>,
    head_b: Param<f32, shape![CLASS: 3]>,
}

impl Parameters<f32> for Seg {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<f32>)) {
        (
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.head,
            &mut self.head_b,
        )
            .visit(f);
    }
}

impl Seg {
    fn new() -> Seg {
        Seg {
            w1: param("w1", 1, 0.3),
            b1: param("b1", 2, 0.1),
            w2: param("w2", 3, 0.2),
            b2: param("b2", 4, 0.1),
            head: param("head", 5, 0.3),
            head_b: param("head_b", 6, 0.1),
        }
    }

    fn forward(
        &self,
        tape: &Tape<f32>,
        x: &Var<f32, Img>,
        track: bool,
    ) -> Var<f32, shape![N: 8, H: 64, W: 96, CLASS: 3]> {
        let w = |p: &Param<f32, _>| if track { tape.watch(p) } else { tape.frozen(p) };
        let b = |p: &Param<f32, _>| if track { tape.watch(p) } else { tape.frozen(p) };
        let h1 = (&x.conv::<CHANNEL, Conv<1, 1>>(&w(&self.w1)) + &b(&self.b1)).relu();
        let p1 = h1.max_pool::<(H, W), Pool<2>>().unwrap();
        let w2 = if track {
            tape.watch(&self.w2)
        } else {
            tape.frozen(&self.w2)
        };
        let b2 = if track {
            tape.watch(&self.b2)
        } else {
            tape.frozen(&self.b2)
        };
        let h2 = (&p1.conv::<C1, Conv<1, 1>>(&w2) + &b2).relu();
        let head = if track {
            tape.watch(&self.head)
        } else {
            tape.frozen(&self.head)
        };
        let head_b = if track {
            tape.watch(&self.head_b)
        } else {
            tape.frozen(&self.head_b)
        };
        &h2.dot::<C2>(&head) + &head_b
    }

    /// The forward pass on plain tensors.
    fn forward_tensors(
        &self,
        x: &Tensor<f32, Img>,
    ) -> Tensor<f32, shape![N: 8, H: 64, W: 96, CLASS: 3]> {
        let h1 = (x.conv::<CHANNEL, Conv<1, 1>>(self.w1.value()) + self.b1.value()).relu();
        let p1 = h1.max_pool::<(H, W), Pool<2>>();
        let h2 = (p1.conv::<C1, Conv<1, 1>>(self.w2.value()) + self.b2.value()).relu();
        h2.dot::<C2>(self.head.value()) + self.head_b.value()
    }
}

/// The segmentation batch: the normalised, masked image and the labels at the pooled size.
fn seg_data() -> (Tensor<f32, Img>, Tensor<i64, Labels>) {
    let img = Tensor::<f32, Img>::from_vec(wave(7, 8 * 3 * 128 * 192, 1.0)).unwrap();
    let z = (&img - &img.mean::<(N, H, W)>()) / &img.std::<(N, H, W)>();
    let lbl = Tensor::<i64, Labels>::from_fn(&[8, 64, 96], |i| {
        if (i[1] + i[2]) % 17 == 0 {
            255
        } else {
            ((i[0] + i[1] / 8 + i[2] / 12) % 3) as i64
        }
    })
    .unwrap();
    (z, lbl)
}

type X = shape![N: 4, SEQ: 256, EMBED: 512];
type Vector = shape![EMBED: 512];

struct Block {
    ln1: (Param<f32, Vector>, Param<f32, Vector>),
    wq: Param<f32, shape![HEADS: 8, DK: 64, EMBED: 512]>,
    wk: Param<f32, shape![HEADS: 8, DK: 64, EMBED: 512]>,
    wv: Param<f32, shape![HEADS: 8, DK: 64, EMBED: 512]>,
    wo: Param<f32, shape![EMBED: 512, HEADS: 8, DK: 64]>,
    ln2: (Param<f32, Vector>, Param<f32, Vector>),
    fc1: (
        Param<f32, shape![HIDDEN: 2048, EMBED: 512]>,
        Param<f32, shape![HIDDEN: 2048]>,
    ),
    fc2: (
        Param<f32, shape![EMBED: 512, HIDDEN: 2048]>,
        Param<f32, Vector>,
    ),
}

impl Parameters<f32> for Block {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<f32>)) {
        (
            &mut self.ln1,
            &mut self.wq,
            &mut self.wk,
            &mut self.wv,
            &mut self.wo,
        )
            .visit(f);
        (&mut self.ln2, &mut self.fc1, &mut self.fc2).visit(f);
    }
}

fn layer_norm(x: &Var<f32, X>, g: &Var<f32, Vector>, b: &Var<f32, Vector>) -> Var<f32, X> {
    let d = x - &x.mean::<EMBED>();
    let inv = (&(&d * &d).mean::<EMBED>() + 1e-5).sqrt().recip();
    &(&(&d * &inv) * g) + b
}

impl Block {
    fn new() -> Block {
        let ones = || Param::new("g", Tensor::<f32, Vector>::ones().unwrap());
        let zeros = || Param::new("b", Tensor::<f32, Vector>::zeros().unwrap());
        Block {
            ln1: (ones(), zeros()),
            wq: param("wq", 11, 0.05),
            wk: param("wk", 12, 0.05),
            wv: param("wv", 13, 0.05),
            wo: param("wo", 14, 0.05),
            ln2: (ones(), zeros()),
            fc1: (param("fc1", 15, 0.05), param("fc1b", 16, 0.02)),
            fc2: (param("fc2", 17, 0.03), param("fc2b", 18, 0.02)),
        }
    }

    fn forward(
        &self,
        tape: &Tape<f32>,
        x: &Var<f32, X>,
        mask: Option<&Tensor<f32, shape![SEQ: 256, KSEQ: 256]>>,
        track: bool,
    ) -> Var<f32, X> {
        macro_rules! w {
            ($p:expr) => {
                if track {
                    tape.watch(&$p)
                } else {
                    tape.frozen(&$p)
                }
            };
        }
        // With a mask, the operators; without, the fused norm and attention.
        let norm = |x: &Var<f32, X>, (g, b): &(Param<f32, Vector>, Param<f32, Vector>)| match mask {
            Some(_) => layer_norm(x, &w!(g), &w!(b)),
            None => x.layer_norm::<EMBED>(&w!(g), &w!(b), 1e-5).unwrap(),
        };
        let h = norm(x, &self.ln1);
        let q = h.dot::<EMBED>(&w!(self.wq));
        let k = h.dot::<EMBED>(&w!(self.wk)).rename::<SEQ, KSEQ>();
        let v = h.dot::<EMBED>(&w!(self.wv)).rename::<SEQ, KSEQ>();
        let context = match mask {
            Some(mask) => {
                let scores = &(&q.dot::<DK>(&k) * 0.125) + mask;
                scores.softmax::<KSEQ>().dot::<KSEQ>(&v)
            }
            None => q
                .attention::<DK, KSEQ>(&k, &v, Causal::<SEQ>::new(), None)
                .unwrap(),
        };
        let x = x + &context.dot::<(HEADS, DK)>(&w!(self.wo));
        let h = norm(&x, &self.ln2);
        let up = (&h.dot::<EMBED>(&w!(self.fc1.0)) + &w!(self.fc1.1)).gelu();
        &x + &(&up.dot::<HIDDEN>(&w!(self.fc2.0)) + &w!(self.fc2.1))
    }
}

fn train(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("train [{THREADS}]"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));

    let (z, lbl) = seg_data();
    let mut seg = Seg::new();
    let opts = Loss::default().ignore_index(255);
    let mut adamw = Adam::adamw(1e-3);
    {
        let tape = Tape::new();
        let loss = seg
            .forward(&tape, &tape.constant(z.clone()), true)
            .cross_entropy::<CLASS>(&lbl, &opts, Reduction::Mean)
            .unwrap();
        println!("segmentation: first loss {:.6}", loss.value().data()[0]);
    }
    group.bench_function("segmentation step", |b| {
        b.iter(|| {
            let tape = Tape::new();
            let logits = seg.forward(&tape, &tape.constant(z.clone()), true);
            let grads = logits
                .cross_entropy::<CLASS>(&lbl, &opts, Reduction::Mean)
                .unwrap()
                .backward()
                .unwrap();
            drop((logits, tape));
            adamw.step(&mut seg, &grads).unwrap();
        })
    });
    group.bench_function("segmentation forward, tensors", |b| {
        b.iter(|| black_box(seg.forward_tensors(&z)))
    });
    group.bench_function("segmentation forward, frozen", |b| {
        b.iter(|| {
            let tape = Tape::new();
            black_box(
                seg.forward(&tape, &tape.constant(z.clone()), false)
                    .into_tensor(),
            )
        })
    });
    group.bench_function("segmentation forward, tracked", |b| {
        b.iter(|| {
            let tape = Tape::new();
            black_box(
                seg.forward(&tape, &tape.constant(z.clone()), true)
                    .into_tensor(),
            )
        })
    });

    let x = Tensor::<f32, X>::from_vec(wave(19, 4 * 256 * 512, 1.0)).unwrap();
    let mask = Tensor::<f32, shape![SEQ: 256, KSEQ: 256]>::from_fn(&[256, 256], |i| {
        if i[1] > i[0] {
            -1e9
        } else {
            0.0
        }
    })
    .unwrap();
    for (name, mask) in [("block", Some(&mask)), ("block, fused", None)] {
        let mut block = Block::new();
        let mut adamw = Adam::adamw(1e-4);
        {
            let tape = Tape::new();
            let y = block.forward(&tape, &tape.constant(x.clone()), mask, true);
            println!(
                "{name}: first loss {:.6}",
                y.square().mean::<(N, SEQ, EMBED)>().value().data()[0]
            );
        }
        group.bench_function(format!("{name} step"), |b| {
            b.iter(|| {
                let tape = Tape::new();
                let y = block.forward(&tape, &tape.constant(x.clone()), mask, true);
                let grads = y.square().mean::<(N, SEQ, EMBED)>().backward().unwrap();
                drop((y, tape));
                adamw.step(&mut block, &grads).unwrap();
            })
        });
        group.bench_function(format!("{name} forward, frozen"), |b| {
            b.iter(|| {
                let tape = Tape::new();
                black_box(
                    block
                        .forward(&tape, &tape.constant(x.clone()), mask, false)
                        .into_tensor(),
                )
            })
        });
    }
    group.finish();
}

/// One of ResNet-18's convolutions, batch 8: `conv_step!(group, label, in channels, out
/// channels, input size, kernel, geometry)`, timed from the tape's start to both gradients.
macro_rules! conv_step {
    ($group:expr, $label:expr, $ci:literal, $co:literal, $n:literal, $k:literal, $g:ty) => {{
        let x: Param<f32, shape![N: 8, C1: $ci, H: $n, W: $n]> = param("x", 1, 1.0);
        let w: Param<f32, shape![C2: $co, C1: $ci, H: $k, W: $k]> = param("w", 2, 0.05);
        $group.bench_function($label, |b| {
            b.iter(|| {
                let tape = Tape::new();
                let y = tape.watch(&x).conv::<C1, $g>(&tape.watch(&w));
                let grads = y.sum::<(N, C2, H, W)>().backward().unwrap();
                black_box((grads.of(&x).unwrap(), grads.of(&w).unwrap()))
            })
        });
    }};
}

fn convolutions(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("train convolutions [{THREADS}]"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    conv_step!(group, "3->64 at 224, 7x7/2", 3, 64, 224, 7, Conv<2, 3>);
    conv_step!(group, "64->64 at 56, 3x3/1", 64, 64, 56, 3, Conv<1, 1>);
    conv_step!(group, "64->128 at 56, 3x3/2", 64, 128, 56, 3, Conv<2, 1>);
    conv_step!(group, "64->128 at 56, 1x1/2", 64, 128, 56, 1, Conv<2>);
    conv_step!(group, "128->128 at 28, 3x3/1", 128, 128, 28, 3, Conv<1, 1>);
    conv_step!(group, "128->256 at 28, 3x3/2", 128, 256, 28, 3, Conv<2, 1>);
    conv_step!(group, "256->256 at 14, 3x3/1", 256, 256, 14, 3, Conv<1, 1>);
    conv_step!(group, "256->512 at 14, 3x3/2", 256, 512, 14, 3, Conv<2, 1>);
    conv_step!(group, "512->512 at 7, 3x3/1", 512, 512, 7, 3, Conv<1, 1>);
    group.finish();
}

criterion_group!(benches, train, convolutions);
criterion_main!(benches);
