//! A ResNet-50 typed end to end at 224x224, as torchvision defines it: the 7x7 stride-2 stem,
//! the 3x3 stride-2 max pool, four stages of 3, 4, 6 and 3 Bottleneck blocks (1x1, 3x3
//! carrying the stride, 1x1 out to four times the width; a 1x1 convolution on each stage's
//! first shortcut), the global average pool and the classifier over 2048 channels. Every
//! size is static: the compiler computes every stage (112, 56, 28, 14, 7).
//!
//! The model is in `resnet50.rs` (which `benches/resnet.rs` times); what it shares with the
//! ResNet-18 (`main.rs`, the example `resnet`) is in `common.rs`. The weights are
//! torchvision's names and layouts (`layer3.0.conv2.weight` `[256, 256, 3, 3]` ...), filled
//! by the formula `scripts/gen_resnet.py --depth 50` fills PyTorch's model with, saved to a
//! `.safetensors` file and loaded back by name; the batch norms are folded into the
//! convolutions on load. The logits are checked against PyTorch's
//! (`examples/data/resnet50_logits.txt`).
//!
//! Run: `cargo run --release --example resnet50 --features safetensors`, or with the path of
//! a file PyTorch wrote (`python3 scripts/gen_resnet.py --depth 50` writes one):
//! `cargo run --release --example resnet50 --features safetensors -- target/resnet/resnet50.safetensors`

use shapecast::io;
use shapecast::prelude::*;

mod common;
mod resnet50;
use common::{distance, formula_input, formula_weights, BATCH, CLASS, SIZE};
use resnet50::{names_and_shapes, pytorch_logits, ResNet50};

fn main() -> Result<(), Error> {
    // The weights: a file PyTorch wrote, or the formula's, saved and loaded back by name.
    let weights = match std::env::args().nth(1) {
        Some(path) => io::load_safetensors(path)?,
        None => formula_weights(names_and_shapes())?,
    };
    let net = ResNet50::load(&weights)?;
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
        "ResNet-50, batch {BATCH} at {SIZE}x{SIZE}: logits {} within {diff:.1e} of PyTorch's; top classes {:?}; forward {:.0} ms",
        logits.shape(),
        top.data(),
        took.as_secs_f64() * 1e3
    );
    Ok(())
}
