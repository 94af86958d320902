//! ResNet-18's forward pass (`examples/resnet/model.rs`: torchvision's network, batch norms
//! folded into the convolutions) on a batch of 8 images at 224x224, the weights and input
//! filled by the example's formula; first checked against the example's own run (the logits
//! of the first two images are the ones `examples/data/resnet18_logits.txt` holds).
//!
//! Run: `cargo bench --bench resnet --features safetensors` (one thread) and
//! `cargo bench --bench resnet --features safetensors,rayon` (rayon's pool); PyTorch on the same
//! network and batch: `python3 scripts/bench_resnet.py --threads 1` (and `--threads 2`).

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

criterion_group!(benches, resnet);
criterion_main!(benches);
