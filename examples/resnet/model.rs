//! The ResNet-18 of `examples/resnet/main.rs` (and `benches/resnet.rs`): its types, its
//! loader from torchvision's names, its forward pass, and the formula that fills its weights.

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.

use shapecast::io::{self, Under, Weights};
use shapecast::prelude::*;
use shapecast::rule::Assign;
use shapecast::{BroadcastsUnder, Storage};

// Activations carry their channel as `C`; a convolution's weight maps `C` to `M` (the first
// of a block) or `M` back to `C` (the second), so chained convolutions alternate the two names.
names!(pub N, RGB, C, M, ROWS, COLS, CLASS);

pub const BATCH: usize = 2;
pub const SIZE: usize = 224;

pub type Image = shape![N, RGB: 3, ROWS: 224, COLS: 224];
pub type Logits = shape![N, CLASS: 1000];

/// A convolution with its batch norm folded in: the scaled weight and the shift.
pub struct ConvBn<W: Storage<f32>, B: Storage<f32>> {
    weight: Tensor<f32, W>,
    shift: Tensor<f32, B>,
}

impl<W: Storage<f32> + BroadcastsUnder<Assign, B>, B: Storage<f32> + Storage<(f32, f32)>>
    ConvBn<W, B>
{
    /// The convolution under `conv` and the batch norm under `bn` (torchvision's
    /// `layer1.0.conv1`, `layer1.0.bn1`), folded.
    fn load(conv: Under, bn: Under) -> Result<Self, Error> {
        let stat = |s: &str| bn.get::<f32, B>(s);
        let norm = BatchNorm::new(
            &stat("running_mean")?,
            &stat("running_var")?,
            &stat("weight")?,
            &stat("bias")?,
            1e-5,
        )?;
        Ok(ConvBn {
            weight: norm.fold_into(&conv.get::<f32, W>("weight")?)?,
            shift: norm.shift(),
        })
    }
}

/// A BasicBlock from `I` channels to `O`: two 3x3 convolutions (`C → M → C`) and, when the
/// block downsamples, a 1x1 convolution on the shortcut.
pub struct Block<W1: Storage<f32>, B1: Storage<f32>, W2: Storage<f32>, B2: Storage<f32>, D> {
    conv1: ConvBn<W1, B1>,
    conv2: ConvBn<W2, B2>,
    down: D,
}

/// A 3x3 convolution's weight from channel `I` to `O` (`[OUT, IN, KH, KW]`), and a
/// 1x1 one.
pub type Conv3<O, I> = (O, I, ROWS<S<3>>, COLS<S<3>>);
pub type Conv1<O, I> = (O, I, ROWS<S<1>>, COLS<S<1>>);
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

/// A block's shortcut, loaded from the tensors under the block's prefix: none, or a 1x1
/// convolution with its norm (`downsample.0`, `downsample.1`).
pub trait LoadShortcut: Sized {
    fn load(w: &Under) -> Result<Self, Error>;
}
impl LoadShortcut for () {
    fn load(_: &Under) -> Result<(), Error> {
        Ok(())
    }
}
impl<WD, BD> LoadShortcut for ConvBn<WD, BD>
where
    WD: Storage<f32> + BroadcastsUnder<Assign, BD>,
    BD: Storage<f32> + Storage<(f32, f32)>,
{
    fn load(w: &Under) -> Result<Self, Error> {
        ConvBn::load(w.under("downsample.0"), w.under("downsample.1"))
    }
}

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

/// Element `i` of tensor `k` of the formula `scripts/gen_resnet.py` uses: in [-1, 1).
pub fn wave(k: usize, n: usize) -> impl Iterator<Item = f64> {
    (0..n).map(move |i| ((i * 7919 + k * 104_729) % 2003) as f64 / 1001.5 - 1.0)
}

/// torchvision's resnet18 parameters and running statistics, in its state dict's order.
pub fn names_and_shapes() -> Vec<(String, Vec<usize>)> {
    let mut out = vec![("conv1.weight".to_string(), vec![64, 3, 7, 7])];
    let bn = |out: &mut Vec<(String, Vec<usize>)>, p: &str, c: usize| {
        for s in ["weight", "bias", "running_mean", "running_var"] {
            out.push((format!("{p}.{s}"), vec![c]));
        }
    };
    bn(&mut out, "bn1", 64);
    let mut cin = 64;
    for (layer, cout) in [64, 128, 256, 512].into_iter().enumerate() {
        for b in 0..2 {
            let p = format!("layer{}.{b}", layer + 1);
            let first_in = if b == 0 { cin } else { cout };
            out.push((format!("{p}.conv1.weight"), vec![cout, first_in, 3, 3]));
            bn(&mut out, &format!("{p}.bn1"), cout);
            out.push((format!("{p}.conv2.weight"), vec![cout, cout, 3, 3]));
            bn(&mut out, &format!("{p}.bn2"), cout);
            if b == 0 && cout != cin {
                out.push((format!("{p}.downsample.0.weight"), vec![cout, cin, 1, 1]));
                bn(&mut out, &format!("{p}.downsample.1"), cout);
            }
        }
        cin = cout;
    }
    out.push(("fc.weight".into(), vec![1000, 512]));
    out.push(("fc.bias".into(), vec![1000]));
    out
}

/// The values of tensor `k`, as `scripts/gen_resnet.py` computes them (in f64, then f32).
pub fn values(k: usize, name: &str, sizes: &[usize]) -> Vec<f32> {
    let n: usize = sizes.iter().product();
    let norm = name.starts_with("bn") || name.contains(".bn") || name.contains("downsample.1");
    let scale = (3.0 / (n / sizes[0]) as f64).sqrt();
    wave(k, n)
        .map(|w| {
            (if name.ends_with("running_var") {
                1.0 + 0.5 * w
            } else if norm && name.ends_with(".weight") {
                1.0 + 0.2 * w
            } else if norm || name == "fc.bias" {
                0.1 * w
            } else {
                w * scale
            }) as f32
        })
        .collect()
}

/// The formula's weights in torchvision's names, saved to a `.safetensors` file (under the
/// system's temporary directory) and loaded back.
pub fn formula_weights() -> Result<Weights, Error> {
    let tensors: Vec<(String, DynTensor<f32>)> = names_and_shapes()
        .into_iter()
        .enumerate()
        .map(|(k, (name, sizes))| {
            let t = DynTensor::from_vec(DynShape::from_sizes(&sizes)?, values(k, &name, &sizes))?;
            Ok((name, t))
        })
        .collect::<Result<_, Error>>()?;
    let refs: Vec<(&str, &dyn io::SafetensorsTensor)> = tensors
        .iter()
        .map(|(n, t)| (n.as_str(), t as &dyn io::SafetensorsTensor))
        .collect();
    let path = std::env::temp_dir().join(format!(
        "shapecast-resnet18-{}.safetensors",
        std::process::id()
    ));
    io::save_safetensors(&path, &refs)?;
    let weights = io::load_safetensors(&path)?;
    std::fs::remove_file(&path).ok();
    Ok(weights)
}

/// The formula's input: `batch` images.
pub fn formula_input(batch: usize) -> Result<Tensor<f32, Image>, Error> {
    Tensor::from_vec_sized(
        &[batch, 3, SIZE, SIZE],
        wave(1000, batch * 3 * SIZE * SIZE)
            .map(|v| v as f32)
            .collect(),
    )
}

/// PyTorch's logits of the formula's first two images, `[2, 1000]` row-major
/// (`examples/data/resnet18_logits.txt`, written by `scripts/gen_resnet.py`).
pub fn pytorch_logits() -> Vec<f64> {
    include_str!("../data/resnet18_logits.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().expect("a logit"))
        .collect()
}

/// The largest difference between PyTorch's logits and the first as many of `logits` (element
/// `i` of the formula's input depends on `i` alone, so a larger batch starts with the same two
/// images).
pub fn distance_to_pytorch(logits: &[f32]) -> f64 {
    let want = pytorch_logits();
    assert!(logits.len() >= want.len(), "fewer logits than PyTorch's");
    logits
        .iter()
        .zip(&want)
        .map(|(&a, b)| (a as f64 - b).abs())
        .fold(0.0, f64::max)
}
