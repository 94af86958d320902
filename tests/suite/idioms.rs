//! The idioms that let the types catch mistakes: a scalar on the left, an axis' size by name,
//! a tensor built from a function of its index by name; each against a naive reference.

use shapecast::{names, shape, Pos, Tensor};

names!(BATCH, SEQ, KSEQ, DK, ROW, COL);

/// A few values with signs, zeros and fractions.
fn wave(n: usize) -> Vec<f64> {
    (0..n).map(|k| ((k * 7 % 11) as f64 - 5.0) / 4.0).collect()
}

#[test]
fn a_scalar_on_the_left_is_each_operator_elementwise() {
    let x = wave(24);
    let t =
        Tensor::<f64, shape![BATCH, SEQ: 4, DK: 3]>::from_vec_sized(&[2, 4, 3], x.clone()).unwrap();
    type Case = (
        &'static str,
        Tensor<f64, shape![BATCH, SEQ: 4, DK: 3]>,
        fn(f64) -> f64,
    );
    let cases: [Case; 5] = [
        ("0.5 * t", 0.5 * &t, |v| 0.5 * v),
        ("1 - t", 1.0 - &t, |v| 1.0 - v),
        ("2 + t", 2.0 + t.clone(), |v| 2.0 + v),
        ("3 / t", 3.0 / t.clone(), |v| 3.0 / v),
        ("7 % t", 7.0 % &t, |v| 7.0 % v),
    ];
    for (what, got, f) in cases {
        assert_eq!(got.sizes(), &[2, 4, 3], "{what}");
        for (g, v) in got.data().iter().zip(&x) {
            let want = f(*v);
            assert!(
                g == &want || (g.is_nan() && want.is_nan()),
                "{what}: {g} against {want}"
            );
        }
    }
    // Integers, inline storage, and the same tensor on both sides of a sum.
    let i = Tensor::<i64, shape![ROW: 2, COL: 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    assert_eq!((10 - &i).data(), &[9, 8, 7, 6, 5, 4]);
    assert_eq!((2 * i.clone() + &i).data(), &[3, 6, 9, 12, 15, 18]);
    assert_eq!(
        (7u8 % Tensor::<u8, shape![3]>::from_array([2, 3, 4])).data(),
        &[1, 1, 3]
    );
}

#[test]
fn a_size_by_name_is_the_size_at_that_axis() {
    let q = Tensor::<f32, shape![BATCH, SEQ, DK: 8]>::zeros_sized(&[3, 5, 8]).unwrap();
    assert_eq!(
        (q.size::<BATCH>(), q.size::<SEQ>(), q.size::<DK>()),
        (3, 5, 8)
    );
    assert_eq!(q.size::<Pos<1>>(), 5);
    let v = q.view();
    assert_eq!(v.size::<DK>(), 8);
    let t = v.align_to::<shape![DK: 8, SEQ, BATCH]>().unwrap();
    assert_eq!((t.size::<BATCH>(), t.size::<Pos<0>>()), (3, 8));
}

/// The mask a user means: position `s` may see keys up to `s`.
fn causal(seq: usize, key: usize) -> f32 {
    if key > seq {
        f32::NEG_INFINITY
    } else {
        0.0
    }
}

#[test]
fn a_function_of_the_index_by_name_keeps_its_meaning_when_axes_are_reordered() {
    let a = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[3, 4], |i| {
        causal(i.at::<SEQ>(), i.at::<KSEQ>())
    })
    .unwrap();
    let b = Tensor::<f32, shape![KSEQ, SEQ]>::from_fn(&[4, 3], |i| {
        causal(i.at::<SEQ>(), i.at::<KSEQ>())
    })
    .unwrap();
    for s in 0..3 {
        for k in 0..4 {
            assert_eq!(*a.at(&[s, k]).unwrap(), causal(s, k));
            assert_eq!(*b.at(&[k, s]).unwrap(), causal(s, k));
        }
    }
    // Broadcast by name, the two masks are one: every sum is a mask value times two.
    let both = &a + &b;
    assert_eq!(both.sizes(), &[3, 4]);
    assert!(both.iter().zip(a.iter()).all(|(x, y)| *x == 2.0 * y));
    // Positional reading still works, and agrees with the names.
    let p = Tensor::<usize, shape![ROW: 2, COL: 3]>::from_fn(&[2, 3], |i| {
        assert_eq!((i[0], i[1]), (i.at::<ROW>(), i.at::<Pos<1>>()));
        10 * i[0] + i.at::<COL>()
    })
    .unwrap();
    assert_eq!(p.data(), &[0, 1, 2, 10, 11, 12]);
}
