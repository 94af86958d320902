//! A ResNet-18 typed end to end at 224x224, as torchvision defines it: the 7x7 stride-2 stem,
//! the 3x3 stride-2 max pool, four stages of two BasicBlocks (stride-2 downsampling shortcuts
//! from the second on), the global average pool and the classifier. Every size is static, so
//! the compiler computes every stage (112, 56, 28, 14, 7) and an editor shows each on hover.
//!
//! The model is in `resnet18.rs` (which `benches/resnet.rs` times); what it shares with the
//! ResNet-50 (`main50.rs`, the example `resnet50`) is in `common.rs`. The weights are
//! torchvision's names and layouts (`layer2.0.downsample.0.weight` `[128, 64, 1, 1]` ...),
//! filled by a formula (`scripts/gen_resnet.py` fills PyTorch's model with the same one),
//! saved to a `.safetensors` file and loaded back by name under each module's prefix
//! (`Weights::under`); each batch norm (running statistics, `eval()` mode) is folded into the
//! convolution before it when loaded. The logits are checked against PyTorch's
//! (`examples/data/resnet18_logits.txt`).
//!
//! Run: `cargo run --release --example resnet --features safetensors`, or with the path of a
//! file PyTorch wrote (`python3 scripts/gen_resnet.py` writes one):
//! `cargo run --release --example resnet --features safetensors -- target/resnet/resnet18.safetensors`

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io;
use shapecast::prelude::*;

mod common;
mod resnet18;
use common::{distance, formula_input, formula_weights, BATCH, CLASS, SIZE};
use resnet18::{names_and_shapes, pytorch_logits, ResNet18};

fn main() -> Result<(), Error> {
    // The weights: a file PyTorch wrote, or the formula's, saved and loaded back by name.
    let weights = match std::env::args().nth(1) {
        Some(path) => io::load_safetensors(path)?,
        None => formula_weights(names_and_shapes())?,
    };
    let net = ResNet18::load(&weights)?;
    let x = formula_input(BATCH)?;
    let start = std::time::Instant::now();
    let logits = net.forward(&x);
    let took = start.elapsed();

    // PyTorch's logits on the same weights and input.
    let want = pytorch_logits();
    assert_eq!(want.len(), logits.data().len());
    let diff = distance(logits.data(), &want);
    assert!(diff < 1e-3, "the logits differ from PyTorch's by {diff}");
    let top = logits.argmax::<CLASS>();
    println!(
        "ResNet-18, batch {BATCH} at {SIZE}x{SIZE}: logits {} within {diff:.1e} of PyTorch's; top classes {:?}; forward {:.0} ms",
        logits.shape(),
        top.data(),
        took.as_secs_f64() * 1e3
    );
    Ok(())
}
