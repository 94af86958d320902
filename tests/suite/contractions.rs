//! Contractions on data (rule book §17) against a naive einsum reference: random shapes
//! (zero sizes, size-1 batch axes, permuted names), views with stride 0 and permuted views,
//! typed against run-time, and matmul's rank-1 promotion.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use crate::index::{indices, offset};
use proptest::prelude::*;
use shapecast::dynamic::reduce::AxisSelector;
use shapecast::{names, shape, Dot, DynAxis, DynShape, DynTensor, Reductions, Size, Tensor};

names!(BATCH, HEADS, SEQ, KSEQ, DK, DV, I, J, K);

/// The naive reference: every output index, the sum over every contracted index, each
/// operand's element by the plan (a size-1 axis ignores its index).
fn reference(
    a: &DynTensor<i64>,
    b: &DynTensor<i64>,
    plan: &shapecast::dynamic::contract::Contracted,
) -> (Vec<usize>, Vec<i64>) {
    let out = plan.resolve(a.sizes(), b.sizes()).unwrap();
    let ks: Vec<usize> = plan.contracted.iter().map(|&(i, _)| a.sizes()[i]).collect();
    let mut data = Vec::new();
    for o in indices(&out) {
        let mut sum = 0;
        for k in indices(&ks) {
            let mut ia = vec![0; a.sizes().len()];
            let mut ib = vec![0; b.sizes().len()];
            for (q, (&l, &r)) in plan.plan.lhs.iter().zip(&plan.plan.rhs).enumerate() {
                if let Some(l) = l {
                    ia[l] = if a.sizes()[l] == 1 { 0 } else { o[q] };
                }
                if let Some(r) = r {
                    ib[r] = if b.sizes()[r] == 1 { 0 } else { o[q] };
                }
            }
            for (p, &(i, j)) in plan.contracted.iter().enumerate() {
                ia[i] = k[p];
                ib[j] = k[p];
            }
            sum += a.data()[offset(a.sizes(), &ia)] * b.data()[offset(b.sizes(), &ib)];
        }
        data.push(sum);
    }
    (out, data)
}

const POOL: [&str; 5] = ["I", "J", "K", "DK", "DV"];

/// Two random named shapes sharing some names (with equal sizes), plus unnamed axes, and the
/// names to contract.
fn case() -> impl Strategy<Value = (DynShape, DynShape, Vec<AxisSelector>, u64)> {
    (
        prop::collection::vec((0usize..5, 0usize..4, any::<bool>(), any::<bool>()), 1..5),
        prop::collection::vec(0usize..3, 0..2),
        any::<u64>(),
    )
        .prop_map(|(named, unnamed, seed)| {
            let (mut a, mut b, mut x) = (Vec::new(), Vec::new(), Vec::new());
            let mut used = Vec::new();
            for (name, size, in_b, contracted) in named {
                if used.contains(&name) {
                    continue;
                }
                used.push(name);
                let axis = DynAxis::named(POOL[name], Size::Known(size)).unwrap();
                a.push(axis.clone());
                if in_b || contracted {
                    b.insert(seed as usize % (b.len() + 1), axis);
                    if contracted {
                        x.push(POOL[name].parse().unwrap());
                    }
                }
            }
            for (k, n) in unnamed.into_iter().enumerate() {
                a.insert(0, DynAxis::unnamed(Size::Known(n + 1)));
                if k % 2 == 0 {
                    b.insert(
                        0,
                        DynAxis::unnamed(Size::Known(if seed % 3 == 0 { 1 } else { n + 1 })),
                    );
                }
            }
            (
                DynShape::new(a).unwrap(),
                DynShape::new(b).unwrap(),
                x,
                seed,
            )
        })
        .prop_filter("something to contract", |(_, _, x, _)| !x.is_empty())
}

fn fill(shape: &DynShape, seed: u64) -> DynTensor<i64> {
    DynTensor::from_fn(shape.clone(), |i| {
        (i.iter().fold(seed % 7, |acc, &x| acc * 5 + x as u64) % 9) as i64 - 4
    })
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dot_matches_the_naive_einsum((a, b, x, seed) in case()) {
        let (ta, tb) = (fill(&a, seed), fill(&b, seed / 3));
        let plan = shapecast::dynamic::contract(&a, &b, &x).unwrap();
        let (sizes, want) = reference(&ta, &tb, &plan);
        let got = ta.dot(&tb, &x).unwrap();
        prop_assert_eq!(got.sizes(), &sizes[..]);
        prop_assert_eq!(got.data(), &want[..]);
        // f64 takes the GEMM path: the same numbers.
        let (fa, fb) = (
            DynTensor::from_vec(a.clone(), ta.data().iter().map(|&v| v as f64).collect()).unwrap(),
            DynTensor::from_vec(b.clone(), tb.data().iter().map(|&v| v as f64).collect()).unwrap(),
        );
        let got = fa.dot(&fb, &x).unwrap();
        let want: Vec<f64> = want.iter().map(|&v| v as f64).collect();
        prop_assert_eq!(got.data(), &want[..]);
    }

    #[test]
    fn matmul_matches_the_naive_einsum(batch_a in prop::collection::vec(1usize..4, 0..3), batch_b in prop::collection::vec(1usize..4, 0..3), m in 0usize..4, k in 0usize..4, n in 0usize..4, vector in 0u8..4, seed in any::<u64>()) {
        // Batches that broadcast: align from the right, 1s where they differ.
        let len = batch_a.len().max(batch_b.len());
        let fix = |v: &[usize], other: &[usize]| -> Vec<usize> {
            v.iter().enumerate().map(|(i, &s)| {
                let j = i + len - v.len();
                let o = other.len().checked_sub(len - j).map(|t| other[t]);
                match o { Some(o) if o != s => 1, _ => s }
            }).collect()
        };
        let (ba, bb) = (fix(&batch_a, &batch_b), fix(&batch_b, &batch_a));
        let mut sa: Vec<usize> = ba.clone();
        let mut sb: Vec<usize> = bb.clone();
        // vector: 1 = a is rank 1, 2 = b is rank 1, 3 = both.
        if vector & 1 == 1 { sa = vec![k]; } else { sa.extend([m, k]); }
        if vector & 2 == 2 { sb = vec![k]; } else { sb.extend([k, n]); }
        let (a, b) = (DynShape::from_sizes(&sa).unwrap(), DynShape::from_sizes(&sb).unwrap());
        let (ta, tb) = (fill(&a, seed), fill(&b, seed / 5));
        let plan = shapecast::dynamic::matmul(&a, &b).unwrap();
        let (sizes, want) = reference(&ta, &tb, &plan);
        let got = ta.matmul(&tb).unwrap();
        prop_assert_eq!(got.sizes(), &sizes[..]);
        prop_assert_eq!(got.data(), &want[..]);
        let fa = DynTensor::from_vec(a, ta.data().iter().map(|&v| v as f32).collect()).unwrap();
        let fb = DynTensor::from_vec(b, tb.data().iter().map(|&v| v as f32).collect()).unwrap();
        let want: Vec<f32> = want.iter().map(|&v| v as f32).collect();
        assert_eq!(fa.matmul(&fb).unwrap().data(), &want[..]);
    }
}

#[test]
fn attention_scores_by_name_typed_and_at_run_time() {
    type Q = shape![BATCH, HEADS, SEQ, DK: 4];
    type Kt = shape![BATCH, HEADS, KSEQ, DK: 4];
    let q = Tensor::<f32, Q>::from_fn(&[2, 3, 5, 4], |i| {
        (i[0] + 2 * i[1] + 3 * i[2] + i[3]) as f32 % 5.0
    })
    .unwrap();
    let k = Tensor::<f32, Kt>::from_fn(&[2, 3, 6, 4], |i| {
        (3 * i[0] + i[1] + i[2] * i[3]) as f32 % 7.0
    })
    .unwrap();
    let scores: Tensor<f32, shape![BATCH, HEADS, SEQ, KSEQ]> = q.dot::<DK>(&k);
    let dyn_scores = q
        .to_dyn()
        .dot(&k.to_dyn(), &["DK".parse().unwrap()])
        .unwrap();
    assert_eq!(scores.to_dyn(), dyn_scores);
    for b in 0..2 {
        for h in 0..3 {
            for s in 0..5 {
                for t in 0..6 {
                    let want: f32 = (0..4)
                        .map(|d| q.at(&[b, h, s, d]).unwrap() * k.at(&[b, h, t, d]).unwrap())
                        .sum();
                    assert_eq!(*scores.at(&[b, h, s, t]).unwrap(), want);
                }
            }
        }
    }
    // Over two names: the heads are summed too.
    let pooled: Tensor<f32, shape![BATCH, SEQ, KSEQ]> = q.dot::<(HEADS, DK)>(&k);
    assert_eq!(pooled.to_dyn(), scores.sum::<HEADS>().to_dyn());
}

#[test]
fn views_contract_without_copies_as_their_copies_do() {
    let a =
        Tensor::<f64, shape![I: 3, J: 4]>::from_fn(&[3, 4], |i| (i[0] * 4 + i[1]) as f64).unwrap();
    let b = Tensor::<f64, shape![J: 4, K: 2]>::from_fn(&[4, 2], |i| (i[0] as f64) - (i[1] as f64))
        .unwrap();
    // A transposed operand (a view with permuted strides).
    let at = a.align_to::<shape![J: 4, I: 3]>().unwrap();
    let by_view: Tensor<f64, shape![I: 3, K: 2]> = at.dot::<J>(&b);
    assert_eq!(by_view, a.dot::<J>(&b));
    assert_eq!(by_view, at.to_tensor().dot::<J>(&b));
    // A broadcast operand (stride 0 along BATCH): every batch gets the same product.
    let col = Tensor::<f64, shape![J: 4, K: 1]>::from_array([[1.0], [2.0], [3.0], [4.0]]);
    let wide = col.broadcast_to::<shape![BATCH: 5, J: 4, K: 1]>().unwrap();
    assert_eq!(wide.strides()[0], 0);
    let out: Tensor<f64, shape![I: 3, BATCH: 5, K: 1]> = a.dot::<J>(&wide);
    assert_eq!(out, a.dot::<J>(&wide.to_tensor()));
    // matmul with a broadcast right operand and a transposed left one.
    let m = Tensor::<f32, shape![?, 3, 4]>::from_fn(&[2, 3, 4], |i| (i[0] + i[1] * i[2]) as f32)
        .unwrap();
    let w = Tensor::<f32, shape![4, 2]>::from_fn(&[4, 2], |i| (i[0] + 2 * i[1]) as f32).unwrap();
    let p: Tensor<f32, shape![?, 3, 2]> = m.matmul(&w);
    assert_eq!(p.to_dyn(), m.to_dyn().matmul(&w.to_dyn()).unwrap());
    assert_eq!(m.view().matmul(&w.view()), p);
}

#[test]
fn run_time_sizes_are_checked_and_refusals_are_errors() {
    let a = Tensor::<f32, shape![I: 2, J]>::from_vec_sized(&[2, 3], vec![1.0; 6]).unwrap();
    let b = Tensor::<f32, shape![J: 4, K: 2]>::from_vec_sized(&[4, 2], vec![1.0; 8]).unwrap();
    let err = a.try_dot::<J>(&b).unwrap_err();
    assert_eq!(err.to_string(), "cannot contract [I: 2, J: 3] with [J: 4, K: 2] over J: axis 1 (J) has size 3 on the left and 4 on the right (contracted sizes never stretch)");
    let m = Tensor::<f32, shape![?, 3]>::from_vec_sized(&[2, 3], vec![1.0; 6]).unwrap();
    let v = Tensor::<f32, shape![?]>::from_vec_sized(&[4], vec![1.0; 4]).unwrap();
    assert!(m.try_matmul(&v).unwrap_err().is_refusal());
    let d = DynTensor::from_vec("[2, 3]".parse().unwrap(), vec![1i32; 6]).unwrap();
    assert!(d.matmul(&d).is_err());
    assert!(d.dot(&d, &["J".parse().unwrap()]).is_err());
    // Zero sizes: an empty contracted axis gives zeros, an empty output nothing.
    let e = DynTensor::from_vec("[I: 2, J: 0]".parse().unwrap(), Vec::<f64>::new()).unwrap();
    let f = DynTensor::from_vec("[J: 0, K: 3]".parse().unwrap(), Vec::<f64>::new()).unwrap();
    assert_eq!(
        e.dot(&f, &["J".parse().unwrap()]).unwrap().data(),
        &[0.0; 6]
    );
}

#[test]
#[should_panic(expected = "cannot contract [I: 2, J: 3] with [J: 4] over J")]
fn dot_panics_with_the_refusal() {
    let a = Tensor::<f32, shape![I: 2, J]>::from_vec_sized(&[2, 3], vec![1.0; 6]).unwrap();
    let b = Tensor::<f32, shape![J]>::from_vec_sized(&[4], vec![1.0; 4]).unwrap();
    let _ = a.dot::<J>(&b);
}

/// With the `rayon` feature a large product is cut into blocks of rows, one per thread (a
/// pool of three here, so the split happens on any machine); on integer-valued `f64` every
/// sum is exact, so the blocks must give the naive product to the bit, for a plain and a
/// transposed left operand.
#[cfg(feature = "rayon")]
#[test]
fn a_product_split_over_threads_is_the_naive_product() {
    let (m, k, n) = (301, 129, 157);
    let a = Tensor::<f64, shape![I: ?, J: ?]>::from_fn(&[m, k], |i| {
        ((i[0] * 7 + i[1] * 3) % 11) as f64
    })
    .unwrap();
    let b = Tensor::<f64, shape![J: ?, K: ?]>::from_fn(&[k, n], |i| {
        ((i[0] * 5 + i[1]) % 13) as f64 - 6.0
    })
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let c = pool.install(|| a.dot::<J>(&b));
    let at = a.view().align_to::<shape![J: ?, I: ?]>().unwrap();
    let ct = pool.install(|| at.dot::<J>(&b.view()));
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..k)
                .map(|p| a.at(&[i, p]).unwrap() * b.at(&[p, j]).unwrap())
                .sum();
            assert_eq!(*c.at(&[i, j]).unwrap(), want, "({i}, {j})");
        }
    }
    assert_eq!(ct.sizes(), &[m, n]);
    assert_eq!(ct.data(), c.data());
}
