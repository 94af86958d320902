//! Reductions on data (rule book §16), checked against a naive reference: random shapes
//! (zero sizes, size-1 axes), named and positional selectors, views (permuted, broadcast),
//! NaN and empty axes, and the typed operations against the run-time ones.

use crate::index::{indices, offset};
use proptest::prelude::*;
use shapecast::dynamic::reduce::AxisSelector;
use shapecast::{names, shape, DynShape, DynTensor, Error, FloatMath, Pos, Reductions, Tensor};

names!(N, C, H, W, CLASS);

/// The naive reduction: for every output cell, the list of its elements in row-major order.
fn groups(sizes: &[usize], data: &[f64], mask: &[bool]) -> (Vec<usize>, Vec<Vec<f64>>) {
    let kept: Vec<usize> = sizes
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| !m)
        .map(|(&n, _)| n)
        .collect();
    let cells: usize = kept.iter().product();
    let mut out = vec![Vec::new(); cells];
    for idx in indices(sizes) {
        let k: Vec<usize> = idx
            .iter()
            .zip(mask)
            .filter(|&(_, &m)| !m)
            .map(|(&i, _)| i)
            .collect();
        out[offset(&kept, &k)].push(data[offset(sizes, &idx)]);
    }
    (kept, out)
}

fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, *w), "{what}: cell {i}: {g} vs {w}");
    }
}

fn case() -> impl Strategy<Value = (Vec<usize>, Vec<bool>, Vec<f64>)> {
    prop::collection::vec(0usize..4, 0..5).prop_flat_map(|sizes| {
        let rank = sizes.len();
        let total: usize = sizes.iter().product();
        (
            Just(sizes),
            prop::collection::vec(any::<bool>(), rank),
            prop::collection::vec(-4i32..5, total)
                .prop_map(|v| v.into_iter().map(f64::from).collect()),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn run_time_reductions_match_the_naive_reference((sizes, mask, data) in case()) {
        let shape = DynShape::from_sizes(&sizes).unwrap();
        let t = DynTensor::from_vec(shape, data.clone()).unwrap();
        let axes: Vec<AxisSelector> = mask.iter().enumerate().filter(|&(_, &m)| m).map(|(k, _)| AxisSelector::Pos(k)).collect();
        let (kept, cells) = groups(&sizes, &data, &mask);
        let sum: Vec<f64> = cells.iter().map(|c| c.iter().sum()).collect();
        let prod: Vec<f64> = cells.iter().map(|c| c.iter().product()).collect();
        let mean: Vec<f64> = cells.iter().map(|c| c.iter().sum::<f64>() / c.len() as f64).collect();
        let var: Vec<f64> = cells.iter().zip(&mean).map(|(c, m)| c.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / c.len() as f64).collect();
        let lse: Vec<f64> = cells.iter().map(|c| c.iter().map(|x| x.exp()).sum::<f64>().ln()).collect();

        let r = t.sum(&axes).unwrap();
        prop_assert_eq!(r.sizes(), &kept[..]);
        assert_close(r.data(), &sum, "sum");
        assert_close(t.prod(&axes).unwrap().data(), &prod, "prod");
        assert_close(t.mean(&axes).unwrap().data(), &mean, "mean");
        assert_close(t.var(&axes).unwrap().data(), &var, "var");
        let std: Vec<f64> = var.iter().map(|v| v.sqrt()).collect();
        assert_close(t.std(&axes).unwrap().data(), &std, "std");
        assert_close(t.logsumexp(&axes).unwrap().data(), &lse, "logsumexp");
        let keep = t.sum_keep(&axes).unwrap();
        let kept_sizes: Vec<usize> = sizes.iter().zip(&mask).map(|(&n, &m)| if m { 1 } else { n }).collect();
        prop_assert_eq!(keep.sizes(), &kept_sizes[..]);
        assert_close(keep.data(), &sum, "sum_keep");

        let empty = sizes.iter().zip(&mask).any(|(&n, &m)| m && n == 0);
        match t.max(&axes) {
            Ok(max) => {
                prop_assert!(!empty || kept.contains(&0));
                let want: Vec<f64> = cells.iter().map(|c| c.iter().cloned().fold(f64::NEG_INFINITY, f64::max)).collect();
                assert_close(max.data(), &want, "max");
                let want: Vec<f64> = cells.iter().map(|c| c.iter().cloned().fold(f64::INFINITY, f64::min)).collect();
                assert_close(t.min(&axes).unwrap().data(), &want, "min");
            }
            Err(e) => {
                prop_assert!(empty, "{}", e);
                prop_assert!(matches!(e, Error::EmptyAxis { op: "max", .. }), "{}", e);
            }
        }

        // softmax: every cell's elements, normalised, in the input's layout.
        let soft = t.softmax(&axes).unwrap();
        prop_assert_eq!(soft.sizes(), &sizes[..]);
        for idx in indices(&sizes) {
            let k: Vec<usize> = idx.iter().zip(&mask).filter(|&(_, &m)| !m).map(|(&i, _)| i).collect();
            let cell = &cells[offset(&kept, &k)];
            let m = cell.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = cell.iter().map(|x| (x - m).exp()).sum();
            let x = data[offset(&sizes, &idx)];
            prop_assert!(close(soft.data()[offset(&sizes, &idx)], (x - m).exp() / s));
            prop_assert!(close(t.log_softmax(&axes).unwrap().data()[offset(&sizes, &idx)], x - m - s.ln()));
        }
        // Into the tensor's own buffer: the same values, bit for bit.
        prop_assert_eq!(&t.clone().softmax_into(&axes).unwrap(), &soft);
        prop_assert_eq!(t.clone().log_softmax_into(&axes).unwrap(), t.log_softmax(&axes).unwrap());
    }

    #[test]
    fn argmax_is_the_first_occurrence((sizes, _mask, data) in case(), pick in 0usize..4) {
        prop_assume!(!sizes.is_empty());
        let axis = pick % sizes.len();
        let t = DynTensor::from_vec(DynShape::from_sizes(&sizes).unwrap(), data.clone()).unwrap();
        let mask: Vec<bool> = (0..sizes.len()).map(|k| k == axis).collect();
        let (_, cells) = groups(&sizes, &data, &mask);
        match t.argmax(&AxisSelector::Pos(axis)) {
            Ok(arg) => {
                let want: Vec<usize> = cells.iter().map(|c| {
                    let m = c.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    c.iter().position(|&x| x == m).unwrap()
                }).collect();
                prop_assert_eq!(arg.data(), &want[..]);
                let want: Vec<usize> = cells.iter().map(|c| {
                    let m = c.iter().cloned().fold(f64::INFINITY, f64::min);
                    c.iter().position(|&x| x == m).unwrap()
                }).collect();
                assert_eq!(t.argmin(&AxisSelector::Pos(axis)).unwrap().data(), &want[..]);
            }
            Err(e) => prop_assert_eq!(sizes[axis], 0, "{}", e),
        }
    }

    #[test]
    fn typed_reductions_agree_with_run_time_ones(n in 0usize..4, c in 1usize..4, h in 0usize..4, seed in any::<u64>()) {
        let sizes = [n, c, h, 5];
        let total = n * c * h * 5;
        let data: Vec<f64> = (0..total as u64).map(|k| ((k.wrapping_mul(seed | 1) >> 3) % 17) as f64 - 8.0).collect();
        let t = Tensor::<f64, shape![N, C, H, W: 5]>::from_vec_sized(&sizes, data.clone()).unwrap();
        let d = t.to_dyn();
        let sel = |s: &str| -> Vec<AxisSelector> { s.split(',').map(|x| x.parse().unwrap()).collect() };
        let s: Tensor<f64, shape![N, C]> = t.sum::<(H, W)>();
        assert_eq!(s.data(), d.sum(&sel("H,W")).unwrap().data());
        type Kept = shape![N, C: 1, H, W: 1];
        let s: Tensor<f64, Kept> = t.mean_keep::<(Pos<1>, W)>();
        prop_assert_eq!(s.to_dyn(), d.mean_keep(&sel("C,W")).unwrap());
        type Positions = shape![N, C, H];
        let s: Tensor<usize, Positions> = t.argmax::<W>();
        assert_eq!(s.data(), d.argmax(&"W".parse().unwrap()).unwrap().data());
        let s = t.try_max::<(N, C)>();
        match d.max(&sel("N,C")) {
            Ok(m) => assert_eq!(s.unwrap().data(), m.data()),
            Err(e) => prop_assert_eq!(s.unwrap_err(), e),
        }
        prop_assert_eq!(t.softmax::<(H, W)>().to_dyn(), d.softmax(&sel("H,W")).unwrap());
        for (soft, into) in [
            (t.softmax::<N>(), t.clone().softmax_into::<N>()),
            (t.softmax::<(C, W)>(), t.clone().softmax_into::<(C, W)>()),
            (t.log_softmax::<H>(), t.clone().log_softmax_into::<H>()),
        ] {
            prop_assert_eq!(soft, into);
        }
        assert_eq!(t.var::<Pos<3>>().data(), d.var(&sel("3")).unwrap().data());
        // The same through a view.
        assert_eq!(t.view().sum::<C>().data(), d.sum(&sel("C")).unwrap().data());
    }
}

#[test]
fn views_reduce_without_copies_and_as_their_copies_do() {
    let t =
        Tensor::<f64, shape![H: 3, W: 4]>::from_fn(&[3, 4], |i| (i[0] * 10 + i[1]) as f64).unwrap();
    // A permuted view: [W: 4, H: 3].
    let p = t.align_to::<shape![W: 4, H: 3]>().unwrap();
    let copy = p.to_tensor();
    assert_eq!(p.sum::<H>().data(), copy.sum::<H>().data());
    assert_eq!(
        p.sum::<H>().data(),
        t.sum::<H>().data(),
        "by name, the order does not matter"
    );
    assert_eq!(
        p.max_keep::<Pos<0>>().data(),
        copy.max_keep::<Pos<0>>().data()
    );
    assert_eq!(p.softmax::<W>().data(), copy.softmax::<W>().data());
    assert_eq!(p.argmin::<H>().data(), copy.argmin::<H>().data());
    // A broadcast view (stride 0): [C: 2, H: 3, W: 4].
    let col = Tensor::<f64, shape![H: 3, W: 1]>::from_array([[1.0], [2.0], [3.0]]);
    let b = col.broadcast_to::<shape![C: 2, H: 3, W: 4]>().unwrap();
    assert_eq!(b.strides()[0], 0);
    let copy = b.to_tensor();
    assert_eq!(b.sum::<(C, W)>().data(), &[8.0, 16.0, 24.0]);
    assert_eq!(b.sum::<(C, W)>().data(), copy.sum::<(C, W)>().data());
    assert_eq!(b.mean::<H>().data(), copy.mean::<H>().data());
    assert_eq!(
        b.logsumexp_keep::<C>().data(),
        copy.logsumexp_keep::<C>().data()
    );
}

#[test]
fn nan_propagates_and_wins_arg_reductions() {
    let nan = f64::NAN;
    let t = Tensor::<f64, shape![2, CLASS: 3]>::from_array([[1.0, nan, 3.0], [2.0, 5.0, nan]]);
    let max = t.max::<CLASS>();
    assert!(max.data()[0].is_nan() && max.data()[1].is_nan());
    assert!(t.min::<CLASS>().data().iter().all(|x| x.is_nan()));
    assert_eq!(t.argmax::<CLASS>().data(), &[1, 2]);
    assert_eq!(t.argmin::<CLASS>().data(), &[1, 2]);
    assert_eq!(t.max::<Pos<0>>().data()[0], 2.0);
    assert!(t.sum::<CLASS>().data()[0].is_nan());
    let u = Tensor::<f64, shape![4]>::from_array([nan, 1.0, nan, 9.0]);
    assert_eq!(u.argmax::<Pos<0>>().into_vec(), vec![0], "the first NaN");
}

#[test]
fn empty_axes_follow_numpy() {
    let t = Tensor::<f64, shape![?, 3]>::from_vec_sized(&[0, 3], vec![]).unwrap();
    assert_eq!(t.sum::<Pos<0>>().data(), &[0.0, 0.0, 0.0]);
    assert_eq!(t.prod::<Pos<0>>().data(), &[1.0, 1.0, 1.0]);
    assert!(t.mean::<Pos<0>>().data().iter().all(|x| x.is_nan()));
    let err = t.try_max::<Pos<0>>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot take the max of [0, 3] over axis 0: it is empty and max has no identity"
    );
    assert!(t.try_argmin::<Pos<0>>().is_err());
    // Reducing the non-empty axis of an empty tensor is fine and empty.
    assert_eq!(t.max::<Pos<1>>().sizes(), &[0]);
    assert_eq!(t.argmax::<Pos<1>>().sizes(), &[0]);
}

#[test]
#[should_panic(expected = "cannot take the max of [0] over axis 0")]
fn max_of_a_run_time_empty_axis_panics_with_the_message() {
    let t = Tensor::<f32, shape![?]>::from_vec_sized(&[0], vec![]).unwrap();
    let _ = t.max::<Pos<0>>();
}

#[test]
fn names_make_keepdims_unnecessary() {
    // [?, CLASS: 3] minus its max over CLASS ([?]) lines up by name.
    let x = Tensor::<f32, shape![?, CLASS: 3]>::from_vec_sized(
        &[2, 3],
        vec![1.0, 2.0, 3.0, 6.0, 5.0, 4.0],
    )
    .unwrap();
    let centred = &x - &x.max::<CLASS>();
    assert_eq!(centred.data(), &[-2.0, -1.0, 0.0, 0.0, -1.0, -2.0]);
    // The same with a square batch, where NumPy's missing keepdims would silently subtract
    // the wrong row.
    let sq = Tensor::<f32, shape![N: 3, CLASS: 3]>::from_array([
        [1.0, 2.0, 3.0],
        [4.0, 5.0, 6.0],
        [7.0, 8.0, 9.0],
    ]);
    let c = &sq - &sq.mean::<CLASS>();
    assert_eq!(c.data(), &[-1.0, 0.0, 1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0]);
}

#[test]
fn elementwise_math_and_operator_mixes() {
    let a = Tensor::<f64, shape![H: 2, W: 2]>::from_array([[1.0, 4.0], [9.0, 16.0]]);
    let b = Tensor::<f64, shape![W: 2]>::from_array([1.0, 2.0]);
    assert_eq!((&a).sqrt().data(), &[1.0, 2.0, 3.0, 4.0]);
    assert_eq!((&a).recip().data()[1], 0.25);
    assert_eq!((&a).powf(0.5).data(), (&a).sqrt().data());
    assert_eq!((-&a).abs().data(), a.data());
    assert_eq!(
        (&a).ln()
            .exp()
            .data()
            .iter()
            .map(|x| x.round())
            .collect::<Vec<_>>(),
        a.data()
    );
    assert!(((&a).tanh().data()[0] - 1f64.tanh()).abs() < 1e-15);
    assert_eq!(a.maximum(&b).data(), &[1.0, 4.0, 9.0, 16.0]);
    assert_eq!(a.minimum(&b).data(), &[1.0, 2.0, 1.0, 2.0]);
    let owned_ref = a.clone() - &b;
    let ref_owned = &a - b.clone();
    let owned_owned = a.clone() - b.clone();
    assert_eq!(owned_ref, &a - &b);
    assert_eq!(ref_owned, &a - &b);
    assert_eq!(owned_owned, &a - &b);
    assert!(a
        .maximum(&Tensor::<f64, shape![]>::from_array(f64::NAN))
        .data()
        .iter()
        .all(|x| x.is_nan()));
}

#[test]
fn softmax_over_trailing_axes_is_the_general_passes_bit_for_bit() {
    // Rows in one pass each (contiguous, trailing axes) against the same rows read through a
    // transposed view (the general three passes): NaN, infinities, huge and empty values.
    let (inf, nan) = (f64::INFINITY, f64::NAN);
    let rows = [
        [1.0, 2.0, 3.0, 4.0, 5.0],
        [nan, 0.0, 1.0, 2.0, 3.0],
        [-inf, -inf, -inf, -inf, -inf],
        [inf, 0.0, 1.0, -inf, 2.0],
        [1e300, -1e300, 0.5, 700.0, -700.0],
        [0.0, 0.0, 0.0, 0.0, 0.0],
    ];
    let t = Tensor::<f64, shape![H: 6, W: 5]>::from_array(rows);
    let wh = t.align_to::<shape![W: 5, H: 6]>().unwrap();
    let general = wh.softmax::<W>();
    for (fast, label) in [
        (t.softmax::<W>(), "borrowed"),
        (t.clone().softmax_into::<W>(), "into"),
    ] {
        for h in 0..6 {
            for w in 0..5 {
                let (a, b) = (fast.data()[h * 5 + w], general.data()[w * 6 + h]);
                assert!(
                    a.to_bits() == b.to_bits(),
                    "{label} [{h}, {w}]: {a} against {b}"
                );
            }
        }
    }
    // Several trailing axes make one row; a larger tensor splits rows over threads. The
    // transposed copy sums each cell in another order: equal to rounding.
    let big = Tensor::<f32, shape![?, H, W]>::from_fn(&[300, 40, 30], |i| {
        ((i[0] * 7 + i[1] * 3 + i[2]) % 23) as f32 - 11.0
    })
    .unwrap();
    let copy = big.align_to::<shape![W, ?, H]>().unwrap().to_tensor();
    let (fast, general) = (big.softmax::<(H, W)>(), copy.softmax::<(H, W)>());
    for (k, &v) in fast.data().iter().enumerate() {
        let (n, h, w) = (k / 1200, k / 30 % 40, k % 30);
        let g = general.data()[w * 12_000 + n * 40 + h];
        assert!(
            (v - g).abs() <= 1e-6 * g,
            "[{n}, {h}, {w}]: {v} against {g}"
        );
    }
}

/// A deterministic f32 sample with a large mean (the case a one-pass formula loses): values
/// `1000 + u` with `u` spread over [-0.5, 0.5).
fn offset_sample(n: usize) -> Vec<f32> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            1000.0 + ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
        })
        .collect()
}

/// The mean and the sum of squared deviations in f64 (two passes), the reference.
fn reference(xs: impl Iterator<Item = f32> + Clone) -> (f64, f64, usize) {
    let n = xs.clone().count();
    let mean = xs.clone().map(f64::from).sum::<f64>() / n as f64;
    let ss = xs.map(|x| (f64::from(x) - mean).powi(2)).sum::<f64>();
    (mean, ss, n)
}

fn rel(got: f32, want: f64) -> f64 {
    ((f64::from(got) - want) / want).abs()
}

/// f32 `mean`, `var`, `std` and `var_ddof` of 10^3 to 10^7 elements within 1e-6 of an f64
/// reference (relative), in the three walks a reduction takes: one contiguous run, a reduced
/// outer axis (elementwise accumulation, no run) and the per-channel statistics of an NCHW
/// image (several runs per cell).
#[test]
fn f32_statistics_are_accurate_at_ten_million_elements() {
    for n in [1_000usize, 100_000, 1_000_000, 4_000_000, 10_000_000] {
        let xs = offset_sample(n);
        let (mean, ss, _) = reference(xs.iter().copied());
        let t = DynTensor::from_vec(format!("[X: {n}]").parse().unwrap(), xs).unwrap();
        let x = ["X".parse::<AxisSelector>().unwrap()];
        let m = t.mean(&x).unwrap().data()[0];
        let v = t.var(&x).unwrap().data()[0];
        let v1 = t.var_ddof(&x, 1).unwrap().data()[0];
        let s = t.std(&x).unwrap().data()[0];
        assert!(rel(m, mean) <= 1e-6, "mean of {n}: {m} against {mean}");
        assert!(
            rel(v, ss / n as f64) <= 1e-6,
            "var of {n}: {v} against {}",
            ss / n as f64
        );
        assert!(rel(v1, ss / (n - 1) as f64) <= 1e-6, "var ddof 1 of {n}");
        assert!(rel(s, (ss / n as f64).sqrt()) <= 1e-6, "std of {n}");
    }
    // A reduced outer axis: [R: 2_000_000, 2] over R, each column its own cell.
    let xs = offset_sample(4_000_000);
    let t = DynTensor::from_vec("[R: 2000000, 2]".parse().unwrap(), xs.clone()).unwrap();
    let v = t.var(&["R".parse().unwrap()]).unwrap();
    for col in 0..2 {
        let (_, ss, n) = reference(xs.iter().copied().skip(col).step_by(2));
        let got = v.data()[col];
        assert!(rel(got, ss / n as f64) <= 1e-6, "column {col}: {got}");
    }
    // Per-channel statistics of [N: 8, C: 3, H: 256, W: 384] over N, H, W.
    let typed = Tensor::<f32, shape![N: 8, C: 3, H: 256, W: 384]>::from_vec_sized(
        &[8, 3, 256, 384],
        offset_sample(8 * 3 * 256 * 384),
    )
    .unwrap();
    let var: Tensor<f32, shape![C: 3]> = typed.var::<(N, H, W)>();
    let std1: Tensor<f32, shape![C: 3]> = typed.std_ddof::<(N, H, W)>(1);
    let plane = 256 * 384;
    for c in 0..3 {
        let channel = typed
            .data()
            .chunks(plane)
            .skip(c)
            .step_by(3)
            .flatten()
            .copied();
        let (_, ss, n) = reference(channel);
        assert!(rel(var.data()[c], ss / n as f64) <= 1e-6, "channel {c}");
        assert!(
            rel(std1.data()[c], (ss / (n - 1) as f64).sqrt()) <= 1e-6,
            "channel {c}"
        );
    }
}

/// `ddof` at or above the count divides by zero, as NumPy's `max(n - ddof, 0)`: `inf` for a
/// spread, NaN for none; the typed and run-time forms agree, on views too.
#[test]
fn ddof_follows_numpy_at_the_edges() {
    let t = Tensor::<f64, shape![C: 2, W: 3]>::from_array([[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]]);
    let v = t.var_ddof::<W>(3);
    assert!(v.data()[0].is_infinite() && v.data()[1].is_nan());
    assert_eq!(t.var_ddof::<W>(1).data(), &[1.0, 0.0]);
    assert_eq!(t.view().std_ddof::<W>(1).data(), &[1.0, 0.0]);
    let d = t.to_dyn();
    assert_eq!(
        d.var_ddof(&["W".parse().unwrap()], 1).unwrap().data(),
        &[1.0, 0.0]
    );
    assert!(d.var_ddof(&["H".parse().unwrap()], 1).is_err());
}
