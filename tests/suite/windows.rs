//! The window operations (rule book §20) against PyTorch's own answers
//! (`tests/data/torch_windows.jsonl`, written by `scripts/gen_window_cases.py`): output sizes
//! of conv1d and max_pool1d for every stride, padding, dilation and ceil mode on a grid
//! (refusals included), and values of 1-, 2- and 3-D convolutions (groups, dilation) and pools
//! (ceil mode, `count_include_pad` both ways) and padding (constant, reflect, replicate). Pools
//! also against a naive reference on random layouts, and typed against run-time.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use serde_json::Value;
use shapecast::dynamic::conv::{out_size, ConvSpec};
use shapecast::dynamic::pad::PadMode;
use shapecast::dynamic::pool::PoolSpec;
use shapecast::{names, shape, Conv, ConvWeight, Convolution, DynShape, DynTensor, Tensor};

fn cases() -> Vec<Value> {
    let text = include_str!("../data/torch_windows.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn usize_of(v: &Value, k: &str) -> usize {
    v[k].as_u64().unwrap() as usize
}

pub(crate) fn sizes_of(v: &Value, k: &str) -> Vec<usize> {
    v[k].as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

pub(crate) fn ramp(sizes: &[usize], a: usize, m: usize, b: f64) -> Vec<f64> {
    let n: usize = sizes.iter().product();
    (0..n).map(|i| ((i * a) % m) as f64 - b).collect()
}

/// `[N: n, C: c, D: …, H: …, W: …]` with the last `spatial` names of D, H, W.
fn named(sizes: &[usize], first: &str, second: &str) -> DynShape {
    let spatial = ["D", "H", "W"];
    let d = sizes.len() - 2;
    let mut axes = vec![
        format!("{first}: {}", sizes[0]),
        format!("{second}: {}", sizes[1]),
    ];
    for (j, n) in sizes[2..].iter().enumerate() {
        axes.push(format!("{}: {n}", spatial[3 - d + j]));
    }
    format!("[{}]", axes.join(", ")).parse().unwrap()
}

fn close(got: &[f64], want: &[Value], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        let w = w.as_f64().unwrap();
        assert!(
            (g - w).abs() <= 1e-9 * (1.0 + w.abs()),
            "{what}: {g} against {w}"
        );
    }
}

#[test]
fn output_sizes_are_pytorchs() {
    let mut seen = 0;
    for c in cases() {
        let op = c["op"].as_str().unwrap();
        if op != "conv_size" && op != "pool_size" {
            continue;
        }
        let (n, k, s, p, d) = (
            usize_of(&c, "n"),
            usize_of(&c, "k"),
            usize_of(&c, "s"),
            usize_of(&c, "p"),
            usize_of(&c, "d"),
        );
        let ceil = c["ceil"].as_bool().unwrap();
        let want = c["out"].as_u64().map(|v| v as usize);
        assert_eq!(out_size(n, k, s, p, d, ceil), want, "{c}");
        // The run-time rules agree (a refusal where PyTorch refuses).
        let x: DynShape = format!("[C: 1, T: {n}]").parse().unwrap();
        let shape = if op == "conv_size" {
            let w: DynShape = format!("[K: 1, C: 1, T: {k}]").parse().unwrap();
            let spec = ConvSpec::default().stride(s).padding(p).dilation(d);
            shapecast::dynamic::conv::conv(&x, &w, "C", &spec).map(|c| c.shape)
        } else {
            let spec = PoolSpec::new(k).stride(s).padding(p).ceil_mode(ceil);
            shapecast::dynamic::pool::pool(&x, &["T".parse().unwrap()], &spec).map(|p| p.shape)
        };
        match want {
            Some(o) => assert_eq!(
                shape.unwrap().to_string(),
                format!(
                    "[{}, T: {o}]",
                    if op == "conv_size" { "K: 1" } else { "C: 1" }
                )
            ),
            None => assert!(shape.is_err(), "{c}"),
        }
        seen += 1;
    }
    assert!(seen > 900);
}

#[test]
fn values_are_pytorchs() {
    let mut seen = 0;
    for c in cases() {
        let op = c["op"].as_str().unwrap();
        if op == "conv" {
            let (xs, ws) = (sizes_of(&c, "x"), sizes_of(&c, "w"));
            let x = DynTensor::from_vec(named(&xs, "N", "C"), ramp(&xs, 7, 11, 5.0)).unwrap();
            let w = DynTensor::from_vec(named(&ws, "K", "C"), ramp(&ws, 5, 7, 3.0)).unwrap();
            let spec = ConvSpec {
                stride: usize_of(&c, "s"),
                padding: usize_of(&c, "p"),
                dilation: usize_of(&c, "d"),
                groups: usize_of(&c, "g"),
            };
            let y = x.conv(&w, "C", &spec).unwrap();
            assert_eq!(y.sizes(), &sizes_of(&c, "out")[..], "{c}");
            close(y.data(), c["values"].as_array().unwrap(), op);
            seen += 1;
        } else if op == "max_pool" || op == "avg_pool" {
            let xs = sizes_of(&c, "x");
            let x = DynTensor::from_vec(named(&xs, "N", "C"), ramp(&xs, 7, 11, 5.0)).unwrap();
            let spatial: Vec<_> = ["D", "H", "W"][3 - (xs.len() - 2)..]
                .iter()
                .map(|n| n.parse().unwrap())
                .collect();
            let spec = PoolSpec::new(usize_of(&c, "k"))
                .stride(usize_of(&c, "s"))
                .padding(usize_of(&c, "p"))
                .ceil_mode(c["ceil"].as_bool().unwrap())
                .count_padding(c["count_pad"].as_bool().unwrap());
            let y = if op == "max_pool" {
                x.max_pool(&spatial, &spec).unwrap()
            } else {
                x.avg_pool(&spatial, &spec).unwrap()
            };
            assert_eq!(y.sizes(), &sizes_of(&c, "out")[..], "{c}");
            close(y.data(), c["values"].as_array().unwrap(), op);
            seen += 1;
        }
    }
    assert_eq!(seen, 19);
}

/// `pad` and `pad_ends` in the three modes are PyTorch's `F.pad` (constant 1.5, reflect,
/// replicate) over the spatial axes of 1-, 2- and 3-D inputs, with one width at both ends and
/// with a `(before, after)` pair.
#[test]
fn padding_is_pytorchs() {
    let mut seen = 0;
    for c in cases()
        .iter()
        .filter(|c| c["op"] == "pad" || c["op"] == "pad_ends")
    {
        let xs = sizes_of(c, "x");
        let x = DynTensor::from_vec(named(&xs, "N", "C"), ramp(&xs, 7, 11, 5.0)).unwrap();
        let spatial: Vec<_> = ["D", "H", "W"][3 - (xs.len() - 2)..]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        let mode = match c["mode"].as_str().unwrap() {
            "constant" => PadMode::Constant(1.5),
            "reflect" => PadMode::Reflect,
            _ => PadMode::Replicate,
        };
        let y = match c["op"].as_str().unwrap() {
            "pad" => x.pad(&spatial, usize_of(c, "p"), &mode),
            _ => x.pad_ends(
                &spatial,
                (usize_of(c, "before"), usize_of(c, "after")),
                &mode,
            ),
        };
        let y = y.unwrap();
        assert_eq!(y.sizes(), &sizes_of(c, "out")[..], "{c}");
        close(y.data(), c["values"].as_array().unwrap(), "pad");
        seen += 1;
    }
    assert_eq!(seen, 11);
}

/// The naive pool: every output element from its window's index set.
fn naive_pool(
    sizes: &[usize],
    data: &[f64],
    axes: &[usize],
    spec: &PoolSpec,
    max: bool,
) -> Vec<f64> {
    let out: Vec<usize> = sizes
        .iter()
        .enumerate()
        .map(|(k, &n)| {
            if axes.contains(&k) {
                out_size(n, spec.kernel, spec.stride, spec.padding, 1, spec.ceil).unwrap()
            } else {
                n
            }
        })
        .collect();
    let total: usize = out.iter().product();
    let mut res = Vec::with_capacity(total);
    for flat in 0..total {
        let mut idx = vec![0; out.len()];
        let mut r = flat;
        for k in (0..out.len()).rev() {
            idx[k] = r % out[k];
            r /= out[k];
        }
        let mut vals = Vec::new();
        let mut divisor = 1;
        let taps = spec.kernel.pow(axes.len() as u32);
        for t in 0..taps {
            let mut pos = idx.clone();
            let mut inside = true;
            let mut rest = t;
            for &k in axes.iter().rev() {
                let tap = rest % spec.kernel;
                rest /= spec.kernel;
                let i = (idx[k] * spec.stride + tap) as isize - spec.padding as isize;
                if i < 0 || i as usize >= sizes[k] {
                    inside = false;
                }
                pos[k] = i.max(0) as usize;
            }
            if inside {
                let off = pos.iter().zip(sizes).fold(0, |acc, (&i, &n)| acc * n + i);
                vals.push(data[off]);
            }
        }
        for &k in axes {
            let start = (idx[k] * spec.stride) as isize - spec.padding as isize;
            let end = (start + spec.kernel as isize).min((sizes[k] + spec.padding) as isize);
            divisor *= if spec.count_padding {
                (end - start) as usize
            } else {
                (end.min(sizes[k] as isize) - start.max(0)) as usize
            };
        }
        res.push(if max {
            vals.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        } else {
            vals.iter().sum::<f64>() / divisor as f64
        });
    }
    res
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Max and average pools over 1 to 3 of 4 named axes, in any positions, are the naive
    /// definition.
    #[test]
    fn pools_are_the_definition(
        sizes in prop::collection::vec(1usize..7, 4),
        pick in 1usize..15,
        k in 1usize..4,
        s in 1usize..4,
        p in 0usize..2,
        ceil in any::<bool>(),
        count_pad in any::<bool>(),
    ) {
        let names = ["A", "B", "C", "D"];
        let axes: Vec<usize> = (0..4).filter(|b| pick >> b & 1 == 1).collect();
        let p = p.min(k / 2);
        let spec = PoolSpec::new(k).stride(s).padding(p).ceil_mode(ceil).count_padding(count_pad);
        let fits = axes.iter().all(|&a| out_size(sizes[a], k, s, p, 1, ceil).is_some());
        let shape: DynShape = format!("[{}]", names.iter().zip(&sizes).map(|(n, s)| format!("{n}: {s}")).collect::<Vec<_>>().join(", ")).parse().unwrap();
        let data: Vec<f64> = (0..sizes.iter().product::<usize>()).map(|i| ((i * 37) % 23) as f64 - 11.0).collect();
        let x = DynTensor::from_vec(shape, data.clone()).unwrap();
        let sel: Vec<_> = axes.iter().map(|&a| names[a].parse().unwrap()).collect();
        if !fits {
            prop_assert!(x.max_pool(&sel, &spec).is_err());
            return Ok(());
        }
        let m = x.max_pool(&sel, &spec).unwrap();
        prop_assert_eq!(m.data(), &naive_pool(&sizes, &data, &axes, &spec, true)[..]);
        let a = x.avg_pool(&sel, &spec).unwrap();
        let want = naive_pool(&sizes, &data, &axes, &spec, false);
        for (g, w) in a.data().iter().zip(&want) {
            prop_assert!((g - w).abs() < 1e-12, "{} against {}", g, w);
        }
    }
}

/// The naive 2-D convolution of `x` `[B, C, H, W]` by `w` `[O, C, 3, 3]` with `p` zeros of
/// padding, stride 1: the definition the Winograd path is checked against.
fn naive_conv3(x: &[f64], [b, c, h, w]: [usize; 4], wt: &[f64], o: usize, p: usize) -> Vec<f64> {
    let (oh, ow) = (h + 2 * p - 2, w + 2 * p - 2);
    let mut out = vec![0.0; b * o * oh * ow];
    for bi in 0..b {
        for oi in 0..o {
            for y in 0..oh {
                for xx in 0..ow {
                    let mut acc = 0.0;
                    for ci in 0..c {
                        for ky in 0..3 {
                            for kx in 0..3 {
                                let (iy, ix) = (y + ky, xx + kx);
                                if iy < p || ix < p || iy - p >= h || ix - p >= w {
                                    continue;
                                }
                                acc += wt[((oi * c + ci) * 3 + ky) * 3 + kx]
                                    * x[((bi * c + ci) * h + iy - p) * w + ix - p];
                            }
                        }
                    }
                    out[((bi * o + oi) * oh + y) * ow + xx] = acc;
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// 3x3 stride-1 convolutions with 32 or more channels and 128 or more 2x2 tiles (the
    /// Winograd F(2x2, 3x3) path): any padding, odd and even sizes, several batch indices,
    /// the channel first or last, in f64 and f32, are the naive definition.
    #[test]
    fn wide_3x3_convolutions_are_the_definition(
        b in 2usize..4,
        c in 32usize..35,
        o in 32usize..34,
        h in 15usize..20,
        w in 15usize..20,
        p in 0usize..3,
        channel_last in any::<bool>(),
    ) {
        prop_assume!(b * (h + 2 * p - 2).div_ceil(2) * (w + 2 * p - 2).div_ceil(2) >= 128);
        let xs: Vec<f64> = (0..b * c * h * w).map(|i| ((i * 37) % 23) as f64 - 11.0).collect();
        let ws: Vec<f64> = (0..o * c * 9).map(|i| ((i * 53) % 19) as f64 * 0.25 - 2.0).collect();
        let want = naive_conv3(&xs, [b, c, h, w], &ws, o, p);
        // The input in either layout; the output keeps it, `K` in `C`'s place.
        let shape = if channel_last {
            format!("[N: {b}, H: {h}, W: {w}, C: {c}]")
        } else {
            format!("[N: {b}, C: {c}, H: {h}, W: {w}]")
        };
        let at = |i: &[usize]| if channel_last { (i[0], i[3], i[1], i[2]) } else { (i[0], i[1], i[2], i[3]) };
        let x = DynTensor::from_fn(shape.parse().unwrap(), |i| {
            let (bi, ci, y, xx) = at(i);
            xs[((bi * c + ci) * h + y) * w + xx]
        }).unwrap();
        let x32 = DynTensor::from_vec(x.shape().clone(), x.data().iter().map(|&v| v as f32).collect()).unwrap();
        let wt = DynTensor::from_vec(format!("[K: {o}, C: {c}, H: 3, W: 3]").parse().unwrap(), ws.clone()).unwrap();
        let wt32 = DynTensor::from_vec(wt.shape().clone(), ws.iter().map(|&v| v as f32).collect()).unwrap();
        let spec = ConvSpec { padding: p, ..ConvSpec::default() };
        let (y, y32) = (x.conv(&wt, "C", &spec).unwrap(), x32.conv(&wt32, "C", &spec).unwrap());
        // A kept weight: its transform made by the first call and read by the second, the
        // same arithmetic as the plain weight's, so the same bits.
        let kept = ConvWeight::new(wt.clone());
        for _ in 0..2 {
            let again = x.conv(&kept, "C", &spec).unwrap();
            prop_assert_eq!(again.data(), y.data());
        }
        let (oh, ow) = (h + 2 * p - 2, w + 2 * p - 2);
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for bi in 0..b {
            for oi in 0..o {
                for yy in 0..oh {
                    for xx in 0..ow {
                        let e = want[((bi * o + oi) * oh + yy) * ow + xx];
                        let index = if channel_last { [bi, yy, xx, oi] } else { [bi, oi, yy, xx] };
                        let g = *y.at(&index).unwrap();
                        prop_assert!((g - e).abs() <= 1e-9 * (1.0 + e.abs()), "{} against {}", g, e);
                        let g32 = *y32.at(&index).unwrap() as f64;
                        prop_assert!((g32 - e).abs() <= 1e-5 * scale, "{} against {}", g32, e);
                    }
                }
            }
        }
    }
}

/// A Winograd convolution whose weight is large enough for its transform to split over
/// threads (256 channels each way, with the `rayon` feature) equals the same convolution
/// done 16 output channels at a time (too few for Winograd: im2col), to rounding.
#[test]
fn a_wide_winograd_weight_is_transformed_whole() {
    let (b, c, o, h, w) = (2, 256, 256, 16, 16);
    let xs: Vec<f64> = (0..b * c * h * w)
        .map(|i| ((i * 37) % 23) as f64 - 11.0)
        .collect();
    let ws: Vec<f64> = (0..o * c * 9)
        .map(|i| ((i * 53) % 19) as f64 * 0.25 - 2.0)
        .collect();
    let x = DynTensor::from_vec(
        format!("[N: {b}, C: {c}, H: {h}, W: {w}]").parse().unwrap(),
        xs,
    )
    .unwrap();
    let spec = ConvSpec {
        padding: 1,
        ..ConvSpec::default()
    };
    let weight = |k: usize, data: &[f64]| {
        DynTensor::from_vec(
            format!("[K: {k}, C: {c}, H: 3, W: 3]").parse().unwrap(),
            data.to_vec(),
        )
        .unwrap()
    };
    let y = x.conv(&weight(o, &ws), "C", &spec).unwrap();
    for (j, part) in ws.chunks(16 * c * 9).enumerate() {
        let yj = x.conv(&weight(16, part), "C", &spec).unwrap();
        for bi in 0..b {
            for (k, plane) in yj.data()[bi * 16 * h * w..][..16 * h * w]
                .chunks(h * w)
                .enumerate()
            {
                let whole = &y.data()[(bi * o + j * 16 + k) * h * w..][..h * w];
                for (g, e) in whole.iter().zip(plane) {
                    assert!((g - e).abs() <= 1e-9 * (1.0 + e.abs()), "{g} against {e}");
                }
            }
        }
    }
}

mod typed {
    use shapecast::dynamic::pool::PoolSpec;
    use shapecast::prelude::*;

    names!(N, C, H, W);

    /// Typed pools (tensor and strided view, static and `?` sizes, ceil mode) are the
    /// run-time ones; a view is pooled without a copy first.
    #[test]
    fn typed_pools_are_the_run_time_pools() {
        let x = Tensor::<f32, shape![N, C: 2, H: 7, W]>::from_fn(&[2, 2, 7, 6], |i| {
            ((i[0] * 5 + i[1] * 3 + i[2] * 7 + i[3]) % 9) as f32
        })
        .unwrap();
        let m: Tensor<f32, shape![N, C: 2, H: 4, W]> = x.max_pool::<(H, W), Pool<3, 2, 1, true>>();
        let a: Tensor<f32, shape![N, C: 2, H: 3, W]> = x.avg_pool::<(H, W), Pool<2>>();
        let hw = ["H".parse().unwrap(), "W".parse().unwrap()];
        let d = x.to_dyn();
        let spec = PoolSpec::new(3).stride(2).padding(1).ceil_mode(true);
        assert_eq!(m.data(), d.max_pool(&hw, &spec).unwrap().data());
        assert_eq!(a.data(), d.avg_pool(&hw, &PoolSpec::new(2)).unwrap().data());
        // An average without the padding in its divisor (`count_include_pad=False`).
        let e: Tensor<f32, shape![N, C: 2, H: 4, W]> =
            x.avg_pool::<(H, W), Pool<3, 2, 1, true, false>>();
        let inside = spec.count_padding(false);
        assert_eq!(e.data(), d.avg_pool(&hw, &inside).unwrap().data());
        assert_ne!(e.data(), d.avg_pool(&hw, &spec).unwrap().data());
        let t = x.align_to::<shape![N, H: 7, W, C: 2]>().unwrap();
        let mt: Tensor<f32, shape![N, H: 4, W, C: 2]> = t.max_pool::<(H, W), Pool<3, 2, 1, true>>();
        let copy: Tensor<f32, shape![N, H: 7, W, C: 2]> = t.to_tensor();
        let md = copy.to_dyn().max_pool(&hw, &spec).unwrap();
        assert_eq!(mt.data(), md.data());
        // Padding: typed (sizes at compile time) is the run-time form, on a view too.
        let p: Tensor<f32, shape![N, C: 2, H: 11, W]> = x.pad::<(H, W), Pad<2>>(&PadMode::Reflect);
        assert_eq!(p.sizes(), &[2, 2, 11, 10]);
        assert_eq!(p.data(), d.pad(&hw, 2, &PadMode::Reflect).unwrap().data());
        let pt: Tensor<f32, shape![N, H: 9, W, C: 2]> =
            t.pad::<(H, W), Pad<1>>(&PadMode::Constant(-1.0));
        assert_eq!(
            pt.data(),
            copy.to_dyn()
                .pad(&hw, 1, &PadMode::Constant(-1.0))
                .unwrap()
                .data()
        );
        // One width before and another after: `Pad<B, E>` is `pad_ends`, sizes at compile
        // time, `Pad<P>` is `Pad<P, P>`.
        let c: Tensor<f32, shape![N, C: 2, H: 9, W]> =
            x.pad::<(H, W), Pad<2, 0>>(&PadMode::Constant(0.0));
        assert_eq!(c.sizes(), &[2, 2, 9, 8]);
        let ends = d.pad_ends(&hw, (2, 0), &PadMode::Constant(0.0)).unwrap();
        assert_eq!(c.data(), ends.data());
        let r: Tensor<f32, shape![N, H: 10, W, C: 2]> =
            t.pad::<(H, W), Pad<1, 2>>(&PadMode::Reflect);
        let ends = copy
            .to_dyn()
            .pad_ends(&hw, (1, 2), &PadMode::Reflect)
            .unwrap();
        assert_eq!(r.data(), ends.data());
        let same: Tensor<f32, shape![N, C: 2, H: 11, W]> =
            x.pad::<(H, W), Pad<2, 2>>(&PadMode::Reflect);
        assert_eq!(same.data(), p.data());
        // A reflection as wide as its axis at either end is refused, as PyTorch does.
        let h = ["H".parse().unwrap()];
        assert!(d.pad_ends(&h, (0, 7), &PadMode::Reflect).is_err());
        assert!(d.pad_ends(&h, (7, 0), &PadMode::Reflect).is_err());
        assert!(d.pad_ends(&h, (6, 0), &PadMode::Reflect).is_ok());
        assert!(x.try_pad::<H, Pad<0, 7>>(&PadMode::Reflect).is_err());
        // A window longer than a `?` axis is the run-time error.
        let short = Tensor::<f32, shape![H, W: 4]>::from_vec_sized(&[1, 4], vec![1.0; 4]).unwrap();
        assert!(short.try_max_pool::<(H, W), Pool<2>>().is_err());
    }
}

/// A kept weight serves every convolution its tensor does, with the same result: other
/// paddings and batch sizes after its transform is made, an input whose spatial axes come in
/// the other order (the weight permuted for it, so the kept transform is not used), a weight
/// stored in another axis order, a stride of 2 (no Winograd), and the typed form.
#[test]
fn a_kept_weight_convolves_as_its_tensor_does() {
    let (c, o) = (32, 32);
    let wt = DynTensor::from_fn(
        format!("[K: {o}, C: {c}, H: 3, W: 3]").parse().unwrap(),
        |i| ((i[0] * 5 + i[1] * 3 + i[2] * 2 + i[3]) % 11) as f64 - 5.0,
    )
    .unwrap();
    let kept = ConvWeight::new(wt.clone());
    let input = |shape: String| {
        DynTensor::from_fn(shape.parse().unwrap(), |i| {
            ((i[0] * 7 + i[1] * 3 + i[2] * 5 + i[3]) % 13) as f64 - 6.0
        })
        .unwrap()
    };
    for (shape, stride, padding) in [
        (format!("[N: 4, C: {c}, H: 16, W: 18]"), 1, 1),
        (format!("[N: 2, C: {c}, H: 30, W: 20]"), 1, 0),
        (format!("[N: 3, W: 17, H: 16, C: {c}]"), 1, 2),
        (format!("[N: 4, C: {c}, H: 16, W: 16]"), 2, 1),
    ] {
        let x = input(shape);
        let spec = ConvSpec {
            stride,
            padding,
            ..ConvSpec::default()
        };
        let want = x.conv(&wt, "C", &spec).unwrap();
        assert_eq!(x.conv(&kept, "C", &spec).unwrap().data(), want.data());
    }
    // The weight stored `[C, K, H, W]`: taken permuted, its own transform kept apart.
    let permuted = DynTensor::from_fn(
        format!("[C: {c}, K: {o}, H: 3, W: 3]").parse().unwrap(),
        |i| *wt.at(&[i[1], i[0], i[2], i[3]]).unwrap(),
    )
    .unwrap();
    let permuted = ConvWeight::new(permuted);
    let x = input(format!("[N: 4, C: {c}, H: 16, W: 16]"));
    let want = x.conv(&wt, "C", &ConvSpec::default()).unwrap();
    for _ in 0..2 {
        let got = x.conv(&permuted, "C", &ConvSpec::default()).unwrap();
        assert_eq!(got.data(), want.data());
    }
    // A clone keeps its own transform; `into_inner` gives the weight back unchanged.
    let again = kept.clone();
    assert_eq!(
        x.conv(&again, "C", &ConvSpec::default()).unwrap().data(),
        want.data()
    );
    assert_eq!(kept.into_inner().data(), wt.data());

    // Typed: a kept tensor is a receiver of the tensor's shape.
    names!(N, C, K, H, W);
    let wt_typed =
        Tensor::<f64, shape![K: 32, C: 32, H: 3, W: 3]>::from_vec(wt.data().to_vec()).unwrap();
    let x_typed = Tensor::<f64, shape![N, C: 32, H: 16, W: 16]>::from_vec_sized(
        &[4, 32, 16, 16],
        x.data().to_vec(),
    )
    .unwrap();
    let kept_typed = ConvWeight::new(wt_typed.clone());
    let plain = x_typed.conv::<C, Conv<1, 1>>(&wt_typed);
    for _ in 0..2 {
        let y: Tensor<f64, shape![N, K: 32, H: 16, W: 16]> =
            x_typed.conv::<C, Conv<1, 1>>(&kept_typed);
        assert_eq!(y.data(), plain.data());
    }
    assert_eq!(kept_typed.weight().data(), wt_typed.data());
}
