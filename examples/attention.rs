//! Scaled dot-product attention written in typed shapecast, every shape checked by the
//! compiler: scores = `q.dot::<DK>(&k)` scaled, a mask `[SEQ, KSEQ]` added by name, softmax
//! over `KSEQ`, then `.dot::<KSEQ>(&v)` giving `[BATCH, HEADS, SEQ, DV: 16]`. Checked against
//! a naive loop.
//!
//! Run: `cargo run --example attention`

use shapecast::{names, shape, Dot, Reductions, Tensor};

names!(BATCH, HEADS, SEQ, KSEQ, DK, DV);

type Q = shape![BATCH, HEADS, SEQ, DK: 16];
type K = shape![BATCH, HEADS, KSEQ, DK: 16];
type V = shape![BATCH, HEADS, KSEQ, DV: 16];
type Mask = shape![SEQ, KSEQ];
type Scores = shape![BATCH, HEADS, SEQ, KSEQ];
type Out = shape![BATCH, HEADS, SEQ, DV: 16];

fn attention(
    q: &Tensor<f32, Q>,
    k: &Tensor<f32, K>,
    v: &Tensor<f32, V>,
    mask: &Tensor<f32, Mask>,
) -> Tensor<f32, Out> {
    let scale = 1.0 / (16f32).sqrt();
    let scores: Tensor<f32, Scores> = q.dot::<DK>(k) * scale + mask;
    let weights = scores.softmax::<KSEQ>();
    weights.dot::<KSEQ>(v)
}

fn main() -> Result<(), shapecast::Error> {
    let (batch, heads, seq, kseq) = (2, 3, 5, 7);
    let wave = |i: &[usize], m: usize| {
        ((i.iter()
            .enumerate()
            .map(|(k, x)| (k + m) * x)
            .sum::<usize>()
            % 13) as f32
            - 6.0)
            / 4.0
    };
    let q = Tensor::<f32, Q>::from_fn(&[batch, heads, seq, 16], |i| wave(i, 1))?;
    let k = Tensor::<f32, K>::from_fn(&[batch, heads, kseq, 16], |i| wave(i, 2))?;
    let v = Tensor::<f32, V>::from_fn(&[batch, heads, kseq, 16], |i| wave(i, 3))?;
    // A causal-style mask: position s may not attend to keys after s + 1.
    let mask =
        Tensor::<f32, Mask>::from_fn(&[seq, kseq], |i| if i[1] > i[0] + 1 { -1e9 } else { 0.0 })?;
    let out = attention(&q, &k, &v, &mask);
    assert_eq!(out.sizes(), &[batch, heads, seq, 16]);

    // The naive loop.
    for b in 0..batch {
        for h in 0..heads {
            for s in 0..seq {
                let scores: Vec<f32> = (0..kseq)
                    .map(|t| {
                        let dot: f32 = (0..16)
                            .map(|d| q.at(&[b, h, s, d]).unwrap() * k.at(&[b, h, t, d]).unwrap())
                            .sum();
                        dot / 4.0 + mask.at(&[s, t]).unwrap()
                    })
                    .collect();
                let m = scores.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                let e: Vec<f32> = scores.iter().map(|x| (x - m).exp()).collect();
                let total: f32 = e.iter().sum();
                for d in 0..16 {
                    let want: f32 = (0..kseq)
                        .map(|t| e[t] / total * v.at(&[b, h, t, d]).unwrap())
                        .sum();
                    let got = *out.at(&[b, h, s, d])?;
                    assert!((got - want).abs() < 1e-4, "{got} vs {want}");
                }
            }
        }
    }
    println!(
        "attention: {} from q {}, k {}, v {}; checked against a naive loop",
        out.shape(),
        q.shape(),
        k.shape(),
        v.shape()
    );
    Ok(())
}
