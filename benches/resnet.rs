//! ResNet-18's forward pass (`examples/resnet/model.rs`: torchvision's network, batch norms
//! folded into the convolutions) on a batch of 8 images at 224x224, the weights and input
//! filled by the example's formula; first checked against the example's own run (the logits
//! of the first two images are the ones `examples/data/resnet18_logits.txt` holds).
//!
//! Then each distinct convolution of the network alone (`resnet18 convolutions`), batch 8,
//! as `(in channels, out channels, input size, kernel, stride, padding)`.
//!
//! Run: `cargo bench --bench resnet --features safetensors` (one thread) and
//! `cargo bench --bench resnet --features safetensors,rayon` (rayon's pool); PyTorch on the same
//! network and batch: `python3 scripts/bench_resnet.py --threads 1` (and `--threads 2`), its
//! convolutions alone with `--convs`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

#[path = "../examples/resnet/model.rs"]
#[allow(dead_code)]
mod model;

const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};
const BATCH: usize = 8;

fn resnet(c: &mut Criterion) {
    let net = model::ResNet18::load(&model::formula_weights().unwrap()).unwrap();
    let x = model::formula_input(BATCH).unwrap();
    let logits = net.forward(&x);
    // The first two images are the example's: their logits are PyTorch's.
    let diff = model::distance_to_pytorch(logits.data());
    assert!(diff < 1e-3, "the logits differ from PyTorch's by {diff}");
    let mut g = c.benchmark_group(format!("resnet18 [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function(format!("forward batch {BATCH} at 224x224"), |b| {
        b.iter(|| net.forward(&x))
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

fn convolutions(c: &mut Criterion) {
    use shapecast::{dynamic::conv::ConvSpec, DynTensor};
    let mut g = c.benchmark_group(format!("resnet18 convolutions [{THREADS}]"));
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    for (ci, co, n, k, stride, padding) in CONVS {
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
    }
    g.finish();
}

criterion_group!(benches, resnet, convolutions);
criterion_main!(benches);
