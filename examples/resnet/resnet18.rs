//! The ResNet-18 of `examples/resnet/main.rs` (and `benches/resnet.rs`): its types, its
//! loader from torchvision's names and its forward pass.

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io::{Under, Weights};
use shapecast::prelude::*;
use shapecast::rule::Assign;
use shapecast::{BroadcastsUnder, Storage};

use crate::common::{
    read_logits, state_dict, Conv1, Conv3, ConvBn, Image, LoadShortcut, Logits, C, CLASS, COLS, M,
    N, RGB, ROWS,
};

/// A BasicBlock from `I` channels to `O`: two 3x3 convolutions (`C → M → C`) and, when the
/// block downsamples, a 1x1 convolution on the shortcut.
pub struct Block<W1: Storage<f32>, B1: Storage<f32>, W2: Storage<f32>, B2: Storage<f32>, D> {
    conv1: ConvBn<W1, B1>,
    conv2: ConvBn<W2, B2>,
    down: D,
}

/// A block that keeps its `CH` channels, and one from `I` to `O` channels at half the size.
pub type Same<const CH: usize> =
    Block<Conv3<M<S<CH>>, C<S<CH>>>, (M<S<CH>>,), Conv3<C<S<CH>>, M<S<CH>>>, (C<S<CH>>,), ()>;
pub type Down<const I: usize, const O: usize> = Block<
    Conv3<M<S<O>>, C<S<I>>>,
    (M<S<O>>,),
    Conv3<C<S<O>>, M<S<O>>>,
    (C<S<O>>,),
    ConvBn<Conv1<M<S<O>>, C<S<I>>>, (M<S<O>>,)>,
>;

impl<W1, B1, W2, B2, D: LoadShortcut> Block<W1, B1, W2, B2, D>
where
    W1: Storage<f32> + BroadcastsUnder<Assign, B1>,
    B1: Storage<f32> + Storage<(f32, f32)>,
    W2: Storage<f32> + BroadcastsUnder<Assign, B2>,
    B2: Storage<f32> + Storage<(f32, f32)>,
{
    /// The block from the tensors under its prefix (`layer2.0`).
    fn load(w: Under) -> Result<Self, Error> {
        Ok(Block {
            conv1: ConvBn::load(w.under("conv1"), w.under("bn1"))?,
            conv2: ConvBn::load(w.under("conv2"), w.under("bn2"))?,
            down: D::load(&w)?,
        })
    }
}

pub struct ResNet18 {
    stem: ConvBn<shape![C: 64, RGB: 3, ROWS: 7, COLS: 7], shape![C: 64]>,
    layer1: (Same<64>, Same<64>),
    layer2: (Down<64, 128>, Same<128>),
    layer3: (Down<128, 256>, Same<256>),
    layer4: (Down<256, 512>, Same<512>),
    fc: Tensor<f32, shape![CLASS: 1000, C: 512]>,
    fc_bias: Tensor<f32, shape![CLASS: 1000]>,
}

/// A BasicBlock's forward pass: `relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut)`, the
/// norms folded into the convolutions. Written as a macro: each block's shapes differ, and
/// the macro lets the compiler infer them at each use.
macro_rules! basic_block {
    ($x:expr, $b:expr, $stride:ty, identity) => {{
        let x = $x;
        let h = (x.conv::<C, $stride>(&$b.conv1.weight) + &$b.conv1.shift).relu();
        (h.conv::<M, Conv<1, 1>>(&$b.conv2.weight) + &$b.conv2.shift + x).relu()
    }};
    ($x:expr, $b:expr, $stride:ty, downsample) => {{
        let x = $x;
        let h = (x.conv::<C, $stride>(&$b.conv1.weight) + &$b.conv1.shift).relu();
        let short = (x.conv::<C, Conv<2>>(&$b.down.weight) + &$b.down.shift).rename::<M, C>();
        (h.conv::<M, Conv<1, 1>>(&$b.conv2.weight) + &$b.conv2.shift + short).relu()
    }};
}

impl ResNet18 {
    pub fn load(w: &Weights) -> Result<ResNet18, Error> {
        Ok(ResNet18 {
            stem: ConvBn::load(w.under("conv1"), w.under("bn1"))?,
            layer1: (
                Block::load(w.under("layer1.0"))?,
                Block::load(w.under("layer1.1"))?,
            ),
            layer2: (
                Block::load(w.under("layer2.0"))?,
                Block::load(w.under("layer2.1"))?,
            ),
            layer3: (
                Block::load(w.under("layer3.0"))?,
                Block::load(w.under("layer3.1"))?,
            ),
            layer4: (
                Block::load(w.under("layer4.0"))?,
                Block::load(w.under("layer4.1"))?,
            ),
            fc: w.get("fc.weight")?,
            fc_bias: w.get("fc.bias")?,
        })
    }

    pub fn forward(&self, x: &Tensor<f32, Image>) -> Tensor<f32, Logits> {
        let stem = (x.conv::<RGB, Conv<2, 3>>(&self.stem.weight) + &self.stem.shift).relu();
        let x56 = stem.max_pool::<(ROWS, COLS), Pool<3, 2, 1>>();
        let x56 = basic_block!(&x56, self.layer1.0, Conv<1, 1>, identity);
        let x56 = basic_block!(&x56, self.layer1.1, Conv<1, 1>, identity);
        let x28 = basic_block!(&x56, self.layer2.0, Conv<2, 1>, downsample);
        let x28 = basic_block!(&x28, self.layer2.1, Conv<1, 1>, identity);
        let x14 = basic_block!(&x28, self.layer3.0, Conv<2, 1>, downsample);
        let x14 = basic_block!(&x14, self.layer3.1, Conv<1, 1>, identity);
        let x7 = basic_block!(&x14, self.layer4.0, Conv<2, 1>, downsample);
        let x7: Tensor<f32, shape![N, C: 512, ROWS: 7, COLS: 7]> =
            basic_block!(&x7, self.layer4.1, Conv<1, 1>, identity);
        let pooled = x7.mean::<(ROWS, COLS)>();
        pooled.dot::<C>(&self.fc) + &self.fc_bias
    }
}

/// torchvision's resnet18 parameters and running statistics, in its state dict's order.
pub fn names_and_shapes() -> Vec<(String, Vec<usize>)> {
    let stages = [(64, 2), (128, 2), (256, 2), (512, 2)];
    state_dict(stages, 1, |width, cin| {
        vec![[width, cin, 3], [width, width, 3]]
    })
}

/// PyTorch's logits of the formula's first two images, `[2, 1000]` row-major
/// (`examples/data/resnet18_logits.txt`, written by `scripts/gen_resnet.py`).
pub fn pytorch_logits() -> Vec<f64> {
    read_logits(include_str!("../data/resnet18_logits.txt"))
}
