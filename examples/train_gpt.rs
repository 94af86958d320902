//! A character-level GPT trained from PyTorch's initial weights: two pre-norm blocks (the
//! fused layer norm, four heads of the fused causal attention by name, a GELU MLP), the
//! embedding tied to the
//! classifier, AdamW. The first 20 steps' losses are checked against PyTorch's on the same
//! weights and batches (`scripts/gen_train_gpt.py` wrote both), then training goes on and
//! the model writes a line.
//!
//! Every shape is a type: the queries are `[N, SEQ, HEADS: 4, DK: 8]`, the keys the same with
//! `SEQ` renamed `KSEQ`, so the attention's softmax over `KSEQ` and its contraction over
//! `DK` cannot pick the wrong axis; each gradient has its parameter's type.
//!
//! Run: `cargo run --release --example train_gpt --features safetensors [-- STEPS]`

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io::{self, Weights};
use shapecast::prelude::*;
use shapecast::train::{Adam, Param, ParamSlot, Parameters, Progress, Tape, Var};
use shapecast::Storage;

names!(N, SEQ, KSEQ, EMBED, HEADS, DK, HIDDEN, VOCAB);

const CONTEXT: usize = 32;
const BATCH: usize = 8;
/// The steps checked against PyTorch's losses.
const CHECKED: usize = 20;

type Vector = shape![EMBED: 32];
type X = shape![N, SEQ, EMBED: 32];

/// Knuth's MMIX linear congruential generator (the script's `Lcg`).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 32) % n as u64) as usize
    }
}

/// The generated corpus: 6000 sentences from four word lists.
fn corpus() -> String {
    const SUBJECTS: [&str; 10] = [
        "the cat",
        "a dog",
        "the old man",
        "my sister",
        "the river",
        "a small bird",
        "the king",
        "our teacher",
        "the baker",
        "a tired horse",
    ];
    const VERBS: [&str; 10] = [
        "sees",
        "follows",
        "remembers",
        "paints",
        "carries",
        "finds",
        "hears",
        "builds",
        "loves",
        "forgets",
    ];
    const OBJECTS: [&str; 10] = [
        "the moon",
        "a red house",
        "the green hill",
        "an old song",
        "the bright star",
        "a quiet road",
        "the long letter",
        "a wooden boat",
        "the cold sea",
        "a warm coat",
    ];
    const ENDINGS: [&str; 6] = [
        ".",
        "!",
        " today.",
        " at night.",
        " again.",
        " in the morning.",
    ];
    let mut rng = Lcg(2026);
    let mut lines = Vec::new();
    for _ in 0..6000 {
        let s = format!(
            "{} {} {}{}",
            SUBJECTS[rng.below(10)],
            VERBS[rng.below(10)],
            OBJECTS[rng.below(10)],
            ENDINGS[rng.below(6)]
        );
        lines.push(s[..1].to_uppercase() + &s[1..]);
    }
    lines.join("\n") + "\n"
}

/// One block's parameters.
struct Block {
    ln1: (Param<f32, Vector>, Param<f32, Vector>),
    wq: Param<f32, shape![HEADS: 4, DK: 8, EMBED: 32]>,
    wk: Param<f32, shape![HEADS: 4, DK: 8, EMBED: 32]>,
    wv: Param<f32, shape![HEADS: 4, DK: 8, EMBED: 32]>,
    wo: Param<f32, shape![EMBED: 32, HEADS: 4, DK: 8]>,
    ln2: (Param<f32, Vector>, Param<f32, Vector>),
    fc1: (
        Param<f32, shape![HIDDEN: 128, EMBED: 32]>,
        Param<f32, shape![HIDDEN: 128]>,
    ),
    fc2: (
        Param<f32, shape![EMBED: 32, HIDDEN: 128]>,
        Param<f32, Vector>,
    ),
}

struct Gpt {
    wte: Param<f32, shape![VOCAB, EMBED: 32]>,
    wpe: Param<f32, shape![SEQ, EMBED: 32]>,
    blocks: Vec<Block>,
    lnf: (Param<f32, Vector>, Param<f32, Vector>),
}

/// A parameter read by its name in the file.
fn param<S: Storage<f32>>(w: &Weights, name: &str) -> Result<Param<f32, S>, Error> {
    Ok(Param::new(name, w.get::<f32, S>(name)?))
}

/// A weight and a bias (`{p}.weight`, `{p}.bias`).
fn pair<A: Storage<f32>, B: Storage<f32>>(
    w: &Weights,
    p: &str,
) -> Result<(Param<f32, A>, Param<f32, B>), Error> {
    Ok((
        param(w, &format!("{p}.weight"))?,
        param(w, &format!("{p}.bias"))?,
    ))
}

impl Gpt {
    fn load(w: &Weights) -> Result<Gpt, Error> {
        let norm = |p: &str| pair(w, p);
        let blocks = (0..2)
            .map(|i| {
                let p = format!("blocks.{i}");
                Ok(Block {
                    ln1: norm(&format!("{p}.ln1"))?,
                    wq: param(w, &format!("{p}.wq"))?,
                    wk: param(w, &format!("{p}.wk"))?,
                    wv: param(w, &format!("{p}.wv"))?,
                    wo: param(w, &format!("{p}.wo"))?,
                    ln2: norm(&format!("{p}.ln2"))?,
                    fc1: pair(w, &format!("{p}.fc1"))?,
                    fc2: pair(w, &format!("{p}.fc2"))?,
                })
            })
            .collect::<Result<_, Error>>()?;
        Ok(Gpt {
            wte: param(w, "wte")?,
            wpe: param(w, "wpe")?,
            blocks,
            lnf: norm("lnf")?,
        })
    }
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

impl Parameters<f32> for Gpt {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<f32>)) {
        (
            &mut self.wte,
            &mut self.wpe,
            &mut self.blocks,
            &mut self.lnf,
        )
            .visit(f);
    }
}

/// Layer norm over `EMBED` (biased variance, eps 1e-5), PyTorch's `nn.LayerNorm`.
fn layer_norm(
    x: &Var<f32, X>,
    (g, b): &(Var<f32, Vector>, Var<f32, Vector>),
) -> Result<Var<f32, X>, Error> {
    x.layer_norm::<EMBED>(g, b, 1e-5)
}

/// How a forward pass reads the parameters: watched (recorded for a backward pass) or frozen.
struct Read<'t> {
    tape: &'t Tape<f32>,
    track: bool,
}

impl Read<'_> {
    fn w<S: Storage<f32>>(&self, p: &Param<f32, S>) -> Var<f32, S> {
        if self.track {
            self.tape.watch(p)
        } else {
            self.tape.frozen(p)
        }
    }

    fn pair<A: Storage<f32>, B: Storage<f32>>(
        &self,
        (a, b): &(Param<f32, A>, Param<f32, B>),
    ) -> (Var<f32, A>, Var<f32, B>) {
        (self.w(a), self.w(b))
    }
}

/// The logits `[N, SEQ, VOCAB]` of `tokens`; `track` records the pass for a backward one.
fn forward(
    model: &Gpt,
    tape: &Tape<f32>,
    tokens: &Tensor<i64, shape![N, SEQ]>,
    track: bool,
) -> Result<Var<f32, shape![N, SEQ, VOCAB]>, Error> {
    let r = Read { tape, track };
    let t = tokens.sizes()[1];
    let wte = r.w(&model.wte);
    let mut x: Var<f32, X> = &wte.take::<VOCAB, _>(tokens)? + &r.w(&model.wpe).slice::<SEQ>(..t)?;
    for b in &model.blocks {
        let h = layer_norm(&x, &r.pair(&b.ln1))?;
        let q = h.dot::<EMBED>(&r.w(&b.wq));
        let k = h.dot::<EMBED>(&r.w(&b.wk)).rename::<SEQ, KSEQ>();
        let v = h.dot::<EMBED>(&r.w(&b.wv)).rename::<SEQ, KSEQ>();
        // Scaled by 1/sqrt(8), the default; query p sees keys 0..=p.
        let context = q.attention::<DK, KSEQ>(&k, &v, Causal::<SEQ>::new(), None)?;
        x = &x + &context.dot::<(HEADS, DK)>(&r.w(&b.wo));
        let h = layer_norm(&x, &r.pair(&b.ln2))?;
        let (fc1, fc2) = (r.pair(&b.fc1), r.pair(&b.fc2));
        let up = (&h.dot::<EMBED>(&fc1.0) + &fc1.1).gelu();
        x = &x + &(&up.dot::<HIDDEN>(&fc2.0) + &fc2.1);
    }
    let x = layer_norm(&x, &r.pair(&model.lnf))?;
    Ok(x.dot::<EMBED>(&wte))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let steps: usize = std::env::args().nth(1).map_or(Ok(30), |s| s.parse())?;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    let text = corpus();
    let mut vocab: Vec<char> = text.chars().collect();
    vocab.sort_unstable();
    vocab.dedup();
    let ids: Vec<i64> = text
        .chars()
        .map(|c| vocab.binary_search(&c).unwrap() as i64)
        .collect();
    let mut model = Gpt::load(&io::load_safetensors(data.join("train_gpt.safetensors"))?)?;
    let torch: Vec<f64> = std::fs::read_to_string(data.join("train_gpt_losses.txt"))?
        .lines()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    println!("corpus: {} characters, {} symbols", text.len(), vocab.len());

    let mut adamw = Adam::adamw(3e-3);
    let mut windows = Lcg(7);
    let mut progress = Progress::every(10);
    let mut first = None;
    let mut last = 0.0;
    for step in 0..steps.max(CHECKED) {
        let starts: Vec<usize> = (0..BATCH)
            .map(|_| windows.below(ids.len() - CONTEXT - 1))
            .collect();
        let window = |shift: usize| {
            let v = starts
                .iter()
                .flat_map(|&s| ids[s + shift..s + shift + CONTEXT].iter().copied());
            Tensor::<i64, shape![N, SEQ]>::from_vec_sized(&[BATCH, CONTEXT], v.collect())
        };
        let (inputs, targets) = (window(0)?, window(1)?);
        let tape = Tape::new();
        let logits = forward(&model, &tape, &inputs, true)?;
        let loss = logits.cross_entropy::<VOCAB>(&targets, &Loss::default(), Reduction::Mean)?;
        let value = f64::from(loss.value().data()[0]);
        let grads = loss.backward()?;
        drop((loss, logits, tape));
        adamw.step(&mut model, &grads)?;
        let off = torch
            .get(step)
            .filter(|&&want| step < CHECKED && (value - want).abs() > 1e-4 * want.abs());
        if let Some(want) = off {
            return Err(format!("step {step}: loss {value} against PyTorch's {want}").into());
        }
        first.get_or_insert(value);
        last = value;
        if let Some(line) = progress.step(value) {
            println!("{line}");
        }
    }
    println!("the first {CHECKED} losses equal PyTorch's within 1e-4 (relative)");
    let first = first.unwrap_or(last);
    if last >= first {
        return Err(format!("the loss did not fall: {first} -> {last}").into());
    }

    // Greedy generation, tracking nothing.
    let mut line: Vec<i64> = "The "
        .chars()
        .map(|c| vocab.binary_search(&c).unwrap() as i64)
        .collect();
    while line.len() < CONTEXT {
        let tokens = Tensor::<i64, shape![N, SEQ]>::from_vec_sized(&[1, line.len()], line.clone())?;
        let tape = Tape::new();
        let logits = forward(&model, &tape, &tokens, false)?;
        let next = logits.value().data()[(line.len() - 1) * vocab.len()..]
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map_or(0, |(k, _)| k);
        line.push(next as i64);
    }
    let written: String = line.iter().map(|&k| vocab[k as usize]).collect();
    println!("loss {first:.4} -> {last:.4}; the model writes: {written:?}");
    Ok(())
}
