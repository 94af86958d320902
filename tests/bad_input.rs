//! Bad input never panics, hangs or lies: sizes near `usize::MAX` beside zero-sized axes
//! (valid shapes: `[0, usize::MAX / 2]` holds no element), each case from the randomized
//! sweep that found it, returning an error or the right answer.

use shapecast::{shape, Dot, DynShape, DynTensor, Error, Reductions, Rule, Tensor};

fn dyn_shape(sizes: &[usize]) -> DynShape {
    DynShape::from_sizes(sizes).unwrap()
}

fn empty(sizes: &[usize]) -> DynTensor<u16> {
    DynTensor::from_vec(dyn_shape(sizes), vec![]).unwrap()
}

/// Windows of huge extents are refused before any position is computed (found by the sweep
/// below: a kernel of `usize::MAX` with padding `usize::MAX / 2` over a size-1 axis fits by
/// the output-size formula, and its positions overflowed `isize`).
#[test]
fn windows_of_huge_extents_are_errors() {
    use shapecast::dynamic::conv::ConvSpec;
    use shapecast::dynamic::pool::PoolSpec;
    let x = DynTensor::full("[A: 1, B: 1]".parse().unwrap(), 0.5f32).unwrap();
    let spec = PoolSpec::new(usize::MAX).stride(1).padding(usize::MAX / 2);
    assert!(matches!(
        x.max_pool(&["A".parse().unwrap()], &spec),
        Err(Error::Window { .. })
    ));
    let w = DynTensor::full("[K: 1, A: 1, B: 2]".parse().unwrap(), 0.5f32).unwrap();
    let huge = ConvSpec::default()
        .padding(usize::MAX / 4)
        .dilation(usize::MAX / 2);
    assert!(matches!(
        x.conv(&w, "A", &huge),
        Err(Error::Convolution { .. })
    ));
}

#[test]
fn constructors_of_impossible_sizes_are_errors() {
    let huge = usize::MAX / 2;
    assert!(matches!(
        Tensor::<u16, shape![?]>::zeros_sized(&[huge]),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        DynTensor::full(dyn_shape(&[huge]), 0u8),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        DynTensor::from_fn(dyn_shape(&[huge]), |_| 0u8),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        Tensor::<u8, shape![?, ?]>::from_fn(&[2, huge], |_| 0),
        Err(Error::TooLarge { .. })
    ));
    // A product that overflows usize.
    assert!(DynTensor::full(dyn_shape(&[usize::MAX, 2]), 0u8).is_err());
    // Zero elements beside a huge size: a valid, empty tensor, at once.
    let t = DynTensor::full(dyn_shape(&[0, huge]), 0u8).unwrap();
    assert_eq!(t.data().len(), 0);
}

#[test]
fn outputs_of_impossible_sizes_are_errors() {
    let huge = usize::MAX / 2;
    // [1, 0] @ [0, huge]: the output [1, huge] cannot exist.
    let a = DynTensor::from_vec(dyn_shape(&[1, 0]), Vec::<f32>::new()).unwrap();
    let b = DynTensor::from_vec(dyn_shape(&[0, huge]), Vec::<f32>::new()).unwrap();
    assert!(matches!(a.matmul(&b), Err(Error::TooLarge { .. })));
    // Summing away the empty axis of [0, 2^40] leaves 2^40 zeros: more than memory.
    let t = empty(&[0, 1 << 50]);
    assert!(matches!(
        t.sum(&["0".parse().unwrap()]),
        Err(Error::TooLarge { .. })
    ));
    // The maximum over an empty axis is an error of its own, before any room is asked for.
    assert!(t.max(&["0".parse().unwrap()]).is_err());
    // Summing the other axis away leaves 0 elements.
    assert_eq!(t.sum(&["1".parse().unwrap()]).unwrap().data().len(), 0);
}

#[test]
fn surgery_on_huge_empty_shapes_is_exact() {
    let huge = usize::MAX / 2;
    let t = empty(&[0, 3, huge]);
    let m = t.merge_axes(&["1".parse().unwrap(), "2".parse().unwrap()], None);
    assert!(m.is_err(), "3 x usize::MAX / 2 overflows: {m:?}");
    let ok = empty(&[0, 2, 1 << 40])
        .merge_axes(&["1".parse().unwrap(), "2".parse().unwrap()], None)
        .unwrap();
    assert_eq!(ok.sizes(), &[0, 1 << 41]);
    // Concatenating [2^40, 0] and [2^40, 0] along axis 1: empty, at once.
    let a = empty(&[1 << 40, 0]);
    let c = DynTensor::concat(&"1".parse().unwrap(), &[&a, &a]).unwrap();
    assert_eq!(c.sizes(), &[1 << 40, 0]);
    // Along axis 0 the sizes add past usize::MAX.
    let b = empty(&[usize::MAX, 0]);
    let one = empty(&[1, 0]);
    assert!(DynTensor::concat(&"0".parse().unwrap(), &[&b, &one]).is_err());
    // Slicing with an excluded bound of usize::MAX.
    let s = empty(&[0, 4]);
    assert!(s.slice(&"1".parse().unwrap(), 1..usize::MAX).is_err());
    assert_eq!(
        s.slice(&"1".parse().unwrap(), 1..3).unwrap().sizes(),
        &[0, 2]
    );
}

#[test]
fn a_rank_above_the_kernels_inline_tables_takes_the_general_path() {
    let a = DynTensor::from_vec(dyn_shape(&[2]), vec![1i32, 2]).unwrap();
    let sizes = [1, 1, 1, 1, 1, 1, 1, 1, 2];
    let b = DynTensor::from_vec(dyn_shape(&sizes), vec![10i32, 20]).unwrap();
    for rule in [Rule::Numpy, Rule::Named, Rule::Pdpd { axis: -1 }] {
        match a.zip_with(rule, &b, |x, y| x + y) {
            Ok(c) => assert_eq!(c.data().iter().sum::<i32>() % 3, 0, "{rule:?}"),
            Err(e) => assert!(e.is_refusal(), "{rule:?}: {e}"),
        }
    }
}

#[test]
fn the_frame_above_rank_eight_under_every_rule() {
    let a = DynTensor::from_vec(dyn_shape(&[2]), vec![1i32, 2]).unwrap();
    let b = DynTensor::from_vec(dyn_shape(&[1, 1, 1, 1, 1, 1, 1, 1, 2]), vec![10i32, 20]).unwrap();
    for rule in [
        Rule::Numpy,
        Rule::Named,
        Rule::Pdpd { axis: -1 },
        Rule::Pdpd { axis: 8 },
        Rule::Embed,
        Rule::Outer,
        Rule::Bidirectional,
        Rule::Assign,
    ] {
        for (l, r) in [(&a, &b), (&b, &a)] {
            match l.zip_with(rule, r, |x, y| x + y) {
                Ok(c) => assert_eq!(c.data().len(), 2, "{rule:?}"),
                Err(e) => assert!(e.is_refusal(), "{rule:?}: {e}"),
            }
        }
    }
}

#[test]
fn empty_tensors_with_huge_axes_reduce_view_and_iterate_at_once() {
    let huge = usize::MAX / 2;
    let t = Tensor::<f32, shape![?, ?]>::zeros_sized(&[0, huge]).unwrap();
    assert_eq!(t.view().iter().count(), 0);
    assert_eq!(t.view().to_tensor().sizes(), &[0, huge]);
    assert_eq!(t.softmax::<shapecast::Pos<0>>().data().len(), 0);
    assert_eq!(t.softmax::<shapecast::Pos<1>>().data().len(), 0);
    let d = DynTensor::from_vec(dyn_shape(&[0, huge]), Vec::<f32>::new()).unwrap();
    assert_eq!(d.softmax(&["0".parse().unwrap()]).unwrap().data().len(), 0);
    assert!(matches!(
        d.logsumexp(&["0".parse().unwrap()]),
        Err(Error::TooLarge { .. })
    ));
    assert_eq!(
        d.logsumexp(&["1".parse().unwrap()]).unwrap().data().len(),
        0
    );
    // [0, 2, 2^63] summed over its first axis leaves [2, 2^63]: its count overflows usize.
    let z = DynTensor::from_vec(dyn_shape(&[0, 2, 1 << 63]), Vec::<f32>::new()).unwrap();
    assert!(matches!(
        z.sum(&["0".parse().unwrap()]),
        Err(Error::TooManyElements { .. })
    ));
    let e = std::panic::catch_unwind(|| t.sum::<shapecast::Pos<0>>()).unwrap_err();
    let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("more than can be allocated"), "{msg}");
}

mod sweep {
    //! Random shapes mixing zero sizes with sizes near `usize::MAX`, ranks up to 10, through
    //! the run-time tensor operations: every call returns (an error or a result), none
    //! panics. Run with overflow checks (`cargo test` builds tests with them).

    use proptest::prelude::*;
    use shapecast::dynamic::reduce::AxisSelector;
    use shapecast::{DynShape, DynTensor, Rule};

    /// Sizes that break arithmetic: 0, small ones, and huge ones.
    fn size() -> impl Strategy<Value = usize> {
        prop_oneof![
            3 => Just(0usize),
            3 => 1usize..4,
            1 => Just(1usize << 40),
            1 => Just(usize::MAX / 2),
            1 => Just(usize::MAX),
        ]
    }

    /// The sizes of a tensor that can exist: some axis is 0, or every size is small.
    fn sizes() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(size(), 0..10).prop_map(|mut v| {
            if !v.contains(&0) && v.iter().any(|&n| n > 3) {
                let k = v.iter().position(|&n| n > 3).unwrap();
                v[k] = 0;
            }
            v
        })
    }

    fn tensor(sizes: &[usize]) -> DynTensor<f32> {
        let shape = DynShape::from_sizes(sizes).unwrap();
        DynTensor::full(shape, 0.5).unwrap()
    }

    fn axis(k: usize) -> AxisSelector {
        k.to_string().parse().unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn nothing_panics(a in sizes(), b in sizes(), k in 0usize..10, i in 0usize..4, n in 0usize..4) {
            let (x, y) = (tensor(&a), tensor(&b));
            let rank = a.len();
            let _ = x.sum(&[axis(k)]);
            let _ = x.max(&[axis(k)]);
            let _ = x.softmax(&[axis(k)]);
            let _ = x.logsumexp(&[axis(k)]);
            let _ = x.argmax(&axis(k));
            if rank >= 2 {
                let _ = x.merge_axes(&[axis(k % rank), axis((k % rank + 1).min(rank - 1))], None);
                let _ = x.matmul(&y);
            }
            let _ = x.select(&axis(k), i);
            let _ = x.slice(&axis(k), i..i + n);
            let _ = x.slice(&axis(k), i..usize::MAX);
            let _ = x.insert_axis(k, None);
            let _ = DynTensor::concat(&axis(k), &[&x, &y]);
            let _ = DynTensor::concat(&axis(k), &[&x, &x]);
            let _ = DynTensor::stack(None, &[&x, &x]);
            for rule in [Rule::Numpy, Rule::Named, Rule::Outer, Rule::Embed, Rule::Pdpd { axis: -1 }, Rule::Bidirectional] {
                let _ = x.zip_with(rule, &y, |p, q| p + q);
            }
            model_operations(&x, &y, k, i);
        }
    }

    /// The model operations (rule book §16–§17 and the scans, top-k, gathers and sampling) on
    /// such tensors: the statistics, norms over one or two axes with a scalar weight, a
    /// rotary table, attention of `x` to `y` over two of its axes, and `y`'s gather along one.
    fn model_operations(x: &DynTensor<f32>, y: &DynTensor<f32>, k: usize, i: usize) {
        use shapecast::{DynMask, RopeStyle, Rotary};
        let scalar = DynTensor::full(DynShape::scalar(), 1.0f32).unwrap();
        let two = [axis(k), axis(k + 1)];
        let _ = x.var_ddof(&[axis(k)], i);
        let _ = x.std_ddof(&two, i);
        let _ = x.cumsum(&axis(k));
        let _ = x.cumprod(&axis(k));
        let _ = x.topk(&axis(k), i);
        let _ = x.step(&axis(k), i);
        let _ = x.layer_norm(&two, &scalar, &scalar, 1e-5);
        let _ = x.rms_norm(&[axis(k)], &scalar, 1e-5);
        let table = Rotary::<f32>::new(RopeStyle::Halves, 2, 4, 1e4).unwrap();
        let _ = x.rope(&axis(k), &axis(k + 1), &table, i);
        let _ = x.attention(y, y, &[axis(k)], &axis(k + 1), DynMask::None, None);
        let causal = DynMask::Causal {
            axis: &two[1],
            offset: i,
        };
        let _ = x.attention(x, x, &[axis(k)], &axis(k + 1), causal, None);
        if let Ok(indices) = DynTensor::full(y.shape().clone(), i) {
            let _ = y.gather(&axis(k), &indices);
        }
        #[cfg(feature = "rand")]
        {
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(i as u64);
            let last = axis(x.shape().rank().saturating_sub(1));
            let _ = x.sample(&last, &shapecast::Sampling::default().top_k(i), &mut rng);
        }
    }

    /// Named tensors of such sizes: `A0`, `A1`, … .
    fn named(sizes: &[usize], first: usize) -> DynTensor<f32> {
        let axes: Vec<String> = sizes
            .iter()
            .enumerate()
            .map(|(k, n)| format!("A{}: {n}", k + first))
            .collect();
        DynTensor::full(format!("[{}]", axes.join(", ")).parse().unwrap(), 0.5).unwrap()
    }

    /// Geometry values that break arithmetic.
    fn knob() -> impl Strategy<Value = usize> {
        prop_oneof![3 => 0usize..4, 1 => Just(usize::MAX / 2), 1 => Just(usize::MAX)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Convolution, pooling, padding, interpolation and the gathers (rule book §20–§23) on such sizes,
        /// with zero, small and huge strides, paddings, dilations, groups, kernels, indices
        /// and class counts: an answer or an error, never a panic.
        #[test]
        fn windows_and_gathers_never_panic(
            a in sizes(), w in sizes(), k in 0usize..10,
            s in knob(), p in knob(), d in knob(), g in knob(), i in knob(),
        ) {
            use shapecast::dynamic::conv::ConvSpec;
            use shapecast::dynamic::pool::PoolSpec;
            use shapecast::{Interpolation, Loss, PadMode};
            let x = named(&a, 0);
            // The weight names the input's first axes (channel, spatial) and one of its own.
            let mut wt = w.clone();
            wt.truncate(a.len().min(4));
            let weight = {
                let mut axes: Vec<String> = wt.iter().enumerate().map(|(j, n)| format!("A{j}: {n}")).collect();
                axes.push(format!("OUT: {}", w.first().copied().unwrap_or(1).min(3)));
                DynTensor::<f32>::full(format!("[{}]", axes.join(", ")).parse().unwrap(), 0.5)
            };
            if let Ok(weight) = weight {
                let spec = ConvSpec { stride: s, padding: p, dilation: d, groups: g };
                let _ = x.conv(&weight, "A0", &spec);
                let _ = x.conv(&weight, "A1", &ConvSpec::default());
            }
            let sel = [axis(k)];
            let two = [axis(k), axis((k + 1) % 10)];
            for spec in [PoolSpec::new(s).stride(p.max(1)).padding(d), PoolSpec::new(2).ceil_mode(true).padding(1), PoolSpec::new(i).count_padding(false)] {
                let _ = x.max_pool(&sel, &spec);
                let _ = x.avg_pool(&two, &spec);
            }
            for mode in [PadMode::Constant(1.0), PadMode::Reflect, PadMode::Replicate] {
                let _ = x.pad(&sel, p, &mode);
                let _ = x.pad(&two, i.min(3), &mode);
                let _ = x.pad_ends(&two, (p, i), &mode);
            }
            let corners = i % 2 == 0;
            for mode in [
                Interpolation::Nearest,
                Interpolation::NearestExact,
                Interpolation::Linear { align_corners: corners, antialias: false },
                Interpolation::Linear { align_corners: corners, antialias: true },
                Interpolation::Cubic { align_corners: !corners, antialias: false },
                Interpolation::Cubic { align_corners: corners, antialias: true },
                Interpolation::Area,
            ] {
                let _ = x.upsample(&two, s, mode);
                let _ = x.upsample(&sel, i.min(5), mode);
                let _ = x.resize(&two, &[p, d], mode);
                let _ = x.resize(&sel, &[s.min(9)], mode);
            }
            let idx = DynTensor::<usize>::full(format!("[I: {}]", w.first().copied().unwrap_or(0).min(3)).parse().unwrap(), i);
            if let Ok(idx) = idx {
                let _ = x.take(&axis(k), &idx);
                let _ = idx.one_hot::<f32>("CLASS", i);
                let _ = idx.one_hot::<f32>("I", 2);
                let logits = named(&[w.first().copied().unwrap_or(0).min(3), s.min(4)], 0);
                let targets = DynTensor::<usize>::full(format!("[A0: {}]", w.first().copied().unwrap_or(0).min(3)).parse().unwrap(), i);
                if let Ok(t) = targets {
                    let _ = logits.cross_entropy(&axis(1), &t, &Loss::default().label_smoothing(0.5));
                    let _ = logits.nll_loss(&axis(1), &t, &Loss::default().ignore_index(i as i64));
                }
            }
        }
    }
}

#[test]
fn a_broadcast_of_small_operands_into_more_than_memory_is_an_error() {
    let a = DynTensor::from_vec(dyn_shape(&[1 << 20, 1]), vec![0u8; 1 << 20]).unwrap();
    let b = DynTensor::from_vec(dyn_shape(&[1, 1 << 30]), vec![0u8; 1 << 30]).unwrap();
    // [2^20, 2^30] u8: 2^50 bytes.
    assert!(matches!(
        a.zip_with(Rule::Numpy, &b, |x, y| x ^ y),
        Err(Error::TooLarge { .. })
    ));
    let ta = Tensor::<u8, shape![?, 1]>::from_vec_sized(&[1 << 20, 1], vec![0; 1 << 20]).unwrap();
    let tb = Tensor::<u8, shape![1, ?]>::from_vec_sized(&[1, 1 << 30], vec![0; 1 << 30]).unwrap();
    assert!(matches!(ta.try_add(&tb), Err(Error::TooLarge { .. })));
}

#[test]
fn copying_a_broadcast_view_larger_than_memory_panics_with_the_error() {
    let one = Tensor::<u8, shape![1, 1]>::from_array([[7]]);
    let wide = one
        .view()
        .broadcast_to_sized::<shape![?, ?]>(&[1 << 30, 1 << 30])
        .unwrap();
    assert_eq!(wide.iter().take(3).count(), 3);
    let e = std::panic::catch_unwind(|| wide.to_tensor()).unwrap_err();
    let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("more than can be allocated"), "{msg}");
}

#[path = "bad_input/typed_sweep.rs"]
mod typed_sweep;

#[test]
fn a_typed_matmul_into_more_than_memory_is_an_error() {
    // [1, 2^20, 1] @ [1, 1, 2^20]: both operands exist (4 MiB each), the output would be 4 TiB.
    let a = Tensor::<f32, shape![?, ?, ?]>::zeros_sized(&[1, 1 << 20, 1]).unwrap();
    let b = Tensor::<f32, shape![?, ?, ?]>::zeros_sized(&[1, 1, 1 << 20]).unwrap();
    assert!(matches!(a.try_matmul(&b), Err(Error::TooLarge { .. })));
}

#[test]
fn the_invariants_behind_the_remaining_expects_hold_at_their_boundaries() {
    use shapecast::{names, shape, Tensor};
    names!(H);
    // `Tensor::shape` and a view's shape resolve a tensor's own sizes: the largest sizes an
    // empty tensor can have do not overflow the element count.
    let t = Tensor::<u8, shape![?, H, ?]>::from_vec_sized(&[0, usize::MAX, usize::MAX], vec![])
        .unwrap();
    assert_eq!(
        t.shape().to_string(),
        format!("[0, H: {m}, {m}]", m = usize::MAX)
    );
    assert_eq!(t.view().sum::<H>().sizes(), &[0, usize::MAX]);
    // Log-softmax of a strided view (the path whose layout check returns its error).
    let w = Tensor::<f32, shape![2, H: 3]>::from_array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]);
    let p = w.align_to::<shape![H: 3, 2]>().unwrap();
    let copy = p.to_tensor();
    assert_eq!(p.log_softmax::<H>(), copy.log_softmax::<H>());
    assert_eq!(p.softmax::<H>(), copy.softmax::<H>());
    // An exponent that is integral and at most 64 in size takes `powi`; past it, `powf`.
    use shapecast::FloatMath;
    let two = Tensor::<f64, shape![1]>::from_array([2.0]);
    assert_eq!((&two).powf(64.0).data(), &[2f64.powi(64)]);
    assert_eq!((&two).powf(-64.0).data(), &[2f64.powi(-64)]);
    assert_eq!((&two).powf(65.0).data(), &[2f64.powf(65.0)]);
}

/// The pdpd rule drops a right operand's trailing 1s, so the operand may have more axes than
/// the result: rank 9 and 13 against a rank-1 left once crashed the kernel's stride arrays.
#[test]
fn pdpd_right_operands_of_high_rank() {
    let a = DynTensor::from_vec("[2]".parse().unwrap(), vec![1.0f32, 2.0]).unwrap();
    for (ones, axis) in [(8, -1), (12, 0), (40, -1)] {
        let shape = format!("[2{}]", ", 1".repeat(ones));
        let b = DynTensor::from_vec(shape.parse().unwrap(), vec![10.0f32, 20.0]).unwrap();
        let c = a
            .zip_with(Rule::Pdpd { axis }, &b, |x, y| x + y)
            .unwrap_or_else(|e| panic!("{shape} at axis {axis}: {e}"));
        assert_eq!((c.sizes(), c.data()), (&[2][..], &[11.0, 22.0][..]));
    }
}

/// Splitting an axis of an empty tensor whose last axis is `usize::MAX` long: the strides'
/// product past the outermost part once overflowed.
#[test]
fn split_of_an_empty_tensor_with_a_huge_axis() {
    use shapecast::Pos;
    let t = Tensor::<u8, shape![?, ?, ?]>::from_vec_sized(&[0, 2, usize::MAX], vec![]).unwrap();
    let v = t.split_axis::<Pos<1>, shape![2, ?]>().unwrap();
    assert_eq!(v.sizes(), &[0, 2, 1, usize::MAX]);
    assert_eq!(v.iter().count(), 0);
}

/// Run-time tensors above the type level's rank 16 go through untyped views in concatenation
/// and stacking: rank 20 works (a view's inline layout holds the run-time limit, 64).
#[test]
fn concat_and_stack_at_rank_twenty() {
    let shape = format!("[{}2]", "1, ".repeat(19));
    let a = DynTensor::from_vec(shape.parse().unwrap(), vec![1i32, 2]).unwrap();
    let c = DynTensor::concat(&"19".parse().unwrap(), &[&a, &a]).unwrap();
    assert_eq!((c.sizes()[19], c.data()), (4, &[1, 2, 1, 2][..]));
    let s = DynTensor::stack_at(None, 20, &[&a, &a]).unwrap();
    assert_eq!((s.sizes().len(), s.data()), (21, &[1, 1, 2, 2][..]));
}

/// Learning-rate schedules on parameters that break arithmetic (0, NaN, infinities, huge
/// step counts): every constructor answers or refuses, and a schedule it makes gives a rate
/// at any step, never NaN from finite parameters.
mod schedules {
    use proptest::prelude::*;
    use shapecast::train::*;

    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => 0.0f64..2.0,
            1 => Just(0.0),
            1 => Just(-1.0),
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(1e300),
        ]
    }

    fn count() -> impl Strategy<Value = usize> {
        prop_oneof![3 => 0usize..8, 1 => Just(usize::MAX / 2), 1 => Just(usize::MAX)]
    }

    fn rates_are_numbers(s: &dyn Schedule, steps: &[usize]) {
        for &t in steps {
            assert!(!s.lr(t).is_nan(), "step {t}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn schedules_answer_or_refuse(a in float(), b in float(), c in float(), n in count(), m in count()) {
            let steps = [0, 1, n, m, usize::MAX];
            let made: Vec<Result<Box<dyn Schedule>, shapecast::Error>> = vec![
                StepLr::new(a, n, b).map(|s| Box::new(s) as Box<dyn Schedule>),
                MultiStepLr::new(a, &[n, m, 0], b).map(|s| Box::new(s) as _),
                ExponentialLr::new(a, b).map(|s| Box::new(s) as _),
                LinearLr::new(a, b, c, n).map(|s| Box::new(s) as _),
                CosineAnnealing::new(a, n, b).map(|s| Box::new(s) as _),
                OneCycle::new(a, n)
                    .and_then(|s| s.pct_start(b))
                    .and_then(|s| s.div_factors(c, 1.0 + b))
                    .map(|s| Box::new(s) as _),
                LinearLr::new(a, 0.5, 1.0, m)
                    .and_then(|w| Ok(w.then(n, CosineAnnealing::new(a, m, b)?)))
                    .map(|s| Box::new(s) as _),
            ];
            for s in made.iter().flatten() {
                rates_are_numbers(s.as_ref(), &steps);
            }
        }
    }
}
