//! `map_parts`: one parallel region over a tensor's parts along a named axis. Its result
//! equals the closure run on the whole tensor (a decoder layer's chain: norm, products, gate,
//! residual), on pools of one, two and three threads and without a pool; the parts cover the
//! axis in order, one a thread, and nothing inside a part splits again; errors come back as
//! values, typed and at run time.

use core::ops::Range;
use std::sync::Mutex;

use shapecast::{
    names, shape, Dot, DynTensor, Error, FloatMath, Norms, Parts, Rope, RopeStyle, Rotary, Tensor,
};

names!(SEQ, DIM, HID, HEAD, HD);

fn wave(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 2_654_435_761 + seed * 97) % 1000) as f32 / 500.0 - 1.0)
        .collect()
}

type X = Tensor<f32, shape![SEQ, DIM]>;

struct Block {
    norm: Tensor<f32, shape![DIM]>,
    w1: Tensor<f32, shape![HID, DIM]>,
    w2: Tensor<f32, shape![DIM, HID]>,
}

impl Block {
    fn new(dim: usize, hid: usize) -> Block {
        Block {
            norm: Tensor::from_vec_sized(&[dim], wave(dim, 1)).unwrap(),
            w1: Tensor::from_vec_sized(&[hid, dim], wave(hid * dim, 2)).unwrap(),
            w2: Tensor::from_vec_sized(&[dim, hid], wave(hid * dim, 3)).unwrap(),
        }
    }

    /// A residual MLP block on the positions `x` holds.
    fn run(&self, x: X) -> X {
        let h = x.rms_norm::<DIM>(&self.norm, 1e-5);
        let g = h.dot::<DIM>(&self.w1).silu();
        x + g.dot::<HID>(&self.w2)
    }
}

/// Within `f32` rounding of sums of a few hundred terms of magnitude 1: the GEMM crate's
/// kernel for a call's last rows may add in another order than for full blocks, so a
/// position can round differently in a part than in the whole.
fn close(a: &[f32], b: &[f32]) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= 1e-4 * (1.0 + y.abs()),
            "{i}: {x} against {y}"
        );
    }
}

/// The block over parts of `x`, and the ranges the parts covered, in the order they ran.
fn by_parts(block: &Block, x: &X) -> (X, Vec<Range<usize>>) {
    let seen = Mutex::new(Vec::new());
    let y = x
        .map_parts::<SEQ, _, _>(|rows, r| {
            seen.lock().unwrap().push(r);
            Ok(block.run(rows.to_tensor()))
        })
        .unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort_by_key(|r| r.start);
    (y, seen)
}

#[test]
fn a_block_by_parts_equals_the_block_on_every_position() {
    let block = Block::new(96, 200);
    for n in [1, 2, 7, 64, 131] {
        let x = X::from_vec_sized(&[n, 96], wave(n * 96, n)).unwrap();
        let whole = block.run(x.clone());
        let (y, ranges) = by_parts(&block, &x);
        close(y.data(), whole.data());
        assert_eq!(y.sizes(), whole.sizes());
        // The parts cover 0..n in order, none empty.
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(n));
        assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
        assert!(ranges.iter().all(|r| !r.is_empty()));
    }
}

#[cfg(feature = "rayon")]
#[test]
fn one_part_a_thread_and_nothing_inside_splits_again() {
    let block = Block::new(64, 256);
    let x = X::from_vec_sized(&[50, 64], wave(50 * 64, 9)).unwrap();
    let whole = block.run(x.clone());
    for threads in 1..=3 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (y, ranges) = pool.install(|| by_parts(&block, &x));
        close(y.data(), whole.data());
        assert_eq!(ranges.len(), threads, "{threads} threads");
        let inside = pool.install(|| {
            x.map_parts::<SEQ, _, _>(|rows, _| {
                assert_eq!(shapecast::threads::count(), 1);
                Ok(rows.to_tensor())
            })
        });
        assert_eq!(inside.unwrap().data(), x.data());
        // Back outside, the pool's threads count again.
        assert_eq!(pool.install(shapecast::threads::count), threads);
    }
    // Fewer positions than threads: a part a position.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let two = X::from_vec_sized(&[2, 64], wave(128, 4)).unwrap();
    let (y, ranges) = pool.install(|| by_parts(&block, &two));
    assert_eq!(ranges, vec![0..1, 1..2]);
    close(y.data(), block.run(two).data());
}

#[test]
fn parts_along_an_inner_axis_of_a_strided_view_concatenate_along_it() {
    // Rotary embeddings per head: the part's range places its positions.
    let rot = Rotary::<f32>::new(RopeStyle::Halves, 8, 32, 10000.0).unwrap();
    let x = Tensor::<f32, shape![HEAD: 3, SEQ, HD: 8]>::from_vec_sized(&[3, 20, 8], wave(480, 5))
        .unwrap();
    // A view whose SEQ axis is not the outermost and whose strides skip: every other position.
    let v = x.view().step::<SEQ>(2).unwrap();
    let whole = v.rope::<SEQ, HD>(&rot, 4);
    let y = v
        .map_parts::<SEQ, _, _>(|rows, r| Ok(rows.rope::<SEQ, HD>(&rot, 4 + r.start)))
        .unwrap();
    assert_eq!(y.sizes(), &[3, 10, 8]);
    assert_eq!(y.data(), whole.data());
}

#[test]
fn a_parts_error_comes_back() {
    let x = X::from_vec_sized(&[40, 4], wave(160, 6)).unwrap();
    // The part holding the last position fails, whatever the thread count.
    let e = x.map_parts::<SEQ, f32, shape![SEQ, DIM]>(|rows, r| {
        if r.end == 40 {
            Err(Error::TooManyElements {
                shape: "[SEQ: 40]".parse().unwrap(),
            })
        } else {
            Ok(rows.to_tensor())
        }
    });
    assert!(matches!(e, Err(Error::TooManyElements { .. })));
}

#[cfg(feature = "rayon")]
#[test]
fn parts_whose_results_differ_on_another_axis_are_refused() {
    let x = X::from_vec_sized(&[40, 4], wave(160, 6)).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let ragged = pool.install(|| {
        x.map_parts::<SEQ, f32, shape![SEQ, DIM]>(|_, r| {
            let width = 4 + r.start;
            Ok(X::from_vec_sized(&[r.len(), width], vec![0.0; r.len() * width]).unwrap())
        })
    });
    let e = ragged.unwrap_err().to_string();
    assert!(e.contains("DIM") || e.contains("axis"), "{e}");
}

#[test]
fn the_run_time_twin_agrees_and_names_a_missing_axis() {
    let block = Block::new(32, 48);
    let x = X::from_vec_sized(&[33, 32], wave(33 * 32, 7)).unwrap();
    let typed = x
        .map_parts::<SEQ, _, _>(|rows, _| Ok(block.run(rows.to_tensor())))
        .unwrap();
    let d: DynTensor<f32> = x.to_dyn();
    let norm = block.norm.to_dyn();
    let (w1, w2) = (block.w1.to_dyn(), block.w2.to_dyn());
    let dim = "DIM".parse().unwrap();
    let hid = "HID".parse().unwrap();
    let y = d
        .map_parts(&"SEQ".parse().unwrap(), |rows, _| {
            let h = rows.rms_norm(std::slice::from_ref(&dim), &norm, 1e-5)?;
            let g = h.dot(&w1, std::slice::from_ref(&dim))?.silu();
            Ok(&rows + &g.dot(&w2, std::slice::from_ref(&hid))?)
        })
        .unwrap();
    assert_eq!(y.shape(), d.shape());
    close(y.data(), typed.data());
    let e = d.map_parts(&"HEAD".parse().unwrap(), |rows, _| Ok(rows));
    assert!(e.unwrap_err().to_string().contains("HEAD"));
}
