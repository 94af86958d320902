//! A Llama-style decoder (llama2.c's architecture: token embedding, RMSNorm, rotary
//! embeddings over adjacent feature pairs, grouped-query attention with the KV heads
//! broadcast over a `GROUP` axis by name, SwiGLU, a KV cache) in typed shapecast: one model
//! (`model.rs`, every size `?`, also what `benches/llama.rs` times) for two configurations. Each configuration's
//! weights are written to a `.safetensors` file with their axis names, loaded back by name
//! (a weight declared with its axes the wrong way round is refused at load), and the model
//! is checked against a naive reference written with loops: the prompt's logits, then
//! greedy generation through the KV cache against the reference rerun on the whole
//! sequence. Then tokens are sampled (temperature, top-k, top-p) from a seeded generator.
//! Last, the weights are saved as a bf16 checkpoint and run two ways: kept in bf16
//! (`Llama<bf16>`, half the memory, products accumulated in `f32`) and widened into `f32` at
//! load, each against the reference on the bf16-rounded weights; and kept in bf16 with the
//! prompt's products rounding the activations to bf16 (`half_products`, PyTorch's bf16
//! numerics), within a few bf16 steps of the largest logit.
//!
//! Run: `cargo run --example llama --features safetensors,rand`

mod model;

use model::{DIM, HIDDEN, VOCAB};
use rand::SeedableRng;
use shapecast::io::{self, Weights};
use shapecast::{bf16, shape, DynTensor, Error, Reductions, Sampling};

/// A model's sizes.
#[derive(Clone, Copy, Debug)]
struct Config {
    dim: usize,
    layers: usize,
    kv_heads: usize,
    group: usize,
    hidden: usize,
    vocab: usize,
}

impl Config {
    fn head(&self) -> usize {
        self.dim / (self.kv_heads * self.group)
    }
}

/// Two configurations, one model.
const CONFIGS: [Config; 2] = [
    Config {
        dim: 32,
        layers: 2,
        kv_heads: 2,
        group: 2,
        hidden: 64,
        vocab: 50,
    },
    Config {
        dim: 48,
        layers: 3,
        kv_heads: 3,
        group: 2,
        hidden: 96,
        vocab: 70,
    },
];
const MAX_SEQ: usize = 64;

/// Deterministic values in [-scale, scale).
fn values(n: usize, seed: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let h = (i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) % 10_007;
            (h as f32 / 5003.5 - 1.0) * scale
        })
        .collect()
}

/// The weights, flat, by name, with the shapes (names included) they are saved with.
fn weights(c: &Config) -> Vec<(String, String, Vec<f32>)> {
    let (d, kv, g, hd, h, v) = (c.dim, c.kv_heads, c.group, c.head(), c.hidden, c.vocab);
    let s = 1.0 / (d as f32).sqrt();
    let mut w = vec![
        (
            "tok_embeddings".into(),
            format!("[VOCAB: {v}, DIM: {d}]"),
            values(v * d, 1, 1.0),
        ),
        (
            "norm".into(),
            format!("[DIM: {d}]"),
            values(d, 2, 0.1).iter().map(|x| 1.0 + x).collect(),
        ),
        (
            "output".into(),
            format!("[VOCAB: {v}, DIM: {d}]"),
            values(v * d, 3, s),
        ),
    ];
    for l in 0..c.layers {
        let p = |n: &str| format!("layers.{l}.{n}");
        let seed = 10 * (l + 1);
        w.extend([
            (
                p("attention_norm"),
                format!("[DIM: {d}]"),
                values(d, seed, 0.1).iter().map(|x| 1.0 + x).collect(),
            ),
            (
                p("wq"),
                format!("[KVH: {kv}, GROUP: {g}, HD: {hd}, DIM: {d}]"),
                values(kv * g * hd * d, seed + 1, s),
            ),
            (
                p("wk"),
                format!("[KVH: {kv}, HD: {hd}, DIM: {d}]"),
                values(kv * hd * d, seed + 2, s),
            ),
            (
                p("wv"),
                format!("[KVH: {kv}, HD: {hd}, DIM: {d}]"),
                values(kv * hd * d, seed + 3, s),
            ),
            (
                p("wo"),
                format!("[DIM: {d}, KVH: {kv}, GROUP: {g}, HD: {hd}]"),
                values(d * kv * g * hd, seed + 4, s),
            ),
            (
                p("ffn_norm"),
                format!("[DIM: {d}]"),
                values(d, seed + 5, 0.1).iter().map(|x| 1.0 + x).collect(),
            ),
            (
                p("w1"),
                format!("[HIDDEN: {h}, DIM: {d}]"),
                values(h * d, seed + 6, s),
            ),
            (
                p("w2"),
                format!("[DIM: {d}, HIDDEN: {h}]"),
                values(d * h, seed + 7, 1.0 / (h as f32).sqrt()),
            ),
            (
                p("w3"),
                format!("[HIDDEN: {h}, DIM: {d}]"),
                values(h * d, seed + 8, s),
            ),
        ]);
    }
    w
}

/// The naive reference: the logits after the last of `tokens`, every position recomputed,
/// by loops over flat weights in f64.
fn reference(c: &Config, w: &[(String, String, Vec<f32>)], tokens: &[usize]) -> Vec<f64> {
    let get = |name: &str| -> Vec<f64> {
        let (_, _, v) = w.iter().find(|(n, _, _)| n == name).expect("a weight");
        v.iter().map(|&x| x as f64).collect()
    };
    let (d, kv, g, hd, hid, voc) = (c.dim, c.kv_heads, c.group, c.head(), c.hidden, c.vocab);
    let t_len = tokens.len();
    let rms = |x: &[f64], gain: &[f64]| -> Vec<f64> {
        let ms = x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64;
        x.iter()
            .zip(gain)
            .map(|(v, g)| v / (ms + 1e-5).sqrt() * g)
            .collect()
    };
    let rope = |x: &mut [f64], t: usize| {
        for i in 0..hd / 2 {
            let angle = t as f64 / 10000f64.powf((2 * i) as f64 / hd as f64);
            let (a, b) = (x[2 * i], x[2 * i + 1]);
            x[2 * i] = a * angle.cos() - b * angle.sin();
            x[2 * i + 1] = a * angle.sin() + b * angle.cos();
        }
    };
    let emb = get("tok_embeddings");
    let mut x: Vec<Vec<f64>> = tokens
        .iter()
        .map(|&t| emb[t * d..(t + 1) * d].to_vec())
        .collect();
    for l in 0..c.layers {
        let p = |n: &str| format!("layers.{l}.{n}");
        let (wq, wk, wv, wo) = (get(&p("wq")), get(&p("wk")), get(&p("wv")), get(&p("wo")));
        let (w1, w2, w3) = (get(&p("w1")), get(&p("w2")), get(&p("w3")));
        let dot = |row: &[f64], h: &[f64]| row.iter().zip(h).map(|(a, b)| a * b).sum::<f64>();
        let mut q = vec![vec![vec![0.0; hd]; kv * g]; t_len];
        let (mut k, mut v) = (
            vec![vec![vec![0.0; hd]; kv]; t_len],
            vec![vec![vec![0.0; hd]; kv]; t_len],
        );
        for t in 0..t_len {
            let h = rms(&x[t], &get(&p("attention_norm")));
            for head in 0..kv * g {
                for e in 0..hd {
                    q[t][head][e] = dot(&wq[(head * hd + e) * d..][..d], &h);
                }
                rope(&mut q[t][head], t);
            }
            for j in 0..kv {
                for e in 0..hd {
                    k[t][j][e] = dot(&wk[(j * hd + e) * d..][..d], &h);
                    v[t][j][e] = dot(&wv[(j * hd + e) * d..][..d], &h);
                }
                rope(&mut k[t][j], t);
            }
        }
        for t in 0..t_len {
            let mut ctx = vec![0.0; kv * g * hd];
            for head in 0..kv * g {
                let j = head / g; // the KV head this query head shares
                let scores: Vec<f64> = (0..=t)
                    .map(|s| dot(&q[t][head], &k[s][j]) / (hd as f64).sqrt())
                    .collect();
                let top = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
                let sum: f64 = e.iter().sum();
                for (s, p) in e.iter().enumerate() {
                    for i in 0..hd {
                        ctx[head * hd + i] += p / sum * v[s][j][i];
                    }
                }
            }
            for o in 0..d {
                x[t][o] += dot(&wo[o * kv * g * hd..][..kv * g * hd], &ctx);
            }
            let h = rms(&x[t], &get(&p("ffn_norm")));
            let gate: Vec<f64> = (0..hid)
                .map(|i| {
                    let a = dot(&w1[i * d..][..d], &h);
                    a / (1.0 + (-a).exp()) * dot(&w3[i * d..][..d], &h)
                })
                .collect();
            for o in 0..d {
                x[t][o] += dot(&w2[o * hid..][..hid], &gate);
            }
        }
    }
    let last = rms(&x[t_len - 1], &get("norm"));
    let out = get("output");
    (0..voc)
        .map(|i| {
            out[i * d..][..d]
                .iter()
                .zip(&last)
                .map(|(a, b)| a * b)
                .sum()
        })
        .collect()
}

fn argmax(v: &[f64]) -> usize {
    (0..v.len()).fold(0, |best, i| if v[i] > v[best] { i } else { best })
}

/// Named tensors written to `path`, each with its axis names.
fn save<T: io::SafetensorsElement>(
    path: &std::path::Path,
    tensors: &[(String, DynTensor<T>)],
) -> Result<(), Error> {
    let refs: Vec<(&str, &dyn io::SafetensorsTensor)> = tensors
        .iter()
        .map(|(n, t)| (n.as_str(), t as &dyn io::SafetensorsTensor))
        .collect();
    io::save_safetensors(path, &refs)
}

fn main() -> Result<(), Error> {
    let dir = std::env::temp_dir().join(format!("shapecast-llama-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (n, c) in CONFIGS.iter().enumerate() {
        // The weights go to a file with their axis names, and come back by name.
        let w = weights(c);
        let tensors: Vec<(String, DynTensor<f32>)> = w
            .iter()
            .map(|(name, shape, v)| {
                Ok((
                    name.clone(),
                    DynTensor::from_vec(shape.parse()?, v.clone())?,
                ))
            })
            .collect::<Result<_, Error>>()?;
        let path = dir.join(format!("config{n}.safetensors"));
        save(&path, &tensors)?;
        let file: Weights = io::load_safetensors(&path)?;
        // A weight declared the wrong way round is refused by its recorded names, although
        // `?` sizes would take either order.
        let wrong = file.get::<f32, shape![DIM, HIDDEN]>("layers.0.w1");
        assert!(matches!(wrong, Err(Error::FileNames { .. })));
        let mut model = model::Llama::<f32>::load(&file, MAX_SEQ)?;

        // The prompt's logits against the reference.
        let prompt: Vec<usize> = (0..12).map(|i| (i * 7 + n) % c.vocab).collect();
        let logits = model.forward(&prompt, 0)?;
        // The largest difference of logits from the reference's.
        let off = |logits: &shapecast::Tensor<f32, _>, want: &[f64]| {
            let pairs = logits.data().iter().zip(want);
            pairs
                .map(|(a, b)| (*a as f64 - b).abs())
                .fold(0.0, f64::max)
        };
        let want = reference(c, &w, &prompt);
        let diff = off(&logits, &want);
        assert!(
            diff < 1e-4,
            "config {n}: the logits differ from the reference by {diff}"
        );

        // Greedy generation through the KV cache, against the reference rerun on the whole
        // sequence for every token.
        let generated = model.decode(logits.clone(), prompt.len(), 8)?;
        let mut sequence = prompt.clone();
        for &token in &generated {
            assert_eq!(token, argmax(&reference(c, &w, &sequence)), "config {n}");
            sequence.push(token);
        }

        // Sampled generation: temperature, top-k and top-p along VOCAB, a seeded generator.
        let how = Sampling::default().temperature(0.8).top_k(10).top_p(0.9);
        let mut rng = rand::rngs::StdRng::seed_from_u64(42);
        let (mut next_logits, mut pos, mut sampled) = (logits, prompt.len(), Vec::new());
        for _ in 0..8 {
            let token = next_logits.sample::<VOCAB>(&how, &mut rng)?.data()[0];
            sampled.push(token);
            next_logits = model.forward(&[token], pos)?;
            pos += 1;
        }
        // The same weights published in bf16, as most checkpoints are: half the file, kept in
        // bf16 (half the memory, products accumulated in f32) and read back into f32 at load;
        // both models' logits against the reference on the bf16-rounded weights.
        let half: Vec<(String, DynTensor<bf16>)> =
            tensors.iter().map(|(n, t)| (n.clone(), t.cast())).collect();
        let half_path = dir.join(format!("config{n}.bf16.safetensors"));
        save(&half_path, &half)?;
        let half_file = io::load_safetensors(&half_path)?;
        let mut half_model = model::Llama::<bf16>::load(&half_file, MAX_SEQ)?;
        let mut widened = model::Llama::<f32>::load(&half_file, MAX_SEQ)?;
        let rounded: Vec<(String, String, Vec<f32>)> = w
            .iter()
            .map(|(name, shape, v)| {
                let v = v.iter().map(|&x| bf16::from_f32(x).to_f32()).collect();
                (name.clone(), shape.clone(), v)
            })
            .collect();
        let want = reference(c, &rounded, &prompt);
        let mut half_diff = 0.0f64;
        for logits in [
            half_model.forward(&prompt, 0)?,
            widened.forward(&prompt, 0)?,
        ] {
            half_diff = half_diff.max(off(&logits, &want));
        }
        assert!(
            half_diff < 1e-4,
            "config {n}, bf16 weights: the logits differ from the reference by {half_diff}"
        );
        // The bf16 model with its prompt's products rounding the activations to bf16 too
        // (PyTorch's bf16 model's numerics, on the CPU's bf16 instructions): farther from the
        // reference than the f32 activations, within a few bf16 steps of the largest logit.
        let mut rounding = model::Llama::<bf16>::load(&half_file, MAX_SEQ)?;
        rounding.half_products = true;
        let rounded_diff = off(&rounding.forward(&prompt, 0)?, &want);
        let step = want.iter().fold(0.0f64, |m, x| m.max(x.abs())) / 256.0;
        assert!(
            rounded_diff > half_diff && rounded_diff < 4.0 * step,
            "config {n}, bf16 products: the logits differ from the reference by {rounded_diff}"
        );
        let sizes = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        println!(
            "config {n} (dim {}, {} layers, {}x{} heads): logits within {diff:.1e} of the reference; greedy {generated:?}; sampled {sampled:?}; bf16 weights ({} of {} bytes): logits within {half_diff:.1e}, {rounded_diff:.1e} with bf16 products",
            c.dim,
            c.layers,
            c.kv_heads,
            c.group,
            sizes(&half_path),
            sizes(&path)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
