//! The IDE probe: each function binds computed shapes to `let`s with no written type, so
//! rust-analyzer must work out every one of them itself. `scripts/ide_types.sh` runs
//! rust-analyzer's batch inference over this crate and the examples and fails when any
//! binding is unknown or partly unknown (`.ci/run` runs it). One function per concern: the
//! type functions, the operators, reductions, contractions, surgery, views, and a
//! transformer block's attention as a user writes it.
//!
//! `cargo check` in this directory also checks that every binding compiles.
#![allow(dead_code, unused_variables, clippy::all)]

use shapecast::rule::{Numpy, Outer};
use shapecast::{
    concat, names, shape, stack, Broadcast, BroadcastBy, Concat, Contract, Dot, DynTensor,
    FloatMath, InsertAxis, MatMul, MergeAxes, Pos, Reduce, ReduceKeep, Rename, Select, Slice,
    SplitAxis, Stack, Tensor, S,
};
use shapecast::{
    Conv, Convolution, Convolve, Gather, Interpolation, Loss, OneHot, Pad, PadMode, Padded,
    Padding, Pool, Pooled, Pooling, Reduction, Reductions, Scale, Take, Upsampled, Upsampling,
};

names!(BATCH, SEQ, KSEQ, HEADS, DK, EMBED, CLASS, CHANNEL, H, W, HW, T, F, N, C1, VOCAB, D);

/// A value of any type: lets the probe bind a type function's result without writing it.
fn value<X>() -> X {
    unimplemented!("the probe is analysed, never run")
}

/// The type functions, each bound through `value`.
pub fn type_functions() {
    let numeric = value::<Broadcast<shape![2], shape![2]>>();
    let ranks = value::<Broadcast<shape![4, 1, 3], shape![5, 1]>>();
    let named = value::<Broadcast<shape![?, CHANNEL: 3, H, W], shape![?, H, W]>>();
    let reordered = value::<Broadcast<shape![W: 3, H: 2], shape![H: 2, W: 3]>>();
    let numpy = value::<BroadcastBy<Numpy, shape![5, 1, 4, 1], shape![3, 1, 2]>>();
    let outer = value::<BroadcastBy<Outer, shape![2, H: 3], shape![W: 4, 5, 1]>>();
    let reduce = value::<Reduce<shape![?, CLASS: 10], CLASS>>();
    let keep = value::<ReduceKeep<shape![?, CLASS: 10], CLASS>>();
    let by_pos = value::<Reduce<shape![?, CHANNEL: 3, H, W], (Pos<0>, H, W)>>();
    let contract = value::<Contract<shape![BATCH, SEQ, DK: 64], shape![BATCH, KSEQ, DK: 64], DK>>();
    let matmul = value::<MatMul<shape![?, 3, 4], shape![4, 5]>>();
    let renamed = value::<Rename<shape![?, SEQ, EMBED: 8], SEQ, KSEQ>>();
    let inserted = value::<InsertAxis<shape![H: 2], 0, N>>();
    let selected = value::<Select<shape![CHANNEL: 3, H: 2], CHANNEL>>();
    let sliced = value::<Slice<shape![T: 5, 2], T>>();
    let split = value::<SplitAxis<shape![HW: 6], HW, (H<S<2>>, W)>>();
    let merged = value::<MergeAxes<shape![?, H: 4, W: 5], (H, W), HW>>();
    let concatenated = value::<Concat<W, shape![H: 2, W: 3], shape![H: 2, W: 4]>>();
    let stacked = value::<Stack<N, shape![H: 2]>>();
    let big = value::<Broadcast<shape![3072, 1], shape![50257]>>();
}

/// The operators on references, owned tensors and scalars.
pub fn operators(
    a: Tensor<f32, shape![2]>,
    x: Tensor<f32, shape![?, CHANNEL: 3, H, W]>,
    lbl: Tensor<f32, shape![?, H, W]>,
    d: Tensor<f32, shape![?]>,
    m: Tensor<f32, shape![4, 3]>,
    r: Tensor<f32, shape![3]>,
) {
    let sum = &a + &a;
    let dyn_sum = &d + &d;
    let named = &x + &lbl;
    let named_rev = &lbl - &x;
    let rows = &m * &r;
    let owned = m.clone() / &r;
    let owned_right = &r + m.clone();
    let scaled = &x * 0.5;
    let shifted = x.clone() + 1.0;
    let exp = (&x).exp();
    let gelu = x.clone().gelu();
    let compared = (&m).map(|v| v > 0.0);
}

/// Reductions: by name, by position, kept, and the ones that broadcast back by name.
pub fn reductions(
    logits: Tensor<f32, shape![?, CLASS: 10]>,
    img: Tensor<f32, shape![?, CHANNEL: 3, H, W]>,
) {
    let max = logits.max::<CLASS>();
    let max_keep = logits.max_keep::<CLASS>();
    let stable = &logits - &max;
    let sum = logits.sum::<CLASS>();
    let mean = img.mean::<(Pos<0>, H, W)>();
    let var = img.var::<(Pos<0>, H, W)>();
    let normalised = (&img - &mean) / &var;
    let softmax = logits.softmax::<CLASS>();
    let log_softmax = logits.log_softmax::<CLASS>();
    let argmax = logits.argmax::<CLASS>();
    let lse = logits.logsumexp::<CLASS>();
    let into = logits.clone().softmax_into::<CLASS>();
    let log_into = logits.log_softmax_into::<CLASS>();
}

/// Contractions by name and matrix products.
pub fn contractions(
    q: Tensor<f32, shape![BATCH, SEQ, HEADS: 2, DK: 4]>,
    k: Tensor<f32, shape![BATCH, KSEQ, HEADS: 2, DK: 4]>,
    a: Tensor<f32, shape![?, 3, 4]>,
    b: Tensor<f32, shape![4, 5]>,
) {
    let scores = q.dot::<DK>(&k);
    let both = q.dot::<(HEADS, DK)>(&k);
    let product = a.matmul(&b);
    let view_product = a.view().matmul(&b);
}

/// Shape surgery on owned tensors.
pub fn surgery(
    t: Tensor<i32, shape![?, C2: 3]>,
    hw: Tensor<i32, shape![H: 2, W: 3]>,
    flat: Tensor<i32, shape![HW: 6]>,
    a: Tensor<i32, shape![T, F: 2]>,
) -> Result<(), shapecast::Error> {
    let renamed = t.clone().rename::<C2, KSEQ>();
    let inserted = hw.clone().insert_axis::<0, N>();
    let selected = hw.select::<H>(1)?;
    let sliced = hw.slice::<W>(1..)?;
    let sliced_to = hw.slice_to::<W, S<2>>(1)?;
    let split = flat.split_axis::<HW, (H<S<2>>, W)>()?;
    let merged = hw.merge_axes::<(H, W), HW>()?;
    let joined = a.concat::<T, _>(&a)?;
    let joined_all = concat::<T, _, _>(&[a.view(), a.view()])?;
    let stacked = stack::<N, _, _>(&[hw.view(), hw.view()])?;
    Ok(())
}

names!(C2);

/// Views: borrowing, broadcasting and aligning without a copy, and back to tensors.
pub fn views(
    hw: Tensor<f32, shape![H: 2, W: 3]>,
    row: Tensor<f32, shape![W: 3]>,
) -> Result<(), shapecast::Error> {
    let view = hw.view();
    let column = view.select::<W>(0)?;
    let wide = row.view().broadcast_to::<shape![H: 2, W: 3]>()?;
    let aligned = hw.align_to::<shape![W: 3, H: 2]>()?;
    let owned = aligned.to_tensor();
    let renamed = view.rename::<H, N>();
    let back = wide.to_tensor() + &hw;
    Ok(())
}

names!(A1, A2, A3, A4, A5, A6, A7, A8);

/// Rank 8, the largest rank the type level takes, for the operations whose walks
/// rust-analyzer follows that deep (see `shapecast::guide::editor` for the ranks of
/// the others).
pub fn rank_eight(
    x: Tensor<f32, shape![A1, A2: 2, A3, A4: 2, A5, A6: 3, A7, A8: 2]>,
    u: Tensor<f32, shape![?, 2, ?, 3, ?, 1, ?, 2]>,
    m: Tensor<f32, shape![2, 2, 2, 2, 2, 2, 3, 4]>,
    n: Tensor<f32, shape![4, 5]>,
) -> Result<(), shapecast::Error> {
    let unnamed = &u * &u;
    let numpy =
        value::<BroadcastBy<Numpy, shape![5, 1, 4, 1, 2, 1, 3, 1], shape![3, 1, 2, 1, 4, 1, 5]>>();
    let by_pos = u.sum::<(Pos<0>, Pos<1>)>();
    let one_name = x.sum::<A8>();
    let kept = x.max_keep::<A8>();
    let soft = x.softmax::<A6>();
    let product = m.matmul(&n);
    let renamed = x.clone().rename::<A8, N>();
    let inserted = x.clone().insert_axis::<0, N>();
    let selected = x.select::<A8>(1)?;
    let sliced = x.slice::<A8>(0..1)?;
    let split = x.split_axis::<A8, (H<S<1>>, W)>()?;
    let aligned = x.align_to::<shape![A8: 2, A7, A6: 3, A5, A4: 2, A3, A2: 2, A1]>()?;
    Ok(())
}

/// Rank 8 for every operation that pairs axes by name, the names in reverse order: named
/// broadcasting (the operators; with every name matched, and with a name left over),
/// `broadcast_to` a permuted shape, `dot` over one name and over two, a reduction over three
/// names, `merge_axes` (first and last axes) and `concat` (first and last axes).
pub fn rank_eight_by_name(
    x: Tensor<f32, shape![A1, A2: 2, A3, A4: 2, A5, A6: 2, A7, A8: 2]>,
    r: Tensor<f32, shape![A8: 2, A7, A6: 2, A5, A4: 2, A3, A2: 2, A1]>,
    p: Tensor<f32, shape![?, A2: 2, A3, A4: 2, A5, A6: 2, A7, A8: 2]>,
    w: Tensor<f32, shape![A8: 2, A7, A6: 2, A5, A4: 2, A3, A2: 2, N: 3]>,
) -> Result<(), shapecast::Error> {
    let same = &x + &x;
    let reversed = &x + &r;
    let partly = &p * &x;
    let wide = x
        .view()
        .broadcast_to::<shape![A8: 2, A7, A6: 2, A5, A4: 2, A3, A2: 2, A1]>()?;
    let one = x.dot::<A2>(&w);
    let two = x.dot::<(A2, A4)>(&w);
    let reduced = x.sum::<(A2, A5, A8)>();
    let merged = x.merge_axes::<(A7, A8), HW>()?;
    let merged_first = x.merge_axes::<(A1, A2), HW>()?;
    let joined = x.concat::<A8, _>(&r)?;
    let joined_first = x.concat::<A1, _>(&r)?;
    Ok(())
}

type X = shape![BATCH, SEQ, EMBED: 32];

/// A transformer block's attention, written as a user writes it.
pub fn attention(
    x: &Tensor<f32, X>,
    wq: &Tensor<f32, shape![EMBED: 32, HEADS: 4, DK: 8]>,
    wk: &Tensor<f32, shape![EMBED: 32, HEADS: 4, DK: 8]>,
    wv: &Tensor<f32, shape![EMBED: 32, HEADS: 4, DK: 8]>,
    wo: &Tensor<f32, shape![HEADS: 4, DK: 8, EMBED: 32]>,
    mask: &Tensor<f32, shape![SEQ, KSEQ]>,
) -> Tensor<f32, X> {
    let q = x.dot::<EMBED>(wq);
    let k = x.dot::<EMBED>(wk).rename::<SEQ, KSEQ>();
    let v = x.dot::<EMBED>(wv).rename::<SEQ, KSEQ>();
    let scores = q.dot::<DK>(&k) * 0.35 + mask;
    let weights = scores.softmax::<KSEQ>();
    let ctx = weights.dot::<KSEQ>(&v);
    let out = ctx.dot::<(HEADS, DK)>(wo) + x;
    out
}

/// The image operations (rule book §20-§23): convolution, pooling, padding, upsampling,
/// gather and the losses. Convolutions and pools at small images' sizes (`shapecast::guide::editor`
/// has the limit); padding and gathering at a model's sizes.
pub fn images(
    img: Tensor<f32, shape![N, CHANNEL: 3, H: 32, W: 48]>,
    lbl: Tensor<usize, shape![N, H: 16, W: 24]>,
    w1: Tensor<f32, shape![C1: 16, CHANNEL: 3, H: 3, W: 3]>,
    w2: Tensor<f32, shape![C2: 32, C1: 16, H: 3, W: 3]>,
    head: Tensor<f32, shape![CLASS: 3, C2: 32]>,
    vol: Tensor<f32, shape![N, CHANNEL: 1, D: 16, H: 32, W]>,
    w3: Tensor<f32, shape![C1: 4, CHANNEL: 1, D: 3, H: 3, W: 3]>,
    embed: Tensor<f32, shape![VOCAB: 50257, EMBED: 768]>,
    tokens: Tensor<usize, shape![BATCH, SEQ]>,
    labels: Tensor<i64, shape![N, H: 16, W: 24]>,
    picks: Tensor<i64, shape![N, CLASS: 1, H: 16, W: 24]>,
    class_w: Tensor<f32, shape![CLASS: 3]>,
) {
    let std = img.std_ddof::<(N, H, W)>(1);
    let h1 = img.conv::<CHANNEL, Conv<1, 1>>(&w1).relu();
    let p1 = h1.max_pool::<(H, W), Pool<2>>();
    let h2 = p1.conv::<C1, Conv<2, 1>>(&w2);
    let avg = h1.avg_pool::<(H, W), Pool<3, 2, 1, true>>();
    let padded = img.pad::<(H, W), Pad<2>>(&PadMode::Reflect);
    let same_stride_two = img.pad::<(H, W), Pad<0, 1>>(&PadMode::Constant(0.0));
    let bilinear = h1.upsample::<(H, W), Scale<2>>(Interpolation::Linear {
        align_corners: false,
        antialias: false,
    });
    let to_network = vol.resize::<(H, W), S<224>>(Interpolation::Cubic {
        align_corners: false,
        antialias: true,
    });
    let logits = h1
        .max_pool::<(H, W), Pool<2>>()
        .conv::<C1, Conv<1, 1>>(&w2)
        .dot::<C2>(&head);
    let probs = logits.softmax::<CLASS>();
    let loss = logits.cross_entropy::<CLASS>(&lbl);
    let weighted = logits.try_cross_entropy::<CLASS>(&lbl, &Loss::default().label_smoothing(0.1));
    let pred = logits.argmax::<CLASS>();
    let hot = lbl.one_hot::<CLASS<S<3>>, f32>();
    let volume = vol.conv::<CHANNEL, Conv<1, 1, 2>>(&w3);
    let looked_up = embed.take::<VOCAB, _>(&tokens);
    let labelled = logits.cross_entropy::<CLASS>(&labels);
    let mean = logits.try_cross_entropy_reduced::<CLASS>(
        &labels,
        &Loss::default().class_weights(&class_w),
        Reduction::Mean,
    );
    let picked = logits.gather::<CLASS, _>(&picks);
    let vocab_picked =
        value::<Gather<shape![BATCH, SEQ, VOCAB: 50257], VOCAB, shape![BATCH, SEQ, VOCAB: 1]>>();
    let pointwise = value::<
        Convolve<
            shape![N, CHANNEL: 3, H: 64, W: 96],
            shape![C1: 768, CHANNEL: 3, H: 1, W: 1],
            CHANNEL,
        >,
    >();
    let pooled = value::<Pooled<shape![N, C1: 768, H: 64, W: 96], (H, W), Pool<2>>>();
    let grown = value::<Padded<shape![N, C1: 768, H: 1024, W: 32000], (H, W), Pad<3>>>();
    let causal = value::<Padded<shape![N, C1: 768, H: 1024, W: 2046], W, Pad<2, 0>>>();
    let to_image = value::<Upsampled<shape![N, CLASS: 21, H: 64, W: 96], (H, W), Scale<8>>>();
    let by_three = value::<Upsampled<shape![N, C1: 768, H: 341, W: 682], (H, W), Scale<3>>>();
    let taken = value::<Take<shape![VOCAB: 32000, EMBED: 4096], VOCAB, shape![BATCH, SEQ]>>();
    let encoded = value::<OneHot<shape![BATCH, SEQ], VOCAB<S<50257>>>>();
}

names!(HALF, PAIR, KVH, GROUP, HIDDEN);

/// A size from a constant, as a model's configuration gives it.
const DIM: usize = 288;

/// A decoder's operations: sizes from constants, rotary embeddings over adjacent pairs with
/// views on both sides of the operators, a stepped view, running sums.
pub fn decoder(
    q: Tensor<f32, shape![SEQ, KVH: 3, GROUP: 2, D: 48]>,
    x: Tensor<f32, shape![SEQ, EMBED: DIM]>,
    w: Tensor<f32, shape![HIDDEN: {4 * DIM}, EMBED: DIM]>,
    cos: Tensor<f32, shape![SEQ, HALF: 24]>,
    probs: Tensor<f32, shape![SEQ, VOCAB: 32000]>,
) -> Result<(), shapecast::Error> {
    let hidden = x.dot::<EMBED>(&w);
    let pairs = q.view().split_axis::<D, (HALF<S<24>>, PAIR<S<2>>)>()?;
    let re = pairs.select::<PAIR>(0)?;
    let im = pairs.select::<PAIR>(1)?;
    let rotated = &re * &cos - &im * &cos;
    let scaled = &re * 0.5;
    let even = q.step::<D>(2)?;
    let cumulative = probs.cumsum::<VOCAB>();
    let running = even.cumprod::<D>();
    let (best, best_at) = probs.topk::<VOCAB>(40)?;
    let grown = re.exp();
    let summed = re.sum::<HALF>();
    let table = Tensor::<f32, shape![SEQ: 256, HALF: 24]>::generate(|i| i.at::<HALF>() as f32);
    let interleaved = shapecast::stack_at::<3, PAIR, _, _>(&[re, im])?;
    Ok(())
}

/// A training step's values: a borrowed batch as a constant, a watched weight, the loss.
pub fn training(
    x: &Tensor<f32, shape![N, CLASS: 3]>,
    labels: &Tensor<i64, shape![N]>,
    w: &shapecast::train::Param<f32, shape![CLASS: 3]>,
) -> Result<(), shapecast::Error> {
    let tape = shapecast::train::Tape::new();
    let batch = tape.constant(x);
    let logits = &batch * &tape.watch(w);
    let loss = logits.cross_entropy::<CLASS>(labels, &Loss::default(), Reduction::Mean)?;
    let grads = loss.backward()?;
    Ok(())
}

/// The run-time twin, for comparison: every type here is written by the library.
pub fn dynamic(t: DynTensor<f32>) -> Result<(), shapecast::Error> {
    let sum = t.sum(&["CLASS".parse()?])?;
    let prod = t.matmul(&t)?;
    Ok(())
}

mod images;
mod real_sizes;
