//! The operations that split over threads give the same bits on pools of 1, 2 and 3 threads,
//! called from outside the pool and from inside it (`install`), with the pool's workers kept
//! awake between operations or not: every split gives each output element to one thread,
//! computed as on one thread (a product's pieces are blocks of rows or columns, or whole
//! products; a reduction's are rows of the kept axis; a pool's are blocks of the pooled axes
//! or rows of one axis).
#![cfg(feature = "rayon")]
#![allow(clippy::type_complexity)]

use std::time::Duration;

use shapecast::{names, rule::Outer, shape, Dot, FloatMath, Pool, Pooling, Reductions, Tensor};

names!(B, T, S, H, D, E, F, O, K);

fn wave(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 2_654_435_761 + seed * 97) % 1000) as f32 / 500.0 - 1.0)
        .collect()
}

fn t<Sh: shapecast::Shape>(sizes: &[usize], seed: usize) -> Tensor<f32, Sh>
where
    Tensor<f32, Sh>: Sized,
{
    let n = sizes.iter().product();
    Tensor::from_vec_sized(sizes, wave(n, seed)).unwrap()
}

/// Every output of a small model's operations, as flat vectors.
fn outputs() -> Vec<Vec<f32>> {
    let (b, tt, e, h, d, f) = (2, 96, 128, 4, 32, 512);
    let x: Tensor<f32, shape![B, T, E]> = t(&[b, tt, e], 1);
    let wq: Tensor<f32, shape![E, H, D]> = t(&[e, h, d], 2);
    let wk: Tensor<f32, shape![E, H, D]> = t(&[e, h, d], 3);
    // A weight as files store it: [out, in], contracted over its last axis.
    let w1: Tensor<f32, shape![F, E]> = t(&[f, e], 4);
    let w2: Tensor<f32, shape![F, O]> = t(&[f, e], 5);
    let q = x.dot::<E>(&wq);
    let k = x.dot::<E>(&wk).rename::<T, S>();
    // Products over the heads, side by side.
    let scores = q.dot::<D>(&k) * 0.125;
    let weights = scores.softmax::<S>();
    let ctx = weights.dot::<S>(&k);
    let u = x.dot::<E>(&w1);
    let g = (&u).gelu();
    let y = g.dot::<F>(&w2);
    let mean = u.mean::<F>();
    let var = u.var::<F>();
    let sum = u.sum::<T>();
    let e2 = (&u).exp();
    let z = (&u - &mean) / (var + 1e-5).sqrt();
    // The outer rule through a caller's closure, and the mean over the axis it added (runs
    // of three, folded eight cells at a time).
    let scale: Tensor<f32, shape![K]> = t(&[3], 6);
    let outer = u
        .zip_with_rule::<Outer, _, _, _>(&scale, |x, s| x * s)
        .unwrap();
    let fused = outer.mean::<K>();
    // An owned left operand smaller than the result, and two views.
    let widened = mean.clone() + &u;
    let viewed = u.view() - mean.view();
    // Pools: blocks of the pooled axes side by side, and one block (the first axis pooled)
    // whose axes split their rows.
    let pooled = u.max_pool::<(T, F), Pool<3, 2, 1>>();
    let averaged = u.avg_pool::<(B, T), Pool<2, 1>>();
    vec![
        pooled.data().to_vec(),
        averaged.data().to_vec(),
        outer.data().to_vec(),
        fused.data().to_vec(),
        widened.data().to_vec(),
        viewed.data().to_vec(),
        q.data().to_vec(),
        scores.data().to_vec(),
        weights.data().to_vec(),
        ctx.data().to_vec(),
        u.data().to_vec(),
        g.data().to_vec(),
        y.data().to_vec(),
        mean.data().to_vec(),
        sum.data().to_vec(),
        e2.data().to_vec(),
        z.data().to_vec(),
    ]
}

#[test]
fn pools_of_one_two_and_three_threads_give_the_same_bits() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(outputs);
    for spin in [Duration::from_millis(1), Duration::ZERO] {
        shapecast::threads::set_spin_time(spin);
        for threads in [2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let inside = pool.install(outputs);
            assert_eq!(
                inside, one,
                "{threads} threads, inside the pool, spin {spin:?}"
            );
        }
        // From outside any pool: rayon's global pool.
        assert_eq!(outputs(), one, "the global pool, spin {spin:?}");
    }
    shapecast::threads::set_spin_time(Duration::from_millis(1));
}

#[test]
fn products_split_over_threads_match_the_naive_product() {
    // Sizes that do not divide by the thread count or by 16: the pieces' edges.
    let (m, k, n) = (203, 77, 1091);
    let a: Tensor<f32, shape![T, E]> = t(&[m, k], 7);
    let w: Tensor<f32, shape![F, E]> = t(&[n, k], 8);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let c = pool.install(|| a.dot::<E>(&w));
    let tall = pool.install(|| w.dot::<E>(&a));
    for i in (0..m).step_by(13) {
        for j in (0..n).step_by(7) {
            let want: f64 = (0..k)
                .map(|p| *a.at(&[i, p]).unwrap() as f64 * *w.at(&[j, p]).unwrap() as f64)
                .sum();
            let got = *c.at(&[i, j]).unwrap() as f64;
            assert!(
                (got - want).abs() < 1e-4,
                "({i}, {j}): {got} against {want}"
            );
            assert_eq!(tall.at(&[j, i]), c.at(&[i, j]), "({j}, {i})");
        }
    }
}
