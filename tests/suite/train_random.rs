//! Backward passes against central differences in `f64` on random small inputs of run-time
//! sizes: every pooling, padding, upsampling and convolution geometry below, the statistics, the norms,
//! attention (plain, causal with a cache offset, an additive mask; by the queries, keys and
//! values), both rotary conventions, the losses with ignored targets, class weights and
//! smoothing, and the lookups. The fixed cases against PyTorch (`train`) check the values;
//! these reach the geometry a fixed case misses (a padded pool over two axes whose first
//! stage is larger than its input, images of one row or one column).

use proptest::prelude::*;
use shapecast::prelude::*;
use shapecast::train::{Param, Tape, Var, VarAttention, VarConv, VarNorms};
use shapecast::{
    Causal, Conv, Loss, NoMask, Pad, PadMode, Pool, Reduction, RopeStyle, Rotary, Storage,
};

names!(N, C, H, W, K, SEQ, KSEQ, HD, DV, G, CLASS, VOCAB);

/// `n` values in `[-2, 2)`, a function of `seed`.
fn values(n: usize, seed: u64) -> Vec<f64> {
    let step = |s: u64| {
        s.wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
    };
    let mut s = step(seed);
    (0..n)
        .map(|_| {
            s = step(s);
            (s >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        })
        .collect()
}

fn tensor<X: Storage<f64>>(sizes: &[usize], seed: u64) -> Tensor<f64, X> {
    Tensor::from_vec_sized(sizes, values(sizes.iter().product(), seed)).unwrap()
}

/// An operation under test: its result on a tracked input, or `None` where it refuses the
/// sizes.
type Op<'a, X, Y> = &'a dyn Fn(&Var<f64, X>) -> Option<Var<f64, Y>>;

/// The gradient of `Σ seed ⊙ f(x)` by `x` against central differences (`None` from `f`: the
/// operation refused these sizes, nothing to check). Points where either side is not finite
/// (a standard deviation of one element) are skipped.
fn check<X: Storage<f64>, Y: Storage<f64>>(
    what: &str,
    x: &Tensor<f64, X>,
    f: Op<'_, X, Y>,
) -> Result<(), TestCaseError> {
    let p = Param::new("x", x.clone());
    let tape = Tape::new();
    let Some(y) = f(&tape.watch(&p)) else {
        return Ok(());
    };
    let seed = tensor::<Y>(y.sizes(), 99);
    let grads = y.backward_with(&seed).unwrap();
    let analytic = grads.of(&p).unwrap();
    let at = |v: Vec<f64>| -> f64 {
        let t = Tape::new();
        let y = f(&t.constant(Tensor::from_vec_sized(x.sizes(), v).unwrap())).unwrap();
        y.value()
            .data()
            .iter()
            .zip(seed.data())
            .map(|(a, b)| a * b)
            .sum()
    };
    let h = 1e-6;
    for (i, &a) in analytic.data().iter().enumerate() {
        let (mut up, mut down) = (x.data().to_vec(), x.data().to_vec());
        up[i] += h;
        down[i] -= h;
        let numeric = (at(up) - at(down)) / (2.0 * h);
        if !numeric.is_finite() || !a.is_finite() {
            continue;
        }
        prop_assert!(
            (a - numeric).abs() <= 1e-5 * (1.0 + a.abs()),
            "{what}: element {i} of {:?}: {a} against {numeric}",
            x.sizes()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn image_backward_passes_are_the_derivatives(
        n in 1usize..3, c in 1usize..4, h in 1usize..7, w in 1usize..7, seed in 0u64..10_000,
    ) {
        type Img = shape![N, C, H, W];
        let x = tensor::<Img>(&[n, c, h, w], seed);
        check("max 2", &x, &|v| v.max_pool::<(H, W), Pool<2>>().ok())?;
        check("max 3/2/1", &x, &|v| v.max_pool::<(H, W), Pool<3, 2, 1>>().ok())?;
        check("max 3/1/1", &x, &|v| v.max_pool::<(H, W), Pool<3, 1, 1>>().ok())?;
        check("max 3/2/1 ceil", &x, &|v| v.max_pool::<(H, W), Pool<3, 2, 1, true>>().ok())?;
        check("max (C, H) 2/1/1", &x, &|v| v.max_pool::<(C, H), Pool<2, 1, 1>>().ok())?;
        check("avg 2", &x, &|v| v.avg_pool::<(H, W), Pool<2>>().ok())?;
        check("avg 2/1/1", &x, &|v| v.avg_pool::<(H, W), Pool<2, 1, 1>>().ok())?;
        check("avg 3/2/1 ceil", &x, &|v| v.avg_pool::<(H, W), Pool<3, 2, 1, true>>().ok())?;
        check("avg 3/2/1 inside", &x, &|v| {
            v.avg_pool::<(H, W), Pool<3, 2, 1, true, false>>().ok()
        })?;
        check("avg (C, H, W) 2/1/1", &x, &|v| v.avg_pool::<(C, H, W), Pool<2, 1, 1>>().ok())?;
        check("reflect", &x, &|v| v.pad::<(H, W), Pad<1>>(&PadMode::Reflect).ok())?;
        check("replicate", &x, &|v| v.pad::<(H, W), Pad<2>>(&PadMode::Replicate).ok())?;
        check("constant", &x, &|v| v.pad::<W, Pad<2>>(&PadMode::Constant(0.5)).ok())?;
        check("causal", &x, &|v| v.pad::<W, Pad<2, 0>>(&PadMode::Constant(0.5)).ok())?;
        check("reflect ends", &x, &|v| v.pad::<(H, W), Pad<0, 1>>(&PadMode::Reflect).ok())?;
        check("replicate ends", &x, &|v| v.pad::<H, Pad<1, 3>>(&PadMode::Replicate).ok())?;
        let linear = Interpolation::Linear { align_corners: false, antialias: false };
        let corners = Interpolation::Linear { align_corners: true, antialias: false };
        check("bilinear 2", &x, &|v| v.upsample::<(H, W), Scale<2>>(linear).ok())?;
        check("bilinear 3 corners", &x, &|v| v.upsample::<(H, W), Scale<3>>(corners).ok())?;
        check("trilinear (C, H, W) 2", &x, &|v| v.upsample::<(C, H, W), Scale<2>>(linear).ok())?;
        check("nearest 3", &x, &|v| v.upsample::<(W, H), Scale<3>>(Interpolation::Nearest).ok())?;
        check("nearest-exact 1", &x, &|v| v.upsample::<H, Scale<1>>(Interpolation::NearestExact).ok())?;
        let cubic = Interpolation::Cubic { align_corners: false, antialias: false };
        let smooth = Interpolation::Cubic { align_corners: true, antialias: true };
        check("bicubic 2", &x, &|v| v.upsample::<(H, W), Scale<2>>(cubic).ok())?;
        check("antialiased bicubic 3 corners", &x, &|v| v.upsample::<(H, W), Scale<3>>(smooth).ok())?;
        check("area (C, W) 2", &x, &|v| v.upsample::<(C, W), Scale<2>>(Interpolation::Area).ok())?;
        // Resizes from the drawn sizes (1 to 6) to 4, shrinking or growing.
        check("resize nearest", &x, &|v| v.resize::<(H, W), S<4>>(Interpolation::Nearest).ok())?;
        check("resize area", &x, &|v| v.resize::<W, S<4>>(Interpolation::Area).ok())?;
        check("resize antialiased", &x, &|v| v.resize::<(H, W), S<4>>(smooth).ok())?;
        check("resize bicubic", &x, &|v| v.resize::<H, S<4>>(cubic).ok())?;
        check("softmax", &x, &|v| Some(v.softmax::<(H, W)>()))?;
        check("logsumexp", &x, &|v| Some(v.logsumexp::<(C, W)>()))?;
        check("var", &x, &|v| Some(v.var::<(H, W)>(1)))?;
        check("std", &x, &|v| Some(v.std::<W>(0)))?;
        check("max", &x, &|v| v.max::<(C, H)>().ok())?;
        check("step", &x, &|v| v.step::<W>(2).ok())?;
        // Kernels 3 and 2, stride 1 and 2 with padding 1, dilation 2 where it fits.
        for (taps, kernel_seed) in [(3, seed + 1), (2, seed + 2)] {
            let k = tensor::<shape![K, C, H, W]>(&[2, c, taps, taps], kernel_seed);
            let kc = || k.clone();
            check("conv", &x, &|v| Some(v.conv::<C, Conv<1, 1>>(&v.tape().constant(kc()))))?;
            check("conv/2", &x, &|v| Some(v.conv::<C, Conv<2, 1>>(&v.tape().constant(kc()))))?;
            if (h.min(w) + 2) > 2 * (taps - 1) {
                check("conv dilated", &x, &|v| {
                    Some(v.conv::<C, Conv<1, 1, 2>>(&v.tape().constant(kc())))
                })?;
            }
            let input = || x.clone();
            check("conv's weight", &k, &|v| {
                Some(v.tape().constant(input()).conv::<C, Conv<2, 1>>(v))
            })?;
            // Stored in another order than `[OUT, C, taps…]`: its gradient goes back to it.
            let last = tensor::<shape![W, H, C, K]>(&[taps, taps, c, 2], kernel_seed);
            check("conv's weight, channels last", &last, &|v| {
                Some(v.tape().constant(input()).conv::<C, Conv<1, 1>>(v))
            })?;
        }
        let gamma = tensor::<shape![W]>(&[w], seed + 3);
        let g = || gamma.clone();
        check("layer_norm", &x, &|v| {
            let t = v.tape();
            v.layer_norm::<W>(&t.constant(g()), &t.constant(g()), 1e-5).ok()
        })?;
        check("rms_norm", &x, &|v| v.rms_norm::<W>(&v.tape().constant(g()), 1e-5).ok())?;
        check("layer_norm's weight", &gamma, &|v| {
            v.tape().constant(x.clone()).layer_norm::<W>(v, v, 1e-5).ok()
        })?;
    }

    #[test]
    fn sequence_backward_passes_are_the_derivatives(
        s in 1usize..5, t in 1usize..6, d in 1usize..4, dv in 1usize..3, g in 1usize..3,
        offset in 0usize..3, seed in 0u64..10_000,
    ) {
        let q = tensor::<shape![G, SEQ, HD]>(&[g, s, d], seed);
        let k = tensor::<shape![KSEQ, HD]>(&[t, d], seed + 1);
        let v = tensor::<shape![KSEQ, DV]>(&[t, dv], seed + 2);
        let mask = tensor::<shape![SEQ, KSEQ]>(&[s, t], seed + 3);
        let causal = || Causal::<SEQ>::at(offset);
        let (kc, vc, qc) = (|| k.clone(), || v.clone(), || q.clone());
        check("attention", &q, &|x| {
            let tp = x.tape();
            x.attention::<HD, KSEQ>(&tp.constant(kc()), &tp.constant(vc()), NoMask, None).ok()
        })?;
        check("attention, masked", &q, &|x| {
            let tp = x.tape();
            x.attention::<HD, KSEQ>(&tp.constant(kc()), &tp.constant(vc()), &mask, None).ok()
        })?;
        check("attention, causal", &q, &|x| {
            let tp = x.tape();
            x.attention::<HD, KSEQ>(&tp.constant(kc()), &tp.constant(vc()), causal(), Some(0.7)).ok()
        })?;
        check("attention's keys", &k, &|x| {
            let tp = x.tape();
            tp.constant(qc()).attention::<HD, KSEQ>(x, &tp.constant(vc()), causal(), None).ok()
        })?;
        check("attention's values", &v, &|x| {
            let tp = x.tape();
            tp.constant(qc()).attention::<HD, KSEQ>(&tp.constant(kc()), x, causal(), None).ok()
        })?;
        for style in [RopeStyle::Adjacent, RopeStyle::Halves] {
            let table = Rotary::<f64>::new(style, 2 * d, s + offset, 1e4).unwrap();
            let x = tensor::<shape![G, SEQ, HD]>(&[g, s, 2 * d], seed + 4);
            check("rope", &x, &|x| x.rope::<SEQ, HD>(&table, offset).ok())?;
        }
        // Logits `[SEQ, CLASS]`: every third target ignored (PyTorch's -100).
        let classes = t + 1;
        let logits = tensor::<shape![SEQ, CLASS]>(&[s, classes], seed + 5);
        let labels: Vec<i64> = (0..s)
            .map(|i| if (i + offset) % 3 == 2 { -100 } else { ((i * 7 + seed as usize) % classes) as i64 })
            .collect();
        let labels = Tensor::<i64, shape![SEQ]>::from_vec_sized(&[s], labels).unwrap();
        let weights: Vec<f64> = values(classes, seed + 6).iter().map(|x| x.abs() + 0.1).collect();
        let weights = Tensor::<f64, shape![CLASS]>::from_vec_sized(&[classes], weights).unwrap();
        for reduction in [Reduction::Mean, Reduction::Sum] {
            let smooth = Loss::default().label_smoothing(0.2);
            let weighted = Loss::default().class_weights(&weights).label_smoothing(0.1);
            check("cross_entropy", &logits, &|x| x.cross_entropy::<CLASS>(&labels, &smooth, reduction).ok())?;
            check("cross_entropy, weighted", &logits, &|x| {
                x.cross_entropy::<CLASS>(&labels, &weighted, reduction).ok()
            })?;
            let opts = Loss::default().class_weights(&weights);
            check("nll_loss, weighted", &logits, &|x| x.nll_loss::<CLASS>(&labels, &opts, reduction).ok())?;
        }
        let table = tensor::<shape![VOCAB, HD]>(&[t, d], seed + 7);
        let ids: Vec<usize> = (0..s).map(|i| (i * 3 + offset) % t).collect();
        let ids = Tensor::<usize, shape![SEQ]>::from_vec_sized(&[s], ids).unwrap();
        check("take", &table, &|x| x.take::<VOCAB, _>(&ids).ok())?;
        let picks: Vec<i64> = (0..2 * s).map(|i| ((i * 5 + offset) % classes) as i64).collect();
        let picks = Tensor::<i64, shape![SEQ, CLASS]>::from_vec_sized(&[s, 2], picks).unwrap();
        check("gather", &logits, &|x| x.gather::<CLASS, _>(&picks).ok())?;
    }
}
