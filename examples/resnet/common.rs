//! What the ResNets of `examples/resnet/` share: the axis names, the input and logits
//! shapes, a convolution with its batch norm folded in, and the formula that fills the weights
//! and the input (`scripts/gen_resnet.py` fills PyTorch's model with the same one).

// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use std::time::Instant;

use shapecast::io::{self, Under, Weights};
use shapecast::prelude::*;
use shapecast::rule::Assign;
use shapecast::{BroadcastsUnder, Storage};

// Activations carry their channel as `C`; a convolution's weight maps `C` to `M`, `M` to `P`
// or either back to `C`, so chained convolutions alternate the names (a shape never holds
// the same name twice).
names!(pub N, RGB, C, M, P, ROWS, COLS, CLASS);

pub const BATCH: usize = 2;
pub const SIZE: usize = 224;

pub type Image = shape![N, RGB: 3, ROWS: 224, COLS: 224];
pub type Logits = shape![N, CLASS: 1000];

/// A 3x3 convolution's weight from channel `I` to `O` (`[OUT, IN, KH, KW]`), and a 1x1 one.
pub type Conv3<O, I> = (O, I, ROWS<S<3>>, COLS<S<3>>);
pub type Conv1<O, I> = (O, I, ROWS<S<1>>, COLS<S<1>>);

/// A convolution with its batch norm folded in: the scaled weight and the shift.
pub struct ConvBn<W: Storage<f32>, B: Storage<f32>> {
    /// The weight with the norm's scale folded in, kept with its Winograd transform (made on
    /// the first forward pass, where the convolution takes that path).
    pub weight: ConvWeight<Tensor<f32, W>>,
    pub shift: Tensor<f32, B>,
}

impl<W: Storage<f32> + BroadcastsUnder<Assign, B>, B: Storage<f32> + Storage<(f32, f32)>>
    ConvBn<W, B>
{
    /// The convolution under `conv` and the batch norm under `bn` (torchvision's
    /// `layer1.0.conv1`, `layer1.0.bn1`), folded.
    pub fn load(conv: Under, bn: Under) -> Result<Self, Error> {
        let stat = |s: &str| bn.get::<f32, B>(s);
        let norm = BatchNorm::new(
            &stat("running_mean")?,
            &stat("running_var")?,
            &stat("weight")?,
            &stat("bias")?,
            1e-5,
        )?;
        Ok(ConvBn {
            weight: ConvWeight::new(norm.fold_into(&conv.get::<f32, W>("weight")?)?),
            shift: norm.shift(),
        })
    }
}

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

/// torchvision's ResNet parameters and running statistics, in its state dict's order: the
/// 7x7 stem, four stages of `(width, blocks)` whose blocks hold the convolutions `convs`
/// gives (`[out, in, kernel]` from the width and the block's input channels) and end at
/// `expansion` times the width, a 1x1 shortcut where a stage's first block changes the
/// channels, and the classifier.
pub fn state_dict(
    stages: [(usize, usize); 4],
    expansion: usize,
    convs: fn(usize, usize) -> Vec<[usize; 3]>,
) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    conv_bn(&mut out, ("conv1", "bn1"), [64, 3, 7]);
    let mut cin = 64;
    for (layer, (width, blocks)) in stages.into_iter().enumerate() {
        let cout = expansion * width;
        for b in 0..blocks {
            let p = format!("layer{}.{b}", layer + 1);
            let first_in = if b == 0 { cin } else { cout };
            for (k, conv) in convs(width, first_in).into_iter().enumerate() {
                let names = (format!("{p}.conv{}", k + 1), format!("{p}.bn{}", k + 1));
                conv_bn(&mut out, (&names.0, &names.1), conv);
            }
            if b == 0 && cout != cin {
                let names = (format!("{p}.downsample.0"), format!("{p}.downsample.1"));
                conv_bn(&mut out, (&names.0, &names.1), [cout, cin, 1]);
            }
        }
        cin = cout;
    }
    out.push(("fc.weight".into(), vec![1000, cin]));
    out.push(("fc.bias".into(), vec![1000]));
    out
}

/// A convolution's weight `[out, in, kernel, kernel]` under `conv` and its batch norm's four
/// tensors under `bn`.
fn conv_bn(out: &mut Vec<(String, Vec<usize>)>, (conv, bn): (&str, &str), [o, i, k]: [usize; 3]) {
    out.push((format!("{conv}.weight"), vec![o, i, k, k]));
    for s in ["weight", "bias", "running_mean", "running_var"] {
        out.push((format!("{bn}.{s}"), vec![o]));
    }
}

/// Element `i` of tensor `k` of the formula `scripts/gen_resnet.py` uses: in [-1, 1).
pub fn wave(k: usize, n: usize) -> impl Iterator<Item = f64> {
    (0..n).map(move |i| ((i * 7919 + k * 104_729) % 2003) as f64 / 1001.5 - 1.0)
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

/// The formula's weights for these torchvision names and sizes (tensor `k` is the `k`-th),
/// saved to a `.safetensors` file (under the system's temporary directory) and loaded back.
pub fn formula_weights(names_and_shapes: Vec<(String, Vec<usize>)>) -> Result<Weights, Error> {
    let tensors: Vec<(String, DynTensor<f32>)> = names_and_shapes
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
        "shapecast-resnet-{}.safetensors",
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

/// Logits as `scripts/gen_resnet.py` writes them: one a line, `#` lines skipped.
pub fn read_logits(text: &str) -> Vec<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().expect("a logit"))
        .collect()
}

/// The largest difference between `want` (PyTorch's logits of the formula's first images)
/// and the first as many of `logits` (element `i` of the formula's input depends on `i`
/// alone, so a larger batch starts with the same images).
pub fn distance(logits: &[f32], want: &[f64]) -> f64 {
    assert!(logits.len() >= want.len(), "fewer logits than PyTorch's");
    logits
        .iter()
        .zip(want)
        .map(|(&a, b)| (a as f64 - b).abs())
        .fold(0.0, f64::max)
}

/// What both examples do: the weights from the file named on the command line (one PyTorch
/// wrote) or the formula's for `names_and_shapes`, the network built from them by `load`,
/// its forward pass on the formula's batch, and its logits checked against PyTorch's (`want`).
pub fn run<Net>(
    depth: usize,
    names_and_shapes: fn() -> Vec<(String, Vec<usize>)>,
    load: fn(&Weights) -> Result<Net, Error>,
    forward: fn(&Net, &Tensor<f32, Image>) -> Tensor<f32, Logits>,
    want: &[f64],
) -> Result<(), Error> {
    let weights = match std::env::args().nth(1) {
        Some(path) => io::load_safetensors(path)?,
        None => formula_weights(names_and_shapes())?,
    };
    let net = load(&weights)?;
    let x = formula_input(BATCH)?;
    let start = Instant::now();
    let logits = forward(&net, &x);
    let took = start.elapsed();

    assert_eq!(want.len(), logits.data().len());
    let diff = distance(logits.data(), want);
    assert!(diff < 1e-3, "the logits differ from PyTorch's by {diff}");
    let top = logits.argmax::<CLASS>();
    println!(
        "ResNet-{depth}, batch {BATCH} at {SIZE}x{SIZE}: logits {} within {diff:.1e} of PyTorch's; top classes {:?}; forward {:.0} ms",
        logits.shape(),
        top.data(),
        took.as_secs_f64() * 1e3
    );
    Ok(())
}
