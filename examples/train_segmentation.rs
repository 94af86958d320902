//! The seed's segmentation network trained: per-channel normalisation over `(N, H, W)`, void
//! pixels masked, two 3x3 convolutions with ReLU and a 2x2 max pool between them, a linear
//! class head per pixel, cross-entropy against the labels at the pooled resolution with void
//! pixels (255) ignored; AdamW from PyTorch's initial weights. The first 20 losses are checked
//! against PyTorch's on the same scenes (`scripts/gen_train_segmentation.py` wrote both), then
//! training goes on and the pixel accuracy is reported.
//!
//! Run: `cargo run --release --example train_segmentation --features safetensors [-- STEPS]`

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io::{self, Weights};
use shapecast::prelude::*;
use shapecast::train::{Adam, Param, ParamSlot, Parameters, Tape, Var};

names!(N, CHANNEL, C1, C2, CLASS, H, W);

const BATCH: usize = 8;
const HEIGHT: usize = 32;
const WIDTH: usize = 48;
const VOID: i64 = 255;
const CHECKED: usize = 20;

type Img = shape![N, CHANNEL: 3, H: 32, W: 48];
type Labels = shape![N, H: 16, W: 24];
type Logits = shape![N, H: 16, W: 24, CLASS: 3];

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

/// A batch of scenes: a disc of class 1 with a void rim, a band of class 2, background 0;
/// each channel brighter where its class is. The images, and the labels at full resolution.
fn batch(rng: &mut Lcg, step: usize) -> Result<(Tensor<f32, Img>, Vec<i64>), Error> {
    let mut img = vec![0.0f32; BATCH * 3 * HEIGHT * WIDTH];
    let mut lbl = vec![0i64; BATCH * HEIGHT * WIDTH];
    for i in 0..BATCH {
        let (cy, cx) = (rng.below(HEIGHT) as i64, rng.below(WIDTH) as i64);
        let (r, by) = (4 + rng.below(8) as i64, rng.below(HEIGHT) as i64);
        for h in 0..HEIGHT {
            for w in 0..WIDTH {
                let d2 = (h as i64 - cy).pow(2) + (w as i64 - cx).pow(2);
                let mut lab = if (h as i64 - by).abs() <= 2 { 2 } else { 0 };
                if d2 < r * r {
                    lab = 1;
                } else if d2 < (r + 1) * (r + 1) {
                    lab = VOID;
                }
                lbl[(i * HEIGHT + h) * WIDTH + w] = lab;
                for c in 0..3 {
                    let noise = ((h * 7 + w * 13 + c * 5 + i * 3 + step) % 11) as f32 / 11.0 - 0.5;
                    let bright = if lab == c as i64 { 3.0 } else { 0.0 };
                    img[((i * 3 + c) * HEIGHT + h) * WIDTH + w] = 50.0 * c as f32 + bright + noise;
                }
            }
        }
    }
    Ok((
        Tensor::from_vec_sized(&[BATCH, 3, HEIGHT, WIDTH], img)?,
        lbl,
    ))
}

struct Net {
    w1: Param<f32, shape![C1: 8, CHANNEL: 3, H: 3, W: 3]>,
    b1: Param<f32, shape![C1: 8]>,
    w2: Param<f32, shape![C2: 8, C1: 8, H: 3, W: 3]>,
    b2: Param<f32, shape![C2: 8]>,
    head: Param<f32, shape![CLASS: 3, C2: 8]>,
    head_b: Param<f32, shape![CLASS: 3]>,
}

impl Net {
    fn load(w: &Weights) -> Result<Net, Error> {
        Ok(Net {
            w1: Param::new("conv1.weight", w.get("conv1.weight")?),
            b1: Param::new("conv1.bias", w.get("conv1.bias")?),
            w2: Param::new("conv2.weight", w.get("conv2.weight")?),
            b2: Param::new("conv2.bias", w.get("conv2.bias")?),
            head: Param::new("head.weight", w.get("head.weight")?),
            head_b: Param::new("head.bias", w.get("head.bias")?),
        })
    }

    /// The logits of every pixel of the pooled map, the weights watched on `tape`.
    fn forward(&self, tape: &Tape<f32>, x: Tensor<f32, Img>) -> Result<Var<f32, Logits>, Error> {
        let x = tape.constant(x);
        let h1 =
            (&x.conv::<CHANNEL, Conv<1, 1>>(&tape.watch(&self.w1)) + &tape.watch(&self.b1)).relu();
        let p1: Var<f32, shape![N, C1: 8, H: 16, W: 24]> = h1.max_pool::<(H, W), Pool<2>>()?;
        let h2 = (&p1.conv::<C1, Conv<1, 1>>(&tape.watch(&self.w2)) + &tape.watch(&self.b2)).relu();
        // The linear head contracts the channel by name: [N, C2, H, W] . [CLASS, C2].
        Ok(&h2.dot::<C2>(&tape.watch(&self.head)) + &tape.watch(&self.head_b))
    }
}

impl Parameters<f32> for Net {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<f32>)) {
        (
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.head,
            &mut self.head_b,
        )
            .visit(f);
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let steps: usize = std::env::args().nth(1).map_or(Ok(25), |s| s.parse())?;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    let mut net = Net::load(&io::load_safetensors(
        data.join("train_segmentation.safetensors"),
    )?)?;
    let torch: Vec<f64> = std::fs::read_to_string(data.join("train_segmentation_losses.txt"))?
        .lines()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let mut adamw = Adam::adamw(1e-2);
    let mut rng = Lcg(11);
    let opts = Loss::default().ignore_index(VOID);
    let (mut first, mut last, mut accuracy) = (None, 0.0, 0.0);
    for step in 0..steps.max(CHECKED) {
        let (img, lbl) = batch(&mut rng, step)?;
        // 1. Per-channel normalisation: [CHANNEL: 3] statistics broadcast back by name.
        let (mean, std) = (img.mean::<(N, H, W)>(), img.std::<(N, H, W)>());
        // 2. Void pixels masked in every channel.
        let lbl_full =
            Tensor::<i64, shape![N, H: 32, W: 48]>::from_vec_sized(&[BATCH, HEIGHT, WIDTH], lbl)?;
        let mask = lbl_full.map(|l| if l == VOID { 0.0f32 } else { 1.0 });
        let x: Tensor<f32, Img> = &((&img - &mean) / &std) * &mask;
        // 3. The labels at the pooled resolution: every other row and column.
        let rows = Tensor::<usize, shape![H: 16]>::from_fn(&[16], |i| 2 * i[0])?;
        let cols = Tensor::<usize, shape![W: 24]>::from_fn(&[24], |i| 2 * i[0])?;
        let target: Tensor<i64, Labels> = lbl_full.take::<H, _>(&rows).take::<W, _>(&cols);
        // 4. The loss, its gradients, one AdamW step.
        let tape = Tape::new();
        let logits = net.forward(&tape, x)?;
        let loss = logits.cross_entropy::<CLASS>(&target, &opts, Reduction::Mean)?;
        let value = f64::from(loss.value().data()[0]);
        let pred = logits.value().argmax::<CLASS>();
        let valid = target.iter().filter(|&&t| t != VOID).count();
        let hits = pred
            .iter()
            .zip(target.iter())
            .filter(|&(&p, &t)| p as i64 == t)
            .count();
        accuracy = hits as f64 / valid as f64;
        let grads = loss.backward()?;
        drop((loss, logits, tape));
        adamw.step(&mut net, &grads)?;
        let off = torch
            .get(step)
            .filter(|&&want| step < CHECKED && (value - want).abs() > 1e-4 * want.abs());
        if let Some(want) = off {
            return Err(format!("step {step}: loss {value} against PyTorch's {want}").into());
        }
        first.get_or_insert(value);
        last = value;
        if step % 10 == 9 {
            println!(
                "step {:>4}  loss {value:.4}  pixel accuracy {:.1}%",
                step + 1,
                100.0 * accuracy
            );
        }
    }
    println!("the first {CHECKED} losses equal PyTorch's within 1e-4 (relative)");
    let first = first.unwrap_or(last);
    if last >= first {
        return Err(format!("the loss did not fall: {first} -> {last}").into());
    }
    println!(
        "loss {first:.4} -> {last:.4}, pixel accuracy {:.1}%",
        100.0 * accuracy
    );
    Ok(())
}
