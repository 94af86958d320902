//! `topk` by name against the definition (PyTorch's defaults: the `k` largest along the axis,
//! largest first, equal values in index order, NaN the largest), on tensors, views and
//! `DynTensor`.

use proptest::prelude::*;
use shapecast::{names, shape, DynTensor, Reductions, Tensor};

names!(A, B, C);

/// Each line along `axis`, its (value, index) pairs sorted largest first, the first `k`.
fn naive(x: &[f64], sizes: &[usize], axis: usize, k: usize) -> (Vec<f64>, Vec<usize>) {
    let strides = [sizes[1] * sizes[2], sizes[2], 1];
    let mut out_sizes = sizes.to_vec();
    out_sizes[axis] = k;
    let total: usize = out_sizes.iter().product();
    let (mut values, mut indices) = (vec![0.0; total], vec![0; total]);
    for i in 0..out_sizes[0] {
        for j in 0..out_sizes[1] {
            for l in 0..out_sizes[2] {
                let mut at = [i, j, l];
                let rank = at[axis];
                let mut line: Vec<(f64, usize)> = (0..sizes[axis])
                    .map(|p| {
                        at[axis] = p;
                        (x[at[0] * strides[0] + at[1] * strides[1] + at[2]], p)
                    })
                    .collect();
                line.sort_by(|a, b| {
                    match (a.0.is_nan(), b.0.is_nan()) {
                        (true, false) => std::cmp::Ordering::Less,
                        (false, true) => std::cmp::Ordering::Greater,
                        (true, true) => std::cmp::Ordering::Equal,
                        _ => b.0.partial_cmp(&a.0).unwrap(),
                    }
                    .then(a.1.cmp(&b.1))
                });
                let to = (i * out_sizes[1] + j) * out_sizes[2] + l;
                values[to] = line[rank].0;
                indices[to] = line[rank].1;
            }
        }
    }
    (values, indices)
}

proptest! {
    #[test]
    fn topk_follows_the_definition(
        sizes in proptest::collection::vec(1usize..6, 3),
        axis in 0usize..3,
        k in 0usize..6,
        seed in 0u64..1000,
        nan_at in proptest::option::of(0usize..200),
    ) {
        let n: usize = sizes.iter().product();
        let k = k.min(sizes[axis]);
        // Few distinct values, so ties are common; maybe one NaN.
        let mut x: Vec<f64> = (0..n).map(|i| ((i as u64 * 31 + seed) % 5) as f64).collect();
        if let Some(at) = nan_at.filter(|&at| at < n) {
            x[at] = f64::NAN;
        }
        let t = Tensor::<f64, shape![A, B, C]>::from_vec_sized(&sizes, x.clone()).unwrap();
        let (values, indices) = match axis {
            0 => { let (v, i) = t.topk::<A>(k).unwrap(); (v.into_vec(), i.into_vec()) }
            1 => { let (v, i) = t.view().topk::<B>(k).unwrap(); (v.into_vec(), i.into_vec()) }
            _ => { let (v, i) = t.topk::<C>(k).unwrap(); (v.into_vec(), i.into_vec()) }
        };
        let (want_v, want_i) = naive(&x, &sizes, axis, k);
        prop_assert_eq!(&indices, &want_i);
        let same = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(p, q)| p == q || (p.is_nan() && q.is_nan()));
        prop_assert!(same(&values, &want_v));
        let d = t.to_dyn();
        let (dv, di) = d.topk(&["A", "B", "C"][axis].parse().unwrap(), k).unwrap();
        prop_assert_eq!(di.data(), &want_i[..]);
        prop_assert!(same(dv.data(), &want_v));
    }
}

#[test]
fn more_than_the_axis_holds_is_an_error_naming_it() {
    let t = Tensor::<f32, shape![A: 3]>::full(0.0).unwrap();
    let err = t.topk::<A>(4).unwrap_err().to_string();
    assert!(err.contains("topk 4 along A of [A: 3]"), "{err}");
    let d = DynTensor::from_vec("[A: 3]".parse().unwrap(), vec![0.0f32; 3]).unwrap();
    assert!(d.topk(&"B".parse().unwrap(), 1).is_err());
}
