//! Typed tensors on data: views (broadcast, permuted), narrowing to the element, nested
//! tensors (rule book §13), constructors. Values are checked against a naive reference.

use proptest::prelude::*;
use shapecast::{names, shape, DynShape, DynTensor, Rule, Tensor};

names!(H, W, C);

/// The naive reference for `a + b` by NumPy's rule on row-major data: every output index,
/// each operand's element by right alignment (size 1 ignores the index).
fn numpy_reference(a: &DynTensor<i64>, b: &DynTensor<i64>) -> Option<(Vec<usize>, Vec<i64>)> {
    let (sa, sb) = (a.sizes(), b.sizes());
    let rank = sa.len().max(sb.len());
    let pad = |s: &[usize]| -> Vec<usize> {
        let mut v = vec![1; rank - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (pa, pb) = (pad(sa), pad(sb));
    let mut out = Vec::new();
    for (x, y) in pa.iter().zip(&pb) {
        out.push(match (x, y) {
            (x, y) if x == y => *x,
            (1, y) => *y,
            (x, 1) => *x,
            _ => return None,
        });
    }
    let total: usize = out.iter().product();
    let mut data = Vec::with_capacity(total);
    for flat in 0..total {
        let mut idx = vec![0; rank];
        let mut rest = flat;
        for i in (0..rank).rev() {
            idx[i] = rest % out[i];
            rest /= out[i];
        }
        let pick = |t: &DynTensor<i64>| *t.at(&idx[rank - t.sizes().len()..]).unwrap();
        data.push(pick(a) * 1000 + pick(b));
    }
    Some((out, data))
}

fn dims(max_rank: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![Just(1usize), 0usize..4], max_rank..=max_rank)
}

fn iota(sizes: &[usize], base: i64) -> Vec<i64> {
    (0..sizes.iter().product::<usize>() as i64)
        .map(|x| x + base)
        .collect()
}

proptest! {
    /// Views zip like the reference, for random sizes including 0 and 1.
    #[test]
    fn views_zip_like_the_reference(sa in dims(3), sb in dims(2)) {
        let a = Tensor::<i64, shape![?, ?, ?]>::from_vec_sized(&sa, iota(&sa, 0)).unwrap();
        let b = Tensor::<i64, shape![?, ?]>::from_vec_sized(&sb, iota(&sb, 500)).unwrap();
        let got = a.view().try_zip_with(&b.view(), |x, y| x * 1000 + y);
        let want = numpy_reference(&a.to_dyn(), &b.to_dyn());
        match (got, want) {
            (Ok(t), Some((sizes, data))) => {
                prop_assert_eq!(t.sizes(), &sizes[..]);
                prop_assert_eq!(t.data(), &data[..]);
            }
            (Err(_), None) => {}
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got.map(|t| t.into_vec()), want),
        }
    }

    /// `DynTensor` zips like the reference on both sides of the rank where the run-time
    /// engine's working arrays change length (8).
    #[test]
    fn dyn_tensors_zip_like_the_reference_around_rank_8(
        ra in 6usize..=10,
        rb in 1usize..=10,
        seed in prop::collection::vec(prop_oneof![Just(1usize), 1usize..3], 20),
    ) {
        let (sa, sb) = (&seed[..ra], &seed[20 - rb..]);
        let make = |s: &[usize], base| {
            DynTensor::from_vec(DynShape::from_sizes(s).unwrap(), iota(s, base)).unwrap()
        };
        let (a, b) = (make(sa, 0), make(sb, 500));
        let got = a.zip_with(Rule::Numpy, &b, |x, y| x * 1000 + y);
        match (got, numpy_reference(&a, &b)) {
            (Ok(t), Some((sizes, data))) => {
                prop_assert_eq!(t.sizes(), &sizes[..]);
                prop_assert_eq!(t.data(), &data[..]);
            }
            (Err(_), None) => {}
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got.map(|t| t.data().to_vec()), want),
        }
    }

    /// A broadcast view (stride 0) zips like the data copied out of it, and like the
    /// reference against the original.
    #[test]
    fn broadcast_views_are_the_broadcast_data(sa in dims(2), target in dims(3), sb in dims(3)) {
        let a = Tensor::<i64, shape![?, ?]>::from_vec_sized(&sa, iota(&sa, 0)).unwrap();
        let zeros = DynTensor::full(format!("{target:?}").parse().unwrap(), 0i64).unwrap();
        let Ok(wide) = a.view().broadcast_to_sized::<shape![?, ?, ?]>(&target) else {
            prop_assert!(numpy_reference(&a.to_dyn(), &zeros).is_none());
            return Ok(());
        };
        let copied = wide.to_tensor();
        let (sizes, data) = numpy_reference(&a.to_dyn(), &zeros).unwrap();
        prop_assert_eq!(copied.sizes(), &sizes[..]);
        prop_assert_eq!(copied.data().iter().map(|x| x * 1000).collect::<Vec<_>>(), data);
        let b = Tensor::<i64, shape![?, ?, ?]>::from_vec_sized(&sb, iota(&sb, 500)).unwrap();
        let from_view = wide.try_zip_with(&b.view(), |x, y| x - y);
        let from_copy = copied.view().try_zip_with(&b.view(), |x, y| x - y);
        prop_assert_eq!(from_view.map(|t| t.into_vec()).ok(), from_copy.map(|t| t.into_vec()).ok());
    }

    /// A permuted view (align_to) zips like the data transposed by hand.
    #[test]
    fn permuted_views_are_the_transposed_data(h in 0usize..4, w in 0usize..4) {
        let a = Tensor::<i64, shape![H, W]>::from_fn(&[h, w], |i| (i[0] * 10 + i[1]) as i64).unwrap();
        let t = a.align_to::<shape![W, H]>().unwrap();
        prop_assert_eq!(t.sizes(), &[w, h][..]);
        let by_hand = Tensor::<i64, shape![W, H]>::from_fn(&[w, h], |i| (i[1] * 10 + i[0]) as i64).unwrap();
        let copied = t.to_tensor();
        prop_assert_eq!(copied.data(), by_hand.data());
        let b = Tensor::<i64, shape![?]>::from_vec_sized(&[h], iota(&[h], 0)).unwrap();
        let sum = t.try_zip_with(&b.view(), |x, y| x + y).unwrap();
        let want = by_hand.view().try_zip_with(&b.view(), |x, y| x + y).unwrap();
        prop_assert_eq!(sum.data(), want.data());
    }
}

#[test]
fn the_seeds_img_plus_lbl_on_views_and_tensors() {
    names!(N);
    let img = Tensor::<f32, shape![N, C: 3, H, W]>::from_fn(&[2, 3, 2, 2], |i| (i[1] * 100) as f32)
        .unwrap();
    let lbl =
        Tensor::<f32, shape![N, H, W]>::from_fn(&[2, 2, 2], |i| (i[1] * 10 + i[2]) as f32).unwrap();
    let by_ops = &img + &lbl;
    let by_views = img.view() + lbl.view();
    assert_eq!(by_ops.data(), by_views.data());
    assert_eq!(*by_ops.at(&[0, 2, 1, 1]).unwrap(), 211.0);
}

#[test]
fn align_to_refuses_what_is_not_a_permutation() {
    let a = Tensor::<i32, shape![H: 1, W: 3]>::from_vec(vec![1, 2, 3]).unwrap();
    // H: 1 would have to stretch to 2: a broadcast, not a permutation.
    let err = a.align_to::<shape![W: 3, H: 2]>().unwrap_err();
    assert!(err.to_string().contains("do not fit"), "{err}");
    let d = Tensor::<i32, shape![?, W: 3]>::from_vec_sized(&[2, 3], vec![0; 6]).unwrap();
    assert!(d.align_to::<shape![W: 3, 2]>().is_ok());
    assert!(d.align_to::<shape![W: 3, 4]>().is_err());
}

#[test]
fn writable_views_assign_and_permute() {
    let mut t = Tensor::<i32, shape![H: 2, W: 3]>::zeros().unwrap();
    let col = Tensor::<i32, shape![H: 2, W: 1]>::from_vec(vec![1, 2]).unwrap();
    t.view_mut().assign(&col.view()).unwrap();
    assert_eq!(t.data(), &[1, 1, 1, 2, 2, 2]);
    let row = Tensor::<i32, shape![H: 2]>::from_vec(vec![7, 8]).unwrap();
    // Write H along the permuted view's last axis.
    let mut p = t.view_mut().align_to::<shape![W: 3, H: 2]>().unwrap();
    p.assign(&row.view()).unwrap();
    assert_eq!(t.data(), &[7, 7, 7, 8, 8, 8]);
    let mut d = Tensor::<i32, shape![?]>::zeros_sized(&[2]).unwrap();
    let three = Tensor::<i32, shape![?]>::ones_sized(&[3]).unwrap();
    assert!(d.view_mut().assign(&three.view()).is_err());
    assert_eq!(d.data(), &[0, 0], "untouched on error");
}

#[test]
fn narrowing_keeps_dyn_axes_and_gives_the_element() {
    let t =
        Tensor::<i32, shape![1, ?, C: 1, 2]>::from_vec_sized(&[1, 1, 1, 2], vec![5, 6]).unwrap();
    let n: Tensor<i32, shape![?, 2]> = t.narrow();
    assert_eq!((n.sizes(), n.data()), (&[1, 2][..], &[5, 6][..]));
    let s = Tensor::<i32, shape![]>::from_array(9);
    let x: i32 = s.narrow();
    assert_eq!(x, 9);
    let nested =
        Tensor::<Tensor<i32, shape![1, 2]>, shape![1]>::from_array([Tensor::from_array([[1, 2]])]);
    // Only the outer level goes.
    let inner: Tensor<i32, shape![1, 2]> = nested.narrow();
    assert_eq!(inner.sizes(), &[1, 2]);
}

#[test]
fn nested_tensors_broadcast_outer_then_inner() {
    // rule book §13: tensor<tensor<int, 3>, 3, 3> is not 3x3x3.
    type Cell = Tensor<i32, shape![3]>;
    let a = Tensor::<Cell, shape![3, 3]>::from_fn(&[3, 3], |i| {
        Tensor::from_vec(vec![(i[0] * 10 + i[1]) as i32; 3]).unwrap()
    })
    .unwrap();
    // A scalar element facing a tensor element broadcasts into it.
    let b = Tensor::<i32, shape![3]>::from_vec(vec![100, 200, 300]).unwrap();
    let c = &a + &b;
    assert_eq!(c.sizes(), &[3, 3]);
    assert_eq!(c.at(&[1, 2]).unwrap().data(), &[312, 312, 312]);
    // Tensor elements meet tensor elements, with the inner shapes broadcasting too.
    let d = Tensor::<Tensor<i32, shape![2, 1]>, shape![3]>::from_fn(&[3], |i| {
        Tensor::from_vec(vec![i[0] as i32, -(i[0] as i32)]).unwrap()
    })
    .unwrap();
    let e = &a + &d; // outer [3, 3] + [3]; inner [3] + [2, 1] = [2, 3]
    let cell: &Tensor<i32, shape![2, 3]> = e.at(&[2, 1]).unwrap();
    assert_eq!(cell.data(), &[22, 22, 22, 20, 20, 20]);
    // The same through the typed result of a scalar on the right of each cell.
    let f = a.clone() * Tensor::<i32, shape![]>::from_array(2);
    assert_eq!(f.at(&[2, 2]).unwrap().data(), &[44, 44, 44]);
}

#[test]
fn constructors_and_accessors() {
    let t = Tensor::<f32, shape![H: 2, W: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(t.iter().sum::<f32>(), 10.0);
    assert_eq!(
        Tensor::<f32, shape![2, 2]>::ones().unwrap().data(),
        &[1.0; 4]
    );
    assert!(Tensor::<f32, shape![?, 2]>::ones().is_err());
    let deep =
        Tensor::<u8, shape![1, 2, 1, 2, 1, 1]>::from_array([[[[[[1]], [[2]]]], [[[[3]], [[4]]]]]]);
    assert_eq!(deep.data(), &[1, 2, 3, 4]);
    let mut m = t.clone();
    m.data_mut()[3] = 0.0;
    assert_eq!(m.into_vec(), vec![1.0, 2.0, 3.0, 0.0]);
    let d = DynTensor::from_vec("[2]".parse().unwrap(), vec![1, 2]).unwrap();
    assert!(d.zip_with(Rule::Numpy, &d, |x, y| x + y).is_ok());
}

#[test]
fn small_static_tensors_live_inline() {
    use shapecast::INLINE_MAX;
    // Sixteen f32 inline plus one size per axis: no pointer to a heap buffer.
    let size = core::mem::size_of::<Tensor<f32, shape![4, 4]>>();
    assert_eq!(size, 16 * 4 + 2 * core::mem::size_of::<usize>());
    let big = core::mem::size_of::<Tensor<f32, shape![1024, 1024]>>();
    assert_eq!(
        big,
        core::mem::size_of::<Vec<f32>>() + 2 * core::mem::size_of::<usize>()
    );
    assert_eq!(INLINE_MAX, 64);
    // Inline and heap tensors meet in one operation.
    let small = Tensor::<f32, shape![4]>::from_array([1.0, 2.0, 3.0, 4.0]);
    let large = Tensor::<f32, shape![?, 4]>::ones_sized(&[100, 4]).unwrap();
    let sum = &large + &small;
    assert_eq!(sum.at(&[99, 3]).unwrap(), &5.0);
    let mut out = Tensor::<f32, shape![4, 4]>::zeros().unwrap();
    Tensor::add_into(
        &Tensor::<f32, shape![4, 4]>::ones().unwrap(),
        &small,
        &mut out,
    )
    .unwrap();
    assert_eq!(&out.data()[12..], &[2.0, 3.0, 4.0, 5.0]);
}

/// The same operands with static shapes (the compile-time layout) and with `?` shapes (the
/// run-time plan) give the same tensors.
macro_rules! static_agrees_with_dynamic {
    ($rule:ty, [$($a:tt)*] = [$($ad:tt)*] $asz:expr_2021, [$($b:tt)*] = [$($bd:tt)*] $bsz:expr_2021) => {{
        let (asz, bsz): (&[usize], &[usize]) = (&$asz, &$bsz);
        let sa = Tensor::<i64, shape![$($a)*]>::from_fn(asz, |i| i.iter().fold(0, |x, &k| x * 10 + k as i64)).unwrap();
        let sb = Tensor::<i64, shape![$($b)*]>::from_fn(bsz, |i| i.iter().fold(0, |x, &k| x * 10 + k as i64) * 1000).unwrap();
        let da = Tensor::<i64, shape![$($ad)*]>::from_vec_sized(asz, sa.data().to_vec()).unwrap();
        let db = Tensor::<i64, shape![$($bd)*]>::from_vec_sized(bsz, sb.data().to_vec()).unwrap();
        let s = sa.zip_with_rule::<$rule, _, _, _>(&sb, |x, y| x + y).unwrap();
        let d = da.zip_with_rule::<$rule, _, _, _>(&db, |x, y| x + y).unwrap();
        assert_eq!((s.sizes(), s.data()), (d.sizes(), d.data()), "{}", stringify!($rule));
    }};
}

#[test]
fn static_layouts_agree_with_run_time_plans() {
    use shapecast::rule::{Assign, Bidirectional, Embed, Named, Numpy, Outer, Pdpd, Start, Strict};
    static_agrees_with_dynamic!(Numpy, [4, 4] = [?, ?] [4, 4], [4] = [?] [4]);
    static_agrees_with_dynamic!(Numpy, [2, 1, 3] = [?, ?, ?] [2, 1, 3], [4, 1] = [?, ?] [4, 1]);
    static_agrees_with_dynamic!(Numpy, [3, 1] = [?, ?] [3, 1], [1, 5] = [?, ?] [1, 5]);
    static_agrees_with_dynamic!(Numpy, [] = [] [], [2, 3] = [?, ?] [2, 3]);
    static_agrees_with_dynamic!(Numpy, [0, 3] = [?, ?] [0, 3], [3] = [?] [3]);
    static_agrees_with_dynamic!(Named, [H: 2, W: 3] = [H, W] [2, 3], [W: 3, H: 1] = [W, H] [3, 1]);
    static_agrees_with_dynamic!(Named, [C: 3, H: 2, W: 2] = [C, H, W] [3, 2, 2], [W: 2, 1] = [W, ?] [2, 1]);
    static_agrees_with_dynamic!(Outer, [H: 2] = [H] [2], [W: 3] = [W] [3]);
    // With `?` sizes the embedding is chosen from what the types say, so keep it unambiguous.
    static_agrees_with_dynamic!(Embed, [2, 3, 4] = [2, 3, ?] [2, 3, 4], [2, 4] = [2, 4] [2, 4]);
    static_agrees_with_dynamic!(Strict, [2, 3] = [?, ?] [2, 3], [2, 3] = [?, ?] [2, 3]);
    static_agrees_with_dynamic!(Bidirectional, [3, 1] = [?, ?] [3, 1], [2, 1, 6] = [?, ?, ?] [2, 1, 6]);
    static_agrees_with_dynamic!(Assign, [2, 3] = [?, ?] [2, 3], [1, 3] = [?, ?] [1, 3]);
    static_agrees_with_dynamic!(Pdpd<Start<1>>, [2, 3, 4] = [?, ?, ?] [2, 3, 4], [3, 1] = [?, 1] [3, 1]);
}

#[test]
fn a_run_time_one_does_not_stretch_under_the_static_rule() {
    use shapecast::rule::Static;
    // rule book §7: a `?` axis must equal its partner even when it turns out to be 1.
    let one = Tensor::<i32, shape![?, 3]>::from_vec_sized(&[1, 3], vec![1, 2, 3]).unwrap();
    let m = Tensor::<i32, shape![?, 3]>::zeros_sized(&[3, 3]).unwrap();
    assert!(one
        .zip_with_rule::<Static, _, _, _>(&m, |x, y| x + y)
        .is_err());
    // A static 1 does stretch.
    let row = Tensor::<i32, shape![1, 3]>::from_array([[1, 2, 3]]);
    let sum = row
        .zip_with_rule::<Static, _, _, _>(&m, |x, y| x + y)
        .unwrap();
    assert_eq!(sum.data(), &[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    // The named rule lets the run-time 1 stretch.
    assert_eq!((&one + &m).sizes(), &[3, 3]);
}

proptest! {
    /// Typed tensors with `?` sizes run on the plan their types carry and check the sizes
    /// alone; the run-time engine on the same shapes as written (`?` and all, then resolved)
    /// must agree on every outcome, refusals included, under the rules whose checks differ
    /// (named, static, assign, strict), and on the values.
    #[test]
    fn run_time_sizes_on_the_typed_plan_agree_with_the_engine(n in 0usize..4, m in 0usize..4, k in 0usize..4) {
        use shapecast::rule::{Assign, Named, Static, Strict};
        let a = Tensor::<i64, shape![?, ?]>::from_fn(&[n, m], |i| (i[0] * 10 + i[1]) as i64).unwrap();
        let b = Tensor::<i64, shape![?]>::from_fn(&[k], |i| i[0] as i64 * 100).unwrap();
        let c = Tensor::<i64, shape![?, ?]>::from_fn(&[k, m], |i| i[1] as i64).unwrap();
        let written = |s: &str| -> shapecast::DynShape { s.parse().unwrap() };
        let check = |typed: Result<Vec<i64>, shapecast::Error>, rule: Rule, rhs: &DynTensor<i64>, rhs_written: &str| {
            let verdict = shapecast::broadcast(rule, &written("[?, ?]"), &written(rhs_written))
                .unwrap()
                .resolve(&[n, m], rhs.sizes());
            match (typed, verdict) {
                (Ok(t), Ok(_)) => {
                    let engine = a.to_dyn().zip_with(rule, rhs, |x, y| x + y).unwrap();
                    assert_eq!(t, engine.data(), "{rule}: [{n}, {m}] with {:?}", rhs.sizes());
                }
                (Err(t), Err(e)) => assert_eq!(t.to_string(), e.to_string()),
                (t, e) => panic!("{rule}: [{n}, {m}] with {:?}: typed {t:?}, engine {e:?}", rhs.sizes()),
            }
        };
        let (db, dc) = (b.to_dyn(), c.to_dyn());
        check(a.zip_with_rule::<Named, _, _, _>(&b, |x, y| x + y).map(|t| t.into_vec()), Rule::Named, &db, "[?]");
        check(a.zip_with_rule::<Static, _, _, _>(&b, |x, y| x + y).map(|t| t.into_vec()), Rule::Static, &db, "[?]");
        check(a.zip_with_rule::<Assign, _, _, _>(&b, |x, y| x + y).map(|t| t.into_vec()), Rule::Assign, &db, "[?]");
        check(a.zip_with_rule::<Strict, _, _, _>(&c, |x, y| x + y).map(|t| t.into_vec()), Rule::Strict, &dc, "[?, ?]");
        // add_into on the same path, leaving the output untouched on error.
        let mut out = Tensor::<i64, shape![?, ?]>::from_vec_sized(&[1, 1], vec![7]).unwrap();
        match Tensor::add_into(&a, &b, &mut out) {
            Ok(()) => assert_eq!(out.data(), a.to_dyn().zip_with(Rule::Named, &db, |x, y| x + y).unwrap().data()),
            Err(_) => assert_eq!(out.data(), &[7]),
        }
    }
}

#[test]
fn an_owned_left_operand_of_the_output_shape_lends_its_buffer() {
    let a = Tensor::<f32, shape![?, ?]>::from_fn(&[3, 4], |i| (i[0] * 4 + i[1]) as f32).unwrap();
    let b = Tensor::<f32, shape![?]>::from_fn(&[4], |i| i[0] as f32 * 10.0).unwrap();
    let want = &a + &b;
    let at = a.data().as_ptr();
    let c = a + &b;
    assert_eq!(c, want);
    assert_eq!(c.data().as_ptr(), at, "the left's buffer is reused");
    // Named: [W, H] + [H] writes into the left; [H] + [W, H] cannot (it grows).
    names!(X, Y);
    let l =
        Tensor::<i32, shape![X: 2, Y: 3]>::from_fn(&[2, 3], |i| (i[0] * 3 + i[1]) as i32).unwrap();
    let r = Tensor::<i32, shape![Y: 3]>::from_array([100, 200, 300]);
    let want = &l - &r;
    assert_eq!(l.clone() - r.clone(), want);
    let grown = r.clone() - &l;
    assert_eq!(grown, &r - &l);
    // A `?` size that does not fit still panics with the refusal, not a wrong answer.
    let short = Tensor::<f32, shape![?]>::from_vec_sized(&[5], vec![0.0; 5]).unwrap();
    let a = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[3, 4], vec![0.0; 12]).unwrap();
    let result = std::panic::catch_unwind(move || a + short);
    assert!(result.is_err());
}

#[test]
fn operator_panics_name_the_callers_line() {
    let a = Tensor::<f32, shape![?]>::from_vec_sized(&[2], vec![1.0, 2.0]).unwrap();
    let b = Tensor::<f32, shape![?]>::from_vec_sized(&[3], vec![1.0; 3]).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    // The hook is the process's: other tests running beside this one may panic too, so only
    // this thread's panic is reported.
    let this = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == this {
            let location = info.location().map(|l| (l.file().to_string(), l.line()));
            let _ = tx.send(location);
        }
    }));
    let line = line!() + 1;
    let result = std::panic::catch_unwind(|| &a + &b);
    let _ = std::panic::take_hook();
    assert!(result.is_err());
    assert_eq!(rx.recv().unwrap(), Some((file!().to_string(), line)));
}
