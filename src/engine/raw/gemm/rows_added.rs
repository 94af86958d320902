//! A few rows (a generated token's) by a matrix stored as rows of its columns (a weight
//! `[in, out]`): each of its rows read once and added, scaled, into the output rows.

use core::ops::{Add, Mul};

use num_traits::Zero;

use super::Mat;
#[cfg(feature = "rayon")]
use super::DOT_PARALLEL_MIN;

/// The most rows [`rows_added`] takes: a generated token's (a few positions).
const FEW_ROWS: usize = 4;

/// `c (+)= a · b` for at most [`FEW_ROWS`] rows of `a` (one after the other) by `b` stored as
/// rows of `n` (a weight `[in, out]`) into output rows one after the other: each row of `b`
/// read once and added, scaled by the rows' elements, into the output rows, which stay in
/// cache ([`AddsRowsOf`]); false (nothing done) for other layouts. With the GEMM crate's
/// one-row product, a generated token of the Llama example (dim 512, one thread) took
/// 7.3–7.7 ms with its layers' weights stored so, against 5.4–5.7 ms stored `[out, in]`.
/// With the `rayon` feature and `split`, a weight of at least
/// [`DOT_PARALLEL_MIN`] elements by one row is cut into blocks of columns, one a piece.
pub(super) fn rows_added<T>(
    (a, ma): (&[T], Mat),
    (b, mb): (&[T], Mat),
    (c, mc): (&mut [T], Mat),
    accumulate: bool,
    split: bool,
) -> bool
where
    T: AddsRowsOf + Copy + Send + Sync + Zero + Add<Output = T> + Mul<Output = T>,
{
    if !takes(ma, mb, mc) {
        return false;
    }
    let (m, k, n) = (ma.rows, ma.cols, mb.cols);
    let x = &a[ma.offset..ma.offset + m * k];
    let out = &mut c[mc.offset..mc.offset + m * n];
    if !accumulate {
        out.fill(T::zero());
    }
    #[cfg(feature = "rayon")]
    if let Some(piece) = (split && m == 1)
        .then(|| crate::engine::split::rows_per_piece_from(n, n * k, DOT_PARALLEL_MIN))
        .flatten()
    {
        crate::engine::threads::chunks(out, piece, |i, cells| {
            let rows = &b[mb.offset + i * piece..];
            T::add_rows((x, 1, k), (rows, mb.rs, cells.len()), (cells, n));
        });
        return true;
    }
    let _ = split;
    T::add_rows((x, m, k), (&b[mb.offset..], mb.rs, n), (out, n));
    true
}

/// Whether [`rows_added`] takes the product of these matrices: at most [`FEW_ROWS`] rows of
/// `a` one after the other, by `b` stored as rows, into output rows one after the other.
pub(super) fn takes(ma: Mat, mb: Mat, mc: Mat) -> bool {
    ma.rows <= FEW_ROWS
        && mb.cs == 1
        && mb.rs >= mb.cols
        && ma.rows_in_order()
        && mc.rows_in_order()
}

/// How [`rows_added`] adds the rows for an element: `f32` by `half_dot::add_rows` (four
/// weight rows added into each vector of the output between its load and its store: in a
/// generated token's profile 0.86x the time of `few_rows_weighted`, which loads and stores
/// the output for each weight row), the others by `few_rows_weighted`.
pub(super) trait AddsRowsOf: Copy + Zero + Add<Output = Self> + Mul<Output = Self> {
    /// `out[i][j] += Σ_p x[i][p] · w[p·stride + j]`, as `half_dot::add_rows` takes them.
    fn add_rows(
        (x, m, k): (&[Self], usize, usize),
        (w, stride, width): (&[Self], usize, usize),
        (out, out_rs): (&mut [Self], usize),
    ) {
        debug_assert!(m == 1 || out_rs == width, "output rows one after the other");
        let _ = (m, out_rs);
        super::super::few_rows_weighted((x, k), (w, stride, width), out);
    }
}

impl AddsRowsOf for f64 {}

impl AddsRowsOf for f32 {
    fn add_rows(x: (&[f32], usize, usize), w: (&[f32], usize, usize), out: (&mut [f32], usize)) {
        if !super::super::half_dot::add_rows(x, w, (&mut *out.0, out.1), true) {
            super::super::few_rows_weighted((x.0, x.2), w, out.0);
        }
    }
}
