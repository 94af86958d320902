//! Shape surgery on data (rule book §18): typed views against naive loops, views of views
//! (select of a transposed view, slice of a broadcast view, split of a strided view), zero
//! sizes, what copies and what does not, run-time refusals, and the typed operations against
//! their `DynTensor` twins on random sizes.
// `shape![...]` writes tuple types, which clippy scores as complex.
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use shapecast::dynamic::reduce::AxisSelector;
use shapecast::{concat, names, shape, stack, DynTensor, Tensor, TensorView, Unnamed, S};

names!(N, C, H, W, T, F, A, B, HW, PH, H4);

fn grid(sizes: &[usize]) -> Tensor<i64, shape![A, B, C]> {
    Tensor::from_fn(sizes, |i| (i[0] * 100 + i[1] * 10 + i[2]) as i64).unwrap()
}

#[test]
fn select_of_a_transposed_view() {
    let x = grid(&[2, 3, 4]);
    let t = x.view().align_to::<shape![C, A, B]>().unwrap();
    // C is now first; select B = 2: [C, A], element (c, a) = x[a, 2, c].
    let s = t.select::<B>(2).unwrap();
    assert_eq!(s.sizes(), &[4, 2]);
    for c in 0..4 {
        for a in 0..2 {
            assert_eq!(*s.at(&[c, a]).unwrap(), (a * 100 + 20 + c) as i64);
        }
    }
    assert!(t.select::<B>(3).is_err());
}

#[test]
fn slice_of_a_broadcast_view() {
    let row = Tensor::<i64, shape![W: 4]>::from_vec(vec![1, 2, 3, 4]).unwrap();
    let wide = row.broadcast_to::<shape![H: 3, W: 4]>().unwrap();
    let s = wide.slice::<W>(1..3).unwrap();
    assert_eq!(s.strides(), &[0, 1]);
    assert_eq!(s.to_tensor().data(), &[2, 3, 2, 3, 2, 3]);
    let h = wide.slice::<H>(..2).unwrap();
    assert_eq!(h.to_tensor().data(), &[1, 2, 3, 4, 1, 2, 3, 4]);
}

#[test]
fn split_of_a_strided_view_and_merge_back() {
    let x = Tensor::<i64, shape![HW: 6, C: 2]>::from_fn(&[6, 2], |i| (i[0] * 10 + i[1]) as i64)
        .unwrap();
    // The transposed view [C, HW] has HW with stride 2.
    let t = x.view().align_to::<shape![C: 2, HW: 6]>().unwrap();
    let s = t.split_axis::<HW, (PH<S<3>>, H4<S<2>>)>().unwrap();
    assert_eq!((s.sizes(), s.strides()), (&[2, 3, 2][..], &[1, 4, 2][..]));
    for c in 0..2 {
        for p in 0..3 {
            for h in 0..2 {
                assert_eq!(*s.at(&[c, p, h]).unwrap(), ((p * 2 + h) * 10 + c) as i64);
            }
        }
    }
    // PH and H4 still walk memory with one stride: merging them back is a view.
    let m = s.merge_axes::<(PH, H4), HW<S<6>>>().unwrap();
    assert!(m.is_view());
    assert_eq!(m.view().to_tensor(), t.to_tensor());
    // C and PH do not: merging them copies, in row-major order of the view.
    let m = s.merge_axes::<(C, PH), Unnamed>().unwrap();
    assert!(!m.is_view());
    let naive: Vec<i64> = (0..2)
        .flat_map(|c| (0..3).flat_map(move |p| (0..2).map(move |h| ((p * 2 + h) * 10 + c) as i64)))
        .collect();
    assert_eq!(m.view().to_tensor().data(), &naive[..]);
}

#[test]
fn zero_sizes() {
    let x = grid(&[2, 0, 3]);
    assert_eq!(x.select::<A>(1).unwrap().sizes(), &[0, 3]);
    assert!(x.select::<B>(0).is_err());
    let e = x.slice::<C>(1..1).unwrap();
    assert_eq!(e.sizes(), &[2, 0, 0]);
    assert_eq!(e.to_tensor().data(), &[] as &[i64]);
    let y = grid(&[2, 3, 4]);
    let empty = y.slice::<C>(4..).unwrap();
    assert_eq!(empty.sizes(), &[2, 3, 0]);
    // A zero-size axis splits into a zero part and a found part of any size… of its own:
    let z = Tensor::<i64, shape![HW, C: 2]>::from_vec_sized(&[0, 2], vec![]).unwrap();
    let s = z.split_axis::<HW, (PH<S<0>>, H4<S<5>>)>().unwrap();
    assert_eq!(s.sizes(), &[0, 5, 2]);
    // …but a `?` part of a zero-size axis cannot be found.
    assert!(z.split_axis::<HW, (PH<S<0>>, H4)>().is_err());
    let c = concat::<A, _, _>(&[x.view(), x.view()]).unwrap();
    assert_eq!(c.sizes(), &[4, 0, 3]);
    let s = stack::<N, _, _>(&[x.view()]).unwrap();
    assert_eq!(s.sizes(), &[1, 2, 0, 3]);
}

#[test]
fn rename_and_insert_move_the_buffer() {
    let x = Tensor::<f32, shape![?, C: 3]>::from_vec_sized(&[100, 3], vec![1.0; 300]).unwrap();
    let p = x.data().as_ptr();
    let r = x.rename::<C, F>();
    assert_eq!(r.data().as_ptr(), p);
    assert_eq!(r.shape().to_string(), "[100, F: 3]");
    let i = r.insert_axis::<1, T>();
    assert_eq!(i.data().as_ptr(), p);
    assert_eq!(i.shape().to_string(), "[100, T: 1, F: 3]");
    // The inserted axis broadcasts by name like any other.
    let w = Tensor::<f32, shape![T: 4]>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    let sum = &i + &w;
    assert_eq!(sum.shape().to_string(), "[100, T: 4, F: 3]");
    assert_eq!(*sum.at(&[0, 3, 2]).unwrap(), 5.0);
}

#[test]
fn split_and_merge_check_question_marks_at_run_time() {
    let x = Tensor::<i64, shape![HW, C: 2]>::from_vec_sized(&[6, 2], (0..12).collect()).unwrap();
    let s = x.split_axis::<HW, (PH<S<2>>, H4)>().unwrap();
    assert_eq!(s.sizes(), &[2, 3, 2]);
    let err = x.split_axis::<HW, (PH<S<4>>, H4)>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot split HW of [HW: 6, C: 2] into [PH: 4, H4]: the static parts (4 elements) do not divide the axis' size 6"
    );
    assert!(x.split_axis::<HW, (PH, H4)>().is_err());
    // A merged size written statically meets `?` sizes here.
    let y = Tensor::<i64, shape![A, B]>::from_vec_sized(&[2, 3], (0..6).collect()).unwrap();
    assert_eq!(y.merge_axes::<(A, B), HW<S<6>>>().unwrap().sizes(), &[6]);
    let err = y.merge_axes::<(A, B), HW<S<7>>>().unwrap_err();
    assert!(err.to_string().contains("they hold 6 elements"), "{err}");
}

#[test]
fn concat_aligns_by_name_and_checks_question_marks() {
    let a = Tensor::<i64, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![1, 2]).unwrap();
    let b = Tensor::<i64, shape![F: 2, T]>::from_vec_sized(&[2, 2], vec![3, 5, 4, 6]).unwrap();
    let c = a.concat::<T, _>(&b).unwrap();
    assert_eq!(c.shape().to_string(), "[T: 3, F: 2]");
    assert_eq!(c.data(), &[1, 2, 3, 4, 5, 6]);
    // A written size must be the sum.
    let d: Tensor<i64, shape![T: 3, F: 2]> = a.concat::<T<S<3>>, _>(&b).unwrap();
    assert_eq!(
        d,
        c.rename::<T, T>()
            .concat::<T<S<3>>, _>(&Tensor::<i64, shape![T: 0, F: 2]>::from_vec(vec![]).unwrap())
            .unwrap()
    );
    assert!(a.concat::<T<S<4>>, _>(&b).is_err());
    // `?` sizes of other axes must agree at run time.
    let p = Tensor::<i64, shape![T: 1, F]>::from_vec_sized(&[1, 2], vec![0, 0]).unwrap();
    let q = Tensor::<i64, shape![T: 1, F]>::from_vec_sized(&[1, 3], vec![0, 0, 0]).unwrap();
    let err = p.concat::<T, _>(&q).unwrap_err();
    assert!(
        err.to_string()
            .contains("axis 1 has size 2 on the left and 3 on the right"),
        "{err}"
    );
}

#[test]
fn run_time_refusals_say_what_is_wrong() {
    let x = DynTensor::from_vec("[C: 3, H: 2]".parse().unwrap(), vec![1, 2, 3, 4, 5, 6]).unwrap();
    let err = x.select(&"C".parse().unwrap(), 3).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot select index 3 along C of [C: 3, H: 2]: axis 0 has size 3"
    );
    let err = x.slice(&"H".parse().unwrap(), 1..4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot slice H of [C: 3, H: 2] to 1..4: axis 1 has size 2"
    );
    let err = x.select(&"W".parse().unwrap(), 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot select along W of [C: 3, H: 2]: [C: 3, H: 2] has no axis W"
    );
    let t = Tensor::<i64, shape![C: 3, H: 2]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
    let err = t.slice::<H>(1..=2).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot slice H of [C: 3, H: 2] to 1..=2: axis 1 has size 2"
    );
}

/// Typed views and `DynTensor` on the same sizes, against each other and a naive gather.
fn naive(
    x: &Tensor<i64, shape![A, B, C]>,
    sizes: &[usize],
    at: impl Fn(&[usize]) -> Vec<usize>,
) -> Vec<i64> {
    let mut out = Vec::new();
    let n: usize = sizes.iter().product();
    for flat in 0..n {
        let mut idx = vec![0; sizes.len()];
        let mut rest = flat;
        for k in (0..sizes.len()).rev() {
            idx[k] = rest % sizes[k];
            rest /= sizes[k];
        }
        out.push(*x.at(&at(&idx)).unwrap());
    }
    out
}

proptest! {
    #[test]
    fn typed_and_run_time_surgery_agree(
        a in 0usize..4, b in 0usize..4, c in 0usize..5, i in 0usize..4, lo in 0usize..5, len in 0usize..5,
    ) {
        let x = grid(&[a, b, c]);
        let d = x.to_dyn();
        let pos = |k: usize| AxisSelector::Pos(k);
        // select B = i
        match x.select::<B>(i) {
            Ok(v) => {
                let want = naive(&x, &[a, c], |j| vec![j[0], i, j[1]]);
                prop_assert_eq!(v.to_tensor().into_vec(), want.clone());
                prop_assert_eq!(d.select(&pos(1), i).unwrap().data().to_vec(), want);
            }
            Err(_) => prop_assert!(d.select(&pos(1), i).is_err() && i >= b),
        }
        // slice C to lo..lo+len
        let hi = lo + len;
        match x.slice::<C>(lo..hi) {
            Ok(v) => {
                let want = naive(&x, &[a, b, len], |j| vec![j[0], j[1], lo + j[2]]);
                prop_assert_eq!(v.to_tensor().into_vec(), want.clone());
                prop_assert_eq!(d.slice(&pos(2), lo..hi).unwrap().data().to_vec(), want);
            }
            Err(_) => prop_assert!(d.slice(&pos(2), lo..hi).is_err() && hi > c),
        }
        // merge (B, C) of the transposed view [C, A, B] is a copy; of x, a view.
        let t = x.view().align_to::<shape![C, A, B]>().unwrap();
        let m = t.merge_axes::<(A, B), Unnamed>().unwrap();
        let want = naive(&x, &[c, a * b], |j| vec![j[1] / b.max(1), j[1] % b.max(1), j[0]]);
        prop_assert_eq!(m.view().to_tensor().into_vec(), want);
        let v: TensorView<'_, i64, shape![A, ?]> = x.merge_axes::<(B, C), Unnamed>().unwrap();
        prop_assert_eq!(v.to_tensor().into_vec(), x.data().to_vec());
        prop_assert_eq!(d.merge_axes(&[pos(1), pos(2)], None).unwrap().sizes().to_vec(), v.sizes().to_vec());
    }
}

#[test]
fn writable_select_and_slice_write_in_place() {
    let mut img =
        Tensor::<i64, shape![N, C: 3, H: 2]>::from_vec_sized(&[2, 3, 2], vec![1; 12]).unwrap();
    // Zero the second channel of every image, then the first row of the third.
    img.view_mut().select::<C>(1).unwrap().fill(0);
    img.view_mut()
        .select::<C>(2)
        .unwrap()
        .slice::<H>(..1)
        .unwrap()
        .fill(5);
    let want: Vec<i64> = (0..12)
        .map(|k| match (k / 2 % 3, k % 2) {
            (1, _) => 0,
            (2, 0) => 5,
            _ => 1,
        })
        .collect();
    assert_eq!(img.data(), &want[..]);
    // An empty axis elsewhere: nothing to write, no panic.
    let mut e = Tensor::<i64, shape![N, C: 3]>::from_vec_sized(&[0, 3], vec![]).unwrap();
    e.view_mut().select::<C>(2).unwrap().fill(9);
    assert!(e.view_mut().select::<C>(3).is_err());
}

/// `stack_at` at every position against a naive definition (out[.., p, ..] = parts[p][..]),
/// typed and at run time, on strided views; and what it refuses.
#[test]
fn stack_at_every_position_matches_the_definition() {
    use shapecast::{stack_at, DynTensor};
    names!(SA, SB, SN);
    let make = |k: i32| {
        Tensor::<i32, shape![SA: 2, SB: 3]>::from_fn(&[2, 3], |i| {
            k * 100 + (i[0] * 3 + i[1]) as i32
        })
        .unwrap()
    };
    let (a, b, c) = (make(1), make(2), make(3));
    // Transposed views, so the parts are strided.
    let views = [
        a.view().align_to::<shape![SB: 3, SA: 2]>().unwrap(),
        b.view().align_to::<shape![SB: 3, SA: 2]>().unwrap(),
        c.view().align_to::<shape![SB: 3, SA: 2]>().unwrap(),
    ];
    let parts: Vec<Tensor<i32, shape![SB: 3, SA: 2]>> =
        views.iter().map(|v| v.to_tensor()).collect();
    let naive = |at: usize| -> (Vec<usize>, Vec<i32>) {
        let mut sizes = vec![3, 2];
        sizes.insert(at, 3);
        let mut out = Vec::new();
        let mut idx = vec![0usize; 3];
        for _ in 0..18 {
            let p = idx[at];
            let mut rest = idx.clone();
            rest.remove(at);
            out.push(*parts[p].at(&rest).unwrap());
            for k in (0..3).rev() {
                idx[k] += 1;
                if idx[k] < sizes[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
        (sizes, out)
    };
    let t0 = stack_at::<0, SN, _, _>(&views).unwrap();
    let t1 = stack_at::<1, SN, _, _>(&views).unwrap();
    let t2 = stack_at::<2, SN, _, _>(&views).unwrap();
    assert_eq!(t0.shape().to_string(), "[SN: 3, SB: 3, SA: 2]");
    assert_eq!(t1.shape().to_string(), "[SB: 3, SN: 3, SA: 2]");
    assert_eq!(t2.shape().to_string(), "[SB: 3, SA: 2, SN: 3]");
    // The array of views stacked by `StackArray`: the same elements, the count static.
    {
        use shapecast::StackArray;
        let s0: Tensor<i32, shape![SN: 3, SB: 3, SA: 2]> = views.stack_at::<0, SN>().unwrap();
        let s1: Tensor<i32, shape![SB: 3, SN: 3, SA: 2]> = views.stack_at::<1, SN>().unwrap();
        let s2: Tensor<i32, shape![SB: 3, SA: 2, SN: 3]> = views.stack_at::<2, SN>().unwrap();
        let lead: Tensor<i32, shape![SN: 3, SB: 3, SA: 2]> = views.stack::<SN>().unwrap();
        assert_eq!(s0.data(), t0.data());
        assert_eq!(s1.data(), t1.data());
        assert_eq!(s2.data(), t2.data());
        assert_eq!(lead.data(), t0.data());
        // Run-time sizes that differ are refused, and so is an empty array.
        let short = Tensor::<i32, shape![SB, SA: 2]>::from_vec_sized(&[1, 2], vec![0, 0]).unwrap();
        let long = Tensor::<i32, shape![SB, SA: 2]>::from_vec_sized(&[2, 2], vec![0; 4]).unwrap();
        assert!([short.view(), long.view()].stack_at::<1, SN>().is_err());
        let none: [TensorView<'_, i32, shape![SB: 3, SA: 2]>; 0] = [];
        assert!(none.stack::<SN>().is_err());
    }
    for (at, data) in [(0, t0.data()), (1, t1.data()), (2, t2.data())] {
        let (sizes, want) = naive(at);
        assert_eq!(data, &want[..], "at {at}");
        let dyn_parts: Vec<DynTensor<i32>> = parts.iter().map(|p| p.to_dyn()).collect();
        let refs: Vec<&DynTensor<i32>> = dyn_parts.iter().collect();
        let d = DynTensor::stack_at(Some(&"SN".parse().unwrap()), at, &refs).unwrap();
        assert_eq!(
            (d.sizes(), d.data()),
            (&sizes[..], &want[..]),
            "run time at {at}"
        );
    }
    // The leading position is `stack`.
    assert_eq!(
        t0.data(),
        shapecast::stack::<SN, _, _>(&views).unwrap().data()
    );
    // Refused: no parts, sizes that differ, a position past the rank (run time).
    assert!(stack_at::<1, SN, i32, shape![SB, SA: 2]>(&[]).is_err());
    let short = Tensor::<i32, shape![SB, SA: 2]>::from_vec_sized(&[1, 2], vec![0, 0]).unwrap();
    let long = Tensor::<i32, shape![SB, SA: 2]>::from_vec_sized(&[2, 2], vec![0; 4]).unwrap();
    assert!(stack_at::<1, SN, _, _>(&[short.view(), long.view()]).is_err());
    let one = parts[0].to_dyn();
    assert!(DynTensor::stack_at(None, 3, &[&one]).is_err());
    assert!(DynTensor::stack_at(Some(&"SA".parse().unwrap()), 0, &[&one]).is_err());
}

/// The type level adds sizes on their hex digits: every carry (within a digit, into a new
/// digit, across several digits), both ends of the size table (2048 in, 2049 out), and sizes
/// of eight and nine digits, against the arithmetic. A sum past the table, or of an operand
/// past eight hex digits, is `?`; a selector's size is checked against the sum.
#[test]
fn concatenated_sizes_carry_across_hex_digits() {
    use shapecast::{Concat, Shape};
    names!(V);
    // The size table's end (`typed::size::SIZE_TABLE_MAX`).
    const TABLE: usize = 2048;
    macro_rules! sums {
        ($(($a:literal, $b:literal)),* $(,)?) => {$({
            let got = <Concat<V, shape![V: $a], shape![V: $b]> as Shape>::SIZES[0];
            let sum = $a as usize + $b as usize;
            assert_eq!(got, (sum <= TABLE).then_some(sum), "{} + {}", $a as usize, $b as usize);
        })*};
    }
    sums!(
        (0, 0),
        (1, 1),
        (7, 8),
        (15, 1),
        (8, 8),
        (255, 1),
        (16, 240),
        (1000, 1000),
        (1024, 1024),
        (2047, 1),
        (2048, 0),
        (2048, 1),
        (1, 2048),
        (4095, 1),
        (2048, 3000),
        (4096, 4096),
        (32000, 32000),
        (50257, 768),
        (65535, 65535),
        (1048575, 1),
        (268435455, 1),
        (4294967295, 1),
        (4294967296, 1),
        (1, 4294967296),
    );
    // A sum written on the selector is accepted (a wrong one is refused:
    // `ui-tests/surgery/surgery_concat_wrong_sum_at_model_sizes.rs`).
    macro_rules! written {
        ($(($a:literal, $b:literal)),* $(,)?) => {$({
            let got = <Concat<V<S<{ $a + $b }>>, shape![V: $a], shape![V: $b]> as Shape>::SIZES[0];
            assert_eq!(got, Some($a + $b));
        })*};
    }
    written!(
        (0, 0),
        (15, 1),
        (255, 1),
        (2047, 1),
        (1024, 1024),
        (32000, 32000),
        (4096, 4096)
    );
}

/// A concatenated axis at a model's sizes: the sum when it is in the size table (up to 2048),
/// `?` past it, found without arithmetic when an operand is at least 4096, and a selector's
/// size checked against the sum.
#[test]
fn concatenated_sizes_at_a_models_sizes() {
    use shapecast::Concat;
    names!(VOCAB, EMBED);
    static_assertions::assert_type_eq_all!(
        Concat<VOCAB, shape![VOCAB: 1000], shape![VOCAB: 1000]>,
        shape![VOCAB: 2000]
    );
    static_assertions::assert_type_eq_all!(
        Concat<VOCAB, shape![VOCAB: 2048], shape![VOCAB: 3000]>,
        shape![VOCAB]
    );
    static_assertions::assert_type_eq_all!(
        Concat<VOCAB, shape![EMBED: 4096, VOCAB: 32000], shape![VOCAB: 32000, EMBED: 4096]>,
        shape![EMBED: 4096, VOCAB]
    );
    static_assertions::assert_type_eq_all!(
        Concat<VOCAB<S<64000>>, shape![VOCAB: 32000], shape![VOCAB: 32000]>,
        shape![VOCAB: 64000]
    );
    static_assertions::assert_type_eq_all!(
        Concat<EMBED, shape![EMBED: 4096, VOCAB: 7], shape![EMBED, VOCAB: 7]>,
        shape![EMBED, VOCAB: 7]
    );
    // The run-time sizes agree with the types: the `?` sum is the true one.
    let a = Tensor::<u8, shape![VOCAB: 4096]>::zeros().unwrap();
    let joined = a.concat::<VOCAB, _>(&a).unwrap();
    assert_eq!(joined.sizes(), &[8192]);
}
