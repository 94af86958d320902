//! The seed's image scenario end to end, typed by name: a batch of images
//! `img [N, CHANNEL: 3, H, W]` with integer labels `lbl [N, H, W]` (255 marks void pixels).
//!
//! 1. per-channel normalisation (statistics over `(N, H, W)`, broadcast back by name);
//! 2. masking by `lbl` (a `[N, H, W]` mask times `[N, CHANNEL, H, W]`);
//! 3. a two-layer CNN: 3x3 convolutions with ReLU, 2x2 max pooling, a linear head per pixel,
//!    its weights written as PyTorch stores them (`[OUT, IN, KH, KW]`, `nn.Linear`'s
//!    `[out, in]`) to a `.safetensors` file and loaded back by name;
//! 4. class softmax, cross-entropy against the labels at the output's resolution (picked
//!    with `take`), void pixels ignored, and accuracy of the `argmax` against the labels;
//!    the logits upsampled back to the labels' resolution (bilinear, by name: the classes
//!    stay last) and the accuracy of their `argmax` on every labelled pixel;
//! 5. multi-scale predictions fused by the outer rule: class probabilities
//!    `[N, CLASS: 3, H, W]` with per-scale confidences `[N, SCALE: 3, H, W]` give
//!    `[N, CLASS: 3, H, W, SCALE: 3]`, averaged over `SCALE`.
//!
//! Every stage is checked against a naive loop over plain vectors.
//!
//! Run: `cargo run --example segmentation --features safetensors`

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io::{self, Weights};
use shapecast::prelude::*;
use shapecast::rule::Outer;

names!(N, CHANNEL, C1, C2, CLASS, SCALE, H, W);

const B: usize = 2;
const HEIGHT: usize = 32;
const WIDTH: usize = 48;
const VOID: usize = 255;

type Img = shape![N, CHANNEL: 3, H: 32, W: 48];
type Lbl = shape![N, H: 32, W: 48];
type Logits = shape![N, H: 16, W: 24, CLASS: 3];

struct Net {
    w1: Tensor<f32, shape![C1: 8, CHANNEL: 3, H: 3, W: 3]>,
    b1: Tensor<f32, shape![C1: 8]>,
    w2: Tensor<f32, shape![C2: 8, C1: 8, H: 3, W: 3]>,
    b2: Tensor<f32, shape![C2: 8]>,
    head: Tensor<f32, shape![CLASS: 3, C2: 8]>,
    head_b: Tensor<f32, shape![CLASS: 3]>,
}

impl Net {
    fn load(w: &Weights) -> Result<Net, Error> {
        Ok(Net {
            w1: w.get("conv1.weight")?,
            b1: w.get("conv1.bias")?,
            w2: w.get("conv2.weight")?,
            b2: w.get("conv2.bias")?,
            head: w.get("head.weight")?,
            head_b: w.get("head.bias")?,
        })
    }

    /// The logits of every pixel of the pooled map.
    fn forward(&self, x: &Tensor<f32, Img>) -> Tensor<f32, Logits> {
        let h1: Tensor<f32, shape![N, C1: 8, H: 32, W: 48]> =
            (x.conv::<CHANNEL, Conv<1, 1>>(&self.w1) + &self.b1).relu();
        let p1: Tensor<f32, shape![N, C1: 8, H: 16, W: 24]> = h1.max_pool::<(H, W), Pool<2>>();
        let h2: Tensor<f32, shape![N, C2: 8, H: 16, W: 24]> =
            (p1.conv::<C1, Conv<1, 1>>(&self.w2) + &self.b2).relu();
        // The linear head contracts the channel by name: [N, C2, H, W] . [CLASS, C2].
        h2.dot::<C2>(&self.head) + &self.head_b
    }
}

/// A deterministic value in [-1, 1).
fn wave(seed: usize, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i * 7919 + seed * 104_729) % 2003) as f32 / 1001.5) - 1.0)
        .collect()
}

/// The weights as a training script would save them: PyTorch's layouts, plain sizes.
fn stored() -> Vec<(&'static str, Vec<usize>, Vec<f32>)> {
    let scaled = |seed, n, s: f32| wave(seed, n).into_iter().map(|v| v * s).collect();
    vec![
        ("conv1.weight", vec![8, 3, 3, 3], scaled(1, 216, 0.4)),
        ("conv1.bias", vec![8], scaled(2, 8, 0.1)),
        ("conv2.weight", vec![8, 8, 3, 3], scaled(3, 576, 0.2)),
        ("conv2.bias", vec![8], scaled(4, 8, 0.1)),
        ("head.weight", vec![3, 8], scaled(5, 24, 0.5)),
        ("head.bias", vec![3], scaled(6, 3, 0.1)),
    ]
}

fn main() -> Result<(), Error> {
    // The data: images with a different level per channel, labels with void pixels.
    let img = Tensor::<f32, Img>::from_fn(&[B, 3, HEIGHT, WIDTH], |i| {
        100.0 * i[1] as f32 + 20.0 * (((i[0] * 31 + i[2] * 7 + i[3] * 3 + i[1]) % 13) as f32)
    })?;
    let lbl = Tensor::<usize, Lbl>::from_fn(&[B, HEIGHT, WIDTH], |i| {
        if (i[1] + i[2]) % 17 == 0 {
            VOID
        } else {
            (i[0] + i[1] / 8 + i[2] / 12) % 3
        }
    })?;

    // 1. Per-channel normalisation: [CHANNEL: 3] statistics broadcast back by name.
    let mean: Tensor<f32, shape![CHANNEL: 3]> = img.mean::<(N, H, W)>();
    let std: Tensor<f32, shape![CHANNEL: 3]> = img.std::<(N, H, W)>();
    let z: Tensor<f32, Img> = (&img - &mean) / &std;

    // 2. Masking by the labels: void pixels become 0 in every channel.
    let mask: Tensor<f32, Lbl> = lbl.map(|l| if l == VOID { 0.0 } else { 1.0 });
    let x: Tensor<f32, Img> = &z * &mask;

    // 3. The weights, written in PyTorch's layout and loaded back by name.
    let path = std::env::temp_dir().join(format!(
        "shapecast-segmentation-{}.safetensors",
        std::process::id()
    ));
    let tensors: Vec<(&str, DynTensor<f32>)> = stored()
        .into_iter()
        .map(|(name, sizes, data)| {
            Ok((
                name,
                DynTensor::from_vec(DynShape::from_sizes(&sizes)?, data)?,
            ))
        })
        .collect::<Result<_, Error>>()?;
    let refs: Vec<(&str, &dyn io::SafetensorsTensor)> = tensors
        .iter()
        .map(|(n, t)| (*n, t as &dyn io::SafetensorsTensor))
        .collect();
    io::save_safetensors(&path, &refs)?;
    let weights = io::load_safetensors(&path)?;
    std::fs::remove_file(&path).ok();
    let net = Net::load(&weights)?;
    let logits = net.forward(&x);

    // 4. Softmax over the classes, and the loss against the labels at the pooled
    //    resolution: every other row and column, picked by name with `take`.
    let probs: Tensor<f32, Logits> = logits.softmax::<CLASS>();
    let rows = Tensor::<usize, shape![H: 16]>::from_fn(&[16], |i| 2 * i[0])?;
    let cols = Tensor::<usize, shape![W: 24]>::from_fn(&[24], |i| 2 * i[0])?;
    let lbl2: Tensor<usize, shape![N, H: 16, W: 24]> = lbl.take::<H, _>(&rows).take::<W, _>(&cols);
    let loss =
        logits.try_cross_entropy::<CLASS>(&lbl2, &Loss::default().ignore_index(VOID as i64))?;
    let valid = lbl2.iter().filter(|&&l| l != VOID).count();
    let mean_loss = loss.iter().sum::<f32>() / valid as f32;
    let pred: Tensor<usize, shape![N, H: 16, W: 24]> = logits.argmax::<CLASS>();
    let hits = pred.eq_elem(&lbl2)?.iter().filter(|&&h| h).count();
    println!(
        "logits {:?}, mean cross-entropy {mean_loss:.4}, accuracy {hits}/{valid}",
        logits.sizes()
    );

    // 4b. The logits back at the labels' resolution, bilinear (PyTorch's
    //     `F.interpolate(scale_factor=2, mode='bilinear')`), by name: the classes stay last.
    //     Then the accuracy of their argmax on every labelled pixel.
    let linear = Interpolation::Linear {
        align_corners: false,
        antialias: false,
    };
    let full: Tensor<f32, shape![N, H: 32, W: 48, CLASS: 3]> =
        logits.upsample::<(H, W), Scale<2>>(linear);
    let pred_full: Tensor<usize, shape![N, H: 32, W: 48]> = full.argmax::<CLASS>();
    let hit = |(p, l): &(&usize, &usize)| **l != VOID && p == l;
    let hits_full = pred_full.iter().zip(lbl.iter()).filter(hit).count();
    let valid_full = lbl.iter().filter(|&&l| l != VOID).count();
    println!(
        "upsampled to {:?}: accuracy {hits_full}/{valid_full}",
        full.sizes()
    );

    // 5. Multi-scale fusion by the outer rule: per-scale confidences (the class
    //    probabilities' maximum sharpened at three temperatures) against the probabilities.
    let top: Tensor<f32, shape![N, H: 16, W: 24]> = probs.max::<CLASS>();
    let scales = Tensor::<f32, shape![N, SCALE: 3, H: 16, W: 24]>::from_fn(&[B, 3, 16, 24], |i| {
        top.at(&[i[0], i[2], i[3]])
            .map_or(0.0, |t| t.powi(i[1] as i32 + 1))
    })?;
    let weighted: Tensor<f32, shape![N, H: 16, W: 24, CLASS: 3, SCALE: 3]> =
        probs.zip_with_rule::<Outer, _, _, _>(&scales, |p, s| p * s)?;
    let fused: Tensor<f32, Logits> = weighted.mean::<SCALE>();
    println!("fused multi-scale predictions {:?}", fused.sizes());

    // The naive reference, loop by loop over plain vectors.
    let flat: std::collections::HashMap<&str, Vec<f32>> =
        stored().into_iter().map(|(n, _, d)| (n, d)).collect();
    let want = naive(img.data(), lbl.data(), &flat);
    let diff = |a: &[f32], b: &[f32]| {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max)
    };
    let d_logits = diff(logits.data(), &want.logits);
    let d_probs = diff(probs.data(), &want.probs);
    let d_fused = diff(fused.data(), &want.fused);
    let d_full = diff(full.data(), &want.full);
    assert!(
        d_logits < 1e-3,
        "logits differ from the naive loops by {d_logits}"
    );
    assert!(d_probs < 1e-5 && d_fused < 1e-5, "{d_probs} {d_fused}");
    assert!(
        (mean_loss - want.loss).abs() < 1e-4,
        "loss {mean_loss} against {}",
        want.loss
    );
    assert!(d_full < 1e-3, "upsampled logits differ by {d_full}");
    assert_eq!((hits, hits_full), (want.hits, want.hits_full));
    println!(
        "matches the naive loops: logits to {d_logits:.1e}, probabilities to {d_probs:.1e}, \
         upsampled to {d_full:.1e}, fused to {d_fused:.1e}, loss to {:.1e}",
        (mean_loss - want.loss).abs()
    );
    Ok(())
}

/// What the naive loops give.
struct Naive {
    logits: Vec<f32>,
    probs: Vec<f32>,
    fused: Vec<f32>,
    full: Vec<f32>,
    loss: f32,
    hits: usize,
    hits_full: usize,
}

/// The whole pipeline as plain loops over row-major vectors, in f64 where it sums.
fn naive(img: &[f32], lbl: &[usize], w: &std::collections::HashMap<&str, Vec<f32>>) -> Naive {
    let (b, h, wd) = (B, HEIGHT, WIDTH);
    let at4 = |c: usize, n: usize, i: usize, j: usize, cs: usize| ((n * cs + c) * h + i) * wd + j;
    // Normalisation and mask.
    let mut x = vec![0.0f32; img.len()];
    for c in 0..3 {
        let vals: Vec<f64> = (0..b)
            .flat_map(|n| (0..h).flat_map(move |i| (0..wd).map(move |j| (n, i, j))))
            .map(|(n, i, j)| img[at4(c, n, i, j, 3)] as f64)
            .collect();
        let m = vals.iter().sum::<f64>() / vals.len() as f64;
        let s = (vals.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / vals.len() as f64).sqrt();
        for n in 0..b {
            for i in 0..h {
                for j in 0..wd {
                    let keep = if lbl[(n * h + i) * wd + j] == VOID {
                        0.0
                    } else {
                        1.0
                    };
                    let k = at4(c, n, i, j, 3);
                    x[k] = (((img[k] as f64 - m) / s) * keep) as f32;
                }
            }
        }
    }
    // conv 3x3, padding 1, then bias and ReLU.
    let conv =
        |x: &[f32], cin: usize, cout: usize, hh: usize, ww: usize, wt: &[f32], bias: &[f32]| {
            let mut y = vec![0.0f32; b * cout * hh * ww];
            for n in 0..b {
                for o in 0..cout {
                    for i in 0..hh {
                        for j in 0..ww {
                            let mut s = bias[o] as f64;
                            for c in 0..cin {
                                for di in 0..3 {
                                    for dj in 0..3 {
                                        let (ii, jj) = (
                                            i as isize + di as isize - 1,
                                            j as isize + dj as isize - 1,
                                        );
                                        if ii >= 0
                                            && jj >= 0
                                            && (ii as usize) < hh
                                            && (jj as usize) < ww
                                        {
                                            let xv = x[((n * cin + c) * hh + ii as usize) * ww
                                                + jj as usize];
                                            s +=
                                                (xv * wt[((o * cin + c) * 3 + di) * 3 + dj]) as f64;
                                        }
                                    }
                                }
                            }
                            y[((n * cout + o) * hh + i) * ww + j] = (s as f32).max(0.0);
                        }
                    }
                }
            }
            y
        };
    let h1 = conv(&x, 3, 8, h, wd, &w["conv1.weight"], &w["conv1.bias"]);
    let (h2s, w2s) = (h / 2, wd / 2);
    let mut p1 = vec![0.0f32; b * 8 * h2s * w2s];
    for n in 0..b {
        for c in 0..8 {
            for i in 0..h2s {
                for j in 0..w2s {
                    let v =
                        |di: usize, dj: usize| h1[((n * 8 + c) * h + 2 * i + di) * wd + 2 * j + dj];
                    p1[((n * 8 + c) * h2s + i) * w2s + j] =
                        v(0, 0).max(v(0, 1)).max(v(1, 0)).max(v(1, 1));
                }
            }
        }
    }
    let h2 = conv(&p1, 8, 8, h2s, w2s, &w["conv2.weight"], &w["conv2.bias"]);
    // The head, per pixel: logits [N, H, W, CLASS].
    let mut logits = vec![0.0f32; b * h2s * w2s * 3];
    let (mut probs, mut loss, mut hits, mut valid) = (vec![0.0f32; logits.len()], 0.0f64, 0, 0);
    for n in 0..b {
        for i in 0..h2s {
            for j in 0..w2s {
                let base = ((n * h2s + i) * w2s + j) * 3;
                for k in 0..3 {
                    let mut s = w["head.bias"][k] as f64;
                    for c in 0..8 {
                        s += (h2[((n * 8 + c) * h2s + i) * w2s + j] * w["head.weight"][k * 8 + c])
                            as f64;
                    }
                    logits[base + k] = s as f32;
                }
                let l = &logits[base..base + 3];
                let m = l.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
                let z: f64 = l.iter().map(|&v| (v as f64 - m).exp()).sum();
                for k in 0..3 {
                    probs[base + k] = ((l[k] as f64 - m).exp() / z) as f32;
                }
                let t = lbl[(n * h + 2 * i) * wd + 2 * j];
                if t != VOID {
                    loss += -(l[t] as f64 - m - z.ln());
                    valid += 1;
                    let arg = (0..3).fold(0, |best, k| if l[k] > l[best] { k } else { best });
                    hits += usize::from(arg == t);
                }
            }
        }
    }
    // Bilinear x2 of the logits `[N, H, W, CLASS]`: each output row and column from its two
    // nearest input ones, the source `(i + 0.5) / 2 - 0.5` (at least 0).
    let taps = |i: usize, n: usize| {
        let at = ((i as f64 + 0.5) / 2.0 - 0.5).max(0.0);
        let lo = (at as usize).min(n - 1);
        (lo, (lo + 1).min(n - 1), at - lo as f64)
    };
    let mut full = vec![0.0f32; b * h * wd * 3];
    let mut hits_full = 0;
    for n in 0..b {
        for i in 0..h {
            let (i0, i1, fi) = taps(i, h2s);
            for j in 0..wd {
                let (j0, j1, fj) = taps(j, w2s);
                let l = |ii: usize, jj: usize, k: usize| {
                    logits[((n * h2s + ii) * w2s + jj) * 3 + k] as f64
                };
                let base = ((n * h + i) * wd + j) * 3;
                for k in 0..3 {
                    let top = (1.0 - fj) * l(i0, j0, k) + fj * l(i0, j1, k);
                    let bottom = (1.0 - fj) * l(i1, j0, k) + fj * l(i1, j1, k);
                    full[base + k] = ((1.0 - fi) * top + fi * bottom) as f32;
                }
                let t = lbl[(n * h + i) * wd + j];
                let v = &full[base..base + 3];
                let arg = (0..3).fold(0, |best, k| if v[k] > v[best] { k } else { best });
                hits_full += usize::from(t != VOID && arg == t);
            }
        }
    }
    let mut fused = vec![0.0f32; probs.len()];
    for (cell, chunk) in probs.chunks(3).enumerate() {
        let top = chunk.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        for k in 0..3 {
            fused[cell * 3 + k] = (0..3).map(|s| chunk[k] * top.powi(s + 1)).sum::<f32>() / 3.0;
        }
    }
    Naive {
        logits,
        probs,
        fused,
        full,
        loss: (loss / valid as f64) as f32,
        hits,
        hits_full,
    }
}
