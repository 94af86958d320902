//! The reduction kernels (rule book §16) on one walk over a strided input that folds each
//! element into its output cell ([`fold_walk`](super::fold_walk)): reducing a contiguous run
//! folds it in 32 independent lanes (which the compiler vectorises without reassociating
//! anything), keeping a contiguous run combines it elementwise into a contiguous output row.
//! A broadcast (stride 0) or permuted view reduces without being materialised.
//!
//! Summation order: each contiguous run is summed pairwise (halves down to blocks of 256,
//! each block in 32 lanes added pairwise), as NumPy's pairwise summation is (its blocks are
//! 128 in 8 lanes): the error grows with log n, not n. `sum` adds the runs of a cell in order;
//! `mean`, `var` and `std` add them, and the elements of a walk that has no contiguous run
//! (a reduced outer axis), with Kahan's compensation, so their error does not grow with the
//! number of runs either: in `f32` the variance of 4·10^6 elements is within 1e-6 of an `f64`
//! reference (`tests/suite/reductions.rs`). `tests/suite/numpy.rs` compares with NumPy at a relative
//! tolerance of 1e-9 in `f64`.
//!
//! The reductions that exponentiate (softmax, log-softmax, logsumexp) are in
//! [`softmax`](super::softmax), on these walks.

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use num_traits::{Float, One, Zero};

pub(crate) use super::dims::Dims;
use super::fold::{better, CompensatedSum, Deviations, Extreme, Prod, SquaredDeviation};
pub(crate) use super::fold::{pick, FoldOp, Sum};
use super::fold_walk::walk;
use super::layout::{Merged, Strided};
pub(crate) use super::summation::lanes;
use super::summation::Kahan;
use super::vmath::{computes_wider, narrowed, widen_all, Transcendental};
use super::walk::step;
use crate::values::error::Error;
use crate::values::shape::{DynShape, MAX_RANK};

/// What a reduction works on: the input's layout, and which of its axes are reduced.
pub(crate) struct Source<'a, T> {
    pub(crate) x: Strided<'a, T>,
    pub(crate) mask: &'a [bool],
}

impl<T> Source<'_, T> {
    /// The sizes of the output: the kept axes, or every axis with the reduced ones at 1.
    pub(crate) fn out_sizes(&self, keep: bool) -> Dims {
        Dims::from_iter(
            self.x
                .sizes
                .iter()
                .zip(self.mask)
                .filter_map(|(&n, &gone)| match (gone, keep) {
                    (false, _) => Some(n),
                    (true, true) => Some(1),
                    (true, false) => None,
                }),
        )
    }

    /// The output's strides in the input's frame: row-major over the kept axes, 0 along the
    /// reduced ones.
    pub(crate) fn out_strides(&self) -> Dims {
        let kept = Dims::row_major(&self.out_sizes(true));
        Dims::from_iter(
            kept.iter()
                .zip(self.mask)
                .map(|(&s, &gone)| if gone { 0 } else { s }),
        )
    }

    /// The number of output cells.
    pub(crate) fn out_len(&self) -> usize {
        // `has_room` checked this count before any reduction runs (and softmax returns at once
        // for an empty input, whose output is the only one that could overflow here).
        super::allocation::count(&self.out_sizes(false)).expect("checked by has_room")
    }

    /// Whether the output (and its working rows, `W` each) can exist: the checked element
    /// count, within `isize::MAX` bytes and what the allocator gives; else
    /// [`Error::TooLarge`] naming the input's shape. Every reduction asks this first.
    pub(crate) fn has_room<W>(&self, shape: &dyn Fn() -> DynShape) -> Result<(), Error> {
        super::allocation::ensure::<W>(&self.out_sizes(false), shape).map(|_| ())
    }

    /// How many elements each output cell folds.
    fn count(&self) -> usize {
        let folded = Dims::from_iter(
            self.x
                .sizes
                .iter()
                .zip(self.mask)
                .filter(|&(_, &gone)| gone)
                .map(|(&n, _)| n),
        );
        // It overflows only when a kept axis is 0: no cell is folded, the count unused.
        super::allocation::count(&folded).unwrap_or(usize::MAX)
    }
}

/// The reductions (their walks may run on several threads with the `rayon` feature).
impl<T: Send + Sync> Source<'_, T> {
    /// Every cell starts at `init` and folds its elements.
    pub(crate) fn fold<A: Clone + Send>(&self, init: A, op: &(impl FoldOp<T, A> + Sync)) -> Vec<A> {
        let mut out = vec![init; self.out_len()];
        walk(
            self.x.sizes,
            (self.x.data, self.x.strides),
            (&mut out, &self.out_strides()),
            op,
        );
        out
    }

    /// Every cell starts at the first of its elements and folds them all (for operations
    /// without identity); an empty reduced axis is [`Error::EmptyAxis`].
    fn fold_from_first(
        &self,
        op: &(impl FoldOp<T, T> + Sync),
        name: &'static str,
        shape: impl Fn() -> DynShape,
    ) -> Result<Vec<T>, Error>
    where
        T: Clone,
    {
        if let Some(axis) = (0..self.x.sizes.len()).find(|&k| self.mask[k] && self.x.sizes[k] == 0)
        {
            return Err(Error::EmptyAxis {
                op: name,
                shape: shape(),
                axis,
            });
        }
        let len = self.out_len();
        if len == 0 {
            return Ok(Vec::new());
        }
        // The first element of every cell: index 0 along each reduced axis.
        let firsts =
            Dims::from_iter(
                self.x
                    .sizes
                    .iter()
                    .zip(self.mask)
                    .map(|(&n, &gone)| if gone { 1 } else { n }),
            );
        let strides = self.out_strides();
        let mut out = Vec::with_capacity(len);
        let mut index = Dims::from_iter(firsts.iter().map(|_| 0));
        let mut at = [0usize; 1];
        loop {
            out.push(self.x.data[at[0]].clone());
            if !step(&mut index, &firsts, [self.x.strides], &mut at) {
                break;
            }
        }
        walk(
            self.x.sizes,
            (self.x.data, self.x.strides),
            (&mut out, &strides),
            op,
        );
        Ok(out)
    }

    /// `f` on this source's elements in their [`Wide`](Transcendental::Wide) type: a
    /// half-precision input is widened once (the layout kept), so that means, variances,
    /// softmax's maxima and sums accumulate in `f32`, as PyTorch's do.
    pub(crate) fn widened<R>(&self, f: impl FnOnce(&Source<'_, T::Wide>) -> R) -> R
    where
        T: Transcendental,
    {
        let data = widen_all(self.x.data);
        f(&self.over(&data))
    }

    /// This source's layout and reduced axes over other elements (`data`, laid out alike).
    fn over<'b, U>(&'b self, data: &'b [U]) -> Source<'b, U> {
        Source {
            x: Strided {
                sizes: self.x.sizes,
                strides: self.x.strides,
                data,
            },
            mask: self.mask,
        }
    }

    /// Sum of each cell (0 for an empty axis). A half-precision input (`bf16`, `f16`) is
    /// summed in `f32` and each cell rounded once, as PyTorch's sums are (summed in its own
    /// type, each partial sum rounded to 8 or 11 bits, the error grew with the count).
    pub(crate) fn sum(&self) -> Vec<T>
    where
        T: Copy + Zero + Add<Output = T> + 'static,
    {
        if let Some(sums) = self
            .sum_in_f32::<half::bf16>()
            .or_else(|| self.sum_in_f32::<half::f16>())
        {
            return sums;
        }
        self.fold(T::zero(), &Sum)
    }

    /// When `T` is the half type `H`: each cell summed from the input widened to `f32`, and
    /// rounded to `H` once. `None` for every other `T`.
    fn sum_in_f32<H: Transcendental<Wide = f32>>(&self) -> Option<Vec<T>>
    where
        T: Copy + 'static,
    {
        use core::any::{Any, TypeId};
        if TypeId::of::<T>() != TypeId::of::<H>() {
            return None;
        }
        // `T` is `H`: each element seen as the `H` it is (checks the compiler folds away).
        let as_half = |x: &T| (x as &dyn Any).downcast_ref::<H>().copied();
        let wide: Vec<f32> = self
            .x
            .data
            .iter()
            .map(|x| as_half(x).map(H::widen))
            .collect::<Option<_>>()?;
        let sums = self.over(&wide).fold(0.0, &Sum);
        sums.into_iter()
            .map(|s| (&H::narrow(s) as &dyn Any).downcast_ref::<T>().copied())
            .collect()
    }

    /// Product of each cell (1 for an empty axis).
    pub(crate) fn prod(&self) -> Vec<T>
    where
        T: Copy + One + Mul<Output = T>,
    {
        self.fold(T::one(), &Prod)
    }

    /// Maximum (`MAX = true`) or minimum of each cell; NaN propagates.
    pub(crate) fn extreme<const MAX: bool>(
        &self,
        shape: impl Fn() -> DynShape,
    ) -> Result<Vec<T>, Error>
    where
        T: Copy + PartialOrd,
    {
        self.fold_from_first(&Extreme::<MAX>, if MAX { "max" } else { "min" }, shape)
    }

    /// Mean of each cell (NaN for an empty axis): runs summed pairwise, added with
    /// compensation.
    pub(crate) fn mean(&self) -> Vec<T>
    where
        T: Transcendental + Send + Sync,
    {
        if computes_wider::<T>() {
            return narrowed(self.widened(|s| s.mean()));
        }
        let n = count_as::<T>(self.count());
        if self.one_run_per_cell() {
            // One pairwise sum a cell: nothing to compensate, and the same value.
            let mut sums = self.fold(T::zero(), &Sum);
            sums.iter_mut().for_each(|s| *s = *s / n);
            return sums;
        }
        self.fold(Kahan::zero(), &CompensatedSum)
            .into_iter()
            .map(|k| k.sum / n)
            .collect()
    }

    /// Whether each cell's elements are one contiguous run of the input (the reduced axes
    /// innermost and contiguous), which a walk folds with one [`FoldOp::run`] a cell.
    fn one_run_per_cell(&self) -> bool {
        let out = self.out_strides();
        let m = Merged::<MAX_RANK>::new(self.x.sizes, self.x.strides, &out);
        let count = self.count();
        m.len
            .checked_sub(1)
            .is_some_and(|last| (m.a[last], m.b[last], m.sizes[last]) == (1, 0, count))
    }

    /// Variance of each cell with `ddof` delta degrees of freedom (0: the population
    /// variance; 1: the unbiased estimate), the squared deviations divided by `n - ddof`, as
    /// NumPy's `var(ddof=)` and PyTorch's `var(correction=)` do: `inf` or NaN when
    /// `ddof >= n`. Two passes, the mean first, each summed pairwise and compensated.
    pub(crate) fn var(&self, ddof: usize) -> Vec<T>
    where
        T: Transcendental + Send + Sync,
    {
        if computes_wider::<T>() {
            return narrowed(self.widened(|s| s.var(ddof)));
        }
        let n = self.count();
        let mut acc: Vec<Deviations<T>> = self
            .mean()
            .into_iter()
            .map(|mean| Deviations {
                mean,
                squares: Kahan::zero(),
            })
            .collect();
        walk(
            self.x.sizes,
            (self.x.data, self.x.strides),
            (&mut acc, &self.out_strides()),
            &SquaredDeviation,
        );
        // NumPy divides by max(n - ddof, 0).
        let dof = count_as::<T>(n.saturating_sub(ddof));
        acc.into_iter().map(|d| d.squares.sum / dof).collect()
    }

    /// Standard deviation of each cell with `ddof` delta degrees of freedom: the square root
    /// of [`var`](Self::var), taken before a half-precision result is rounded.
    pub(crate) fn std(&self, ddof: usize) -> Vec<T>
    where
        T: Transcendental + Send + Sync,
    {
        if computes_wider::<T>() {
            return narrowed(self.widened(|s| s.std(ddof)));
        }
        self.var(ddof).into_iter().map(Float::sqrt).collect()
    }

    /// The position of the maximum (`MAX = true`) or minimum along the one reduced axis
    /// (first occurrence; a NaN wins, as in NumPy); an empty axis is [`Error::EmptyAxis`].
    pub(crate) fn arg<const MAX: bool>(
        &self,
        shape: impl Fn() -> DynShape,
    ) -> Result<Vec<usize>, Error>
    where
        T: Copy + PartialOrd,
    {
        let name = if MAX { "argmax" } else { "argmin" };
        // Both callers select exactly one axis: the typed forms by `OneAxis`, the run-time
        // ones by taking one `AxisSelector`.
        let axis = self
            .mask
            .iter()
            .position(|&g| g)
            .expect("argmax selects one axis");
        let n = self.x.sizes[axis];
        if n == 0 {
            return Err(Error::EmptyAxis {
                op: name,
                shape: shape(),
                axis,
            });
        }
        let stride = self.x.strides[axis];
        let kept: Vec<usize> = (0..self.x.sizes.len())
            .filter(|&k| k != axis)
            .map(|k| self.x.sizes[k])
            .collect();
        let kept_strides: Vec<usize> = (0..self.x.sizes.len())
            .filter(|&k| k != axis)
            .map(|k| self.x.strides[k])
            .collect();
        let len = super::allocation::count(&kept).expect("checked by has_room");
        let mut out = Vec::with_capacity(len);
        if len == 0 {
            return Ok(out);
        }
        let mut index = vec![0; kept.len()];
        let mut at = [0usize; 1];
        loop {
            let mut best = self.x.data[at[0]];
            let mut best_at = 0;
            for j in 1..n {
                let x = self.x.data[at[0] + j * stride];
                if better::<MAX, T>(&best, &x) {
                    best = x;
                    best_at = j;
                }
            }
            out.push(best_at);
            if !step(&mut index, &kept, [&kept_strides], &mut at) {
                return Ok(out);
            }
        }
    }
}

/// `n` in the element type (a count of elements, exact in `f64`; in `f32` up to 2^24).
fn count_as<T: Float>(n: usize) -> T {
    T::from(n).unwrap_or_else(T::infinity)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mean whose cells are one run each (of two or more elements) skips the compensation
    /// and gives the same values as the compensated sums, divided.
    #[test]
    fn a_mean_of_one_run_a_cell_is_the_compensated_mean() {
        for n in [2, 5, 15, 31, 32, 300] {
            let xs: Vec<f64> = (0..13 * n)
                .map(|i| ((i * 7919) % 1013) as f64 * 0.1)
                .collect();
            let (sizes, strides, mask) = ([13, n], [n, 1], [false, true]);
            let src = Source {
                x: Strided {
                    sizes: &sizes,
                    strides: &strides,
                    data: &xs,
                },
                mask: &mask,
            };
            assert!(src.one_run_per_cell());
            let compensated: Vec<f64> = src
                .fold(Kahan::zero(), &CompensatedSum)
                .iter()
                .map(|k| k.sum / n as f64)
                .collect();
            assert_eq!(src.mean(), compensated, "{n}");
            // Over the outer axis each cell's elements are `n` apart: many runs, compensated.
            let outer = Source {
                mask: &[true, false],
                ..src
            };
            assert!(!outer.one_run_per_cell());
        }
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use super::*;

    /// Softmax (three passes, the middle one split by its own code) is bit-identical on one
    /// thread and on three.
    #[test]
    fn softmax_on_three_threads_is_softmax_on_one() {
        let (one, three) = (
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap(),
            rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap(),
        );
        let sizes = [300usize, 301];
        let x: Vec<f64> = (0..300 * 301)
            .map(|i| ((i * 7919) % 1000) as f64 * 0.01)
            .collect();
        for mask in [[false, true], [true, false]] {
            let src = Source {
                x: Strided {
                    sizes: &sizes,
                    strides: &[301, 1],
                    data: &x,
                },
                mask: &mask,
            };
            let shape = || DynShape::new(Vec::new()).unwrap();
            let serial = one.install(|| src.softmax::<false>(shape)).unwrap();
            let parallel = three.install(|| src.softmax::<false>(shape)).unwrap();
            assert_eq!(parallel, serial, "{mask:?}");
            assert!((serial[..301].iter().sum::<f64>() - 1.0).abs() < 1e-12 || mask[0]);
        }
    }
}
