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

use shapecast::prelude::*;

mod common;
mod resnet50;
use resnet50::{names_and_shapes, pytorch_logits, ResNet50};

fn main() -> Result<(), Error> {
    // The weights: a file PyTorch wrote, or the formula's, saved and loaded back by name;
    // the logits against PyTorch's on the same weights and input.
    common::run(
        50,
        names_and_shapes,
        ResNet50::load,
        ResNet50::forward,
        &pytorch_logits(),
    )
}
