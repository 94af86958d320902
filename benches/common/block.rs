//! A GPT-2-style pre-norm transformer block, written twice: in typed shapecast (every shape a
//! type, every axis aligned by name) and in ndarray as its users write it (reshapes to 2-D
//! for the projections, a loop over batch and heads for attention, `mapv` for GELU). Shared
//! by `benches/transformer.rs` and `benches/page_faults.rs`; `scripts/bench_transformer.py`
//! holds the same block in NumPy and PyTorch, with the same weights.
#![allow(dead_code)]
// `shape![..]` expands to a tuple of axis types, which clippy counts as a complex type.
#![allow(clippy::type_complexity)]

use ndarray::{s, Array1, Array2, Array3, Array4, Axis};
use shapecast::{
    names, shape, Attention, Causal, Dot, FloatMath, Norms, Parts, Reductions, Tensor,
};

names!(BATCH, SEQ, KSEQ, EMBED, HEADS, DK, FF);

/// The activations.
pub type X = shape![BATCH, SEQ, EMBED];

/// The block's sizes.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    pub batch: usize,
    pub seq: usize,
    pub embed: usize,
    pub heads: usize,
    pub dk: usize,
    pub ff: usize,
}

/// The two sizes of the benchmark.
pub const SMALL: Dims = Dims {
    batch: 1,
    seq: 128,
    embed: 256,
    heads: 4,
    dk: 64,
    ff: 1024,
};
pub const LARGE: Dims = Dims {
    batch: 4,
    seq: 256,
    embed: 512,
    heads: 8,
    dk: 64,
    ff: 2048,
};

impl Dims {
    pub fn label(&self) -> String {
        format!(
            "B{} T{} E{} H{} D{} F{}",
            self.batch, self.seq, self.embed, self.heads, self.dk, self.ff
        )
    }
}

/// Deterministic values in [-scale, scale): element `i` of weight number `which` (the same
/// formula as `scripts/bench_transformer.py`).
pub fn wave(which: usize, n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let h = (i.wrapping_mul(2_654_435_761) ^ (which * 40_503)) % 1000;
            (h as f32 / 500.0 - 1.0) * scale
        })
        .collect()
}

/// The weights as flat row-major vectors, in the layout both blocks read.
pub struct Flat {
    pub x: Vec<f32>,
    pub ln1: (Vec<f32>, Vec<f32>),
    pub wq: Vec<f32>,
    pub wk: Vec<f32>,
    pub wv: Vec<f32>,
    pub wo: Vec<f32>,
    pub ln2: (Vec<f32>, Vec<f32>),
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl Flat {
    pub fn new(d: Dims) -> Flat {
        let (e, hd, f) = (d.embed, d.heads * d.dk, d.ff);
        let se = 1.0 / (e as f32).sqrt();
        Flat {
            x: wave(0, d.batch * d.seq * e, 1.0),
            ln1: (
                wave(1, e, 0.1).iter().map(|g| 1.0 + g).collect(),
                wave(2, e, 0.1),
            ),
            wq: wave(3, e * hd, se),
            wk: wave(4, e * hd, se),
            wv: wave(5, e * hd, se),
            wo: wave(6, hd * e, 1.0 / (hd as f32).sqrt()),
            ln2: (
                wave(7, e, 0.1).iter().map(|g| 1.0 + g).collect(),
                wave(8, e, 0.1),
            ),
            w1: wave(9, e * f, se),
            b1: wave(10, f, 0.1),
            w2: wave(11, f * e, 1.0 / (f as f32).sqrt()),
            b2: wave(12, e, 0.1),
        }
    }
}

/// The causal mask: 0 where a query may attend to a key, a large negative number after it.
pub fn causal(seq: usize) -> Vec<f32> {
    (0..seq * seq)
        .map(|i| if i % seq > i / seq { -1e9 } else { 0.0 })
        .collect()
}

/// The typed block's weights.
pub struct Typed {
    pub ln1: (Tensor<f32, shape![EMBED]>, Tensor<f32, shape![EMBED]>),
    pub wq: Tensor<f32, shape![EMBED, HEADS, DK]>,
    pub wk: Tensor<f32, shape![EMBED, HEADS, DK]>,
    pub wv: Tensor<f32, shape![EMBED, HEADS, DK]>,
    pub wo: Tensor<f32, shape![HEADS, DK, EMBED]>,
    pub ln2: (Tensor<f32, shape![EMBED]>, Tensor<f32, shape![EMBED]>),
    pub w1: Tensor<f32, shape![EMBED, FF]>,
    pub b1: Tensor<f32, shape![FF]>,
    pub w2: Tensor<f32, shape![FF, EMBED]>,
    pub b2: Tensor<f32, shape![EMBED]>,
    pub mask: Tensor<f32, shape![SEQ, KSEQ]>,
}

impl Typed {
    pub fn new(d: Dims, f: &Flat) -> (Tensor<f32, X>, Typed) {
        let (e, h, k, ff) = (d.embed, d.heads, d.dk, d.ff);
        let x = Tensor::from_vec_sized(&[d.batch, d.seq, e], f.x.clone()).unwrap();
        let typed = Typed {
            ln1: (
                Tensor::from_vec_sized(&[e], f.ln1.0.clone()).unwrap(),
                Tensor::from_vec_sized(&[e], f.ln1.1.clone()).unwrap(),
            ),
            wq: Tensor::from_vec_sized(&[e, h, k], f.wq.clone()).unwrap(),
            wk: Tensor::from_vec_sized(&[e, h, k], f.wk.clone()).unwrap(),
            wv: Tensor::from_vec_sized(&[e, h, k], f.wv.clone()).unwrap(),
            wo: Tensor::from_vec_sized(&[h, k, e], f.wo.clone()).unwrap(),
            ln2: (
                Tensor::from_vec_sized(&[e], f.ln2.0.clone()).unwrap(),
                Tensor::from_vec_sized(&[e], f.ln2.1.clone()).unwrap(),
            ),
            w1: Tensor::from_vec_sized(&[e, ff], f.w1.clone()).unwrap(),
            b1: Tensor::from_vec_sized(&[ff], f.b1.clone()).unwrap(),
            w2: Tensor::from_vec_sized(&[ff, e], f.w2.clone()).unwrap(),
            b2: Tensor::from_vec_sized(&[e], f.b2.clone()).unwrap(),
            mask: Tensor::from_vec_sized(&[d.seq, d.seq], causal(d.seq)).unwrap(),
        };
        (x, typed)
    }
}

/// Layer normalisation over `EMBED`, with the operators.
pub fn layer_norm(
    x: &Tensor<f32, X>,
    (g, b): &(Tensor<f32, shape![EMBED]>, Tensor<f32, shape![EMBED]>),
) -> Tensor<f32, X> {
    let mean = x.mean::<EMBED>();
    let var = x.var::<EMBED>();
    (x - &mean) / (var + 1e-5).sqrt() * g + b
}

/// GELU, tanh form, written with the operators.
pub fn gelu_ops(u: Tensor<f32, shape![BATCH, SEQ, FF]>) -> Tensor<f32, shape![BATCH, SEQ, FF]> {
    let c = (2.0f32 / core::f32::consts::PI).sqrt();
    let inner = (&u + (&u).powi(3) * 0.044_715) * c;
    u * 0.5 * (inner.tanh() + 1.0)
}

/// GELU, tanh form, as one `map`.
pub fn gelu_map(u: &Tensor<f32, shape![BATCH, SEQ, FF]>) -> Tensor<f32, shape![BATCH, SEQ, FF]> {
    let c = (2.0f32 / core::f32::consts::PI).sqrt();
    u.map(|v| 0.5 * v * (1.0 + (c * (v + 0.044_715 * v * v * v)).tanh()))
}

/// Attention over `KSEQ`: the context of every query position, per head.
pub fn attention(
    h: &Tensor<f32, X>,
    w: &Typed,
    dk: usize,
) -> Tensor<f32, shape![BATCH, SEQ, HEADS, DK]> {
    let q = h.dot::<EMBED>(&w.wq);
    let k = h.dot::<EMBED>(&w.wk).rename::<SEQ, KSEQ>();
    let v = h.dot::<EMBED>(&w.wv).rename::<SEQ, KSEQ>();
    let scores = q.dot::<DK>(&k) * (1.0 / (dk as f32).sqrt()) + &w.mask;
    let weights = scores.softmax_into::<KSEQ>();
    weights.dot::<KSEQ>(&v)
}

/// The activations of the MLP's hidden layer.
pub type Hidden = Tensor<f32, shape![BATCH, SEQ, FF]>;

/// The block in typed shapecast, GELU written with the operators.
pub fn typed_block(x: &Tensor<f32, X>, w: &Typed, dk: usize) -> Tensor<f32, X> {
    typed_block_with(x, w, dk, gelu_ops)
}

/// The block in typed shapecast with the library's GELU (`FloatMath::gelu`, one pass), as the
/// PyTorch block calls `F.gelu`.
pub fn typed_block_gelu(x: &Tensor<f32, X>, w: &Typed, dk: usize) -> Tensor<f32, X> {
    typed_block_with(x, w, dk, FloatMath::gelu)
}

fn typed_block_with(
    x: &Tensor<f32, X>,
    w: &Typed,
    dk: usize,
    gelu: fn(Hidden) -> Hidden,
) -> Tensor<f32, X> {
    let ctx = attention(&layer_norm(x, &w.ln1), w, dk);
    let x1 = ctx.dot::<(HEADS, DK)>(&w.wo) + x;
    let u = layer_norm(&x1, &w.ln2).dot::<EMBED>(&w.w1) + &w.b1;
    let out: Tensor<f32, X> = gelu(u).dot::<FF>(&w.w2) + &w.b2;
    out + &x1
}

/// The fused block's first half: `layer_norm`, the projections, `attention` (causal).
fn fused_attention(x: &Tensor<f32, X>, w: &Typed) -> Tensor<f32, shape![BATCH, SEQ, HEADS, DK]> {
    let h = x.layer_norm::<EMBED>(&w.ln1.0, &w.ln1.1, 1e-5);
    let q = h.dot::<EMBED>(&w.wq);
    let k = h.dot::<EMBED>(&w.wk).rename::<SEQ, KSEQ>();
    let v = h.dot::<EMBED>(&w.wv).rename::<SEQ, KSEQ>();
    q.attention::<DK, KSEQ>(&k, &v, Causal::<SEQ>::new(), None)
}

/// The block on the fused operations: `layer_norm` in one pass over each row, attention in
/// one pass per block of queries (causal by name, the scores never held whole), the
/// library's GELU.
pub fn fused_block(x: &Tensor<f32, X>, w: &Typed) -> Tensor<f32, X> {
    let ctx = fused_attention(x, w);
    let x1 = ctx.dot::<(HEADS, DK)>(&w.wo) + x;
    let u = x1
        .layer_norm::<EMBED>(&w.ln2.0, &w.ln2.1, 1e-5)
        .dot::<EMBED>(&w.w1)
        + &w.b1;
    let out: Tensor<f32, X> = u.gelu().dot::<FF>(&w.w2) + &w.b2;
    out + &x1
}

/// [`fused_block`] as two parallel regions (`Parts::map_parts`) rather than each operation
/// splitting on its own: the projections and attention over the heads (a part of the heads
/// a thread, cut along the query weight's `HEADS`), then the chain after attention (the
/// output projection, the residual, the second norm, the MLP and its residual) over the
/// positions.
pub fn fused_block_parts(x: &Tensor<f32, X>, w: &Typed) -> Tensor<f32, X> {
    let h = x.layer_norm::<EMBED>(&w.ln1.0, &w.ln1.1, 1e-5);
    w.wq.map_parts::<HEADS, _, _>(|wq, heads| {
        let wk = w.wk.slice::<HEADS>(heads.clone())?;
        let wv = w.wv.slice::<HEADS>(heads)?;
        let q = h.dot::<EMBED>(&wq);
        let k = h.dot::<EMBED>(&wk).rename::<SEQ, KSEQ>();
        let v = h.dot::<EMBED>(&wv).rename::<SEQ, KSEQ>();
        Ok(q.attention::<DK, KSEQ>(&k, &v, Causal::<SEQ>::new(), None))
    })
    .unwrap()
    .map_parts::<SEQ, _, _>(|ctx, rows| {
        let x1 = ctx.dot::<(HEADS, DK)>(&w.wo) + x.slice::<SEQ>(rows)?;
        let u = x1
            .layer_norm::<EMBED>(&w.ln2.0, &w.ln2.1, 1e-5)
            .dot::<EMBED>(&w.w1)
            + &w.b1;
        let out: Tensor<f32, X> = u.gelu().dot::<FF>(&w.w2) + &w.b2;
        Ok(out + &x1)
    })
    .unwrap()
}

/// The ndarray block's weights.
pub struct Nd {
    pub ln1: (Array1<f32>, Array1<f32>),
    pub wq: Array2<f32>,
    pub wk: Array2<f32>,
    pub wv: Array2<f32>,
    pub wo: Array2<f32>,
    pub ln2: (Array1<f32>, Array1<f32>),
    pub w1: Array2<f32>,
    pub b1: Array1<f32>,
    pub w2: Array2<f32>,
    pub b2: Array1<f32>,
    pub mask: Array2<f32>,
}

impl Nd {
    pub fn new(d: Dims, f: &Flat) -> (Array3<f32>, Nd) {
        let (e, hd, ff) = (d.embed, d.heads * d.dk, d.ff);
        let m =
            |r: usize, c: usize, v: &Vec<f32>| Array2::from_shape_vec((r, c), v.clone()).unwrap();
        let a = |v: &Vec<f32>| Array1::from_vec(v.clone());
        let x = Array3::from_shape_vec((d.batch, d.seq, e), f.x.clone()).unwrap();
        let nd = Nd {
            ln1: (a(&f.ln1.0), a(&f.ln1.1)),
            wq: m(e, hd, &f.wq),
            wk: m(e, hd, &f.wk),
            wv: m(e, hd, &f.wv),
            wo: m(hd, e, &f.wo),
            ln2: (a(&f.ln2.0), a(&f.ln2.1)),
            w1: m(e, ff, &f.w1),
            b1: a(&f.b1),
            w2: m(ff, e, &f.w2),
            b2: a(&f.b2),
            mask: m(d.seq, d.seq, &causal(d.seq)),
        };
        (x, nd)
    }
}

fn nd_layer_norm(x: &Array2<f32>, (g, b): &(Array1<f32>, Array1<f32>)) -> Array2<f32> {
    let mean = x.mean_axis(Axis(1)).unwrap().insert_axis(Axis(1));
    let var = x.var_axis(Axis(1), 0.0).insert_axis(Axis(1));
    (x - &mean) / (var + 1e-5).mapv(f32::sqrt) * g + b
}

/// Attention in ndarray: a loop over batch and heads, each head's scores a 2-D product;
/// the context as rows of `(batch·seq, heads·dk)`.
pub fn nd_attention(h: &Array2<f32>, w: &Nd, d: Dims) -> Array2<f32> {
    let split = |m: Array2<f32>| {
        m.into_shape_with_order((d.batch, d.seq, d.heads, d.dk))
            .unwrap()
    };
    let (q, k, v) = (
        split(h.dot(&w.wq)),
        split(h.dot(&w.wk)),
        split(h.dot(&w.wv)),
    );
    let scale = 1.0 / (d.dk as f32).sqrt();
    let mut ctx = Array4::<f32>::zeros((d.batch, d.seq, d.heads, d.dk));
    for b in 0..d.batch {
        for hh in 0..d.heads {
            let qs = q.slice(s![b, .., hh, ..]);
            let ks = k.slice(s![b, .., hh, ..]);
            let vs = v.slice(s![b, .., hh, ..]);
            let mut sc = qs.dot(&ks.t()) * scale + &w.mask;
            for mut row in sc.rows_mut() {
                let m = row.fold(f32::NEG_INFINITY, |a, &b| a.max(b));
                row.mapv_inplace(|v| (v - m).exp());
                let s = row.sum();
                row /= s;
            }
            ctx.slice_mut(s![b, .., hh, ..]).assign(&sc.dot(&vs));
        }
    }
    ctx.into_shape_with_order((d.batch * d.seq, d.heads * d.dk))
        .unwrap()
}

/// The block in ndarray: rows of `(batch·seq, embed)` for the projections.
pub fn nd_block(x: &Array3<f32>, w: &Nd, d: Dims) -> Array3<f32> {
    let (bt, e) = (d.batch * d.seq, d.embed);
    let x2 = x.view().into_shape_with_order((bt, e)).unwrap();
    let ctx = nd_attention(&nd_layer_norm(&x2.to_owned(), &w.ln1), w, d);
    let x1 = ctx.dot(&w.wo) + x2;
    let u = nd_layer_norm(&x1, &w.ln2).dot(&w.w1) + &w.b1;
    let c = (2.0f32 / core::f32::consts::PI).sqrt();
    let g = u.mapv(|v| 0.5 * v * (1.0 + (c * (v + 0.044_715 * v * v * v)).tanh()));
    let out = g.dot(&w.w2) + &w.b2 + &x1;
    out.into_shape_with_order((d.batch, d.seq, e)).unwrap()
}
