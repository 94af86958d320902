//! A small CNN by name, as the image scenario needs it (rule book §20–§21): per-channel
//! normalisation, two 3x3 convolutions (3 → 16 → 32 channels, padding 1) with bias and ReLU,
//! 2x2 max pooling after each, global average pooling, a linear classifier (`nn.Linear`'s
//! `[out, in]`) and cross-entropy against integer labels, on a batch of 8 images of
//! 3x128x192; each stage alone and the whole network. Beside it, the convolutions against
//! the GEMM crate's own product of the same size (what im2col leaves to the GEMM: the
//! overhead of the patches), for a 3x3 and a 1x1 kernel. Then upsampling: a segmentation
//! head's logits back to the image's size, and a decoder's doubling.
//!
//! Run: `cargo bench --bench cnn` (one thread) and `cargo bench --bench cnn --features rayon`
//! (rayon's pool); `python3 scripts/bench_cnn.py --threads 1` (and `2`) times the same network
//! in PyTorch CPU on the same inputs and prints the same checksum. The groups' names end in
//! `[1 thread]` or `[rayon]`.

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

use shapecast::prelude::*;
use shapecast::rule::Outer;

names!(N, C, C1, C2, CLS, H, W, K, P, CLASS, SCALE1, SCALE2, SCALE3);

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};

type Img = shape![N: 8, C: 3, H: 128, W: 192];

/// The same deterministic values as `scripts/bench_cnn.py`: a hash of the index, scaled.
fn wave(which: u64, n: usize, scale: f32) -> Vec<f32> {
    (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_mul(2_654_435_761) ^ (which * 40_503)) % 1000;
            (h as f32 / 500.0 - 1.0) * scale
        })
        .collect()
}

struct Net {
    w1: Tensor<f32, shape![C1: 16, C: 3, H: 3, W: 3]>,
    b1: Tensor<f32, shape![C1: 16]>,
    w2: Tensor<f32, shape![C2: 32, C1: 16, H: 3, W: 3]>,
    b2: Tensor<f32, shape![C2: 32]>,
    fc: Tensor<f32, shape![CLS: 10, C2: 32]>,
    fc_b: Tensor<f32, shape![CLS: 10]>,
}

impl Net {
    fn new() -> Net {
        Net {
            w1: Tensor::from_vec(wave(1, 432, 0.3)).unwrap(),
            b1: Tensor::from_vec(wave(2, 16, 0.1)).unwrap(),
            w2: Tensor::from_vec(wave(3, 4608, 0.1)).unwrap(),
            b2: Tensor::from_vec(wave(4, 32, 0.1)).unwrap(),
            fc: Tensor::from_vec(wave(5, 320, 0.3)).unwrap(),
            fc_b: Tensor::from_vec(wave(6, 10, 0.1)).unwrap(),
        }
    }
}

fn normalise(x: &Tensor<f32, Img>) -> Tensor<f32, Img> {
    let mean = x.mean::<(N, H, W)>();
    let std = x.std::<(N, H, W)>();
    (x - &mean) / &std
}

fn conv1(x: &Tensor<f32, Img>, n: &Net) -> Tensor<f32, shape![N: 8, C1: 16, H: 128, W: 192]> {
    (x.conv::<C, Conv<1, 1>>(&n.w1) + &n.b1).relu()
}

fn conv2(
    x: &Tensor<f32, shape![N: 8, C1: 16, H: 64, W: 96]>,
    n: &Net,
) -> Tensor<f32, shape![N: 8, C2: 32, H: 64, W: 96]> {
    (x.conv::<C1, Conv<1, 1>>(&n.w2) + &n.b2).relu()
}

fn head(
    x: &Tensor<f32, shape![N: 8, C2: 32, H: 32, W: 48]>,
    n: &Net,
    labels: &Tensor<usize, shape![N: 8]>,
) -> f32 {
    let pooled: Tensor<f32, shape![N: 8, C2: 32]> = x.mean::<(H, W)>();
    let logits: Tensor<f32, shape![N: 8, CLS: 10]> = pooled.dot::<C2>(&n.fc) + &n.fc_b;
    logits.cross_entropy::<CLS>(labels).mean::<N>().data()[0]
}

fn network(x: &Tensor<f32, Img>, n: &Net, labels: &Tensor<usize, shape![N: 8]>) -> f32 {
    let z = normalise(x);
    let p1 = conv1(&z, n).max_pool::<(H, W), Pool<2>>();
    let p2 = conv2(&p1, n).max_pool::<(H, W), Pool<2>>();
    head(&p2, n, labels)
}

fn cnn(c: &mut Criterion) {
    let x = Tensor::<f32, Img>::from_vec(wave(7, 8 * 3 * 128 * 192, 2.0)).unwrap();
    let labels = Tensor::<usize, shape![N: 8]>::from_fn(&[8], |i| (i[0] * 3) % 10).unwrap();
    let net = Net::new();
    let loss = network(&x, &net, &labels);
    // The same checksum as `scripts/bench_cnn.py` prints for PyTorch.
    eprintln!("cnn: loss {loss:.6}");
    let z = normalise(&x);
    let h1 = conv1(&z, &net);
    let p1 = h1.max_pool::<(H, W), Pool<2>>();
    let h2 = conv2(&p1, &net);
    let p2 = h2.max_pool::<(H, W), Pool<2>>();
    let mut g = c.benchmark_group(format!("cnn/batch 8, 3x128x192 [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.bench_function("network", |b| {
        b.iter(|| network(black_box(&x), &net, &labels))
    });
    g.bench_function("normalise", |b| b.iter(|| normalise(black_box(&x))));
    g.bench_function("conv1 + bias + relu", |b| {
        b.iter(|| conv1(black_box(&z), &net))
    });
    g.bench_function("pool1", |b| {
        b.iter(|| black_box(&h1).max_pool::<(H, W), Pool<2>>())
    });
    g.bench_function("conv2 + bias + relu", |b| {
        b.iter(|| conv2(black_box(&p1), &net))
    });
    g.bench_function("pool2", |b| {
        b.iter(|| black_box(&h2).max_pool::<(H, W), Pool<2>>())
    });
    g.bench_function("gap + linear + cross-entropy", |b| {
        b.iter(|| head(black_box(&p2), &net, &labels))
    });
    g.finish();
}

/// A convolution against the GEMM of the product it becomes: `[OUT, C·k·k] · [C·k·k, H·W]`
/// for each of the batch's images.
fn against_gemm(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("conv vs its GEMM [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    // 3x3: 16 -> 32 channels at 64x96 (conv2 above), batch 8.
    let x =
        Tensor::<f32, shape![N: 8, C1: 16, H: 64, W: 96]>::from_vec(wave(8, 8 * 16 * 64 * 96, 1.0))
            .unwrap();
    let w =
        Tensor::<f32, shape![C2: 32, C1: 16, H: 3, W: 3]>::from_vec(wave(9, 4608, 0.1)).unwrap();
    g.bench_function("3x3, 16 -> 32, 64x96: conv", |b| {
        b.iter(|| black_box(&x).conv::<C1, Conv<1, 1>>(&w))
    });
    let a = Tensor::<f32, shape![C2: 32, K: 144]>::from_vec(wave(9, 4608, 0.1)).unwrap();
    let patches =
        Tensor::<f32, shape![N: 8, K: 144, P: 6144]>::from_vec(wave(10, 8 * 144 * 6144, 1.0))
            .unwrap();
    g.bench_function("3x3, 16 -> 32, 64x96: its GEMM", |b| {
        b.iter(|| a.dot::<K>(black_box(&patches)))
    });
    // 1x1: 32 -> 64 channels at 64x96, batch 8.
    let x1 =
        Tensor::<f32, shape![N: 8, C1: 32, H: 64, W: 96]>::from_vec(wave(11, 8 * 32 * 6144, 1.0))
            .unwrap();
    let w1 =
        Tensor::<f32, shape![C2: 64, C1: 32, H: 1, W: 1]>::from_vec(wave(12, 2048, 0.1)).unwrap();
    g.bench_function("1x1, 32 -> 64, 64x96: conv", |b| {
        b.iter(|| black_box(&x1).conv::<C1, Conv>(&w1))
    });
    let a1 = Tensor::<f32, shape![C2: 64, C1: 32]>::from_vec(wave(12, 2048, 0.1)).unwrap();
    let x1f = Tensor::<f32, shape![N: 8, C1: 32, P: 6144]>::from_vec(wave(11, 8 * 32 * 6144, 1.0))
        .unwrap();
    g.bench_function("1x1, 32 -> 64, 64x96: its GEMM", |b| {
        b.iter(|| a1.dot::<C1>(black_box(&x1f)))
    });
    g.finish();
}

type Probs = shape![N: 8, CLASS: 3, H: 128, W: 192];
type Preds = shape![N: 8, SCALE1: 1, SCALE2: 5, SCALE3: 3, H: 128, W: 192];
type Fused = shape![N: 8, CLASS: 3, H: 128, W: 192];

type Weighted = shape![N: 8, CLASS: 3, H: 128, W: 192, SCALE1: 1, SCALE2: 5, SCALE3: 3];

/// The seed's multi-scale fusion (rule book §3), its first step: class probabilities
/// `[?, CLASS, H, W]` against per-scale predictions `[?, SCALE1, SCALE2, SCALE3, H, W]` by
/// the outer rule.
fn weigh(probs: &Tensor<f32, Probs>, preds: &Tensor<f32, Preds>) -> Tensor<f32, Weighted> {
    probs
        .zip_with_rule::<Outer, _, _, _>(preds, |p, s| p * s)
        .unwrap()
}

/// Its second step: the mean over the scales.
fn over_scales(weighted: &Tensor<f32, Weighted>) -> Tensor<f32, Fused> {
    weighted.mean::<(SCALE1, SCALE2, SCALE3)>()
}

/// The outer-rule fusion whole and in its two steps.
fn fusion(c: &mut Criterion) {
    let probs = Tensor::<f32, Probs>::from_vec(wave(13, 8 * 3 * 128 * 192, 1.0)).unwrap();
    let preds = Tensor::<f32, Preds>::from_vec(wave(14, 8 * 15 * 128 * 192, 1.0)).unwrap();
    let weighted = weigh(&probs, &preds);
    // The same checksum as `scripts/bench_cnn.py --fusion` prints for PyTorch.
    eprintln!(
        "fusion: sum {:.4}",
        over_scales(&weighted)
            .iter()
            .map(|&x| f64::from(x))
            .sum::<f64>()
    );
    let mut g = c.benchmark_group(format!("fusion/8x3x128x192 by 1x5x3 scales [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.bench_function("outer product and mean", |b| {
        b.iter(|| over_scales(&weigh(black_box(&probs), &preds)))
    });
    g.bench_function("outer product", |b| {
        b.iter(|| weigh(black_box(&probs), &preds))
    });
    g.bench_function("mean over the scales", |b| {
        b.iter(|| over_scales(black_box(&weighted)))
    });
    g.finish();
}

/// A segmentation head's logits at a quarter of the image, `[8, 21, 32, 48]`, back to the
/// image's 128x192 (rule book §23): bilinear (PyTorch's default `align_corners=False`) and
/// nearest; and a decoder's feature map `[8, 64, 64, 96]` doubled (U-Net's `nn.Upsample(2)`).
fn upsampling(c: &mut Criterion) {
    type Logits = shape![N: 8, CLASS: 21, H: 32, W: 48];
    type Features = shape![N: 8, C: 64, H: 64, W: 96];
    let logits = Tensor::<f32, Logits>::from_vec(wave(15, 8 * 21 * 32 * 48, 1.0)).unwrap();
    let features = Tensor::<f32, Features>::from_vec(wave(16, 8 * 64 * 64 * 96, 1.0)).unwrap();
    let linear = Interpolation::Linear {
        align_corners: false,
        antialias: false,
    };
    let full = logits.upsample::<(H, W), Scale<4>>(linear);
    // The same checksum as `scripts/bench_cnn.py --upsample` prints for PyTorch.
    eprintln!(
        "upsample: sum {:.4}",
        full.iter().map(|&x| f64::from(x)).sum::<f64>()
    );
    let mut g = c.benchmark_group(format!("upsample [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("bilinear x4, 8x21x32x48", |b| {
        b.iter(|| black_box(&logits).upsample::<(H, W), Scale<4>>(linear))
    });
    g.bench_function("nearest x4, 8x21x32x48", |b| {
        b.iter(|| black_box(&logits).upsample::<(H, W), Scale<4>>(Interpolation::Nearest))
    });
    g.bench_function("bilinear x2, 8x64x64x96", |b| {
        b.iter(|| black_box(&features).upsample::<(H, W), Scale<2>>(linear))
    });
    g.bench_function("nearest x2, 8x64x64x96", |b| {
        b.iter(|| black_box(&features).upsample::<(H, W), Scale<2>>(Interpolation::Nearest))
    });
    g.finish();
}

/// Image preprocessing as torchvision's `Resize(256)` does it: a batch of 480x640 photos,
/// `[8, 3, 480, 640]`, to 256x341, antialiased bilinear (its default) and bicubic; and a
/// feature map `[8, 64, 64, 96]` doubled by bicubic (rule book §23), at run time (sizes are
/// values here, as a loader's are).
fn resizing(c: &mut Criterion) {
    let photos = DynTensor::from_vec(
        "[N: 8, C: 3, H: 480, W: 640]".parse().unwrap(),
        wave(17, 8 * 3 * 480 * 640, 1.0),
    )
    .unwrap();
    let features = DynTensor::from_vec(
        "[N: 8, C: 64, H: 64, W: 96]".parse().unwrap(),
        wave(16, 8 * 64 * 64 * 96, 1.0),
    )
    .unwrap();
    let hw = ["H".parse().unwrap(), "W".parse().unwrap()];
    // torchvision's `Resize`: antialiased, without `align_corners`.
    let (bilinear_aa, bicubic_aa, cubic) = (
        Interpolation::Linear {
            align_corners: false,
            antialias: true,
        },
        Interpolation::Cubic {
            align_corners: false,
            antialias: true,
        },
        Interpolation::Cubic {
            align_corners: false,
            antialias: false,
        },
    );
    let sum = |t: &DynTensor<f32>| t.data().iter().map(|&x| f64::from(x)).sum::<f64>();
    // The same checksums as `scripts/bench_cnn.py --resize` prints for PyTorch.
    eprintln!(
        "resize: sums {:.4} {:.4} {:.4}",
        sum(&photos.resize(&hw, &[256, 341], bilinear_aa).unwrap()),
        sum(&photos.resize(&hw, &[256, 341], bicubic_aa).unwrap()),
        sum(&features.upsample(&hw, 2, cubic).unwrap()),
    );
    let mut g = c.benchmark_group(format!("resize [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("antialiased bilinear, 8x3x480x640 to 256x341", |b| {
        b.iter(|| black_box(&photos).resize(&hw, &[256, 341], bilinear_aa))
    });
    g.bench_function("antialiased bicubic, 8x3x480x640 to 256x341", |b| {
        b.iter(|| black_box(&photos).resize(&hw, &[256, 341], bicubic_aa))
    });
    g.bench_function("bicubic x2, 8x64x64x96", |b| {
        b.iter(|| black_box(&features).upsample(&hw, 2, cubic))
    });
    g.finish();
}

criterion_group!(benches, cnn, against_gemm, fusion, upsampling, resizing);
criterion_main!(benches);
