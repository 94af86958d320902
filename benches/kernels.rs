//! `out = a + b` (f32, single thread, preallocated output) for the eight cases of the tensor
//! issue, each timed in the same run three ways: shapecast's kernel over the plan, a
//! hand-written loop that knows the shapes, and ndarray's `Zip` with broadcasting.
//!
//! Run: `cargo bench --bench kernels`. The ratio of medians (kernel / hand loop) is the
//! number `shapecast::guide::performance` reports.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use ndarray::{ArrayD, IxDyn, Zip};
use shapecast::{broadcast, kernel, shape, DynShape, Rule, Tensor};

#[path = "common/cases.rs"]
mod cases;

use cases::CASES;

/// C6 by hand: the sizes are constants, so the compiler unrolls and vectorises it.
fn hand_small(a: &[f32; 16], b: &[f32; 4], out: &mut [f32; 16]) {
    for i in 0..4 {
        for j in 0..4 {
            out[i * 4 + j] = a[i * 4 + j] + b[j];
        }
    }
}

fn kernels(c: &mut Criterion) {
    for case in CASES {
        let na: usize = case.a.iter().product();
        let nb: usize = case.b.iter().product();
        let a: Vec<f32> = (0..na).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..nb).map(|i| i as f32 * 0.5).collect();
        let (sa, sb) = (
            DynShape::from_sizes(case.a).unwrap(),
            DynShape::from_sizes(case.b).unwrap(),
        );
        let plan = broadcast(Rule::Numpy, &sa, &sb).unwrap();
        let sizes = plan.resolve(case.a, case.b).unwrap();
        let (fa, fb) = (
            kernel::frame_strides(&plan.plan.lhs, case.a).unwrap(),
            kernel::frame_strides(&plan.plan.rhs, case.b).unwrap(),
        );
        let n: usize = sizes.iter().product();
        let mut out: Vec<f32> = Vec::with_capacity(n);
        let mut hand_out = vec![0f32; n];
        let mut group = c.benchmark_group(case.name);
        group.sample_size(20);
        group.bench_function(BenchmarkId::new("shapecast", ""), |bench| {
            bench.iter(|| {
                kernel::zip_map(
                    &sizes,
                    (black_box(&a), &fa),
                    (black_box(&b), &fb),
                    &mut out,
                    |x, y| x + y,
                )
                .unwrap();
            })
        });
        group.bench_function(BenchmarkId::new("hand loop", ""), |bench| {
            bench.iter(|| (case.hand)(black_box(&a), black_box(&b), &mut hand_out))
        });
        let xa = ArrayD::from_shape_vec(IxDyn(case.a), a.clone()).unwrap();
        let xb = ArrayD::from_shape_vec(IxDyn(case.b), b.clone()).unwrap();
        let mut xo = ArrayD::<f32>::zeros(IxDyn(&sizes));
        group.bench_function(BenchmarkId::new("ndarray Zip", ""), |bench| {
            bench.iter(|| {
                Zip::from(&mut xo)
                    .and_broadcast(black_box(&xa))
                    .and_broadcast(black_box(&xb))
                    .for_each(|o, &x, &y| *o = x + y)
            })
        });
        group.finish();
        // The three agree (computed here, since a name filter may skip the timed runs).
        kernel::zip_map(&sizes, (&a, &fa), (&b, &fb), &mut out, |x, y| x + y).unwrap();
        (case.hand)(&a, &b, &mut hand_out);
        Zip::from(&mut xo)
            .and_broadcast(&xa)
            .and_broadcast(&xb)
            .for_each(|o, &x, &y| *o = x + y);
        assert!(
            out == hand_out,
            "{}: the kernel disagrees with the hand loop",
            case.name
        );
        assert!(
            xo.as_slice() == Some(&hand_out[..]),
            "{}: ndarray disagrees with the hand loop",
            case.name
        );
    }
}

/// C6 through the typed API: `Tensor::add_into` on static shapes, whose storage is inline
/// and whose layout is worked out at compile time.
fn typed_small(c: &mut Criterion) {
    type A = shape![4, 4];
    type B = shape![4];
    let a = Tensor::<f32, A>::from_fn(&[4, 4], |i| (i[0] * 4 + i[1]) as f32).unwrap();
    let b = Tensor::<f32, B>::from_fn(&[4], |i| i[0] as f32 * 0.5).unwrap();
    let mut out = Tensor::<f32, A>::zeros().unwrap();
    let mut hand_out = [0f32; 16];
    let a4: [f32; 16] = a.data().try_into().unwrap();
    let b4: [f32; 4] = b.data().try_into().unwrap();
    let mut group = c.benchmark_group("C6 typed (4,4)+(4)");
    group.bench_function(BenchmarkId::new("shapecast", ""), |bench| {
        bench.iter(|| Tensor::add_into(black_box(&a), black_box(&b), black_box(&mut out)).unwrap())
    });
    group.bench_function(BenchmarkId::new("hand loop", ""), |bench| {
        bench.iter(|| hand_small(black_box(&a4), black_box(&b4), black_box(&mut hand_out)))
    });
    group.finish();
    Tensor::add_into(&a, &b, &mut out).unwrap();
    hand_small(&a4, &b4, &mut hand_out);
    assert!(
        out.data() == hand_out,
        "C6 typed: the kernel disagrees with the hand loop"
    );
}

criterion_group!(benches, kernels, typed_small);
criterion_main!(benches);
