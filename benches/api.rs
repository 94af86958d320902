//! The operators through the public API (f32, one thread), against a hand loop and ndarray,
//! in the same run: the rows of the speed issue's table.
//!
//! - A1 (4, 4) + (4) as `shape![?, ?]` + `shape![?]`: `Tensor::add_into`, `&a + &b`, and
//!   `DynTensor::zip_with(Rule::Named, ..)` and `zip_with_into`; ndarray's `Zip` (into; on
//!   `Array2`/`Array1` and on dynamic-rank `ArrayD`) and `&a + &b`.
//! - A2 the same as `shape![4, 4]` + `shape![4]`: `add_into` and `&a + &b`.
//! - A3 (16, 1024, 1024) + the same: `&a + &b` (allocating) against the in-place kernel and
//!   `a + &b` with an owned left operand, whose buffer the result reuses.
//!
//! - C1–C8, the kernel benchmark's cases, with every size `?` in the types: `&a + &b`,
//!   `Tensor::add_into`, `DynTensor`'s `&a + &b` and `zip_with(Rule::Named, ..)` (a caller's
//!   closure, always on the calling thread); the hand loop in place and allocating; ndarray's
//!   `Zip` (into) and `&a + &b`. Each group's name ends in `[1 thread]` or `[rayon]`.
//!
//! Run: `cargo bench --bench api` and `cargo bench --bench api --features rayon`;
//! `python3 scripts/bench_table.py` prints the medians as the table of `shapecast::guide::performance`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use std::time::Duration;

use ndarray::{Array1, Array2, Array3, ArrayD, IxDyn, Zip};
use shapecast::{shape, Rule, Tensor};

#[path = "common/cases.rs"]
mod cases;

use cases::{Case, CASES};

/// The threads a run uses, for the groups' names.
const THREADS: &str = if cfg!(feature = "rayon") {
    "rayon"
} else {
    "1 thread"
};

/// The eight ways to add one case's operands, timed in one group. `$sa` and `$sb` are the
/// operands' typed shapes (every size `?`).
macro_rules! case_rows {
    ($c:expr_2021, $case:expr_2021, $sa:ty, $sb:ty) => {{
        let case: &Case = $case;
        let av: Vec<f32> = (0..case.a.iter().product::<usize>())
            .map(|i| (i % 97) as f32)
            .collect();
        let bv: Vec<f32> = (0..case.b.iter().product::<usize>())
            .map(|i| (i % 89) as f32 * 0.5)
            .collect();
        let a = Tensor::<f32, $sa>::from_vec_sized(case.a, av.clone()).unwrap();
        let b = Tensor::<f32, $sb>::from_vec_sized(case.b, bv.clone()).unwrap();
        let mut out = &a + &b;
        let n = out.data().len();
        let (da, db) = (a.to_dyn(), b.to_dyn());
        let xa = ArrayD::from_shape_vec(IxDyn(case.a), av.clone()).unwrap();
        let xb = ArrayD::from_shape_vec(IxDyn(case.b), bv.clone()).unwrap();
        let mut xo = ArrayD::<f32>::zeros(IxDyn(out.sizes()));
        let mut hand_out = vec![0f32; n];
        (case.hand)(&av, &bv, &mut hand_out);
        assert!(
            out.data() == &hand_out[..],
            "{}: &a + &b disagrees with the hand loop",
            case.name
        );
        assert!(
            (&da + &db).data() == &hand_out[..],
            "{}: DynTensor disagrees",
            case.name
        );

        let mut g = $c.benchmark_group(format!("{} [{}]", case.name, THREADS));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(700))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("&a + &b", |x| {
            x.iter(|| black_box(black_box(&a) + black_box(&b)))
        });
        g.bench_function("add_into", |x| {
            x.iter(|| Tensor::add_into(black_box(&a), black_box(&b), &mut out).unwrap())
        });
        g.bench_function("DynTensor &a + &b", |x| {
            x.iter(|| black_box(black_box(&da) + black_box(&db)))
        });
        g.bench_function("DynTensor::zip_with", |x| {
            x.iter(|| {
                black_box(
                    black_box(&da)
                        .zip_with(Rule::Named, black_box(&db), |p, q| p + q)
                        .unwrap(),
                )
            })
        });
        g.bench_function("hand loop in place", |x| {
            x.iter(|| (case.hand)(black_box(&av), black_box(&bv), &mut hand_out))
        });
        g.bench_function("hand loop allocating", |x| {
            x.iter(|| {
                let mut o = vec![0f32; n];
                (case.hand)(black_box(&av), black_box(&bv), &mut o);
                black_box(o)
            })
        });
        g.bench_function("ndarray Zip", |x| {
            x.iter(|| {
                Zip::from(&mut xo)
                    .and_broadcast(black_box(&xa))
                    .and_broadcast(black_box(&xb))
                    .for_each(|o, &p, &q| *o = p + q)
            })
        });
        g.bench_function("ndarray &a + &b", |x| {
            x.iter(|| black_box(black_box(&xa) + black_box(&xb)))
        });
        g.finish();
    }};
}

/// C1–C8 through the public API.
fn cases(c: &mut Criterion) {
    case_rows!(c, &CASES[0], shape![?, ?], shape![?, ?]);
    case_rows!(c, &CASES[1], shape![?, ?], shape![?]);
    case_rows!(c, &CASES[2], shape![?, ?], shape![?, ?]);
    case_rows!(c, &CASES[3], shape![?, ?, ?, ?], shape![?, ?, ?]);
    case_rows!(c, &CASES[4], shape![?, ?], shape![]);
    case_rows!(c, &CASES[5], shape![?, ?], shape![?]);
    case_rows!(c, &CASES[6], shape![?, ?, ?], shape![?, ?, ?]);
    case_rows!(c, &CASES[7], shape![?, ?], shape![?, ?]);
}

fn api(c: &mut Criterion) {
    let mut group = c.benchmark_group("api");
    let a16: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let b4: Vec<f32> = (0..4).map(|i| i as f32 * 0.5).collect();

    let a = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[4, 4], a16.clone()).unwrap();
    let b = Tensor::<f32, shape![?]>::from_vec_sized(&[4], b4.clone()).unwrap();
    let mut out = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[4, 4], vec![0.0; 16]).unwrap();
    group.bench_function("A1 (4,4)+(4) ? sizes/add_into", |bch| {
        bch.iter(|| Tensor::add_into(black_box(&a), black_box(&b), &mut out).unwrap())
    });
    group.bench_function("A1 (4,4)+(4) ? sizes/&a + &b", |bch| {
        bch.iter(|| black_box(black_box(&a) + black_box(&b)))
    });
    let (da, db) = (a.to_dyn(), b.to_dyn());
    group.bench_function("A1 (4,4)+(4) ? sizes/DynTensor::zip_with", |bch| {
        bch.iter(|| {
            black_box(
                black_box(&da)
                    .zip_with(Rule::Named, black_box(&db), |x, y| x + y)
                    .unwrap(),
            )
        })
    });
    let mut dout = da.zip_with(Rule::Named, &db, |x, y| x + y).unwrap();
    group.bench_function("A1 (4,4)+(4) ? sizes/DynTensor::zip_with_into", |bch| {
        bch.iter(|| {
            black_box(&da)
                .zip_with_into(Rule::Named, black_box(&db), &mut dout, |x, y| x + y)
                .unwrap()
        })
    });
    let (xa, xb) = (
        ArrayD::from_shape_vec(IxDyn(&[4, 4]), a16.clone()).unwrap(),
        ArrayD::from_shape_vec(IxDyn(&[4]), b4.clone()).unwrap(),
    );
    let mut xo = ArrayD::<f32>::zeros(IxDyn(&[4, 4]));
    group.bench_function("A1 (4,4)+(4) ? sizes/ndarray Zip, dynamic rank", |bch| {
        bch.iter(|| {
            Zip::from(&mut xo)
                .and(black_box(&xa))
                .and_broadcast(black_box(&xb))
                .for_each(|o, &x, &y| *o = x + y)
        })
    });
    let (na, nb) = (
        Array2::from_shape_vec((4, 4), a16.clone()).unwrap(),
        Array1::from_vec(b4.clone()),
    );
    let mut nout = Array2::<f32>::zeros((4, 4));
    group.bench_function("A1 (4,4)+(4) ? sizes/ndarray Zip", |bch| {
        bch.iter(|| {
            Zip::from(&mut nout)
                .and(black_box(&na))
                .and_broadcast(black_box(&nb))
                .for_each(|o, &x, &y| *o = x + y)
        })
    });
    group.bench_function("A1 (4,4)+(4) ? sizes/ndarray &a + &b", |bch| {
        bch.iter(|| black_box(black_box(&na) + black_box(&nb)))
    });
    group.bench_function("A1 (4,4)+(4) ? sizes/hand loop", |bch| {
        bch.iter(|| {
            let (x, y) = (black_box(&a16), black_box(&b4));
            let mut o = vec![0.0f32; 16];
            for i in 0..4 {
                for j in 0..4 {
                    o[i * 4 + j] = x[i * 4 + j] + y[j];
                }
            }
            black_box(o)
        })
    });

    let sa = Tensor::<f32, shape![4, 4]>::from_vec(a16.clone()).unwrap();
    let sb = Tensor::<f32, shape![4]>::from_vec(b4.clone()).unwrap();
    let mut sout = Tensor::<f32, shape![4, 4]>::zeros().unwrap();
    group.bench_function("A2 (4,4)+(4) static/add_into", |bch| {
        bch.iter(|| Tensor::add_into(black_box(&sa), black_box(&sb), &mut sout).unwrap())
    });
    group.bench_function("A2 (4,4)+(4) static/&a + &b", |bch| {
        bch.iter(|| black_box(black_box(&sa) + black_box(&sb)))
    });

    group.sample_size(10);
    let big: Vec<f32> = (0..16 * 1024 * 1024).map(|i| (i % 97) as f32).collect();
    let ba =
        Tensor::<f32, shape![?, ?, ?]>::from_vec_sized(&[16, 1024, 1024], big.clone()).unwrap();
    let mut bout =
        Tensor::<f32, shape![?, ?, ?]>::from_vec_sized(&[16, 1024, 1024], vec![0.0; big.len()])
            .unwrap();
    group.bench_function("A3 (16,1024,1024)+same/&a + &b", |bch| {
        bch.iter(|| black_box(&ba + &ba))
    });
    group.bench_function("A3 (16,1024,1024)+same/add_into", |bch| {
        bch.iter(|| Tensor::add_into(&ba, &ba, &mut bout).unwrap())
    });
    group.bench_function(
        "A3 (16,1024,1024)+same/a + &b (owned left, its buffer reused)",
        |bch| bch.iter_batched(|| ba.clone(), |x| black_box(x + &ba), BatchSize::LargeInput),
    );
    let n3 = Array3::from_shape_vec((16, 1024, 1024), big).unwrap();
    group.bench_function("A3 (16,1024,1024)+same/ndarray &a + &b", |bch| {
        bch.iter(|| black_box(&n3 + &n3))
    });
    group.finish();
}

criterion_group!(benches, api, cases);
criterion_main!(benches);
