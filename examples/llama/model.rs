//! A Llama-style decoder in typed shapecast (llama2.c's architecture): token embedding by
//! `take`, `rms_norm` by name, rotary embeddings over adjacent feature pairs (`rope`, one
//! call for queries and keys), grouped-query attention in one pass (`attention`: the KV
//! heads serve a `GROUP` of query heads by name, causal after the cached positions), SwiGLU,
//! a preallocated KV cache written through views, greedy generation; each operation splits
//! over the threads on its own, or, with [`Llama::parts`], a prompt's layers run their chains
//! of operations as parallel regions over the positions (`map_parts`). Every size is `?`, so
//! one model serves every configuration. The weights are read by name from a `.safetensors` file, in the layouts
//! files keep (`[out, in]`, contracted over their last axis), and kept `[in, out]` (axes
//! moved once at load, `in_out!`: a prompt's products read a weight fastest so, a generated
//! token's as fast; the products contract by name, so nothing else changes): `main.rs` writes its own with
//! their axis names; `scripts/bench_llama.py` writes the benchmark's (`benches/llama.rs`)
//! with what PyTorch computed from them ([`Expected`]). The weights' element is a parameter
//! ([`Weight`]): `f32` (a half-precision file widened once, at load), or `bf16`/`f16` kept as
//! the checkpoint stores them, half the memory, multiplied by the `f32` activations with
//! `f32` accumulation.
#![allow(dead_code)]
// `shape![..]` expands to a tuple of axis types, which clippy counts as a complex type.
#![allow(clippy::type_complexity)]

use core::ops::Range;

use shapecast::io::Weights;
use shapecast::{
    bf16, f16, names, shape, Attention, Cast, Causal, Dot, DotElement, DotOperand, Error,
    FloatMath, Norms, Parts, Reductions, Rope, RopeStyle, Rotary, Storage, Tensor,
};

names!(SEQ, KSEQ, DIM, KVH, GROUP, HD, HIDDEN, VOCAB);

/// `$f(part, range)` on the positions of `$x`: with `$parts`, one parallel region over them
/// (`Parts::map_parts`: a part of the positions a thread, every operation in `$f` on that
/// thread), else one call on all of them whose operations each split on their own.
macro_rules! over_positions {
    ($parts:expr, $x:expr, $f:expr) => {
        if $parts {
            $x.map_parts::<SEQ, _, _>($f)
        } else {
            let n = $x.size::<SEQ>();
            at_once($x.view().slice::<SEQ>(..)?, 0..n, $f)
        }
    };
}

/// `f(x, range)`: the other branch of `over_positions!`, its closure typed as `map_parts`'s.
fn at_once<V, R>(x: V, range: Range<usize>, f: impl FnOnce(V, Range<usize>) -> R) -> R {
    f(x, range)
}

/// The activations: one sequence of positions.
pub type X = Tensor<f32, shape![SEQ, DIM]>;
/// The cached keys (turned by their positions) and values.
type Cached = Tensor<f32, shape![KSEQ, KVH, HD]>;

/// The element the products' weights are kept in: `f32`, or a half-precision element as the
/// checkpoint stores it.
pub trait Weight: DotOperand<f32> + DotElement {
    /// Whether this is a half-precision element (whose products may round the activations
    /// to it: [`Llama::half_products`]).
    const HALF: bool;
    /// `x` rounded to this element.
    fn round<A: Cast<Elem = f32>>(x: &A) -> Tensor<Self, A::Shape>
    where
        A::Shape: Storage<Self>;
    /// `x` widened to `f32`.
    fn widen<A: Cast<Elem = Self>>(x: &A) -> Tensor<f32, A::Shape>
    where
        A::Shape: Storage<f32>;
    /// The tensor `name` of `w` in this element.
    fn read<S: Storage<Self>>(w: &Weights, name: &str) -> Result<Tensor<Self, S>, Error>;
    /// The rows of the embedding `emb` for the tokens `ids`, in `f32`.
    fn embed(
        emb: &Tensor<Self, shape![VOCAB, DIM]>,
        ids: &Tensor<usize, shape![SEQ]>,
    ) -> Result<X, Error>;
}

impl Weight for f32 {
    const HALF: bool = false;
    fn round<A: Cast<Elem = f32>>(x: &A) -> Tensor<f32, A::Shape>
    where
        A::Shape: Storage<f32>,
    {
        x.cast()
    }
    fn widen<A: Cast<Elem = f32>>(x: &A) -> Tensor<f32, A::Shape>
    where
        A::Shape: Storage<f32>,
    {
        x.cast()
    }
    /// Widened from `bf16`/`f16` if the file stores them so.
    fn read<S: Storage<f32>>(w: &Weights, name: &str) -> Result<Tensor<f32, S>, Error> {
        w.get_widened(name)
    }
    fn embed(
        emb: &Tensor<f32, shape![VOCAB, DIM]>,
        ids: &Tensor<usize, shape![SEQ]>,
    ) -> Result<X, Error> {
        emb.try_take::<VOCAB, _>(ids)
    }
}

macro_rules! half_weight {
    ($($t:ty),*) => {$(
        impl Weight for $t {
            const HALF: bool = true;
            fn round<A: Cast<Elem = f32>>(x: &A) -> Tensor<$t, A::Shape> where A::Shape: Storage<$t> {
                x.cast()
            }
            fn widen<A: Cast<Elem = $t>>(x: &A) -> Tensor<f32, A::Shape> where A::Shape: Storage<f32> {
                x.cast()
            }
            /// As stored: a file of another element is refused by name.
            fn read<S: Storage<$t>>(w: &Weights, name: &str) -> Result<Tensor<$t, S>, Error> {
                w.get(name)
            }
            /// The rows taken in half precision, then widened.
            fn embed(emb: &Tensor<$t, shape![VOCAB, DIM]>, ids: &Tensor<usize, shape![SEQ]>) -> Result<X, Error> {
                Ok(emb.try_take::<VOCAB, _>(ids)?.cast())
            }
        }
    )*};
}
half_weight!(bf16, f16);

/// One decoder layer's weights: the norms' in `f32`, the products' in `W`.
pub struct Layer<W = f32> {
    attn_norm: Tensor<f32, shape![DIM]>,
    wq: Tensor<W, shape![DIM, KVH, GROUP, HD]>,
    wk: Tensor<W, shape![DIM, KVH, HD]>,
    wv: Tensor<W, shape![DIM, KVH, HD]>,
    wo: Tensor<W, shape![KVH, GROUP, HD, DIM]>,
    ffn_norm: Tensor<f32, shape![DIM]>,
    w1: Tensor<W, shape![DIM, HIDDEN]>,
    w2: Tensor<W, shape![HIDDEN, DIM]>,
    w3: Tensor<W, shape![DIM, HIDDEN]>,
}

/// One layer's cache: the rotated keys and the values.
struct Cache {
    k: Cached,
    v: Cached,
}

/// The model, its cache and its rotation tables; its weights in `W`.
pub struct Llama<W = f32> {
    emb: Tensor<W, shape![VOCAB, DIM]>,
    layers: Vec<Layer<W>>,
    norm: Tensor<f32, shape![DIM]>,
    output: Tensor<W, shape![VOCAB, DIM]>,
    rot: Rotary<f32>,
    cache: Vec<Cache>,
    /// Whether a prompt's layers run their chains of operations on the same positions as
    /// parallel regions over the positions ([`Parts::map_parts`]), or let each operation
    /// split over the threads on its own (the default: each thread then reads half of each
    /// weight, where a region's parts each read all of it; `benches/llama.rs` times both).
    pub parts: bool,
    /// Whether a prompt's products round the activations to the weights' half-precision
    /// element first (PyTorch's bf16 model does; off by default): a product of two bf16
    /// matrices runs on the CPU's bf16 instructions where it has them (AVX512-BF16), 1.6x
    /// the rate of `f32` activations by bf16 weights, at bf16's precision for the
    /// activations. The norms, attention and generated tokens stay in `f32`.
    pub half_products: bool,
}

/// `$h` contracted with the weight `$w` over `$A`: with `$round`, `$h` rounded to the
/// weight's element first and the product widened back.
macro_rules! project {
    ($round:expr, $h:expr, $A:ty, $w:expr) => {
        if $round {
            W::widen(&W::round(&$h).dot::<$A>($w))
        } else {
            $h.dot::<$A>($w)
        }
    };
}

/// The weight `$name` of `$w`, stored `[out, in]` (`$file`) as checkpoints keep it, with its
/// axes in the order of the field it goes to, `[in, out]`: copied once, here. Products of
/// many rows read a weight fastest so, and a few rows (a generated token) as fast.
macro_rules! in_out {
    ($w:expr, $name:expr, [$($file:tt)*]) => {
        W::read::<shape![$($file)*]>($w, $name)?.view().align_to()?.to_tensor()
    };
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

impl<W: Weight> Llama<W> {
    /// The model of `w` with a cache for `max_seq` positions, its weights read as `W`
    /// ([`Weight::read`]: into `f32`, a `bf16`/`f16` file widened once, here; or as stored).
    pub fn load(w: &Weights, max_seq: usize) -> Result<Llama<W>, Error> {
        let mut layers = Vec::new();
        while w
            .names()
            .contains(&format!("layers.{}.wq", layers.len()).as_str())
        {
            let p = |n: &str| format!("layers.{}.{n}", layers.len());
            layers.push(Layer {
                attn_norm: w.get_widened(&p("attention_norm"))?,
                wq: in_out!(w, &p("wq"), [KVH, GROUP, HD, DIM]),
                wk: in_out!(w, &p("wk"), [KVH, HD, DIM]),
                wv: in_out!(w, &p("wv"), [KVH, HD, DIM]),
                wo: in_out!(w, &p("wo"), [DIM, KVH, GROUP, HD]),
                ffn_norm: w.get_widened(&p("ffn_norm"))?,
                w1: in_out!(w, &p("w1"), [HIDDEN, DIM]),
                w2: in_out!(w, &p("w2"), [DIM, HIDDEN]),
                w3: in_out!(w, &p("w3"), [HIDDEN, DIM]),
            });
        }
        let l0 = &layers[0];
        let (kvh, hd) = (l0.wk.size::<KVH>(), l0.wk.size::<HD>());
        // Pair i of position t turns by t / 10000^(2i / hd): adjacent features pair up.
        let rot = Rotary::new(RopeStyle::Adjacent, hd, max_seq, 10000.0)?;
        let cache = (0..layers.len())
            .map(|_| {
                Ok(Cache {
                    k: Tensor::zeros_sized(&[max_seq, kvh, hd])?,
                    v: Tensor::zeros_sized(&[max_seq, kvh, hd])?,
                })
            })
            .collect::<Result<_, Error>>()?;
        let model = Llama {
            emb: W::read(w, "tok_embeddings")?,
            layers,
            norm: w.get_widened("norm")?,
            output: W::read(w, "output")?,
            rot,
            cache,
            parts: false,
            half_products: false,
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
        let mut x: X = W::embed(&self.emb, &ids)?;
        let round = W::HALF && self.half_products && n > 1;
        for (layer, cache) in self.layers.iter().zip(&mut self.cache) {
            let h = x.rms_norm::<DIM>(&layer.attn_norm, 1e-5);
            // Queries and keys turned by their positions, `pos..pos + n` (a part's rows
            // from `pos + r.start`).
            let rot = &self.rot;
            let q = over_positions!(self.parts, h, |h, r| {
                Ok(project!(round, h, DIM, &layer.wq).rope::<SEQ, HD>(rot, pos + r.start))
            })?;
            let k = over_positions!(self.parts, h, |h, r| {
                Ok(project!(round, h, DIM, &layer.wk).rope::<SEQ, HD>(rot, pos + r.start))
            })?;
            let v = over_positions!(self.parts, h, |h, _| Ok(project!(round, h, DIM, &layer.wv)))?;
            let (k, v) = (k.rename::<SEQ, KSEQ>(), v.rename::<SEQ, KSEQ>());
            let at = pos..pos + n;
            cache
                .k
                .view_mut()
                .slice::<KSEQ>(at.clone())?
                .assign(&k.view())?;
            cache.v.view_mut().slice::<KSEQ>(at)?.assign(&v.view())?;
            let keys = cache.k.view().slice::<KSEQ>(..pos + n)?;
            let values = cache.v.view().slice::<KSEQ>(..pos + n)?;
            // Each KV head serves its GROUP of query heads by name; query `s` sits at
            // position `pos + s` and sees the keys up to it.
            let ctx = q.attention::<HD, KSEQ>(&keys, &values, Causal::<SEQ>::at(pos), None);
            // The output projection, the residual, the norm and the SwiGLU block, row by row.
            x = over_positions!(self.parts, ctx, |ctx, r| {
                let x = x.slice::<SEQ>(r)?.to_tensor()
                    + project!(round, ctx, (KVH, GROUP, HD), &layer.wo);
                let h = x.rms_norm::<DIM>(&layer.ffn_norm, 1e-5);
                let gate =
                    project!(round, h, DIM, &layer.w1).silu() * project!(round, h, DIM, &layer.w3);
                Ok(x + project!(round, gate, HIDDEN, &layer.w2))
            })?;
        }
        let last = x
            .view()
            .select::<SEQ>(n - 1)?
            .rms_norm::<DIM>(&self.norm, 1e-5);
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
