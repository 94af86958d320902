//! Resampling one axis, the kernel of interpolation: a row-major `[outer, n, inner]` becomes
//! `[outer, m, inner]`, each output position along the axis read from one input position
//! (nearest), two weighted ones (linear) or a run of consecutive weighted ones (cubic, area
//! and the antialiased filters), its [`Taps`]; and the transpose, which carries a gradient
//! back. The taps follow PyTorch's `F.interpolate` (source positions and weights as its
//! `upsample_*` kernels compute them), so a separable interpolation over several axes, one
//! axis at a time, the last first, is PyTorch's `bilinear`, `bicubic` and `trilinear`.

use crate::alloc_prelude::*;

use num_traits::Float;

/// Where each output position along the axis reads: `(lo, hi, frac)`, the value
/// `x[lo]·(1 − frac) + x[hi]·frac`; nearest taps read `x[lo]` alone; wide taps (`wide`)
/// read a run of positions instead, `taps` then empty.
pub(crate) struct Taps {
    taps: Vec<(usize, usize, f64)>,
    nearest: bool,
    wide: Option<Wide>,
}

/// Taps wider than two positions: output position `j` reads `x[first + k]·weights[at + k]`
/// for `k < len`, `spans[j] = (first, at, len)`.
struct Wide {
    spans: Vec<(usize, usize, usize)>,
    weights: Vec<f64>,
}

impl Wide {
    /// The taps from each output position's first input position and weights.
    fn collect(rows: impl Iterator<Item = (usize, Vec<f64>)>) -> Taps {
        let (mut spans, mut weights) = (Vec::new(), Vec::new());
        for (first, w) in rows {
            spans.push((first, weights.len(), w.len()));
            weights.extend(w);
        }
        Taps {
            taps: Vec::new(),
            nearest: false,
            wide: Some(Wide { spans, weights }),
        }
    }

    /// The spans with the weights in `T`.
    fn weighted<T: Float>(&self) -> (&[(usize, usize, usize)], Vec<T>) {
        let w = self
            .weights
            .iter()
            .map(|&w| T::from(w).unwrap_or_else(T::zero));
        (&self.spans, w.collect())
    }
}

/// PyTorch's scale from an output position to the input's (`area_pixel_compute_scale`):
/// `(n − 1)/(m − 1)` with `align_corners` (0 for one output position), else `n / m`.
fn scale(n: usize, m: usize, align_corners: bool) -> f64 {
    match (align_corners, m) {
        (true, 0 | 1) => 0.0,
        (true, _) => (n as f64 - 1.0) / (m as f64 - 1.0),
        (false, _) => n as f64 / m as f64,
    }
}

/// The cubic convolution kernel's two pieces with PyTorch's `A`: for `|x| ≤ 1` and for
/// `1 < |x| < 2`.
fn cubic_near(x: f64, a: f64) -> f64 {
    ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
}
fn cubic_far(x: f64, a: f64) -> f64 {
    ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
}

/// The filter of an antialiased interpolation at distance `x` (PyTorch's `aa_filter`): a
/// triangle for linear, the cubic convolution with `a = −½` (Keys', as PIL's) for cubic.
fn antialias_filter(x: f64, cubic: bool) -> f64 {
    let x = x.abs();
    match (cubic, x) {
        (false, x) if x < 1.0 => 1.0 - x,
        (true, x) if x < 1.0 => cubic_near(x, -0.5),
        (true, x) if x < 2.0 => cubic_far(x, -0.5),
        _ => 0.0,
    }
}

impl Taps {
    /// PyTorch's `nearest` (`exact = false`: source `⌊j·n/m⌋`) and `nearest-exact`
    /// (`⌊(j + ½)·n/m⌋`), clamped to the axis. In exact arithmetic, as PyTorch's double
    /// precision gives; in `single` precision as PyTorch computes them, in `f32` with
    /// `s = 1 / factor` for an upsampling by `factor`, else `n / m` (which reads one element
    /// lower where the source is a whole number that `f32` rounds down: nearest from 26 to 22
    /// reads 12 for position 11), with `nearest`'s shortcuts (`m = n` reads in place, `m = 2n`
    /// at `j / 2`) and `nearest-exact`'s rounding of `(j + ½)·s − ½`.
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
                let i = if !single && exact {
                    ((2 * j as u128 + 1) * n_wide / (2 * m_wide)) as usize
                } else if !single {
                    (j as u128 * n_wide / m_wide) as usize
                } else if exact {
                    // PyTorch's `(j + ½)·s − ½` rounded once to `f32` (its compiler fuses the
                    // product and the difference; exact in `f64` for axes under 2^24), at
                    // least 0, then rounded half up: at an exact tie `f32` can land either
                    // side, as PyTorch's does (from 2 to 41, position 20 reads 1).
                    let real = ((j as f64 + 0.5) * f64::from(s) - 0.5) as f32;
                    (real.max(0.0) + 0.5).floor() as usize
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
            wide: None,
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
            wide: None,
        }
    }

    /// PyTorch's `bicubic` along one axis (`A = −¾`): the source `j·(n − 1)/(m − 1)` with
    /// `align_corners`, else `(j + ½)·n/m − ½` (not clamped), read from the four positions
    /// around it, those past an end read at the end (their weights added there).
    pub(crate) fn cubic(n: usize, m: usize, align_corners: bool) -> Taps {
        let s = scale(n, m, align_corners);
        let last = n.saturating_sub(1) as f64;
        Wide::collect((0..m).map(|j| {
            let at = if align_corners {
                s * j as f64
            } else {
                s * (j as f64 + 0.5) - 0.5
            };
            let i = at.floor().min(last);
            let t = (at - i).clamp(0.0, 1.0);
            let coefficients = [
                cubic_far(t + 1.0, -0.75),
                cubic_near(t, -0.75),
                cubic_near(1.0 - t, -0.75),
                cubic_far(2.0 - t, -0.75),
            ];
            // Positions `i − 1 … i + 2`, clamped to the axis: a consecutive run.
            let clamp = |k: f64| k.clamp(0.0, last) as usize;
            let first = clamp(i - 1.0);
            let mut w = vec![0.0; clamp(i + 2.0) - first + 1];
            for (k, c) in coefficients.into_iter().enumerate() {
                w[clamp(i - 1.0 + k as f64) - first] += c;
            }
            (first, w)
        }))
    }

    /// PyTorch's `area` (adaptive average pooling): output position `j` is the mean of
    /// input positions `⌊j·n/m⌋ ≤ i < ⌈(j + 1)·n/m⌉`.
    pub(crate) fn area(n: usize, m: usize) -> Taps {
        let (n_wide, m_wide) = (n as u128, m as u128);
        Wide::collect((0..m as u128).map(|j| {
            let first = (j * n_wide / m_wide) as usize;
            let end = ((j + 1) * n_wide).div_ceil(m_wide) as usize;
            let len = end - first;
            (first, vec![1.0 / len as f64; len])
        }))
    }

    /// PyTorch's antialiased `bilinear` or `bicubic` (`antialias=True`, torchvision's
    /// `Resize`) along one axis: output position `j`, centred at `c = s·(j + ½)` with
    /// PyTorch's scale `s`, reads every input position within the filter's support (1 for
    /// linear, 2 for cubic, times `s` when shrinking), each weighted by the filter at its
    /// distance from `c` (divided by `s` when shrinking), the weights normalised to sum 1.
    pub(crate) fn antialiased(n: usize, m: usize, align_corners: bool, cubic: bool) -> Taps {
        let s = scale(n, m, align_corners);
        let half = if cubic { 2.0 } else { 1.0 };
        let (support, inverse) = if s >= 1.0 {
            (half * s, 1.0 / s)
        } else {
            (half, 1.0)
        };
        let widest = support.ceil() as usize * 2 + 1;
        Wide::collect((0..m).map(|j| {
            let centre = s * (j as f64 + 0.5);
            // PyTorch truncates towards zero, then clamps to the axis.
            let first = ((centre - support + 0.5) as i64).max(0) as usize;
            let end = (((centre + support + 0.5) as i64).max(0) as usize).min(n);
            let len = end.saturating_sub(first).min(widest);
            let mut w: Vec<f64> = (0..len)
                .map(|k| antialias_filter(((first + k) as f64 - centre + 0.5) * inverse, cubic))
                .collect();
            let total: f64 = w.iter().sum();
            if total != 0.0 {
                w.iter_mut().for_each(|v| *v /= total);
            }
            (first, w)
        }))
    }

    /// The output length along the axis.
    pub(crate) fn len(&self) -> usize {
        match &self.wide {
            Some(wide) => wide.spans.len(),
            None => self.taps.len(),
        }
    }

    /// Whether each output position reads at most two input positions (nearest and
    /// linear), so that two axes can run in one pass ([`resample_pair`]).
    pub(crate) fn two_point(&self) -> bool {
        self.wide.is_none()
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
/// rows over the threads.
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
    let mut out = zeroed(len);
    if let Some(wide) = &taps.wide {
        let (spans, w) = wide.weighted::<T>();
        if inner == 1 {
            // The last axis: rows a block at a time, each weight read once per block.
            by_pieces(&mut out, m, outer, |first, chunk| {
                let src = &x[first * n..first * n + chunk.len() / m * n];
                last_axis_wide(src, n, (spans, &w), chunk);
            });
            return out;
        }
        by_rows(&mut out, m * inner, outer, |o, dst| {
            let src = &x[o * n * inner..(o + 1) * n * inner];
            resample_block_wide(src, inner, (spans, &w), dst);
        });
        return out;
    }
    let weights: Vec<(usize, usize, T, T)> = taps.weighted().collect();
    by_rows(&mut out, m * inner, outer, |o, dst| {
        let src = &x[o * n * inner..(o + 1) * n * inner];
        resample_block(src, inner, (&weights, taps.nearest), dst);
    });
    out
}

/// One block `[n, inner]` resampled into `dst`, `[weights.len(), inner]`.
fn resample_block<T: Float>(
    src: &[T],
    inner: usize,
    (weights, nearest): (&[(usize, usize, T, T)], bool),
    dst: &mut [T],
) {
    if inner == 1 {
        // The last axis: one element per tap, read directly.
        for (v, &(lo, hi, w0, w1)) in dst.iter_mut().zip(weights) {
            *v = if nearest {
                src[lo]
            } else {
                src[lo] * w0 + src[hi] * w1
            };
        }
        return;
    }
    for (row, &(lo, hi, w0, w1)) in dst.chunks_exact_mut(inner).zip(weights) {
        let a = &src[lo * inner..(lo + 1) * inner];
        if nearest {
            row.copy_from_slice(a);
            continue;
        }
        let b = &src[hi * inner..(hi + 1) * inner];
        for ((v, &a), &b) in row.iter_mut().zip(a).zip(b) {
            *v = a * w0 + b * w1;
        }
    }
}

/// One block `[n, inner]` resampled into `dst` (zeros), `[spans.len(), inner]`, by wide
/// taps: each output row the weighted sum of its run of input rows, in order.
fn resample_block_wide<T: Float>(
    src: &[T],
    inner: usize,
    (spans, weights): (&[(usize, usize, usize)], &[T]),
    dst: &mut [T],
) {
    if inner == 1 {
        // The last axis: each output element a dot product of a run and its weights.
        for (v, &(first, at, len)) in dst.iter_mut().zip(spans) {
            let run = src[first..first + len].iter().zip(&weights[at..at + len]);
            *v = run.fold(T::zero(), |acc, (&a, &w)| acc + a * w);
        }
        return;
    }
    for (row, &(first, at, len)) in dst.chunks_exact_mut(inner).zip(spans) {
        let runs = src[first * inner..(first + len) * inner].chunks_exact(inner);
        for (a, &w) in runs.zip(&weights[at..at + len]) {
            add_scaled(row, a, Some(w));
        }
    }
}

/// Rows of `n` (`src`) resampled along themselves by wide taps into rows of `spans.len()`
/// (`dst`): [`ROWS`] rows at a time, each output position's weights read once for all of
/// them and their sums independent; the rows left over one at a time.
fn last_axis_wide<T: Float>(
    src: &[T],
    n: usize,
    (spans, weights): (&[(usize, usize, usize)], &[T]),
    dst: &mut [T],
) {
    let m = spans.len();
    let mut blocks = dst.chunks_exact_mut(ROWS * m);
    let mut sources = src.chunks_exact(ROWS * n);
    for (out, rows) in (&mut blocks).zip(&mut sources) {
        for (j, &(first, at, len)) in spans.iter().enumerate() {
            let w = &weights[at..at + len];
            let runs: [&[T]; ROWS] = core::array::from_fn(|r| {
                let start = r * n + first;
                &rows[start..start + len]
            });
            let mut acc = [T::zero(); ROWS];
            for (i, &w) in w.iter().enumerate() {
                for (a, run) in acc.iter_mut().zip(&runs) {
                    *a = *a + run[i] * w;
                }
            }
            for (r, a) in acc.into_iter().enumerate() {
                out[r * m + j] = a;
            }
        }
    }
    let rows = sources.remainder().chunks_exact(n);
    for (out, row) in blocks.into_remainder().chunks_exact_mut(m).zip(rows) {
        resample_block_wide(row, 1, (spans, weights), out);
    }
}

/// How many rows [`last_axis_wide`] resamples together.
const ROWS: usize = 8;

/// `x`, row-major `[outer, n1, mid, n2, inner]`, resampled along its two axes of `n1` and
/// `n2` by `first` and `second` in one pass: the `[outer, m1, mid, m2, inner]` result, equal
/// to [`resample_axis`] along the `n2` axis, then along the `n1` axis (each value
/// `(x[lo, lo'] w0' + x[lo, hi'] w1') w0 + (x[hi, lo'] w0' + x[hi, hi'] w1') w1`, rounded as
/// the two passes round it), without the first pass's intermediate: a bilinear image's
/// output is written once. The two taps have one mode (both nearest or both linear: each
/// [`Taps::two_point`]).
pub(crate) fn resample_pair<T: Float + Send + Sync>(
    x: &[T],
    (outer, n1, mid, n2, inner): (usize, usize, usize, usize, usize),
    (first, second): (&Taps, &Taps),
) -> Vec<T> {
    let (m1, m2) = (first.len(), second.len());
    let slab = mid * m2 * inner;
    let len = outer * m1 * slab;
    if len == 0 {
        return Vec::new();
    }
    let outer_taps: Vec<(usize, usize, T, T)> = first.weighted().collect();
    let inner_taps: Vec<(usize, usize, T, T)> = second.weighted().collect();
    let nearest = first.nearest && second.nearest;
    let mut out = zeroed(len);
    let run = n2 * inner;
    // Input slab `s` (an `[mid, n2, inner]` at `(o, lo)`) resampled along `n2` into `buf`.
    let fill = |s: usize, buf: &mut Vec<T>| {
        buf.resize(slab, T::zero());
        let src = &x[s * mid * run..(s + 1) * mid * run];
        for (k, d) in buf.chunks_exact_mut(m2 * inner).enumerate() {
            resample_block(
                &src[k * run..(k + 1) * run],
                inner,
                (&inner_taps, nearest),
                d,
            );
        }
    };
    by_pieces(&mut out, slab, outer * m1, |r0, chunk| {
        // The two input slabs the last output slab read, resampled: consecutive output
        // slabs read the same or the next ones, so each is resampled about once per piece.
        let mut held: [(usize, Vec<T>); 2] = [(usize::MAX, Vec::new()), (usize::MAX, Vec::new())];
        for (dr, dst) in chunk.chunks_exact_mut(slab).enumerate() {
            let r = r0 + dr;
            let (o, (lo, hi, a, b)) = (r / m1, outer_taps[r % m1]);
            let (lo, hi) = (o * n1 + lo, o * n1 + hi);
            for want in [lo, hi] {
                if held[0].0 != want && held[1].0 != want {
                    // Replace the slab this output does not read.
                    let slot = usize::from(held[0].0 == lo || held[0].0 == hi);
                    fill(want, &mut held[slot].1);
                    held[slot].0 = want;
                }
            }
            let top = &held[usize::from(held[0].0 != lo)].1;
            if nearest {
                dst.copy_from_slice(top);
                continue;
            }
            let bottom = &held[usize::from(held[0].0 != hi)].1;
            for ((v, &t), &u) in dst.iter_mut().zip(top).zip(bottom) {
                *v = t * a + u * b;
            }
        }
    });
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
    let mut out = zeroed(len);
    if len == 0 || m == 0 {
        return out;
    }
    if let Some(wide) = &taps.wide {
        let (spans, w) = wide.weighted::<T>();
        by_rows(&mut out, n * inner, outer, |o, dst| {
            let src = &g[o * m * inner..(o + 1) * m * inner];
            for (row, &(first, at, len)) in src.chunks_exact(inner).zip(spans) {
                let runs = dst[first * inner..(first + len) * inner].chunks_exact_mut(inner);
                for (d, &w) in runs.zip(&w[at..at + len]) {
                    add_scaled(d, row, Some(w));
                }
            }
        });
        return out;
    }
    let weights: Vec<(usize, usize, T, T)> = taps.weighted().collect();
    by_rows(&mut out, n * inner, outer, |o, dst| {
        let src = &g[o * m * inner..(o + 1) * m * inner];
        for (row, &(lo, hi, w0, w1)) in src.chunks_exact(inner).zip(&weights) {
            if taps.nearest {
                add_scaled(&mut dst[lo * inner..(lo + 1) * inner], row, None);
                continue;
            }
            add_scaled(&mut dst[lo * inner..(lo + 1) * inner], row, Some(w0));
            add_scaled(&mut dst[hi * inner..(hi + 1) * inner], row, Some(w1));
        }
    });
    out
}

/// `dst += w·src` elementwise (`dst += src` without a weight).
fn add_scaled<T: Float>(dst: &mut [T], src: &[T], w: Option<T>) {
    match w {
        Some(w) => dst.iter_mut().zip(src).for_each(|(d, &v)| *d = *d + v * w),
        None => dst.iter_mut().zip(src).for_each(|(d, &v)| *d = *d + v),
    }
}

/// `len` zeros, a large buffer asked for in huge pages before its first write (its page
/// faults would cost as much as the resampling).
fn zeroed<T: Float>(len: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(len);
    crate::engine::raw::advise_huge_pages(&out);
    out.resize(len, T::zero());
    out
}

/// `row(o, chunk)` for each of the `rows` rows of `out` (`row_len` elements each), through
/// [`by_pieces`].
fn by_rows<T: Send>(
    out: &mut [T],
    row_len: usize,
    rows: usize,
    row: impl Fn(usize, &mut [T]) + Sync,
) {
    by_pieces(out, row_len, rows, |first, chunk| {
        for (r, dst) in chunk.chunks_exact_mut(row_len).enumerate() {
            row(first + r, dst);
        }
    });
}

/// `piece(first, chunk)` for pieces of consecutive rows of `out` (`rows` rows of `row_len`
/// elements; `first` is a piece's first row): split over the threads when the output is
/// large (`engine::split`), else one piece.
fn by_pieces<T: Send>(
    out: &mut [T],
    row_len: usize,
    rows: usize,
    piece: impl Fn(usize, &mut [T]) + Sync,
) {
    let per = crate::engine::split::piece_rows(rows, out.len());
    #[cfg(feature = "rayon")]
    if per < rows {
        crate::engine::threads::chunks(out, per * row_len, |i, chunk| piece(i * per, chunk));
        return;
    }
    let _ = (per, row_len);
    piece(0, out);
}

#[cfg(test)]
mod tests;
