//! Resampling one axis, the kernel of interpolation: a row-major `[outer, n, inner]` becomes
//! `[outer, m, inner]`, each output position along the axis read from one input position
//! (nearest) or two weighted ones (linear), its [`Taps`]; and the transpose, which carries a
//! gradient back. The taps follow PyTorch's `F.interpolate` (source positions as its
//! `upsample_*` kernels compute them), so a separable interpolation over several axes, one
//! axis at a time, the last first, is PyTorch's `bilinear` and `trilinear`.

use crate::alloc_prelude::*;

use num_traits::Float;

/// Where each output position along the axis reads: `(lo, hi, frac)`, the value
/// `x[lo]·(1 − frac) + x[hi]·frac`; nearest taps read `x[lo]` alone.
pub(crate) struct Taps {
    taps: Vec<(usize, usize, f64)>,
    nearest: bool,
}

impl Taps {
    /// PyTorch's `nearest` (`exact = false`: source `⌊j·n/m⌋`) and `nearest-exact`
    /// (`⌊(j + ½)·n/m⌋`), clamped to the axis. In exact arithmetic, as PyTorch's double
    /// precision gives, except `nearest` in `single` precision, where PyTorch computes
    /// `⌊j·s⌋` in `f32` with `s = 1 / factor` for an upsampling by `factor`, else `n / m`
    /// (which reads one element lower where `j·n/m` is a whole number that `f32` rounds
    /// down: 26 to 22 reads 12 for position 11), and its shortcuts: `m = n` reads in place,
    /// `m = 2n` at `j / 2`.
    pub(crate) fn nearest(
        n: usize,
        m: usize,
        (exact, single): (bool, bool),
        factor: Option<usize>,
    ) -> Taps {
        let s = match factor {
            Some(f) => (1.0 / f as f64) as f32,
            None => n as f32 / m as f32,
        };
        let last = n.saturating_sub(1);
        let (n_wide, m_wide) = (n as u128, m as u128);
        let taps = (0..m)
            .map(|j| {
                let i = if exact {
                    ((2 * j as u128 + 1) * n_wide / (2 * m_wide)) as usize
                } else if !single {
                    (j as u128 * n_wide / m_wide) as usize
                } else if m == n {
                    j
                } else if n.checked_mul(2) == Some(m) {
                    j / 2
                } else {
                    (j as f32 * s).floor() as usize
                };
                let i = i.min(last);
                (i, i, 0.0)
            })
            .collect();
        Taps {
            taps,
            nearest: true,
        }
    }

    /// PyTorch's `linear` along one axis: with `align_corners` the corners' centres meet
    /// (source `j·(n − 1)/(m − 1)`), else the source is `(j + ½)·n/m − ½`, at least 0.
    pub(crate) fn linear(n: usize, m: usize, align_corners: bool) -> Taps {
        let last = n.saturating_sub(1);
        let taps = (0..m)
            .map(|j| {
                let at = if align_corners {
                    if m > 1 {
                        j as f64 * last as f64 / (m - 1) as f64
                    } else {
                        0.0
                    }
                } else {
                    ((j as f64 + 0.5) * n as f64 / m as f64 - 0.5).max(0.0)
                };
                let lo = (at as usize).min(last);
                (lo, (lo + 1).min(last), at - lo as f64)
            })
            .collect();
        Taps {
            taps,
            nearest: false,
        }
    }

    /// The output length along the axis.
    pub(crate) fn len(&self) -> usize {
        self.taps.len()
    }

    /// The taps with their weights in `T`.
    fn weighted<T: Float>(&self) -> impl Iterator<Item = (usize, usize, T, T)> + '_ {
        self.taps.iter().map(|&(lo, hi, f)| {
            let w1 = T::from(f).unwrap_or_else(T::zero);
            let w0 = T::from(1.0 - f).unwrap_or_else(T::one);
            (lo, hi, w0, w1)
        })
    }
}

/// `x`, row-major `[outer, n, inner]`, resampled along its middle axis by `taps`: the
/// `[outer, taps.len(), inner]` result. With the `rayon` feature a large one splits its outer
/// blocks over the threads.
pub(crate) fn resample_axis<T: Float + Send + Sync>(
    x: &[T],
    (outer, n, inner): (usize, usize, usize),
    taps: &Taps,
) -> Vec<T> {
    let m = taps.len();
    let len = outer * m * inner;
    if len == 0 {
        return Vec::new();
    }
    let weights: Vec<(usize, usize, T, T)> = taps.weighted().collect();
    let mut out = vec![T::zero(); len];
    let block = |o: usize, dst: &mut [T]| {
        let src = &x[o * n * inner..(o + 1) * n * inner];
        for (row, &(lo, hi, w0, w1)) in dst.chunks_exact_mut(inner).zip(&weights) {
            let a = &src[lo * inner..(lo + 1) * inner];
            if taps.nearest {
                row.copy_from_slice(a);
                continue;
            }
            let b = &src[hi * inner..(hi + 1) * inner];
            for ((v, &a), &b) in row.iter_mut().zip(a).zip(b) {
                *v = a * w0 + b * w1;
            }
        }
    };
    by_blocks(&mut out, m * inner, len, block);
    out
}

/// The transpose of [`resample_axis`]: `g`, row-major `[outer, taps.len(), inner]`, carried
/// back to `[outer, n, inner]`, each output position's value added to the positions it read,
/// by their weights (the gradient of the resampling).
pub(crate) fn resample_axis_back<T: Float + Send + Sync>(
    g: &[T],
    (outer, n, inner): (usize, usize, usize),
    taps: &Taps,
) -> Vec<T> {
    let m = taps.len();
    let len = outer * n * inner;
    let mut out = vec![T::zero(); len];
    if len == 0 || m == 0 {
        return out;
    }
    let weights: Vec<(usize, usize, T, T)> = taps.weighted().collect();
    let block = |o: usize, dst: &mut [T]| {
        let src = &g[o * m * inner..(o + 1) * m * inner];
        for (row, &(lo, hi, w0, w1)) in src.chunks_exact(inner).zip(&weights) {
            let a = &mut dst[lo * inner..(lo + 1) * inner];
            if taps.nearest {
                for (d, &v) in a.iter_mut().zip(row) {
                    *d = *d + v;
                }
                continue;
            }
            for (d, &v) in a.iter_mut().zip(row) {
                *d = *d + v * w0;
            }
            let b = &mut dst[hi * inner..(hi + 1) * inner];
            for (d, &v) in b.iter_mut().zip(row) {
                *d = *d + v * w1;
            }
        }
    };
    by_blocks(&mut out, n * inner, len, block);
    out
}

/// `block(o, chunk)` for each `chunk` of `out` (`chunk_len` elements each): split over the
/// threads when the output is large, else in turn.
fn by_blocks<T: Send>(
    out: &mut [T],
    chunk_len: usize,
    len: usize,
    block: impl Fn(usize, &mut [T]) + Sync,
) {
    #[cfg(feature = "rayon")]
    if len >= crate::engine::split::PARALLEL_MIN_ELEMENTS
        && crate::engine::threads::count() > 1
        && len > chunk_len
    {
        crate::engine::threads::chunks(out, chunk_len, block);
        return;
    }
    let _ = len;
    for (o, dst) in out.chunks_exact_mut(chunk_len).enumerate() {
        block(o, dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transpose_is_the_adjoint() {
        // <R x, g> = <x, R^T g> for random-ish x, g on every kind of taps.
        let (outer, n, inner, m) = (2, 5, 3, 12);
        let x: Vec<f64> = (0..outer * n * inner)
            .map(|i| ((i * 7) % 11) as f64 - 5.0)
            .collect();
        let g: Vec<f64> = (0..outer * m * inner)
            .map(|i| ((i * 5) % 13) as f64 - 6.0)
            .collect();
        for taps in [
            Taps::nearest(n, m, (false, true), None),
            Taps::nearest(n, m, (true, false), None),
            Taps::linear(n, m, false),
            Taps::linear(n, m, true),
            Taps::linear(n, 3, false),
        ] {
            let m = taps.len();
            let g = &g[..outer * m * inner];
            let y = resample_axis(&x, (outer, n, inner), &taps);
            let back = resample_axis_back(g, (outer, n, inner), &taps);
            let lhs: f64 = y.iter().zip(g).map(|(a, b)| a * b).sum();
            let rhs: f64 = x.iter().zip(&back).map(|(a, b)| a * b).sum();
            assert!((lhs - rhs).abs() < 1e-9, "{lhs} against {rhs}");
        }
    }

    #[test]
    fn doubling_reads_each_element_twice() {
        let t = Taps::nearest(3, 6, (false, true), Some(2));
        let y = resample_axis(&[1.0f32, 2.0, 3.0], (1, 3, 1), &t);
        assert_eq!(y, [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
        let t = Taps::linear(2, 4, false);
        let y = resample_axis(&[0.0f64, 4.0], (1, 2, 1), &t);
        assert_eq!(y, [0.0, 1.0, 3.0, 4.0]);
    }
}
