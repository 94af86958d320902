//! Reductions (f32, one thread) through the typed API, each timed in the same run against a
//! hand-written loop that knows the shapes and against ndarray (`sum_axis`, `map_axis`):
//!
//! - R1 sum over axis 0 of (1024, 1024), R2 sum over axis 1 of (1024, 1024);
//! - R3 mean over (H, W) of (8, 64, 128, 128);
//! - R4 softmax over the last axis of (4096, 1000), R5 softmax over axis 0 of (1000, 4096).
//!
//! Run: `cargo bench --bench reductions`. `shapecast::guide::performance` reports the ratios of medians.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ndarray::{Array2, Array4, Axis};
use shapecast::{names, shape, Pos, Reductions, Tensor};

names!(H, W);

fn data(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 250.0 - 2.0)
        .collect()
}

/// Sum over rows: the output row accumulates each input row.
fn hand_sum_axis0(x: &[f32], cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; cols];
    for row in x.chunks_exact(cols) {
        for (o, v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
    out
}

/// Sum of each row, the plain loop.
fn hand_sum_axis1(x: &[f32], cols: usize) -> Vec<f32> {
    x.chunks_exact(cols).map(|row| row.iter().sum()).collect()
}

/// Mean of each contiguous block of `block` elements.
fn hand_mean_blocks(x: &[f32], block: usize) -> Vec<f32> {
    x.chunks_exact(block)
        .map(|b| b.iter().sum::<f32>() / block as f32)
        .collect()
}

/// Softmax of each row: the max, then exp and its sum into the output, then a scale.
fn hand_softmax_rows(x: &[f32], cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; x.len()];
    for (row, o) in x.chunks_exact(cols).zip(out.chunks_exact_mut(cols)) {
        let m = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let mut s = 0.0;
        for (y, v) in o.iter_mut().zip(row) {
            *y = (v - m).exp();
            s += *y;
        }
        for y in o.iter_mut() {
            *y /= s;
        }
    }
    out
}

/// Softmax of each column: row-wise passes for the max, the exp and its sum, the scale.
fn hand_softmax_cols(x: &[f32], cols: usize) -> Vec<f32> {
    let mut m = vec![f32::NEG_INFINITY; cols];
    for row in x.chunks_exact(cols) {
        for (a, v) in m.iter_mut().zip(row) {
            *a = a.max(*v);
        }
    }
    let mut out = vec![0.0; x.len()];
    let mut s = vec![0.0; cols];
    for (row, o) in x.chunks_exact(cols).zip(out.chunks_exact_mut(cols)) {
        for (((y, v), a), t) in o.iter_mut().zip(row).zip(&m).zip(s.iter_mut()) {
            *y = (v - a).exp();
            *t += *y;
        }
    }
    for o in out.chunks_exact_mut(cols) {
        for (y, t) in o.iter_mut().zip(&s) {
            *y /= t;
        }
    }
    out
}

fn ndarray_softmax(x: &Array2<f32>, axis: Axis) -> Array2<f32> {
    let m = x.map_axis(axis, |r| r.fold(f32::NEG_INFINITY, |a, &b| a.max(b)));
    let mut y = x - &m.insert_axis(axis);
    y.mapv_inplace(f32::exp);
    let s = y.sum_axis(axis).insert_axis(axis);
    y / &s
}

fn reductions(c: &mut Criterion) {
    let mut group = c.benchmark_group("reductions");
    group.sample_size(20);

    let x = data(1024 * 1024);
    let t = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[1024, 1024], x.clone()).unwrap();
    let a = Array2::from_shape_vec((1024, 1024), x.clone()).unwrap();
    group.bench_function("R1 sum axis 0 of (1024, 1024)/shapecast", |b| {
        b.iter(|| black_box(t.sum::<Pos<0>>()))
    });
    group.bench_function("R1 sum axis 0 of (1024, 1024)/hand loop", |b| {
        b.iter(|| black_box(hand_sum_axis0(&x, 1024)))
    });
    group.bench_function(
        "R1 sum axis 0 of (1024, 1024)/hand loop on the tensor's data",
        |b| b.iter(|| black_box(hand_sum_axis0(t.data(), 1024))),
    );
    group.bench_function("R1 sum axis 0 of (1024, 1024)/ndarray", |b| {
        b.iter(|| black_box(a.sum_axis(Axis(0))))
    });
    group.bench_function("R2 sum axis 1 of (1024, 1024)/shapecast", |b| {
        b.iter(|| black_box(t.sum::<Pos<1>>()))
    });
    group.bench_function("R2 sum axis 1 of (1024, 1024)/hand loop", |b| {
        b.iter(|| black_box(hand_sum_axis1(&x, 1024)))
    });
    group.bench_function("R2 sum axis 1 of (1024, 1024)/ndarray", |b| {
        b.iter(|| black_box(a.sum_axis(Axis(1))))
    });

    let x = data(8 * 64 * 128 * 128);
    let t =
        Tensor::<f32, shape![?, ?, H, W]>::from_vec_sized(&[8, 64, 128, 128], x.clone()).unwrap();
    let a = Array4::from_shape_vec((8, 64, 128, 128), x.clone()).unwrap();
    group.bench_function("R3 mean over (H, W) of (8, 64, 128, 128)/shapecast", |b| {
        b.iter(|| black_box(t.mean::<(H, W)>()))
    });
    group.bench_function("R3 mean over (H, W) of (8, 64, 128, 128)/hand loop", |b| {
        b.iter(|| black_box(hand_mean_blocks(&x, 128 * 128)))
    });
    group.bench_function("R3 mean over (H, W) of (8, 64, 128, 128)/ndarray", |b| {
        b.iter(|| black_box(a.sum_axis(Axis(3)).sum_axis(Axis(2)) / (128.0 * 128.0)))
    });

    let x = data(4096 * 1000);
    let t = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[4096, 1000], x.clone()).unwrap();
    let a = Array2::from_shape_vec((4096, 1000), x.clone()).unwrap();
    group.bench_function("R4 softmax last axis of (4096, 1000)/shapecast", |b| {
        b.iter(|| black_box(t.softmax::<Pos<1>>()))
    });
    group.bench_function("R4 softmax last axis of (4096, 1000)/hand loop", |b| {
        b.iter(|| black_box(hand_softmax_rows(&x, 1000)))
    });
    group.bench_function("R4 softmax last axis of (4096, 1000)/ndarray", |b| {
        b.iter(|| black_box(ndarray_softmax(&a, Axis(1))))
    });

    let t = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[1000, 4096], x.clone()).unwrap();
    let a = Array2::from_shape_vec((1000, 4096), x.clone()).unwrap();
    group.bench_function("R5 softmax axis 0 of (1000, 4096)/shapecast", |b| {
        b.iter(|| black_box(t.softmax::<Pos<0>>()))
    });
    group.bench_function("R5 softmax axis 0 of (1000, 4096)/hand loop", |b| {
        b.iter(|| black_box(hand_softmax_cols(&x, 4096)))
    });
    group.bench_function("R5 softmax axis 0 of (1000, 4096)/ndarray", |b| {
        b.iter(|| black_box(ndarray_softmax(&a, Axis(0))))
    });
    group.finish();
}

criterion_group!(benches, reductions);
criterion_main!(benches);
