//! Layer norm and RMS norm in one pass over each row: the row's statistics computed in cache,
//! then the row written scaled by its weight (and shifted by its bias), never a tensor of
//! means or of deviations in between. A *row* is an index of the axes not normalised over,
//! its *cell* the elements normalised together; the operands arrive as offset tables built by
//! the operation, so any layout and any selection of axes runs here. With the `rayon`
//! feature the rows split over the pool when the output is written row by row.

use crate::alloc_prelude::*;

use num_traits::Float;

use super::vmath::{computes_wider, narrowed, widen_all, Transcendental};

/// Which norm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Norm {
    /// `(x - mean) / sqrt(var + eps) * w + b` (population variance, as PyTorch's `layer_norm`).
    Layer,
    /// `x / sqrt(mean(x²) + eps) * w` (as PyTorch's `rms_norm`).
    Rms,
}

/// Where a norm reads and writes: per row and per cell element, the offsets of the input, the
/// weight, the bias and the output.
#[derive(Clone, Debug, Default)]
pub(crate) struct Geometry {
    /// Per row: input, weight, bias, output.
    pub rows: [Vec<usize>; 4],
    /// Per element of a cell: input, weight, bias, output.
    pub cell: [Vec<usize>; 4],
}

/// The norm of `x` by `g`, with `w` the weight and `b` the bias (ignored by [`Norm::Rms`]):
/// `len` output elements, every one written.
pub(crate) fn normalize<T: Transcendental>(
    norm: Norm,
    (x, w, b): (&[T], &[T], &[T]),
    g: &Geometry,
    eps: T,
    len: usize,
) -> Vec<T> {
    if computes_wider::<T>() {
        // Half precision: the statistics and the scaling in `f32`, the output rounded once.
        let (x, w, b) = (widen_all(x), widen_all(w), widen_all(b));
        return narrowed(normalize(norm, (&x, &w, &b), g, eps.widen(), len));
    }
    let mut out = vec![T::zero(); len];
    let cell = g.cell[0].len();
    if cell == 0 || g.rows[0].is_empty() {
        return out;
    }
    let n = T::from(cell).expect("a size is a float");
    // A cell read and written as slices: contiguous input and output, weight and bias
    // contiguous or constant.
    let run = |t: &[usize]| t.iter().enumerate().all(|(i, &o)| o == i);
    let slices = run(&g.cell[0]) && run(&g.cell[3]);
    // Weight and bias read as slices too (decided once, not per row).
    let all_slices = slices && run(&g.cell[1]) && (norm == Norm::Rms || run(&g.cell[2]));
    let one_row = |r: usize, y: &mut [T], ys: usize| {
        let [xo, wo, bo, _] = [0, 1, 2, 3].map(|k| g.rows[k][r]);
        let (mean, inv) = if slices {
            stats(norm, &x[xo..xo + cell], n, eps)
        } else {
            let row: Vec<T> = g.cell[0].iter().map(|&o| x[xo + o]).collect();
            stats(norm, &row, n, eps)
        };
        if all_slices {
            let (xr, wr) = (&x[xo..xo + cell], &w[wo..wo + cell]);
            let y = &mut y[ys..ys + cell];
            match norm {
                Norm::Rms => {
                    for ((y, &x), &w) in y.iter_mut().zip(xr).zip(wr) {
                        *y = x * inv * w;
                    }
                }
                Norm::Layer => {
                    let br = &b[bo..bo + cell];
                    for (((y, &x), &w), &b) in y.iter_mut().zip(xr).zip(wr).zip(br) {
                        *y = (x - mean) * inv * w + b;
                    }
                }
            }
            return;
        }
        for i in 0..cell {
            let v = (x[xo + g.cell[0][i]] - mean) * inv * w[wo + g.cell[1][i]];
            y[ys + g.cell[3][i]] = match norm {
                Norm::Rms => v,
                Norm::Layer => v + b[bo + g.cell[2][i]],
            };
        }
    };
    // Rows written one after another (the output's cells contiguous and in row order) can
    // split over threads; others are written in place, row by row.
    let rows = g.rows[0].len();
    #[cfg(feature = "rayon")]
    let in_order = slices && g.rows[3].iter().enumerate().all(|(r, &o)| o == r * cell);
    #[cfg(feature = "rayon")]
    if in_order
        && let Some(per) =
            super::split::rows_per_piece_from(rows, len, super::split::FUSED_MIN_ELEMENTS)
    {
        super::threads::chunks(&mut out, per * cell, |piece, chunk| {
            let first = piece * per;
            for k in 0..chunk.len() / cell {
                one_row(first + k, chunk, k * cell);
            }
        });
        return out;
    }
    for r in 0..rows {
        let at = g.rows[3][r];
        one_row(r, &mut out, at);
    }
    out
}

/// A cell's mean (0 for RMS) and `1 / sqrt(var + eps)` (for RMS the mean square's).
fn stats<T: Float>(norm: Norm, row: &[T], n: T, eps: T) -> (T, T) {
    match norm {
        Norm::Rms => {
            let ms = sum_of(row, |x| x * x) / n;
            (T::zero(), T::one() / (ms + eps).sqrt())
        }
        Norm::Layer => {
            let mean = sum_of(row, |x| x) / n;
            let var = sum_of(row, |x| (x - mean) * (x - mean)) / n;
            (mean, T::one() / (var + eps).sqrt())
        }
    }
}

/// The sum of `f` over `row` in [`LANES`] independent partial sums, so it vectorises rather
/// than waiting on one running total.
#[inline(always)]
fn sum_of<T: Float>(row: &[T], f: impl Fn(T) -> T) -> T {
    let mut acc = [T::zero(); LANES];
    let mut chunks = row.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(chunk) {
            *a = *a + f(x);
        }
    }
    let tail = chunks.remainder().iter().fold(T::zero(), |a, &x| a + f(x));
    acc.iter().fold(tail, |a, &b| a + b)
}

/// Independent partial sums a row's statistics keep: two AVX registers of `f32`.
const LANES: usize = 16;
