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

use shapecast::prelude::*;

mod common;
mod resnet18;
use resnet18::{names_and_shapes, pytorch_logits, ResNet18};

fn main() -> Result<(), Error> {
    // The weights: a file PyTorch wrote, or the formula's, saved and loaded back by name;
    // the logits against PyTorch's on the same weights and input.
    common::run(
        18,
        names_and_shapes,
        ResNet18::load,
        ResNet18::forward,
        &pytorch_logits(),
    )
}
