//! Convolution by name (rule book §20) against a naive reference written from the definition:
//! random input layouts (channel first or last, spatial axes apart, a batch axis or two),
//! weights with their axes in any order, 1 to 3 spatial axes, stride, padding, dilation and
//! groups; the typed form against the run-time one; the refusals' messages; a typed batch
//! norm folded into a convolution's weight.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use shapecast::dynamic::conv::{out_size, ConvSpec};
use shapecast::{DynShape, DynTensor};

/// One convolution case: the input's axes as (name, size) in their order, the weight's, the
/// spec.
#[derive(Clone, Debug)]
struct Case {
    input: Vec<(String, usize)>,
    weight: Vec<(String, usize)>,
    spec: ConvSpec,
}

fn shape_of(axes: &[(String, usize)]) -> DynShape {
    let inner: Vec<String> = axes.iter().map(|(n, s)| format!("{n}: {s}")).collect();
    format!("[{}]", inner.join(", ")).parse().unwrap()
}

fn value(seed: usize) -> f64 {
    // Small integers: every sum is exact in f64 and in f32, so results compare exactly.
    ((seed * 7919 + 13) % 11) as f64 - 5.0
}

/// The naive convolution: every output element as the sum over channels of its group and
/// kernel taps, input positions computed from the definition.
fn naive(c: &Case, x: &[f64], w: &[f64]) -> Vec<f64> {
    let size = |axes: &[(String, usize)], n: &str| axes.iter().find(|a| a.0 == n).map(|a| a.1);
    let pos = |axes: &[(String, usize)], n: &str| axes.iter().position(|a| a.0 == n);
    let spatial: Vec<String> = c
        .input
        .iter()
        .filter(|a| a.0 != "C" && size(&c.weight, &a.0).is_some())
        .map(|a| a.0.clone())
        .collect();
    let out_name = c
        .weight
        .iter()
        .find(|a| a.0 != "C" && size(&c.input, &a.0).is_none())
        .unwrap()
        .0
        .clone();
    let s = &c.spec;
    let mut out_axes = c.input.clone();
    for a in &mut out_axes {
        if a.0 == "C" {
            *a = (out_name.clone(), size(&c.weight, &out_name).unwrap());
        } else if spatial.contains(&a.0) {
            let k = size(&c.weight, &a.0).unwrap();
            a.1 = out_size(a.1, k, s.stride, s.padding, s.dilation, false).unwrap();
        }
    }
    let offset = |axes: &[(String, usize)], idx: &dyn Fn(&str) -> usize| {
        axes.iter().fold(0, |acc, a| acc * a.1 + idx(&a.0))
    };
    let total: usize = out_axes.iter().map(|a| a.1).product();
    let cg = size(&c.weight, "C").unwrap();
    let og = size(&c.weight, &out_name).unwrap() / s.groups;
    let mut out = vec![0.0; total];
    for (flat, o) in out.iter_mut().enumerate() {
        let mut idx = vec![0; out_axes.len()];
        let mut r = flat;
        for k in (0..out_axes.len()).rev() {
            idx[k] = r % out_axes[k].1;
            r /= out_axes[k].1;
        }
        let oc = idx[pos(&out_axes, &out_name).unwrap()];
        let group = oc / og;
        let taps: usize = spatial
            .iter()
            .map(|n| size(&c.weight, n).unwrap())
            .product();
        for ci in 0..cg {
            for t in 0..taps {
                let mut tap = vec![0; spatial.len()];
                let mut r = t;
                for j in (0..spatial.len()).rev() {
                    let k = size(&c.weight, &spatial[j]).unwrap();
                    tap[j] = r % k;
                    r /= k;
                }
                let mut inside = true;
                let mut xi = vec![0; c.input.len()];
                for (k, a) in c.input.iter().enumerate() {
                    xi[k] = if a.0 == "C" {
                        group * cg + ci
                    } else if let Some(j) = spatial.iter().position(|n| *n == a.0) {
                        let i =
                            (idx[k] * s.stride + tap[j] * s.dilation) as isize - s.padding as isize;
                        if i < 0 || i as usize >= a.1 {
                            inside = false;
                        }
                        i.max(0) as usize
                    } else {
                        idx[k]
                    };
                }
                if !inside {
                    continue;
                }
                let wi = |n: &str| {
                    if n == "C" {
                        ci
                    } else if n == out_name {
                        oc
                    } else {
                        tap[spatial.iter().position(|m| m == n).unwrap()]
                    }
                };
                let xo = offset(&c.input, &|n| xi[pos(&c.input, n).unwrap()]);
                *o += x[xo] * w[offset(&c.weight, &wi)];
            }
        }
    }
    out
}

fn case() -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        1usize..=3,
        1usize..=3,
        0usize..=2,
        1usize..=2,
        prop::collection::vec(1usize..=3, 3),
        any::<u64>(),
    )
        .prop_flat_map(|(d, groups, stride, padding, dilation, kernel, seed)| {
            let names = ["D", "H", "W"];
            let min: Vec<usize> = (0..d)
                .map(|j| {
                    (dilation * (kernel[j] - 1) + 1)
                        .saturating_sub(2 * padding)
                        .max(1)
                })
                .collect();
            let sizes: Vec<BoxedStrategy<usize>> =
                min.iter().map(|&m| (m..m + 5).boxed()).collect();
            (
                Just((d, groups, stride, padding, dilation, kernel, seed)),
                sizes,
                1usize..=2,
                1usize..=2,
                0usize..=2,
            )
                .prop_map(
                    move |(
                        (d, groups, stride, padding, dilation, kernel, seed),
                        sizes,
                        cg,
                        og,
                        batches,
                    )| {
                        let mut input: Vec<(String, usize)> =
                            (0..d).map(|j| (names[j].to_string(), sizes[j])).collect();
                        // The channel first, last or between spatial axes; batch axes in front
                        // or at the end.
                        let at = (seed as usize) % (d + 1);
                        input.insert(at, ("C".into(), cg * groups));
                        for b in 0..batches {
                            let axis = (format!("B{b}"), 1 + (seed as usize >> (3 + b)) % 2);
                            if (seed >> (8 + b)) & 1 == 0 {
                                input.insert(0, axis);
                            } else {
                                input.push(axis);
                            }
                        }
                        let mut weight: Vec<(String, usize)> =
                            (0..d).map(|j| (names[j].to_string(), kernel[j])).collect();
                        weight.push(("C".into(), cg));
                        weight.push(("K".into(), og * groups));
                        // Any order of the weight's axes.
                        let n = weight.len();
                        weight.rotate_left((seed as usize >> 12) % n);
                        if (seed >> 16) & 1 == 1 {
                            weight.reverse();
                        }
                        Case {
                            input,
                            weight,
                            spec: ConvSpec {
                                stride,
                                padding,
                                dilation,
                                groups,
                            },
                        }
                    },
                )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `DynTensor::conv` in f64 and f32 is the naive definition, exactly (small integers).
    #[test]
    fn conv_is_the_definition(c in case()) {
        let xs = shape_of(&c.input);
        let ws = shape_of(&c.weight);
        let x = DynTensor::from_fn(xs.clone(), {
            let mut k = 0;
            move |_| { k += 1; value(k) }
        }).unwrap();
        let w = DynTensor::from_fn(ws.clone(), {
            let mut k = 1000;
            move |_| { k += 1; value(k) }
        }).unwrap();
        let want = naive(&c, x.data(), w.data());
        let got = x.conv(&w, "C", &c.spec).unwrap();
        prop_assert_eq!(got.data(), &want[..]);
        let x32 = DynTensor::from_vec(xs, x.data().iter().map(|&v| v as f32).collect()).unwrap();
        let w32 = DynTensor::from_vec(ws, w.data().iter().map(|&v| v as f32).collect()).unwrap();
        let got32 = x32.conv(&w32, "C", &c.spec).unwrap();
        let want32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
        prop_assert_eq!(got32.data(), &want32[..]);
        let xi = DynTensor::from_vec(x.shape().clone(), x.data().iter().map(|&v| v as i64).collect()).unwrap();
        let wi = DynTensor::from_vec(w.shape().clone(), w.data().iter().map(|&v| v as i64).collect()).unwrap();
        let gi = xi.conv(&wi, "C", &c.spec).unwrap();
        let want_i: Vec<i64> = want.iter().map(|&v| v as i64).collect();
        prop_assert_eq!(gi.data(), &want_i[..]);
    }
}

/// A large case crosses several patch tiles (and, with the `rayon` feature, splits the
/// batch): the seed's image size with 16 channels out.
#[test]
fn conv_at_the_seeds_size_is_the_definition() {
    let c = Case {
        input: vec![
            ("N".into(), 2),
            ("C".into(), 3),
            ("H".into(), 64),
            ("W".into(), 96),
        ],
        weight: vec![
            ("K".into(), 16),
            ("C".into(), 3),
            ("H".into(), 3),
            ("W".into(), 3),
        ],
        spec: ConvSpec::default().padding(1),
    };
    let x =
        DynTensor::from_fn(shape_of(&c.input), |i| value(i[1] * 7 + i[2] * 131 + i[3])).unwrap();
    let w = DynTensor::from_fn(shape_of(&c.weight), |i| {
        value(i[0] * 5 + i[1] * 3 + i[2] + i[3] * 17)
    })
    .unwrap();
    let got = x.conv(&w, "C", &c.spec).unwrap();
    assert_eq!(got.shape().to_string(), "[N: 2, K: 16, H: 64, W: 96]");
    assert_eq!(got.data(), &naive(&c, x.data(), w.data())[..]);
    // A 1x1 kernel reads the input in place.
    let w1 = DynTensor::from_fn("[K: 4, C: 3, H: 1, W: 1]".parse().unwrap(), |i| {
        value(i[0] * 3 + i[1])
    })
    .unwrap();
    let c1 = Case {
        weight: vec![
            ("K".into(), 4),
            ("C".into(), 3),
            ("H".into(), 1),
            ("W".into(), 1),
        ],
        spec: ConvSpec::default(),
        ..c
    };
    assert_eq!(
        x.conv(&w1, "C", &c1.spec).unwrap().data(),
        &naive(&c1, x.data(), w1.data())[..]
    );
}

/// Patch tiles over several images (a tile holds 256 positions or more, these images 42 to
/// 90, and with the `rayon` feature each of two threads takes half the batch): a tile starts
/// and ends inside an image, and the product's block is written back image by image (in
/// place along the positions, and with the channel last). Stride 2 (its rows split into
/// even and odd columns), a 5x5 kernel of stride 1, and a 1x1 kernel on images too small
/// to multiply in place (7x7).
#[test]
fn patch_tiles_across_images_are_the_definition() {
    let axes = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|&(n, s)| (n.to_string(), s)).collect()
    };
    let cases = [
        (vec![("N", 16), ("C", 72), ("H", 13), ("W", 11)], (3, 2, 1)),
        (vec![("N", 16), ("H", 13), ("W", 11), ("C", 72)], (3, 2, 1)),
        (vec![("N", 8), ("C", 24), ("H", 9), ("W", 10)], (5, 1, 2)),
        (vec![("N", 12), ("C", 600), ("H", 7), ("W", 7)], (1, 1, 0)),
        (vec![("N", 12), ("H", 7), ("W", 7), ("C", 600)], (1, 1, 0)),
    ];
    for (input, (k, stride, padding)) in cases {
        let channels = input.iter().find(|a| a.0 == "C").unwrap().1;
        let c = Case {
            input: axes(&input),
            weight: axes(&[("K", 5), ("C", channels), ("H", k), ("W", k)]),
            spec: ConvSpec::default().stride(stride).padding(padding),
        };
        let x = DynTensor::<f32>::from_fn(shape_of(&c.input), |i| {
            value(i[1] * 7 + i[2] * 131 + i[3] * 3 + i[0] * 17) as f32
        })
        .unwrap();
        let w = DynTensor::<f32>::from_fn(shape_of(&c.weight), |i| {
            value(i[0] * 5 + i[1] * 3 + i[2] + i[3] * 17) as f32
        })
        .unwrap();
        let wide = |t: &DynTensor<f32>| t.data().iter().map(|&v| v as f64).collect::<Vec<_>>();
        let want: Vec<f32> = naive(&c, &wide(&x), &wide(&w))
            .iter()
            .map(|&v| v as f32)
            .collect();
        let got = x.conv(&w, "C", &c.spec).unwrap();
        assert_eq!(got.data(), &want[..], "{:?}", c);
    }
}

/// What a convolution refuses, at run time, each with a message naming both shapes and the
/// fault.
#[test]
fn conv_refusals_name_shapes_and_fault() {
    let x = DynTensor::<f32>::full("[N: 1, C: 4, H: 5, W: 5]".parse().unwrap(), 1.0).unwrap();
    let cases = [
        ("[K: 2, C: 3, H: 3, W: 3]", ConvSpec::default(), "the input has 4 channels and the weight 3 per group, in 1 group"),
        ("[K: 3, C: 2, H: 3, W: 3]", ConvSpec::default().groups(2), "3 output channels do not split into 2 groups"),
        ("[K: 2, C: 4, H: 6, W: 3]", ConvSpec::default(), "along axis 2 (H) the kernel spans 6 elements (dilation 1) and the padded input only 5"),
        ("[K: 2, C: 4, H: 3, W: 3]", ConvSpec::default().dilation(3), "along axis 2 (H) the kernel spans 7 elements (dilation 3) and the padded input only 5"),
        ("[K: 2, C: 4, H: 3, Z: 3]", ConvSpec::default(), "the weight's axes axis 0 (K) and axis 3 (Z) both lack a namesake in the input: only the output channel may"),
        ("[C: 4, H: 3, W: 3]", ConvSpec::default(), "every weight axis has a namesake in the input: the weight needs one output channel axis whose name the input lacks"),
        ("[K: 2, C: 4]", ConvSpec::default(), "the weight shares no spatial axis with the input"),
        ("[K: 2, H: 3]", ConvSpec::default(), "the weight has no axis C"),
        ("[N: 2, C: 4, H: 3]", ConvSpec::default(), "every weight axis has a namesake in the input: the weight needs one output channel axis whose name the input lacks"),
        ("[K: 2, C: 4, H: 3]", ConvSpec::default().stride(0), "stride, dilation and groups must be at least 1"),
        ("[K: 2, C: 4, H: 0]", ConvSpec::default(), "the kernel is empty along axis 2 (H)"),
    ];
    for (w, spec, reason) in cases {
        let w = DynTensor::<f32>::full(w.parse().unwrap(), 1.0).unwrap();
        let err = x.conv(&w, "C", &spec).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot convolve [N: 1, C: 4, H: 5, W: 5] with {} over C: {reason}",
                w.shape()
            )
        );
        assert!(err.is_refusal());
    }
    // The output channel's name taken by the input.
    let w = DynTensor::<f32>::full("[N: 2, C: 4, H: 3, W: 3]".parse().unwrap(), 1.0).unwrap();
    let y = DynTensor::<f32>::full("[C: 4, H: 5, W: 5]".parse().unwrap(), 1.0).unwrap();
    assert!(y.conv(&w, "C", &ConvSpec::default()).is_ok());
}

mod typed {
    use shapecast::dynamic::conv::ConvSpec;
    use shapecast::prelude::*;

    names!(N, C, C1, C2, H, W);

    fn ramp(n: usize, scale: usize) -> Vec<f32> {
        (0..n).map(|i| ((i * scale) % 7) as f32 - 3.0).collect()
    }

    /// Two typed convolutions chained by their channel names (C to C1 to C2), strided and
    /// padded, with a `?` batch and a `?` width: each agrees with `DynTensor::conv`, and the
    /// output shapes are the ones written (computed at compile time where static).
    #[test]
    fn typed_conv_is_the_run_time_conv() {
        let x = Tensor::<f32, shape![N, C: 3, H: 12, W]>::from_vec_sized(
            &[2, 3, 12, 10],
            ramp(2 * 3 * 12 * 10, 5),
        )
        .unwrap();
        let w1 = Tensor::<f32, shape![C1: 4, C: 3, H: 3, W: 3]>::from_vec(ramp(108, 3)).unwrap();
        let w2 = Tensor::<f32, shape![C2: 2, C1: 4, H: 2, W: 2]>::from_vec(ramp(32, 11)).unwrap();
        let y1: Tensor<f32, shape![N, C1: 4, H: 6, W]> = x.conv::<C, Conv<2, 1>>(&w1);
        let y2: Tensor<f32, shape![N, C2: 2, H: 5, W]> = y1.conv::<C1, Conv>(&w2);
        assert_eq!(y2.sizes(), &[2, 2, 5, 4]);
        let d1 = x
            .to_dyn()
            .conv(&w1.to_dyn(), "C", &ConvSpec::default().stride(2).padding(1))
            .unwrap();
        assert_eq!(y1.data(), d1.data());
        let d2 = d1.conv(&w2.to_dyn(), "C1", &ConvSpec::default()).unwrap();
        assert_eq!(y2.data(), d2.data());
    }

    /// A view with its axes reordered (channel last, not copied) convolves as its copy;
    /// dilation and groups (depthwise) agree with the run-time form.
    #[test]
    fn views_dilation_and_groups() {
        let x = Tensor::<f64, shape![N: 1, C: 4, H: 7, W: 6]>::from_vec(
            (0..168).map(|i| ((i * 13) % 9) as f64).collect(),
        )
        .unwrap();
        let hwc = x.align_to::<shape![N: 1, H: 7, W: 6, C: 4]>().unwrap();
        let w = Tensor::<f64, shape![C1: 8, C: 1, H: 3, W: 2]>::from_vec(
            (0..48).map(|i| ((i * 5) % 4) as f64 - 1.0).collect(),
        )
        .unwrap();
        let y: Tensor<f64, shape![N: 1, H: 3, W: 4, C1: 8]> = hwc.conv::<C, Conv<1, 0, 2, 4>>(&w);
        let copy: Tensor<f64, shape![N: 1, H: 7, W: 6, C: 4]> = hwc.to_tensor();
        let spec = ConvSpec::default().dilation(2).groups(4);
        let d = copy.to_dyn().conv(&w.to_dyn(), "C", &spec).unwrap();
        assert_eq!(d.shape().to_string(), "[N: 1, H: 3, W: 4, C1: 8]");
        assert_eq!(y.data(), d.data());
    }

    /// A `?` size that does not fit is the run-time error (`try_conv`), with the message
    /// `DynTensor::conv` gives; `conv` panics with it.
    #[test]
    fn run_time_sizes_are_checked() {
        let x = Tensor::<f32, shape![C, H]>::from_vec_sized(&[2, 2], vec![1.0; 4]).unwrap();
        let w = Tensor::<f32, shape![C1: 1, C: 3, H: 1]>::from_vec(vec![1.0; 3]).unwrap();
        let err = x.try_conv::<C, Conv>(&w).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot convolve [C: 2, H: 2] with [C1: 1, C: 3, H: 1] over C: the input has 2 channels and the weight 3 per group, in 1 group"
        );
        let w = Tensor::<f32, shape![C1: 1, C: 2, H: 3]>::from_vec(vec![1.0; 6]).unwrap();
        assert!(x.try_conv::<C, Conv>(&w).is_err());
        assert_eq!(x.try_conv::<C, Conv<1, 1>>(&w).unwrap().data(), &[4.0, 4.0]);
    }
}

/// The typed batch norm finds its channel by name, the fold into a convolution's weight is
/// the convolution followed by the norm, and a `?` channel that does not fit is an error.
#[test]
fn typed_batch_norm_by_name_and_folded() {
    use shapecast::{names, shape, BatchNorm, Conv, Convolution, Tensor};
    names!(N, C, K, H, W);
    let x = Tensor::<f64, shape![N, H: 5, C: 3, W: 4]>::from_fn(&[2, 5, 3, 4], |i| {
        (i[0] * 60 + i[1] * 12 + i[2] * 4 + i[3]) as f64 * 0.01 - 0.3
    })
    .unwrap();
    let stat = |a: [f64; 3]| Tensor::<f64, shape![C: 3]>::from_array(a);
    let bn = BatchNorm::new(
        &stat([0.1, -0.2, 0.3]),
        &stat([1.5, 0.5, 2.0]),
        &stat([1.0, 0.7, -1.2]),
        &stat([0.0, 0.4, 0.1]),
        1e-5,
    )
    .unwrap();
    let y = x.batch_norm(&bn);
    let (scale, shift) = (bn.scale(), bn.shift());
    for n in 0..2 {
        for h in 0..5 {
            for c in 0..3 {
                for w in 0..4 {
                    let want = x.at(&[n, h, c, w]).unwrap() * scale.data()[c] + shift.data()[c];
                    assert_eq!(*y.at(&[n, h, c, w]).unwrap(), want);
                }
            }
        }
    }
    // Folded into a convolution over C whose output channel K carries the norm.
    let kstat = |a: [f64; 2]| Tensor::<f64, shape![K: 2]>::from_array(a);
    let kn = BatchNorm::new(
        &kstat([0.3, -0.1]),
        &kstat([0.8, 1.3]),
        &kstat([1.1, 0.9]),
        &kstat([-0.2, 0.5]),
        1e-5,
    )
    .unwrap();
    let wt = Tensor::<f64, shape![K: 2, C: 3, H: 3, W: 3]>::from_fn(&[2, 3, 3, 3], |i| {
        ((i[0] * 27 + i[1] * 9 + i[2] * 3 + i[3]) % 7) as f64 * 0.1 - 0.3
    })
    .unwrap();
    let unfused = x.conv::<C, Conv<1, 1>>(&wt).batch_norm(&kn);
    let folded = x.conv::<C, Conv<1, 1>>(&kn.fold_into(&wt).unwrap()) + kn.shift();
    let worst = unfused
        .data()
        .iter()
        .zip(folded.data())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-12, "folded differs by {worst}");
    // A `?` channel of the wrong size, and statistics of different sizes.
    let three = Tensor::<f64, shape![C]>::from_vec_sized(&[3], vec![1.0; 3]).unwrap();
    let two = Tensor::<f64, shape![C]>::from_vec_sized(&[2], vec![1.0; 2]).unwrap();
    let wrong = BatchNorm::new(&two, &two, &two, &two, 1e-5).unwrap();
    assert!(x.try_batch_norm(&wrong).is_err());
    let err = BatchNorm::new(&two, &three, &two, &two, 1e-5).unwrap_err();
    assert!(err.to_string().contains("must be one size"), "{err}");
}
