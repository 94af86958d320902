//! The ResNet-50 of `examples/resnet/main50.rs` (and `benches/resnet.rs`): torchvision's
//! Bottleneck blocks (1x1 to the block's width, 3x3 carrying the stride, 1x1 out to four
//! times the width), its loader from torchvision's names and its forward pass.

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use shapecast::io::{Under, Weights};
use shapecast::prelude::*;
use shapecast::rule::Assign;
use shapecast::{BroadcastsUnder, Storage};

use crate::common::{
    read_logits, state_dict, Conv1, Conv3, ConvBn, Image, LoadShortcut, Logits, C, CLASS, COLS, M,
    N, P, RGB, ROWS,
};

/// A Bottleneck: a 1x1 convolution to the width (`C → M`), a 3x3 one (`M → P`, the block's
/// stride), a 1x1 one out (`P → C`) and, in a stage's first block, a 1x1 convolution on the
/// shortcut.
pub struct Bottleneck<W1, B1, W2, B2, W3, B3, D>
where
    W1: Storage<f32>,
    B1: Storage<f32>,
    W2: Storage<f32>,
    B2: Storage<f32>,
    W3: Storage<f32>,
    B3: Storage<f32>,
{
    conv1: ConvBn<W1, B1>,
    conv2: ConvBn<W2, B2>,
    conv3: ConvBn<W3, B3>,
    down: D,
}

/// A block of width `W` from `I` channels to `O`: its three convolutions' weights and shifts.
type Neck<const I: usize, const W: usize, const O: usize, D> = Bottleneck<
    Conv1<M<S<W>>, C<S<I>>>,
    (M<S<W>>,),
    Conv3<P<S<W>>, M<S<W>>>,
    (P<S<W>>,),
    Conv1<C<S<O>>, P<S<W>>>,
    (C<S<O>>,),
    D,
>;
/// A block that keeps its `O` channels (the identity shortcut), and a stage's first block,
/// whose shortcut is a 1x1 convolution from `I` channels to `O` (named `M`, renamed `C`).
pub type Keep<const W: usize, const O: usize> = Neck<O, W, O, ()>;
pub type Expand<const I: usize, const W: usize, const O: usize> =
    Neck<I, W, O, ConvBn<Conv1<M<S<O>>, C<S<I>>>, (M<S<O>>,)>>;

impl<W1, B1, W2, B2, W3, B3, D: LoadShortcut> Bottleneck<W1, B1, W2, B2, W3, B3, D>
where
    W1: Storage<f32> + BroadcastsUnder<Assign, B1>,
    B1: Storage<f32> + Storage<(f32, f32)>,
    W2: Storage<f32> + BroadcastsUnder<Assign, B2>,
    B2: Storage<f32> + Storage<(f32, f32)>,
    W3: Storage<f32> + BroadcastsUnder<Assign, B3>,
    B3: Storage<f32> + Storage<(f32, f32)>,
{
    /// The block from the tensors under its prefix (`layer2.0`).
    fn load(w: Under) -> Result<Self, Error> {
        Ok(Bottleneck {
            conv1: ConvBn::load(w.under("conv1"), w.under("bn1"))?,
            conv2: ConvBn::load(w.under("conv2"), w.under("bn2"))?,
            conv3: ConvBn::load(w.under("conv3"), w.under("bn3"))?,
            down: D::load(&w)?,
        })
    }
}

pub struct ResNet50 {
    stem: ConvBn<shape![C: 64, RGB: 3, ROWS: 7, COLS: 7], shape![C: 64]>,
    layer1: (Expand<64, 64, 256>, Keep<64, 256>, Keep<64, 256>),
    layer2: (
        Expand<256, 128, 512>,
        Keep<128, 512>,
        Keep<128, 512>,
        Keep<128, 512>,
    ),
    layer3: (
        Expand<512, 256, 1024>,
        Keep<256, 1024>,
        Keep<256, 1024>,
        Keep<256, 1024>,
        Keep<256, 1024>,
        Keep<256, 1024>,
    ),
    layer4: (Expand<1024, 512, 2048>, Keep<512, 2048>, Keep<512, 2048>),
    fc: Tensor<f32, shape![CLASS: 1000, C: 2048]>,
    fc_bias: Tensor<f32, shape![CLASS: 1000]>,
}

/// A Bottleneck's forward pass: `relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1(x)))))))) +
/// shortcut)`, the norms folded into the convolutions; `$stride` is the 3x3 convolution's
/// (and the shortcut's). A macro, as ResNet-18's `basic_block!`: each block's shapes differ,
/// and the compiler infers them at each use.
macro_rules! bottleneck {
    ($x:expr, $b:expr, $stride:literal, $short:tt) => {{
        let x = $x;
        let h = (x.conv::<C, Conv>(&$b.conv1.weight) + &$b.conv1.shift).relu();
        let h = (h.conv::<M, Conv<$stride, 1>>(&$b.conv2.weight) + &$b.conv2.shift).relu();
        let y = h.conv::<P, Conv>(&$b.conv3.weight) + &$b.conv3.shift;
        (y + bottleneck!(@short x, $b, $stride, $short)).relu()
    }};
    (@short $x:expr, $b:expr, $stride:literal, identity) => {
        $x
    };
    (@short $x:expr, $b:expr, $stride:literal, downsample) => {
        ($x.conv::<C, Conv<$stride>>(&$b.down.weight) + &$b.down.shift).rename::<M, C>()
    };
}

impl ResNet50 {
    pub fn load(w: &Weights) -> Result<ResNet50, Error> {
        let b = |name: &str| w.under(name);
        Ok(ResNet50 {
            stem: ConvBn::load(w.under("conv1"), w.under("bn1"))?,
            layer1: (
                Bottleneck::load(b("layer1.0"))?,
                Bottleneck::load(b("layer1.1"))?,
                Bottleneck::load(b("layer1.2"))?,
            ),
            layer2: (
                Bottleneck::load(b("layer2.0"))?,
                Bottleneck::load(b("layer2.1"))?,
                Bottleneck::load(b("layer2.2"))?,
                Bottleneck::load(b("layer2.3"))?,
            ),
            layer3: (
                Bottleneck::load(b("layer3.0"))?,
                Bottleneck::load(b("layer3.1"))?,
                Bottleneck::load(b("layer3.2"))?,
                Bottleneck::load(b("layer3.3"))?,
                Bottleneck::load(b("layer3.4"))?,
                Bottleneck::load(b("layer3.5"))?,
            ),
            layer4: (
                Bottleneck::load(b("layer4.0"))?,
                Bottleneck::load(b("layer4.1"))?,
                Bottleneck::load(b("layer4.2"))?,
            ),
            fc: w.get("fc.weight")?,
            fc_bias: w.get("fc.bias")?,
        })
    }

    pub fn forward(&self, x: &Tensor<f32, Image>) -> Tensor<f32, Logits> {
        let stem = (x.conv::<RGB, Conv<2, 3>>(&self.stem.weight) + &self.stem.shift).relu();
        let x = stem.max_pool::<(ROWS, COLS), Pool<3, 2, 1>>();
        let (l1, l2, l3, l4) = (&self.layer1, &self.layer2, &self.layer3, &self.layer4);
        let x = bottleneck!(&x, l1.0, 1, downsample);
        let x = bottleneck!(&x, l1.1, 1, identity);
        let x = bottleneck!(&x, l1.2, 1, identity);
        let x = bottleneck!(&x, l2.0, 2, downsample);
        let x = bottleneck!(&x, l2.1, 1, identity);
        let x = bottleneck!(&x, l2.2, 1, identity);
        let x = bottleneck!(&x, l2.3, 1, identity);
        let x = bottleneck!(&x, l3.0, 2, downsample);
        let x = bottleneck!(&x, l3.1, 1, identity);
        let x = bottleneck!(&x, l3.2, 1, identity);
        let x = bottleneck!(&x, l3.3, 1, identity);
        let x = bottleneck!(&x, l3.4, 1, identity);
        let x = bottleneck!(&x, l3.5, 1, identity);
        let x = bottleneck!(&x, l4.0, 2, downsample);
        let x = bottleneck!(&x, l4.1, 1, identity);
        let x: Tensor<f32, shape![N, C: 2048, ROWS: 7, COLS: 7]> =
            bottleneck!(&x, l4.2, 1, identity);
        let pooled = x.mean::<(ROWS, COLS)>();
        pooled.dot::<C>(&self.fc) + &self.fc_bias
    }
}

/// torchvision's resnet50 parameters and running statistics, in its state dict's order.
pub fn names_and_shapes() -> Vec<(String, Vec<usize>)> {
    let stages = [(64, 3), (128, 4), (256, 6), (512, 3)];
    state_dict(stages, 4, |width, cin| {
        vec![[width, cin, 1], [width, width, 3], [4 * width, width, 1]]
    })
}

/// PyTorch's logits of the formula's first two images, `[2, 1000]` row-major
/// (`examples/data/resnet50_logits.txt`, written by `scripts/gen_resnet.py --depth 50`).
pub fn pytorch_logits() -> Vec<f64> {
    read_logits(include_str!("../data/resnet50_logits.txt"))
}
