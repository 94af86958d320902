//! The operators through the public API (f32, one thread), against a hand loop and ndarray,
//! in the same run: the rows of the speed issue's table.
//!
//! - A1 (4, 4) + (4) as `shape![?, ?]` + `shape![?]`: `Tensor::add_into`, `&a + &b`, and
//!   `DynTensor::zip_with(Rule::Named, ..)`; ndarray's `Zip` (into) and `&a + &b`.
//! - A2 the same as `shape![4, 4]` + `shape![4]`: `add_into` and `&a + &b`.
//! - A3 (16, 1024, 1024) + the same: `&a + &b` (allocating) against the in-place kernel and
//!   `a + &b` with an owned left operand, whose buffer the result reuses.
//!
//! Run: `cargo bench --bench api`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use ndarray::{Array1, Array2, Array3, Zip};
use shapecast::{shape, Rule, Tensor};

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

criterion_group!(benches, api);
criterion_main!(benches);
