//! The Llama-style decoder of `examples/llama/model.rs` written with the operations it is
//! made of rather than the fused ones (`rms_norm`, `rope`, `attention`): kept so that
//! `benches/llama.rs` times both on the same weights. In typed shapecast (llama2.c's
//! architecture): token embedding by
//! `take`, RMSNorm, rotary embeddings over adjacent feature pairs (one function for queries
//! and keys, generic in two bounds), grouped-query attention
//! with the KV heads broadcast over a `GROUP` axis by name, SwiGLU, a preallocated KV cache
//! written through views, greedy generation. Every size is `?`, so one model serves every
//! configuration. The weights are read by name from a `.safetensors` file, in the layouts
//! files keep (`[out, in]`, contracted over their last axis): `main.rs` writes its own with
//! their axis names; `scripts/bench_llama.py` writes the benchmark's (`benches/llama.rs`)
//! with what PyTorch computed from them.
#![allow(dead_code)]
// `shape![..]` expands to a tuple of axis types, which clippy counts as a complex type.
#![allow(clippy::type_complexity)]

use shapecast::io::Weights;
use shapecast::{
    names, shape, Contract, ContractWith, Dot, Error, FloatMath, Reductions, SplitAxis,
    SplitAxisInto, Tensor, TensorView, S,
};

names!(SEQ, KSEQ, DIM, KVH, GROUP, HD, HALF, PAIR, TURNED, HIDDEN, VOCAB);

/// The activations: one sequence of positions.
pub type X = Tensor<f32, shape![SEQ, DIM]>;
/// The cached keys (turned by their positions) and values.
type KCache = Tensor<f32, shape![KSEQ, KVH, HALF, TURNED: 2]>;
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

/// One layer's cache: the rotated keys and the values.
struct Cache {
    k: KCache,
    v: VCache,
}

/// The model, its cache and its rotation tables.
pub struct Llama {
    emb: Tensor<f32, shape![VOCAB, DIM]>,
    layers: Vec<Layer>,
    norm: Tensor<f32, shape![DIM]>,
    output: Tensor<f32, shape![VOCAB, DIM]>,
    rot: Tensor<f32, Rot>,
    cache: Vec<Cache>,
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
        // Pair `(re, im)` becomes `(re·cos − im·sin, re·sin + im·cos)`: a 2x2 matrix per
        // position and pair, from the pair's parts (`PAIR`) to the turned ones (`TURNED`).
        let rot = Tensor::from_fn(&[max_seq, half, 2, 2], |i| {
            let (cos, sin) = (angle(i[0], i[1]).cos(), angle(i[0], i[1]).sin());
            match (i.at::<PAIR>(), i.at::<TURNED>()) {
                (0, 0) | (1, 1) => cos,
                (1, 0) => -sin,
                _ => sin,
            }
        })?;
        let cache = (0..layers.len())
            .map(|_| {
                Ok(Cache {
                    k: Tensor::zeros_sized(&[max_seq, kvh, half, 2])?,
                    v: Tensor::zeros_sized(&[max_seq, kvh, hd])?,
                })
            })
            .collect::<Result<_, Error>>()?;
        let model = Llama {
            emb: w.get("tok_embeddings")?,
            layers,
            norm: w.get("norm")?,
            output: w.get("output")?,
            rot,
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
        let rot = self.rot.view().slice::<SEQ>(pos..pos + n)?;
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
            let q = rope(&h.dot::<DIM>(&layer.wq), &rot)?;
            let k = rope(&h.dot::<DIM>(&layer.wk), &rot)?.rename::<SEQ, KSEQ>();
            let v = h.dot::<DIM>(&layer.wv).rename::<SEQ, KSEQ>();
            let at = pos..pos + n;
            cache
                .k
                .view_mut()
                .slice::<KSEQ>(at.clone())?
                .assign(&k.view())?;
            cache.v.view_mut().slice::<KSEQ>(at)?.assign(&v.view())?;
            let keys = cache.k.view().slice::<KSEQ>(..pos + n)?;
            let values = cache.v.view().slice::<KSEQ>(..pos + n)?;
            let scale = 1.0 / ((2 * q.size::<HALF>()) as f32).sqrt();
            // Each KV head serves its GROUP of query heads: the keys broadcast over GROUP.
            let scores = q.dot::<(HALF, TURNED)>(&keys) * scale + &mask;
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

/// The rotation table: per position and feature pair, the 2x2 matrix that turns the pair.
type Rot = shape![SEQ, HALF, PAIR: 2, TURNED: 2];
/// The features `HD` as adjacent pairs `(2i, 2i + 1)`.
type Pairs = (HALF, PAIR<S<2>>);
/// What [`rope`] makes of a shape: its `HD` axis as the turned pairs `[HALF, TURNED: 2]`
/// (`[SEQ, KVH, GROUP, HALF, TURNED: 2]` for the queries, `[SEQ, KVH, HALF, TURNED: 2]` for
/// the keys).
pub type Rotated<Sh> = Contract<SplitAxis<Sh, HD, Pairs>, Rot, PAIR>;

/// Rotary embeddings, for queries and keys alike: the features' adjacent pairs, each turned by
/// its position's angle (a contraction over the pair's parts). The two bounds are the public
/// bounds of the two operations it calls, `split_axis` and `dot`.
fn rope<Sh>(
    x: &Tensor<f32, Sh>,
    rot: &TensorView<'_, f32, Rot>,
) -> Result<Tensor<f32, Rotated<Sh>>, Error>
where
    Sh: SplitAxisInto<HD, Pairs>,
    SplitAxis<Sh, HD, Pairs>: ContractWith<Rot, PAIR>,
{
    Ok(x.split_axis::<HD, Pairs>()?.dot::<PAIR>(rot))
}
