//! A Llama-style decoder in typed shapecast (llama2.c's architecture): token embedding by
//! `take`, RMSNorm, rotary embeddings over adjacent feature pairs, grouped-query attention
//! with the KV heads broadcast over a `GROUP` axis by name, SwiGLU, a preallocated KV cache
//! written through views, greedy generation. Every size is `?`, so one model serves every
//! configuration. The weights are read by name from a `.safetensors` file, in the layouts
//! files keep (`[out, in]`, contracted over their last axis): `main.rs` writes its own with
//! their axis names; `scripts/bench_llama.py` writes the benchmark's (`benches/llama.rs`)
//! with what PyTorch computed from them ([`Expected`]).
#![allow(dead_code)]
// `shape![..]` expands to a tuple of axis types, which clippy counts as a complex type.
#![allow(clippy::type_complexity)]

use shapecast::io::Weights;
use shapecast::{names, shape, Dot, Error, FloatMath, Tensor, TensorView, S};

names!(SEQ, KSEQ, DIM, KVH, GROUP, HD, HALF, PAIR, HIDDEN, VOCAB);

/// The activations: one sequence of positions.
pub type X = Tensor<f32, shape![SEQ, DIM]>;
/// A rotated query or key half (the even or the odd features of each pair).
type QHalf = Tensor<f32, shape![SEQ, KVH, GROUP, HALF]>;
type KHalf = Tensor<f32, shape![SEQ, KVH, HALF]>;
/// The cached keys' halves and values.
type KCache = Tensor<f32, shape![KSEQ, KVH, HALF]>;
type VCache = Tensor<f32, shape![KSEQ, KVH, HD]>;

/// One decoder layer's weights.
pub struct Layer {
    attn_norm: Tensor<f32, shape![DIM]>,
    wq: Tensor<f32, shape![KVH, GROUP, HD, DIM]>,
    wk: Tensor<f32, shape![KVH, HD, DIM]>,
    wv: Tensor<f32, shape![KVH, HD, DIM]>,
    wo: Tensor<f32, shape![DIM, KVH, GROUP, HD]>,
    ffn_norm: Tensor<f32, shape![DIM]>,
    w1: Tensor<f32, shape![HIDDEN, DIM]>,
    w2: Tensor<f32, shape![DIM, HIDDEN]>,
    w3: Tensor<f32, shape![HIDDEN, DIM]>,
}

/// One layer's cache: the rotated keys' even and odd halves, and the values.
struct Cache {
    re: KCache,
    im: KCache,
    v: VCache,
}

/// The model, its cache and its rotation tables.
pub struct Llama {
    emb: Tensor<f32, shape![VOCAB, DIM]>,
    layers: Vec<Layer>,
    norm: Tensor<f32, shape![DIM]>,
    output: Tensor<f32, shape![VOCAB, DIM]>,
    cos: Tensor<f32, shape![SEQ, HALF]>,
    sin: Tensor<f32, shape![SEQ, HALF]>,
    cache: Vec<Cache>,
}

/// What the file holds besides the weights: the prompt, and PyTorch's last logits of the
/// prompt and greedy tokens after it.
pub struct Expected {
    pub prompt: Vec<usize>,
    pub logits: Vec<f32>,
    pub tokens: Vec<usize>,
}

fn indices(w: &Weights, name: &str) -> Result<Vec<usize>, Error> {
    let t: Tensor<i64, shape![SEQ]> = w.get(name)?;
    Ok(t.data().iter().map(|&i| i as usize).collect())
}

impl Expected {
    /// What `scripts/bench_llama.py` stored beside the weights.
    pub fn load(w: &Weights) -> Result<Expected, Error> {
        let logits: Tensor<f32, shape![VOCAB]> = w.get("expected.logits")?;
        Ok(Expected {
            prompt: indices(w, "prompt")?,
            logits: logits.into_vec(),
            tokens: indices(w, "expected.tokens")?,
        })
    }
}

impl Llama {
    /// The model of `w` with a cache for `max_seq` positions.
    pub fn load(w: &Weights, max_seq: usize) -> Result<Llama, Error> {
        let mut layers = Vec::new();
        while w
            .names()
            .contains(&format!("layers.{}.wq", layers.len()).as_str())
        {
            let p = |n: &str| format!("layers.{}.{n}", layers.len());
            layers.push(Layer {
                attn_norm: w.get(&p("attention_norm"))?,
                wq: w.get(&p("wq"))?,
                wk: w.get(&p("wk"))?,
                wv: w.get(&p("wv"))?,
                wo: w.get(&p("wo"))?,
                ffn_norm: w.get(&p("ffn_norm"))?,
                w1: w.get(&p("w1"))?,
                w2: w.get(&p("w2"))?,
                w3: w.get(&p("w3"))?,
            });
        }
        let l0 = &layers[0];
        let (kvh, hd) = (l0.wk.size::<KVH>(), l0.wk.size::<HD>());
        let half = hd / 2;
        // Pair i of position t turns by t / 10000^(2i / hd).
        let angle = |t: usize, i: usize| {
            let freq = 1.0 / 10000f32.powf((2 * i) as f32 / hd as f32);
            t as f32 * freq
        };
        let cos = Tensor::from_fn(&[max_seq, half], |i| angle(i[0], i[1]).cos())?;
        let sin = Tensor::from_fn(&[max_seq, half], |i| angle(i[0], i[1]).sin())?;
        let cache = (0..layers.len())
            .map(|_| {
                Ok(Cache {
                    re: Tensor::zeros_sized(&[max_seq, kvh, half])?,
                    im: Tensor::zeros_sized(&[max_seq, kvh, half])?,
                    v: Tensor::zeros_sized(&[max_seq, kvh, hd])?,
                })
            })
            .collect::<Result<_, Error>>()?;
        let model = Llama {
            emb: w.get("tok_embeddings")?,
            layers,
            norm: w.get("norm")?,
            output: w.get("output")?,
            cos,
            sin,
            cache,
        };
        Ok(model)
    }

    /// The logits after the last of `tokens`, which stand at positions `pos..`; their keys
    /// and values join the cache.
    pub fn forward(
        &mut self,
        tokens: &[usize],
        pos: usize,
    ) -> Result<Tensor<f32, shape![VOCAB]>, Error> {
        let n = tokens.len();
        let ids = Tensor::<usize, shape![SEQ]>::from_vec_sized(&[n], tokens.to_vec())?;
        let mut x: X = self.emb.try_take::<VOCAB, _>(&ids)?;
        let cos = self.cos.view().slice::<SEQ>(pos..pos + n)?;
        let sin = self.sin.view().slice::<SEQ>(pos..pos + n)?;
        // Causal: position `pos + s` sees the keys up to itself.
        let mask = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[n, pos + n], |i| {
            if i.at::<KSEQ>() > pos + i.at::<SEQ>() {
                f32::NEG_INFINITY
            } else {
                0.0
            }
        })?;
        for (layer, cache) in self.layers.iter().zip(&mut self.cache) {
            let h = rms_norm(&x, &layer.attn_norm);
            let (q_re, q_im) = rope_q(&h.dot::<DIM>(&layer.wq), (&cos, &sin))?;
            let (k_re, k_im) = rope_k(&h.dot::<DIM>(&layer.wk), (&cos, &sin))?;
            let v = h.dot::<DIM>(&layer.wv).rename::<SEQ, KSEQ>();
            let at = pos..pos + n;
            cache
                .re
                .view_mut()
                .slice::<KSEQ>(at.clone())?
                .assign(&k_re.rename::<SEQ, KSEQ>().view())?;
            cache
                .im
                .view_mut()
                .slice::<KSEQ>(at.clone())?
                .assign(&k_im.rename::<SEQ, KSEQ>().view())?;
            cache.v.view_mut().slice::<KSEQ>(at)?.assign(&v.view())?;
            let keys = ..pos + n;
            let (re, im) = (
                cache.re.view().slice::<KSEQ>(keys)?,
                cache.im.view().slice::<KSEQ>(keys)?,
            );
            let values = cache.v.view().slice::<KSEQ>(keys)?;
            let scale = 1.0 / ((2 * q_re.size::<HALF>()) as f32).sqrt();
            // Each KV head serves its GROUP of query heads: the keys broadcast over GROUP.
            let scores = (q_re.dot::<HALF>(&re) + q_im.dot::<HALF>(&im)) * scale + &mask;
            let ctx = scores.softmax_into::<KSEQ>().dot::<KSEQ>(&values);
            x = x + ctx.dot::<(KVH, GROUP, HD)>(&layer.wo);
            let h = rms_norm(&x, &layer.ffn_norm);
            let gate = h.dot::<DIM>(&layer.w1).silu() * h.dot::<DIM>(&layer.w3);
            x = x + gate.dot::<HIDDEN>(&layer.w2);
        }
        let last = x.view().select::<SEQ>(n - 1)?.to_tensor();
        let last = rms_norm_1(&last, &self.norm);
        Ok(last.dot::<DIM>(&self.output))
    }

    /// `count` greedy tokens after `logits`, the last at position `pos - 1`.
    pub fn decode(
        &mut self,
        mut logits: Tensor<f32, shape![VOCAB]>,
        mut pos: usize,
        count: usize,
    ) -> Result<Vec<usize>, Error> {
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            let next = logits.argmax::<VOCAB>().data()[0];
            out.push(next);
            logits = self.forward(&[next], pos)?;
            pos += 1;
        }
        Ok(out)
    }
}

/// `x / sqrt(mean(x²) + 1e-5) * g` over `DIM`.
fn rms_norm(x: &X, g: &Tensor<f32, shape![DIM]>) -> X {
    let ms = (x * x).mean::<DIM>();
    x / (ms + 1e-5).sqrt() * g
}

/// [`rms_norm`] of one position.
fn rms_norm_1(
    x: &Tensor<f32, shape![DIM]>,
    g: &Tensor<f32, shape![DIM]>,
) -> Tensor<f32, shape![DIM]> {
    let ms = (x * x).mean::<DIM>();
    x / (ms + 1e-5).sqrt() * g
}

type Table<'a> = TensorView<'a, f32, shape![SEQ, HALF]>;

/// The queries' pairs `(2i, 2i + 1)` turned by the position's angles: the even and the odd
/// halves, `re·cos − im·sin` and `re·sin + im·cos`.
fn rope_q(
    q: &Tensor<f32, shape![SEQ, KVH, GROUP, HD]>,
    (cos, sin): (&Table<'_>, &Table<'_>),
) -> Result<(QHalf, QHalf), Error> {
    let pairs = q.view().split_axis::<HD, (HALF, PAIR<S<2>>)>()?;
    let (re, im) = (pairs.select::<PAIR>(0)?, pairs.select::<PAIR>(1)?);
    let out_re = &re * cos - &im * sin;
    let out_im = &re * sin + &im * cos;
    Ok((out_re, out_im))
}

/// [`rope_q`] for the keys.
fn rope_k(
    k: &Tensor<f32, shape![SEQ, KVH, HD]>,
    (cos, sin): (&Table<'_>, &Table<'_>),
) -> Result<(KHalf, KHalf), Error> {
    let pairs = k.view().split_axis::<HD, (HALF, PAIR<S<2>>)>()?;
    let (re, im) = (pairs.select::<PAIR>(0)?, pairs.select::<PAIR>(1)?);
    let out_re = &re * cos - &im * sin;
    let out_im = &re * sin + &im * cos;
    Ok((out_re, out_im))
}
