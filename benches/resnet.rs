//! ResNet-18's and ResNet-50's forward passes (`examples/resnet/resnet18.rs` and
//! `resnet50.rs`: torchvision's networks, batch norms folded into the convolutions) on a batch
//! of 8 images at 224x224, the weights and input filled by the examples' formula; each first
//! checked against PyTorch (the logits of the first two images are the ones
//! `examples/data/resnet{18,50}_logits.txt` hold).
//!
//! Then each distinct convolution of the networks alone (`resnet18 convolutions`, `resnet50
//! convolutions`), batch 8, as `(in channels, out channels, input size, kernel, stride,
//! padding)`.
//!
//! Run: `cargo bench --bench resnet --features safetensors` (one thread) and
//! `cargo bench --bench resnet --features safetensors,rayon` (rayon's pool); PyTorch on the same
//! networks and batch: `python3 scripts/bench_resnet.py --threads 1` (and `--threads 2`,
//! `--depth 50`), their convolutions alone with `--convs`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

#[path = "../examples/resnet/common.rs"]
#[allow(dead_code)]
mod common;
#[path = "../examples/resnet/resnet18.rs"]
#[allow(dead_code)]
mod resnet18;
#[path = "../examples/resnet/resnet50.rs"]
#[allow(dead_code)]
mod resnet50;

use common::{distance, formula_input, formula_weights, Image, Logits};
use shapecast::io::Weights;
use shapecast::{Error, Tensor};

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};
const BATCH: usize = 8;

fn resnet(c: &mut Criterion) {
    let x = formula_input(BATCH).unwrap();
    time_network(
        c,
        (18, 20),
        &x,
        resnet18::names_and_shapes,
        resnet18::ResNet18::load,
        resnet18::ResNet18::forward,
        &resnet18::pytorch_logits(),
    );
    time_network(
        c,
        (50, 40),
        &x,
        resnet50::names_and_shapes,
        resnet50::ResNet50::load,
        resnet50::ResNet50::forward,
        &resnet50::pytorch_logits(),
    );
}

/// The forward pass of a ResNet of `depth` layers on the formula's weights, timed for
/// `seconds` after its logits are checked against PyTorch's (`want`: the first two images
/// are the example's).
fn time_network<Net>(
    c: &mut Criterion,
    (depth, seconds): (usize, u64),
    x: &Tensor<f32, Image>,
    names_and_shapes: fn() -> Vec<(String, Vec<usize>)>,
    load: fn(&Weights) -> Result<Net, Error>,
    forward: fn(&Net, &Tensor<f32, Image>) -> Tensor<f32, Logits>,
    want: &[f64],
) {
    let net = load(&formula_weights(names_and_shapes()).unwrap()).unwrap();
    let diff = distance(forward(&net, x).data(), want);
    assert!(
        diff < 1e-3,
        "ResNet-{depth}'s logits differ from PyTorch's by {diff}"
    );
    let mut g = c.benchmark_group(format!("resnet{depth} [{THREADS}]"));
    g.sample_size(10)
        .measurement_time(Duration::from_secs(seconds));
    g.bench_function(format!("forward batch {BATCH} at 224x224"), |b| {
        b.iter(|| forward(&net, x))
    });
    g.finish();
}

/// ResNet-18's distinct convolutions: in and out channels, input size, kernel, stride,
/// padding (`scripts/bench_resnet.py --convs` times the same list).
pub const CONVS: [(usize, usize, usize, usize, usize, usize); 11] = [
    (3, 64, 224, 7, 2, 3),
    (64, 64, 56, 3, 1, 1),
    (64, 128, 56, 3, 2, 1),
    (64, 128, 56, 1, 2, 0),
    (128, 128, 28, 3, 1, 1),
    (128, 256, 28, 3, 2, 1),
    (128, 256, 28, 1, 2, 0),
    (256, 256, 14, 3, 1, 1),
    (256, 512, 14, 3, 2, 1),
    (256, 512, 14, 1, 2, 0),
    (512, 512, 7, 3, 1, 1),
];

/// ResNet-50's distinct convolutions besides the stem (the same as ResNet-18's), stage by
/// stage: the 1x1 into the width, the 3x3 (the first of a stage strided), the 1x1 out, the
/// strided 1x1 shortcut, the 1x1 from the previous block's output.
pub const CONVS50: [(usize, usize, usize, usize, usize, usize); 22] = [
    (64, 64, 56, 1, 1, 0),
    (64, 64, 56, 3, 1, 1),
    (64, 256, 56, 1, 1, 0),
    (256, 64, 56, 1, 1, 0),
    (256, 128, 56, 1, 1, 0),
    (128, 128, 56, 3, 2, 1),
    (128, 512, 28, 1, 1, 0),
    (256, 512, 56, 1, 2, 0),
    (512, 128, 28, 1, 1, 0),
    (128, 128, 28, 3, 1, 1),
    (512, 256, 28, 1, 1, 0),
    (256, 256, 28, 3, 2, 1),
    (256, 1024, 14, 1, 1, 0),
    (512, 1024, 28, 1, 2, 0),
    (1024, 256, 14, 1, 1, 0),
    (256, 256, 14, 3, 1, 1),
    (1024, 512, 14, 1, 1, 0),
    (512, 512, 14, 3, 2, 1),
    (512, 2048, 7, 1, 1, 0),
    (1024, 2048, 14, 1, 2, 0),
    (2048, 512, 7, 1, 1, 0),
    (512, 512, 7, 3, 1, 1),
];

fn convolutions(c: &mut Criterion) {
    time_convolutions(c, "resnet18", &CONVS);
    time_convolutions(c, "resnet50", &CONVS50);
}

fn time_convolutions(
    c: &mut Criterion,
    net: &str,
    convs: &[(usize, usize, usize, usize, usize, usize)],
) {
    use shapecast::{dynamic::conv::ConvSpec, ConvWeight, DynTensor};
    let mut g = c.benchmark_group(format!("{net} convolutions [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    for &(ci, co, n, k, stride, padding) in convs {
        let x = DynTensor::from_fn(
            format!("[N: {BATCH}, C: {ci}, H: {n}, W: {n}]")
                .parse()
                .unwrap(),
            |i| ((i[1] * 7 + i[2] * 3 + i[3]) % 13) as f32 * 0.1 - 0.6,
        )
        .unwrap();
        let w = DynTensor::from_fn(
            format!("[K: {co}, C: {ci}, H: {k}, W: {k}]")
                .parse()
                .unwrap(),
            |i| ((i[0] * 5 + i[1] * 3 + i[2] + i[3]) % 11) as f32 * 0.01 - 0.05,
        )
        .unwrap();
        let spec = ConvSpec {
            stride,
            padding,
            ..ConvSpec::default()
        };
        g.bench_function(format!("{ci}->{co} at {n}, {k}x{k}/{stride}"), |b| {
            b.iter(|| x.conv(&w, "C", &spec).unwrap())
        });
        if k == 3 && stride == 1 {
            // The weight kept with its Winograd transform, as the examples' models hold it.
            let kept = ConvWeight::new(w.clone());
            g.bench_function(format!("{ci}->{co} at {n}, {k}x{k}/{stride} kept"), |b| {
                b.iter(|| x.conv(&kept, "C", &spec).unwrap())
            });
        }
    }
    g.finish();
}

/// The operations ResNet-18 runs between its convolutions, at the network's sizes: the
/// stem's shift and ReLU, its 3x3/2 max pool, and a block's shift, residual add and ReLU at
/// 56x56.
fn between_convolutions(c: &mut Criterion) {
    use common::{C, COLS, N, ROWS};
    use criterion::BatchSize::LargeInput;
    use shapecast::prelude::*;
    use std::hint::black_box;
    let mut g = c.benchmark_group(format!("resnet18 between convolutions [{THREADS}]"));
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    let wave = |n: usize| {
        (0..n)
            .map(|i| ((i * 7919) % 211) as f32 * 0.01 - 1.0)
            .collect()
    };
    let stem = Tensor::<f32, shape![N, C: 64, ROWS: 112, COLS: 112]>::from_vec_sized(
        &[BATCH, 64, 112, 112],
        wave(BATCH * 64 * 112 * 112),
    )
    .unwrap();
    let x56 = Tensor::<f32, shape![N, C: 64, ROWS: 56, COLS: 56]>::from_vec_sized(
        &[BATCH, 64, 56, 56],
        wave(BATCH * 64 * 56 * 56),
    )
    .unwrap();
    let shift = Tensor::<f32, shape![C: 64]>::from_vec(wave(64)).unwrap();
    g.bench_function("max pool 3x3/2 of [8, 64, 112, 112]", |b| {
        b.iter(|| black_box(&stem).max_pool::<(ROWS, COLS), Pool<3, 2, 1>>())
    });
    // The convolution's output is moved in, as in the network: its copy is made untimed.
    g.bench_function("shift and relu of [8, 64, 112, 112]", |b| {
        b.iter_batched(|| stem.clone(), |x| (x + &shift).relu(), LargeInput)
    });
    g.bench_function("shift, residual and relu of [8, 64, 56, 56]", |b| {
        b.iter_batched(|| x56.clone(), |x| (x + &shift + &x56).relu(), LargeInput)
    });
    g.finish();
}

criterion_group!(benches, resnet, convolutions, between_convolutions);
criterion_main!(benches);
