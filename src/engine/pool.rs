//! Pooling over box windows, one axis at a time (a box window is separable): along an axis
//! with `inner` elements after it, each output row is the fold of whole input rows,
//! elementwise, which vectorises; along the last axis (`inner` of 1) the whole, evenly
//! spaced windows are folded at every position by shifted slices and the result read every
//! `stride` positions, which vectorises too. The operation ([`tensor`](crate::tensor)'s
//! pool) works out each axis' windows; the average's divisor is the product of the axes'
//! divisors, as PyTorch's is.
//!
//! The pooled axes and every axis after them form a block that each index of the axes
//! before them pools on its own, through buffers that stay in the cache: blocks split over
//! threads in pieces; a single block splits each axis' rows instead.

use crate::alloc_prelude::*;

use core::ops::Range;

use num_traits::Float;

use super::reduce::pick;
use super::split::piece_rows;

/// How a pool folds a window: `combine` two values, then `finish` the folded value with the
/// window's divisor along one axis.
pub(crate) trait Fold<T>: Sync {
    fn combine(&self, a: T, b: T) -> T;
    fn finish(&self, acc: T, divisor: usize) -> T;
}

/// The maximum (NaN propagates, as in PyTorch).
pub(crate) struct Max;
impl<T: Copy + PartialOrd> Fold<T> for Max {
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        pick::<true, T>(a, b)
    }
    #[inline(always)]
    fn finish(&self, acc: T, _: usize) -> T {
        acc
    }
}

/// The average: a sum over the divisor.
pub(crate) struct Mean;
impl<T: Float> Fold<T> for Mean {
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        a + b
    }
    #[inline(always)]
    fn finish(&self, acc: T, divisor: usize) -> T {
        acc / T::from(divisor).unwrap_or_else(T::infinity)
    }
}

/// The windows along one pooled axis: for each output position its first and past-last
/// input positions (never empty) and its divisor, and the stride between windows.
#[derive(Clone, Debug)]
pub(crate) struct Windows {
    pub(crate) cells: Vec<(usize, usize, usize)>,
    pub(crate) stride: usize,
}

impl Windows {
    /// The output positions whose windows are whole (as long as the longest) and `stride`
    /// apart, a run, with that length: every position but a few at each end.
    fn whole(&self) -> (Range<usize>, usize) {
        let kernel = self.cells.iter().map(|&(lo, hi, _)| hi - lo).max();
        let Some(kernel) = kernel else {
            return (0..0, 0);
        };
        let is_whole = |&(lo, hi, _): &(usize, usize, usize)| hi - lo == kernel;
        let Some(first) = self.cells.iter().position(is_whole) else {
            return (0..0, kernel);
        };
        let start = self.cells[first].0;
        let len = self.cells[first..]
            .iter()
            .enumerate()
            .take_while(|&(i, c)| is_whole(c) && c.0 == start + i * self.stride)
            .count();
        (first..first + len, kernel)
    }
}

/// `x`, row-major with these `sizes`, pooled along each `(axis, windows)` in turn: the
/// result, row-major, its sizes those of `x` with each pooled axis' output length.
pub(crate) fn pool_axes<T: Copy + Send + Sync>(
    x: &[T],
    sizes: &[usize],
    axes: &[(usize, Windows)],
    fold: &impl Fold<T>,
) -> Vec<T> {
    let first = axes.iter().map(|a| a.0).min().unwrap_or(sizes.len());
    let outer: usize = sizes[..first].iter().product();
    let block_in: usize = sizes[first..].iter().product();
    // Each axis' pass inside a block: its rows before it, its length, the elements after it.
    let mut cur = sizes[first..].to_vec();
    let passes: Vec<Pass<'_>> = axes
        .iter()
        .map(|(k, w)| {
            let k = k - first;
            let dims = (
                cur[..k].iter().product(),
                cur[k],
                cur[k + 1..].iter().product(),
            );
            cur[k] = w.cells.len();
            Pass::new(dims, w)
        })
        .collect();
    let block_out: usize = cur.iter().product();
    let len = outer * block_out;
    if len == 0 || block_in == 0 {
        return Vec::new();
    }
    // Huge pages asked for before the first write (a large output's page faults cost as much
    // as the pool itself: `benches/cnn.rs`, the network against its stages).
    let mut out = Vec::with_capacity(len);
    super::raw::advise_huge_pages(&out);
    out.resize(len, x[0]);
    if outer == 1 {
        block(x, &mut out, &passes, fold, &mut Scratch::default(), true);
        return out;
    }
    by_rows(&mut out, block_out, x.len(), |first, dst| {
        let mut scratch = Scratch::default();
        for (o, dst) in (first..).zip(dst.chunks_exact_mut(block_out)) {
            let src = &x[o * block_in..(o + 1) * block_in];
            block(src, dst, &passes, fold, &mut scratch, false);
        }
    });
    out
}

/// One axis pooled: `x` is `[outer, n, inner]` row-major, the result `[outer, m, inner]`
/// for `m` windows, its rows split over threads where it is large.
pub(crate) fn pool_axis<T: Copy + Send + Sync>(
    x: &[T],
    dims: (usize, usize, usize),
    windows: &Windows,
    fold: &impl Fold<T>,
) -> Vec<T> {
    let (outer, _, inner) = dims;
    let len = outer * windows.cells.len() * inner;
    if len == 0 {
        return Vec::new();
    }
    let mut out = vec![x[0]; len];
    let pass = Pass::new(dims, windows);
    pass.run(x, &mut out, fold, &mut Vec::new(), true);
    out
}

/// A block's buffers, kept from block to block: the output of every pass but the last
/// (two, used in turn), and the last axis' folds at every position.
struct Scratch<T> {
    between: [Vec<T>; 2],
    row: Vec<T>,
}

impl<T> Default for Scratch<T> {
    fn default() -> Self {
        Scratch {
            between: [Vec::new(), Vec::new()],
            row: Vec::new(),
        }
    }
}

/// One axis' pass over a block: `(rows before, length, elements after)`, its windows and
/// their whole run ([`Windows::whole`]).
struct Pass<'w> {
    dims: (usize, usize, usize),
    windows: &'w Windows,
    whole: (Range<usize>, usize),
}

/// The block `src` pooled by each pass in turn into `dst`.
fn block<T: Copy + Send + Sync>(
    src: &[T],
    dst: &mut [T],
    passes: &[Pass<'_>],
    fold: &impl Fold<T>,
    scratch: &mut Scratch<T>,
    split: bool,
) {
    let Some((last, before)) = passes.split_last() else {
        dst.copy_from_slice(src);
        return;
    };
    let Scratch { between, row } = scratch;
    let [mut a, mut b] = core::mem::take(between);
    for (i, pass) in before.iter().enumerate() {
        let (o, _, inner) = pass.dims;
        b.resize(o * pass.windows.cells.len() * inner, src[0]);
        pass.run(if i == 0 { src } else { &a }, &mut b, fold, row, split);
        core::mem::swap(&mut a, &mut b);
    }
    last.run(
        if before.is_empty() { src } else { &a },
        dst,
        fold,
        row,
        split,
    );
    *between = [a, b];
}

impl<'w> Pass<'w> {
    fn new(dims: (usize, usize, usize), windows: &'w Windows) -> Self {
        let whole = windows.whole();
        Pass {
            dims,
            windows,
            whole,
        }
    }

    /// `x` pooled into `out`; with `split`, rows in pieces over threads where they are many.
    fn run<T: Copy + Send + Sync>(
        &self,
        x: &[T],
        out: &mut [T],
        fold: &impl Fold<T>,
        row: &mut Vec<T>,
        split: bool,
    ) {
        let (outer, n, inner) = self.dims;
        let m = self.windows.cells.len();
        let each = |first: usize, dst: &mut [T], row: &mut Vec<T>| {
            let count = dst.len() / (m * inner).max(1);
            let src = &x[first * n * inner..(first + count) * n * inner];
            if inner == 1 {
                last_axis((src, n), dst, (self.windows, &self.whole), fold, row);
            } else {
                for (src, dst) in src
                    .chunks_exact(n * inner)
                    .zip(dst.chunks_exact_mut(m * inner))
                {
                    rows(src, dst, inner, self.windows, fold);
                }
            }
        };
        if split {
            by_rows(out, m * inner, outer * n * inner, |first, dst| {
                each(first, dst, &mut Vec::new())
            });
        } else {
            each(0, out, row);
        }
    }
}

/// One `[n, inner]` block pooled along its rows into `[m, inner]`.
fn rows<T: Copy>(src: &[T], dst: &mut [T], inner: usize, w: &Windows, fold: &impl Fold<T>) {
    for (out, &(lo, hi, divisor)) in dst.chunks_exact_mut(inner).zip(&w.cells) {
        let next = (hi > lo + 1).then(|| &src[(lo + 1) * inner..(lo + 2) * inner]);
        first_rows(out, &src[lo * inner..(lo + 1) * inner], next, fold);
        for t in lo + 2..hi {
            combine_rows(out, &src[t * inner..(t + 1) * inner], fold);
        }
        out.iter_mut().for_each(|v| *v = fold.finish(*v, divisor));
    }
}

/// Rows pooled along themselves (`src` holds whole rows of the axis' length `n`, `dst` their
/// pooled rows): the whole windows of every row at once, by shifted slices of all the rows
/// folded at every position (into `acc`; a position whose window would run into the next
/// row is never read) and read every `stride` positions; a window at an end of a row by its
/// own fold. Both fold a window's elements in order, so the sums are the same either way.
fn last_axis<T: Copy>(
    (src, n): (&[T], usize),
    dst: &mut [T],
    (w, (whole, kernel)): (&Windows, &(Range<usize>, usize)),
    fold: &impl Fold<T>,
    acc: &mut Vec<T>,
) {
    let m = w.cells.len();
    if !whole.is_empty() {
        let span = src.len() + 1 - kernel;
        acc.resize(span, src[0]);
        first_rows(acc, &src[..span], src.get(1..1 + span), fold);
        for t in 2..*kernel {
            combine_rows(acc, &src[t..t + span], fold);
        }
    }
    for (r, out) in dst.chunks_exact_mut(m).enumerate() {
        let row = &src[r * n..(r + 1) * n];
        for j in (0..whole.start).chain(whole.end..m) {
            let (lo, hi, divisor) = w.cells[j];
            let folded = row[lo + 1..hi]
                .iter()
                .fold(row[lo], |acc, &e| fold.combine(acc, e));
            out[j] = fold.finish(folded, divisor);
        }
        if whole.is_empty() {
            continue;
        }
        let at = r * n + w.cells[whole.start].0;
        let picked = acc[at..].chunks(w.stride).map(|c| c[0]);
        let cells = &w.cells[whole.clone()];
        for ((v, a), &(_, _, divisor)) in out[whole.clone()].iter_mut().zip(picked).zip(cells) {
            *v = fold.finish(a, divisor);
        }
    }
}

/// `out` = the first row of a window (`a`) folded with the second (`b`, if the window has
/// one), vectorised on the CPU's best instruction set.
fn first_rows<T: Copy>(out: &mut [T], a: &[T], b: Option<&[T]>, fold: &impl Fold<T>) {
    match b {
        Some(b) => super::raw::zip_into_slice(out, (a, b), |x, y| fold.combine(x, y)),
        None => out.copy_from_slice(a),
    }
}

/// `row[i] = combine(row[i], x[i])`, vectorised on the CPU's best instruction set.
#[inline]
fn combine_rows<T: Copy>(row: &mut [T], x: &[T], fold: &impl Fold<T>) {
    super::raw::fold_into_slice(row, x, |a, b| fold.combine(a, b));
}

/// `f(first, rows)` over `out` cut into rows of `row_len`: in pieces of rows over threads
/// (the `rayon` feature) where `elements` of input make a split pay, else in one call.
fn by_rows<T: Send>(
    out: &mut [T],
    row_len: usize,
    elements: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let rows = out.len() / row_len.max(1);
    let per = piece_rows(rows, elements);
    #[cfg(feature = "rayon")]
    if per < rows {
        super::threads::chunks(out, per * row_len, |i, chunk| f(i * per, chunk));
        return;
    }
    let _ = per;
    f(0, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows of `kernel` every `stride` over `n` with `padding` each side, clipped.
    fn windows(n: usize, kernel: usize, stride: usize, padding: usize) -> Windows {
        let m = (n + 2 * padding - kernel) / stride + 1;
        let cells = (0..m)
            .map(|j| {
                let start = (j * stride) as isize - padding as isize;
                let lo = start.max(0) as usize;
                let hi = ((start + kernel as isize) as usize).min(n);
                (lo, hi, hi - lo)
            })
            .collect();
        Windows { cells, stride }
    }

    /// Each window folded on its own, in order.
    fn naive(x: &[f64], (outer, n, inner): (usize, usize, usize), w: &Windows) -> Vec<f64> {
        let mut out = Vec::new();
        for o in 0..outer {
            for &(lo, hi, d) in &w.cells {
                for i in 0..inner {
                    let at = |t: usize| x[(o * n + t) * inner + i];
                    out.push((lo + 1..hi).fold(at(lo), |a, t| a + at(t)) / d as f64);
                }
            }
        }
        out
    }

    #[test]
    fn every_axis_pass_folds_each_window_in_order() {
        for (n, k, s, p) in [
            (7, 3, 2, 1),
            (8, 2, 2, 0),
            (9, 3, 1, 1),
            (5, 5, 1, 2),
            (4, 3, 3, 1),
        ] {
            let w = windows(n, k, s, p);
            for inner in [1, 3] {
                let dims = (2, n, inner);
                let x: Vec<f64> = (0..2 * n * inner)
                    .map(|i| (i * 37 % 11) as f64 * 0.1)
                    .collect();
                let got = pool_axis(&x, dims, &w, &Mean);
                assert_eq!(got, naive(&x, dims, &w), "{n} {k} {s} {p} inner {inner}");
            }
        }
    }

    #[test]
    fn whole_windows_are_the_evenly_spaced_run_of_the_longest() {
        assert_eq!(windows(7, 3, 2, 1).whole(), (1..3, 3));
        assert_eq!(windows(8, 2, 2, 0).whole(), (0..4, 2));
        // Every window clipped to the whole axis: one whole window, not a run of equal ones.
        assert_eq!(windows(2, 5, 1, 2).whole(), (0..1, 2));
    }

    #[test]
    fn a_block_of_two_axes_pools_as_two_passes_and_keeps_a_nan() {
        let (w7, w5) = (windows(7, 3, 2, 1), windows(5, 2, 1, 0));
        let mut x: Vec<f64> = (0..3 * 7 * 5).map(|i| (i * 13 % 17) as f64).collect();
        x[40] = f64::NAN;
        let two = pool_axes(&x, &[3, 7, 5], &[(2, w5.clone()), (1, w7.clone())], &Max);
        let first = pool_axis(&x, (21, 5, 1), &w5, &Max);
        let want = pool_axis(&first, (3, 7, 4), &w7, &Max);
        assert_eq!(two.len(), want.len());
        for (a, b) in two.iter().zip(&want) {
            assert!(a == b || (a.is_nan() && b.is_nan()));
        }
        assert!(two.iter().any(|v| v.is_nan()));
    }
}
