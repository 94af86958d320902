//! A whole pre-norm transformer block in typed shapecast: `layer_norm` by name, attention
//! with Q/K/V projections `[EMBED, HEADS, DK]` contracted by name and `attention` in one
//! pass (causal along `SEQ`, softmax over `KSEQ`), the output projection over `(HEADS, DK)`,
//! an MLP with tanh-GELU, and residuals. The batch axis is named (`BATCH`) throughout. The weights are
//! written to a `.safetensors` file and loaded back by name, each checked against the shape
//! it is declared with; the block is checked against a naive loop.
//!
//! Run: `cargo run --example transformer --features safetensors`

use shapecast::io::{self, Weights};
use shapecast::{names, shape, Attention, Causal, Dot, DynTensor, FloatMath, Norms, Tensor};

names!(BATCH, SEQ, KSEQ, EMBED, HEADS, DK, FF);

/// Batch, sequence, embedding, heads, head size, MLP width.
const B: usize = 2;
const T: usize = 5;
const E: usize = 8;
const H: usize = 2;
const D: usize = 4;
const F: usize = 16;

type X = shape![BATCH, SEQ, EMBED: 8];
type Proj = shape![EMBED: 8, HEADS: 2, DK: 4];
type Out = shape![HEADS: 2, DK: 4, EMBED: 8];
type Vector = shape![EMBED: 8];

/// The block's weights, each read from the file by name into its declared shape.
struct Block {
    ln1: (Tensor<f32, Vector>, Tensor<f32, Vector>),
    wq: Tensor<f32, Proj>,
    wk: Tensor<f32, Proj>,
    wv: Tensor<f32, Proj>,
    wo: Tensor<f32, Out>,
    ln2: (Tensor<f32, Vector>, Tensor<f32, Vector>),
    w1: Tensor<f32, shape![EMBED: 8, FF: 16]>,
    b1: Tensor<f32, shape![FF: 16]>,
    w2: Tensor<f32, shape![FF: 16, EMBED: 8]>,
    b2: Tensor<f32, Vector>,
}

impl Block {
    fn load(w: &Weights) -> Result<Block, shapecast::Error> {
        Ok(Block {
            ln1: (w.get("ln1.gamma")?, w.get("ln1.beta")?),
            wq: w.get("attn.wq")?,
            wk: w.get("attn.wk")?,
            wv: w.get("attn.wv")?,
            wo: w.get("attn.wo")?,
            ln2: (w.get("ln2.gamma")?, w.get("ln2.beta")?),
            w1: w.get("mlp.w1")?,
            b1: w.get("mlp.b1")?,
            w2: w.get("mlp.w2")?,
            b2: w.get("mlp.b2")?,
        })
    }
}

fn block(x: &Tensor<f32, X>, w: &Block) -> Tensor<f32, X> {
    let h = x.layer_norm::<EMBED>(&w.ln1.0, &w.ln1.1, 1e-5);
    let q = h.dot::<EMBED>(&w.wq);
    let k = h.dot::<EMBED>(&w.wk).rename::<SEQ, KSEQ>();
    let v = h.dot::<EMBED>(&w.wv).rename::<SEQ, KSEQ>();
    // Position SEQ attends to the keys up to itself: causal by name, scaled by 1/sqrt(DK),
    // in one pass that never holds the [BATCH, SEQ, HEADS, KSEQ] scores.
    let ctx = q.attention::<DK, KSEQ>(&k, &v, Causal::<SEQ>::new(), None);
    let x1 = ctx.dot::<(HEADS, DK)>(&w.wo) + x;
    let u = x1
        .layer_norm::<EMBED>(&w.ln2.0, &w.ln2.1, 1e-5)
        .dot::<EMBED>(&w.w1)
        + &w.b1;
    let out: Tensor<f32, X> = u.gelu().dot::<FF>(&w.w2) + &w.b2;
    out + &x1
}

/// Deterministic values in about [-0.5, 0.5].
fn wave(seed: usize, n: usize) -> Vec<f32> {
    (0..n)
        .map(|k| (((k * 37 + seed * 101) % 97) as f32 / 97.0 - 0.5) * 0.8)
        .collect()
}

/// The weights as a file stores them: name, sizes, row-major values.
fn stored() -> Vec<(&'static str, Vec<usize>, Vec<f32>)> {
    let ones_ish = |seed: usize| wave(seed, E).iter().map(|v| 1.0 + v * 0.5).collect();
    vec![
        ("ln1.gamma", vec![E], ones_ish(1)),
        ("ln1.beta", vec![E], wave(2, E)),
        ("attn.wq", vec![E, H, D], wave(3, E * H * D)),
        ("attn.wk", vec![E, H, D], wave(4, E * H * D)),
        ("attn.wv", vec![E, H, D], wave(5, E * H * D)),
        ("attn.wo", vec![H, D, E], wave(6, H * D * E)),
        ("ln2.gamma", vec![E], ones_ish(7)),
        ("ln2.beta", vec![E], wave(8, E)),
        ("mlp.w1", vec![E, F], wave(9, E * F)),
        ("mlp.b1", vec![F], wave(10, F)),
        ("mlp.w2", vec![F, E], wave(11, F * E)),
        ("mlp.b2", vec![E], wave(12, E)),
    ]
}

/// The same block by loops over flat arrays, index by index.
fn naive(x: &[f32], w: &std::collections::HashMap<&str, Vec<f32>>) -> Vec<f32> {
    let ln = |x: &[f32], g: &[f32], b: &[f32]| -> Vec<f32> {
        let mut y = vec![0.0; x.len()];
        for row in 0..B * T {
            let r = &x[row * E..(row + 1) * E];
            let m = r.iter().sum::<f32>() / E as f32;
            let v = r.iter().map(|a| (a - m) * (a - m)).sum::<f32>() / E as f32;
            for e in 0..E {
                y[row * E + e] = (r[e] - m) / (v + 1e-5).sqrt() * g[e] + b[e];
            }
        }
        y
    };
    let h = ln(x, &w["ln1.gamma"], &w["ln1.beta"]);
    // q[b][t][h][d] = sum_e h[b][t][e] wq[e][h][d]
    let project = |m: &[f32]| -> Vec<f32> {
        let mut out = vec![0.0; B * T * H * D];
        for bt in 0..B * T {
            for hd in 0..H * D {
                out[bt * H * D + hd] = (0..E).map(|e| h[bt * E + e] * m[e * H * D + hd]).sum();
            }
        }
        out
    };
    let (q, k, v) = (
        project(&w["attn.wq"]),
        project(&w["attn.wk"]),
        project(&w["attn.wv"]),
    );
    let at = |t: &[f32], b: usize, s: usize, hh: usize, d: usize| t[((b * T + s) * H + hh) * D + d];
    let mut ctx = vec![0.0; B * T * H * D];
    for b in 0..B {
        for hh in 0..H {
            for s in 0..T {
                let scores: Vec<f32> = (0..T)
                    .map(|t| {
                        let dot: f32 = (0..D)
                            .map(|d| at(&q, b, s, hh, d) * at(&k, b, t, hh, d))
                            .sum();
                        dot / (D as f32).sqrt() + if t > s { -1e9 } else { 0.0 }
                    })
                    .collect();
                let m = scores.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                let e: Vec<f32> = scores.iter().map(|x| (x - m).exp()).collect();
                let total: f32 = e.iter().sum();
                for d in 0..D {
                    ctx[((b * T + s) * H + hh) * D + d] =
                        (0..T).map(|t| e[t] / total * at(&v, b, t, hh, d)).sum();
                }
            }
        }
    }
    let wo = &w["attn.wo"];
    let mut x1 = vec![0.0; B * T * E];
    for bt in 0..B * T {
        for e in 0..E {
            x1[bt * E + e] = x[bt * E + e]
                + (0..H * D)
                    .map(|hd| ctx[bt * H * D + hd] * wo[hd * E + e])
                    .sum::<f32>();
        }
    }
    let h2 = ln(&x1, &w["ln2.gamma"], &w["ln2.beta"]);
    let (w1, b1, w2, b2) = (&w["mlp.w1"], &w["mlp.b1"], &w["mlp.w2"], &w["mlp.b2"]);
    let c = (2.0f32 / std::f32::consts::PI).sqrt();
    let mut out = vec![0.0; B * T * E];
    for bt in 0..B * T {
        let u: Vec<f32> = (0..F)
            .map(|f| {
                let u = b1[f] + (0..E).map(|e| h2[bt * E + e] * w1[e * F + f]).sum::<f32>();
                0.5 * u * (1.0 + (c * (u + 0.044715 * u * u * u)).tanh())
            })
            .collect();
        for e in 0..E {
            out[bt * E + e] =
                x1[bt * E + e] + b2[e] + (0..F).map(|f| u[f] * w2[f * E + e]).sum::<f32>();
        }
    }
    out
}

fn main() -> Result<(), shapecast::Error> {
    // Write the weights to a file, as a training script would.
    let path = std::env::temp_dir().join(format!(
        "shapecast-transformer-{}.safetensors",
        std::process::id()
    ));
    let tensors: Vec<(&str, DynTensor<f32>)> = stored()
        .into_iter()
        .map(|(name, sizes, data)| {
            Ok((
                name,
                DynTensor::from_vec(shapecast::DynShape::from_sizes(&sizes)?, data)?,
            ))
        })
        .collect::<Result<_, shapecast::Error>>()?;
    let refs: Vec<(&str, &dyn io::SafetensorsTensor)> = tensors
        .iter()
        .map(|(n, t)| (*n, t as &dyn io::SafetensorsTensor))
        .collect();
    io::save_safetensors(&path, &refs)?;

    // Load them back by name, each into its declared shape.
    let weights = io::load_safetensors(&path)?;
    let w = Block::load(&weights)?;
    // A weight declared the wrong way round is refused at load time.
    let wrong = weights
        .get::<f32, shape![FF: 16, EMBED: 8]>("mlp.w1")
        .unwrap_err();
    println!("declared the wrong way round: {wrong}");

    let x = Tensor::<f32, X>::from_vec_sized(&[B, T, E], wave(13, B * T * E))?;
    let y = block(&x, &w);
    let flat: std::collections::HashMap<&str, Vec<f32>> =
        stored().into_iter().map(|(n, _, d)| (n, d)).collect();
    let want = naive(x.data(), &flat);
    let diff = y
        .data()
        .iter()
        .zip(&want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(diff < 1e-4, "the block and the naive loop differ by {diff}");
    println!(
        "transformer block {} -> {}: matches the naive loop to {diff:.1e}",
        x.shape(),
        y.shape()
    );
    let _ = std::fs::remove_file(&path);
    Ok(())
}
