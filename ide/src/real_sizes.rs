//! Every operation at the sizes real models have: GPT-2 (768, 3072, 50257, 12 heads of 64) and
//! Llama (4096, 11008, 32000, 32 heads of 128), each broadcasting rule at those sizes, and a
//! size far past the size table (2^20 + 1). An editor must show each binding's shape.

use shapecast::rule::{
    Assign, Bidirectional, Compare, Embed, Named, Numpy, Outer, Pdpd, Static, Strict,
};
use shapecast::{
    names, shape, Attend, BroadcastBy, Concat, Contract, FloatMath, MatMul, MergeAxes, Pad,
    PadMode, Pos, Reduce, SplitAxis, Tensor, S,
};

use shapecast::prelude::*;

use super::value;

names!(BATCH, SEQ, KSEQ, EMBED, HIDDEN, HEADS, DK, VOCAB, CH, ROWS, COLS, HW, N, KVH, GROUP);

type Gpt2X = shape![BATCH, SEQ, EMBED: 768];
type LlamaX = shape![SEQ, EMBED: 4096];

/// Every broadcasting rule at a model's sizes, the size comparison each one makes.
pub fn rules_at_model_sizes() {
    let named = value::<BroadcastBy<Named, shape![?, SEQ, EMBED: 768], shape![SEQ, EMBED: 768]>>();
    let named_bias =
        value::<BroadcastBy<Named, shape![SEQ, HIDDEN: 11008], shape![HIDDEN: 11008]>>();
    let numpy = value::<BroadcastBy<Numpy, shape![4, 4096], shape![4096]>>();
    let numpy_one = value::<BroadcastBy<Numpy, shape![4, 1], shape![50257]>>();
    let outer = value::<BroadcastBy<Outer, shape![SEQ, EMBED: 3072], shape![EMBED: 3072, N: 2]>>();
    let embed = value::<BroadcastBy<Embed, shape![8, 32000, 4096], shape![32000, 4096]>>();
    let strict = value::<
        BroadcastBy<Strict, shape![SEQ: 1024, EMBED: 768], shape![SEQ: 1024, EMBED: 768]>,
    >();
    let compare = value::<BroadcastBy<Compare, shape![VOCAB: 50257], shape![VOCAB: 50257]>>();
    let statik =
        value::<BroadcastBy<Static, shape![SEQ: 2048, EMBED: 4096], shape![EMBED: 4096]>>();
    let pdpd = value::<BroadcastBy<Pdpd, shape![2, 11008, 4096], shape![11008, 4096]>>();
    let bidirectional = value::<BroadcastBy<Bidirectional, shape![1, 4096], shape![32000, 1]>>();
    let assign = value::<BroadcastBy<Assign, shape![SEQ, EMBED: 768], shape![EMBED: 768]>>();
    let huge = value::<BroadcastBy<Named, shape![?, N: 1048577], shape![N: 1048577]>>();
    let huge_numpy = value::<BroadcastBy<Numpy, shape![3, 1048576], shape![1048576]>>();
}

/// A GPT-2 block's operations at GPT-2's sizes, as a user writes them.
pub fn gpt2(
    x: Tensor<f32, Gpt2X>,
    gain: Tensor<f32, shape![EMBED: 768]>,
    w_qkv: Tensor<f32, shape![EMBED: 768, HIDDEN: 2304]>,
    w_up: Tensor<f32, shape![EMBED: 768, HIDDEN: 3072]>,
    b_up: Tensor<f32, shape![HIDDEN: 3072]>,
    w_down: Tensor<f32, shape![HIDDEN: 3072, EMBED: 768]>,
    wte: Tensor<f32, shape![VOCAB: 50257, EMBED: 768]>,
    tokens: Tensor<usize, shape![BATCH, SEQ]>,
    targets: Tensor<usize, shape![BATCH, SEQ]>,
    mask: Tensor<f32, shape![SEQ, KSEQ]>,
) -> Result<(), shapecast::Error> {
    let residual = &x + &x;
    let mean = x.mean_keep::<EMBED>();
    let centred = &x - &mean;
    let var = x.var_keep::<EMBED>();
    let normed = &centred / &(var + 1e-5).sqrt() * &gain + &gain;
    let qkv = x.dot::<EMBED>(&w_qkv);
    let heads = x.view().split_axis::<EMBED, (HEADS<S<12>>, DK<S<64>>)>()?;
    let q = heads.to_tensor();
    let k = q.clone().rename::<SEQ, KSEQ>();
    let scores = q.dot::<DK>(&k) * 0.125 + &mask;
    let weights = scores.softmax::<KSEQ>();
    let ctx = weights.dot::<KSEQ>(&k);
    let merged = ctx.merge_axes::<(HEADS, DK), EMBED>()?;
    let up = x.dot::<EMBED>(&w_up) + &b_up;
    let act = up.gelu();
    let down = act.dot::<HIDDEN>(&w_down);
    let out = down + &x;
    let embedded = wte.take::<VOCAB, _>(&tokens);
    let logits = x.dot::<EMBED>(&wte);
    let probs = logits.softmax::<VOCAB>();
    let loss = logits.cross_entropy::<VOCAB>(&targets);
    let best = logits.argmax::<VOCAB>();
    let (top, top_at) = logits.topk::<VOCAB>(50)?;
    let summed = logits.cumsum::<VOCAB>();
    let first = logits.slice::<VOCAB>(0..100)?;
    let one = logits.select::<SEQ>(0)?;
    let kept = logits.max_keep::<VOCAB>();
    let shifted = &logits - &kept;
    let hot = tokens.one_hot::<VOCAB<S<50257>>, f32>();
    let wide = gain
        .view()
        .broadcast_to::<shape![SEQ: 1024, EMBED: 768]>()?;
    let stacked = shapecast::stack::<N, _, _>(&[gain.view(), gain.view()])?;
    let joined = w_qkv.concat::<HIDDEN, _>(&w_up)?;
    Ok(())
}

/// A Llama block's operations at Llama-7B's sizes, and the type functions at them.
pub fn llama(
    x: Tensor<f32, LlamaX>,
    gain: Tensor<f32, shape![EMBED: 4096]>,
    w_gate: Tensor<f32, shape![EMBED: 4096, HIDDEN: 11008]>,
    w_down: Tensor<f32, shape![HIDDEN: 11008, EMBED: 4096]>,
    w_out: Tensor<f32, shape![EMBED: 4096, VOCAB: 32000]>,
    m: Tensor<f32, shape![?, 4096]>,
    w: Tensor<f32, shape![4096, 11008]>,
) -> Result<(), shapecast::Error> {
    let rms = (&x * &x).mean_keep::<EMBED>();
    let normed = &x / &(rms + 1e-6).sqrt() * &gain;
    let gate = normed.dot::<EMBED>(&w_gate).silu();
    let up = normed.dot::<EMBED>(&w_gate);
    let hidden = gate * &up;
    let down = hidden.dot::<HIDDEN>(&w_down) + &x;
    let logits = down.dot::<EMBED>(&w_out);
    let probs = logits.softmax::<VOCAB>();
    let heads = x.view().split_axis::<EMBED, (HEADS<S<32>>, DK<S<128>>)>()?;
    let merged = heads.merge_axes::<(HEADS, DK), EMBED>()?;
    let product = m.matmul(&w);
    let grown = x.pad::<EMBED, Pad<64>>(&PadMode::Constant(0.0));
    let contract =
        value::<Contract<shape![SEQ, EMBED: 4096], shape![EMBED: 4096, VOCAB: 32000], EMBED>>();
    let matmul = value::<MatMul<shape![?, 4096], shape![4096, 11008]>>();
    let split = value::<SplitAxis<shape![SEQ, EMBED: 4096], EMBED, (HEADS<S<32>>, DK)>>();
    let merge = value::<MergeAxes<shape![SEQ, HEADS: 32, DK: 128], (HEADS, DK), EMBED>>();
    let concat = value::<
        Concat<HIDDEN, shape![EMBED: 4096, HIDDEN: 1536], shape![EMBED: 4096, HIDDEN: 512]>,
    >();
    let reduce = value::<Reduce<shape![SEQ: 4096, 11008], (Pos<0>, Pos<1>)>>();
    Ok(())
}

/// Llama-7B's fused operations: RMS norm, rotary embeddings, grouped-query attention (32
/// query heads over 8 KV heads) and layer norm, and attention's type function.
pub fn llama_fused(
    x: Tensor<f32, LlamaX>,
    gain: Tensor<f32, shape![EMBED: 4096]>,
    wq: Tensor<f32, shape![KVH: 8, GROUP: 4, DK: 128, EMBED: 4096]>,
    wk: Tensor<f32, shape![KVH: 8, DK: 128, EMBED: 4096]>,
) -> Result<(), shapecast::Error> {
    let rot = Rotary::<f32>::new(RopeStyle::Halves, 128, 4096, 10000.0)?;
    let normed = x.rms_norm::<EMBED>(&gain, 1e-5);
    let q = normed.dot::<EMBED>(&wq).rope::<SEQ, DK>(&rot, 0);
    let k = normed.dot::<EMBED>(&wk).rope::<SEQ, DK>(&rot, 0);
    let keys = k.rename::<SEQ, KSEQ>();
    let ctx = q.attention::<DK, KSEQ>(&keys, &keys, Causal::<SEQ>::new(), None);
    let layer = x.layer_norm::<EMBED>(&gain, &gain, 1e-5);
    let attend = value::<
        Attend<
            shape![SEQ, KVH: 8, GROUP: 4, DK: 128],
            shape![KSEQ, KVH: 8, DK: 128],
            shape![KSEQ, KVH: 8, DK: 128],
            DK,
            KSEQ,
        >,
    >();
    Ok(())
}

/// Concatenation at a model's sizes: the sizes are added on their hex digits; a sum past the
/// size table is `?`, a sum written on the selector is checked.
pub fn concat_at_model_sizes(
    a: Tensor<f32, shape![EMBED: 4096, VOCAB: 32000]>,
    b: Tensor<f32, shape![SEQ, EMBED: 4096]>,
) -> Result<(), shapecast::Error> {
    let vocab = a.concat::<VOCAB, _>(&a)?;
    let written = a.concat::<VOCAB<S<64000>>, _>(&a)?;
    let embed = b.concat::<EMBED, _>(&b)?;
    let mixed = value::<Concat<VOCAB, shape![VOCAB: 2048], shape![VOCAB: 3000]>>();
    let small = value::<Concat<VOCAB, shape![VOCAB: 1000], shape![VOCAB: 1000]>>();
    Ok(())
}
