//! Products of a few `f32` rows (a generated token's) by a half-precision weight, each
//! weight element read once from memory and widened in vector registers (`half_dot`): a
//! weight stored `[out, in]` dotted row by row ([`rows_by_weight`]), one stored `[in, out]`
//! added row by row into the output rows ([`weight_rows_added`]).

use alloc::borrow::Cow;
use alloc::vec;
use alloc::vec::Vec;

use super::super::gemm::Mat;
#[cfg(feature = "rayon")]
use super::super::gemm::DOT_PARALLEL_MIN;
use super::super::half_dot::{add_rows, dot_rows, Lanes};
use super::Half;
#[cfg(feature = "rayon")]
use crate::engine::split::rows_per_piece_from;

/// `c (+)= a · b` by [`dot_rows`] for `b` stored as rows of `k` (columns of the product) and
/// `a`'s rows and `c`'s columns contiguous: false (nothing written) where the CPU has no
/// kernel. With the `rayon` feature and `split`, a weight of at least
/// [`DOT_PARALLEL_MIN`] elements is cut into runs of rows (the pieces of
/// [`rows_per_piece_from`]), each with its block of the output.
pub(super) fn rows_by_weight<H: Lanes + Half>(
    (a, ma): (&[f32], Mat),
    (b, mb): (&[H], Mat),
    (c, mc): (&mut [f32], Mat),
    accumulate: bool,
    split: bool,
) -> bool {
    let (m, k, n) = (ma.rows, mb.rows, mb.cols);
    if m > 1 && ma.rs != k {
        // Rows apart: gathered one after the other (a few rows of `k`).
        return dot_rows_gathered((a, ma), (b, mb), (c, mc), accumulate, split);
    }
    let x = &a[ma.offset..ma.offset + m * k];
    let w = &b[mb.offset..mb.offset + n * k];
    let out = &mut c[mc.offset..];
    #[cfg(feature = "rayon")]
    if let Some(piece) = (split && m == 1 && H::kernel().is_some())
        .then(|| rows_per_piece_from(n, n * k, DOT_PARALLEL_MIN))
        .flatten()
    {
        crate::engine::threads::chunks(&mut out[..n], piece, |i, cells| {
            let rows = &w[i * piece * k..(i * piece + cells.len()) * k];
            dot_rows((x, 1, k), (rows, cells.len()), (cells, n), accumulate);
        });
        return true;
    }
    let _ = split;
    dot_rows((x, m, k), (w, n), (out, mc.rs), accumulate)
}

/// How many `f32` a block of widened weight rows holds at most where the CPU has no
/// [`add_rows`] kernel (64 KiB: it stays in the L2 cache while the rows are added).
const ROWS_BLOCK: usize = 16 * 1024;

/// `c (+)= a · b` for a few rows of `a` and `b` stored as rows of `n` (a weight `[in, out]`)
/// by [`add_rows`]: each weight row read once, widened in registers and added, scaled, into
/// accumulators of a block of output columns. The tiles' path (tiles 64 columns wide, a GEMM
/// call of one row each) took 4.5x (bf16) and 9x (f16) the time of a weight stored
/// `[out, in]`. Where the CPU has no kernel, each block of weight rows is widened into a
/// buffer in cache and added by `few_rows_weighted`. With the `rayon` feature and `split`,
/// a weight of at least [`DOT_PARALLEL_MIN`] elements by one row is cut into blocks of
/// columns, one a piece.
pub(super) fn weight_rows_added<H: Lanes + Half>(
    (a, ma): (&[f32], Mat),
    (b, mb): (&[H], Mat),
    (c, mc): (&mut [f32], Mat),
    accumulate: bool,
    split: bool,
) {
    let (m, k, n) = (ma.rows, mb.rows, mb.cols);
    // The activation rows one after the other: as they stand, or copied so (a generated
    // token's product is on the hot path: no copy where none is needed).
    let x: Cow<'_, [f32]> = if ma.rows_in_order() {
        Cow::Borrowed(&a[ma.offset..ma.offset + m * k])
    } else {
        (0..m)
            .flat_map(|i| (0..k).map(move |p| a[ma.offset + i * ma.rs + p * ma.cs]))
            .collect()
    };
    // Columns `j0..j0 + w` of the product added into `out`'s rows (`out_rs` apart).
    let columns = |j0: usize, w: usize, out: &mut [f32], out_rs: usize, accumulate: bool| {
        let rows = (&b[mb.offset + j0..], mb.rs, w);
        if !add_rows((&x, m, k), rows, (&mut *out, out_rs), accumulate) {
            add_rows_widened((&x, m, k), rows, (out, out_rs), accumulate);
        }
    };
    if mc.cs != 1 {
        // Columns apart: the rows computed whole, then written.
        let mut sums = vec![0.0f32; m * n];
        columns(0, n, &mut sums, n, false);
        for (i, row) in sums.chunks_exact(n).enumerate() {
            for (j, &s) in row.iter().enumerate() {
                let cell = &mut c[mc.offset + i * mc.rs + j * mc.cs];
                *cell = if accumulate { *cell + s } else { s };
            }
        }
        return;
    }
    #[cfg(feature = "rayon")]
    if let Some(piece) = (split && m == 1)
        .then(|| rows_per_piece_from(n, n * k, DOT_PARALLEL_MIN))
        .flatten()
    {
        let out = &mut c[mc.offset..mc.offset + n];
        crate::engine::threads::chunks(out, piece, |i, cells| {
            columns(i * piece, cells.len(), cells, n, accumulate);
        });
        return;
    }
    let _ = split;
    columns(0, n, &mut c[mc.offset..], mc.rs, accumulate);
}

/// [`add_rows`] where the CPU has no kernel: each block of weight rows widened into a buffer
/// in cache, then added into the output rows by `few_rows_weighted`.
pub(super) fn add_rows_widened<H: Half>(
    (x, m, k): (&[f32], usize, usize),
    (rows, stride, w): (&[H], usize, usize),
    (out, out_rs): (&mut [f32], usize),
    accumulate: bool,
) {
    let r = (ROWS_BLOCK / w.max(1)).clamp(1, k.max(1));
    let (mut wide, mut xs) = (vec![0.0f32; r * w], vec![0.0f32; m * r]);
    let mut sums = vec![0.0f32; m * w];
    for p0 in (0..k).step_by(r) {
        let r = r.min(k - p0);
        for (q, row) in wide.chunks_exact_mut(w.max(1)).take(r).enumerate() {
            H::widen(&rows[(p0 + q) * stride..(p0 + q) * stride + w], row);
        }
        for (i, xs) in xs.chunks_exact_mut(r).take(m).enumerate() {
            xs.copy_from_slice(&x[i * k + p0..i * k + p0 + r]);
        }
        super::super::few_rows_weighted((&xs[..m * r], r), (&wide[..r * w], w, w), &mut sums);
    }
    for (i, sums) in sums.chunks_exact(w.max(1)).enumerate() {
        for (cell, &s) in out[i * out_rs..i * out_rs + w].iter_mut().zip(sums) {
            *cell = if accumulate { *cell + s } else { s };
        }
    }
}

/// [`rows_by_weight`] for rows of `a` that are not one after the other: copied so first.
fn dot_rows_gathered<H: Lanes + Half>(
    (a, ma): (&[f32], Mat),
    b: (&[H], Mat),
    c: (&mut [f32], Mat),
    accumulate: bool,
    split: bool,
) -> bool {
    let k = ma.cols;
    let rows: Vec<f32> = (0..ma.rows)
        .flat_map(|i| &a[ma.offset + i * ma.rs..ma.offset + i * ma.rs + k])
        .copied()
        .collect();
    let dense = Mat::new(0, ma.rows, k, k, 1);
    rows_by_weight((&rows, dense), b, c, accumulate, split)
}
