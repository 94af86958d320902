//! Attention's products for a generated token, where one KV head's few query rows (a
//! group's heads at one position) meet every cached key and value: each key and value row
//! is read once, prefetched a few rows ahead (a KV head's rows lie a stride apart, one page
//! apart in a `[KSEQ, KVH, HD]` cache, which the hardware prefetchers do not follow), and
//! dotted with, or added into, every query row while in cache. As GEMM calls the four rows
//! filled a quarter of the GEMM crate's 16-row kernel: one query against 2048 keys of 32
//! heads over 8 took 5.9 ms, 2.4 ms so (PyTorch: 2.6 ms; `cargo bench --bench attention`).

#![allow(unsafe_code)]

#[cfg(all(feature = "std", target_arch = "x86_64"))]
use super::{isa, Isa};
use crate::engine::summation::combine_lanes;

/// `Σ a[p]·b[p]` over the shorter of the two, in 16 lanes (which the compiler vectorises
/// without reassociating anything) added pairwise at the end.
#[inline(always)]
fn lane_dot<T>(a: &[T], b: &[T]) -> T
where
    T: Copy + num_traits::Zero + core::ops::Mul<Output = T>,
{
    const L: usize = 16;
    let mut acc = [T::zero(); L];
    let (ca, cb) = (a.chunks_exact(L), b.chunks_exact(L));
    let mut tail = T::zero();
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail = tail + *x * *y;
    }
    for (x, y) in ca.zip(cb) {
        for l in 0..L {
            acc[l] = acc[l] + x[l] * y[l];
        }
    }
    combine_lanes(acc, |x, y| x + y) + tail
}

/// How many rows ahead [`dots_by_rows`] and [`weighted_rows`] prefetch.
const AHEAD: usize = 4;

/// Asks the CPU to bring the `len` elements of `data` from `start` into the cache: the rows
/// a few-rows kernel reads next lie a stride apart (a KV head's keys, one page apart in a
/// `[KSEQ, KVH, HD]` cache), which the hardware prefetchers do not follow across pages.
/// Nothing where the range leaves `data` or off x86-64.
#[inline(always)]
fn prefetch_row<T>(data: &[T], start: usize, len: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(row) = data.get(start..start.saturating_add(len)) {
        let bytes = core::mem::size_of_val(row);
        let base = row.as_ptr().cast::<i8>();
        for line in (0..bytes).step_by(64) {
            // SAFETY: `line < bytes`, so the address lies inside `row`, a slice of `data`; a
            // prefetch reads nothing into the program and writes nothing.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    base.add(line),
                )
            };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (data, start, len);
}

/// A few rows against many others: `out[i·n + j] = rows[i] · others[j]` for the `m` rows of
/// `d` elements (one after the other) and `n = out.len() / m` others of `d` elements, each
/// `stride` after the last. Each other row is read once and dotted with every row while in
/// cache: attention's scores for a generated token (a group's query rows by each key).
#[inline(always)]
fn dots_by_rows<T>(
    (rows, m, d): (&[T], usize, usize),
    (others, stride): (&[T], usize),
    out: &mut [T],
) where
    T: Copy + num_traits::Zero + core::ops::Mul<Output = T>,
{
    let n = out.len() / m.max(1);
    for j in 0..n {
        prefetch_row(others, (j + AHEAD) * stride, d);
        let other = &others[j * stride..j * stride + d];
        for i in 0..m {
            out[i * n + j] = lane_dot(&rows[i * d..(i + 1) * d], other);
        }
    }
}

/// `acc[i·c + x] += Σ_j weights[i·n + j] · others[j·stride + x]`: the `m = weights.len() / n`
/// rows of weights by `n` rows of `c` elements, each `stride` after the last, added into `m`
/// rows of `c` (one after the other). Each row of `others` is read once: attention's
/// weighted values for a generated token.
#[inline(always)]
fn weighted_rows<T>(
    (weights, n): (&[T], usize),
    (others, stride, c): (&[T], usize, usize),
    acc: &mut [T],
) where
    T: Copy + core::ops::Add<Output = T> + core::ops::Mul<Output = T>,
{
    let m = weights.len() / n.max(1);
    for j in 0..n {
        prefetch_row(others, (j + AHEAD) * stride, c);
        let other = &others[j * stride..j * stride + c];
        for i in 0..m {
            let p = weights[i * n + j];
            for (a, &x) in acc[i * c..(i + 1) * c].iter_mut().zip(other) {
                *a = *a + p * x;
            }
        }
    }
}

dispatched!(
    /// [`dots_by_rows`] on the CPU's best instruction set.
    dots_by_rows_best, dots_by_rows, [T],
    (rows: (&[T], usize, usize), others: (&[T], usize), out: &mut [T]) -> (),
    where T: num_traits::Zero + core::ops::Mul<Output = T>
);
dispatched!(
    /// [`weighted_rows`] on the CPU's best instruction set.
    weighted_rows_best, weighted_rows, [T],
    (weights: (&[T], usize), others: (&[T], usize, usize), acc: &mut [T]) -> (),
    where T: core::ops::Add<Output = T> + core::ops::Mul<Output = T>
);

/// [`dots_by_rows`] on the calling thread and the CPU's best instruction set.
///
/// # Panics
///
/// When `others` holds fewer rows than `out` asks for (a caller's bug).
#[inline]
pub(crate) fn few_rows_dots<T>(rows: (&[T], usize, usize), others: (&[T], usize), out: &mut [T])
where
    T: Copy + num_traits::Zero + core::ops::Mul<Output = T>,
{
    dots_by_rows_best(rows, others, out)
}

/// [`weighted_rows`] on the calling thread and the CPU's best instruction set.
///
/// # Panics
///
/// When `others` holds fewer rows than `weights` has columns (a caller's bug).
#[inline]
pub(crate) fn few_rows_weighted<T>(
    weights: (&[T], usize),
    others: (&[T], usize, usize),
    acc: &mut [T],
) where
    T: Copy + core::ops::Add<Output = T> + core::ops::Mul<Output = T>,
{
    weighted_rows_best(weights, others, acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The few-rows kernels against plain loops: 1–8 rows, rows of 1–40 elements (no lane
    /// block, one, one and a remainder), others a stride apart with the prefetches reaching
    /// past the end, and the weighted sums added to what the accumulators held.
    #[test]
    fn few_rows_kernels_are_their_plain_loops() {
        for m in [1, 3, 8] {
            for d in [1, 16, 40] {
                let (n, stride) = (11, d + 5);
                let rows: Vec<f64> = (0..m * d).map(|i| ((i * 7) % 13) as f64 - 6.0).collect();
                let others: Vec<f64> = (0..n * stride)
                    .map(|i| ((i * 5) % 11) as f64 / 4.0)
                    .collect();
                let mut scores = vec![0.0; m * n];
                few_rows_dots((&rows, m, d), (&others, stride), &mut scores);
                for (i, j) in (0..m).flat_map(|i| (0..n).map(move |j| (i, j))) {
                    let want: f64 = (0..d)
                        .map(|p| rows[i * d + p] * others[j * stride + p])
                        .sum();
                    assert_eq!(scores[i * n + j], want, "{m} rows of {d}: score ({i}, {j})");
                }
                let mut acc = vec![1.0; m * d];
                few_rows_weighted((&scores, n), (&others, stride, d), &mut acc);
                for (i, x) in (0..m).flat_map(|i| (0..d).map(move |x| (i, x))) {
                    let want: f64 = 1.0
                        + (0..n)
                            .map(|j| scores[i * n + j] * others[j * stride + x])
                            .sum::<f64>();
                    let got = acc[i * d + x];
                    assert!(
                        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                        "{m} rows of {d}: ({i}, {x}): {got} against {want}"
                    );
                }
            }
        }
    }
}
