//! The reduction kernels (rule book §16): one walk over a strided input that folds each
//! element into its output cell, with the output's strides 0 along the reduced axes. Axes
//! contiguous in both are merged first, and the innermost run is specialised: reducing a
//! contiguous run folds it in 32 independent lanes (which the compiler vectorises without
//! reassociating anything), keeping a contiguous run combines it elementwise into a
//! contiguous output row. A broadcast (stride 0) or permuted view reduces without being
//! materialised.
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
use super::layout::{Merged, Strided};
pub(crate) use super::summation::lanes;
use super::summation::Kahan;
use super::vmath::{computes_wider, narrowed, widen_all, Transcendental};
use super::walk::step;
use crate::values::error::Error;
use crate::values::shape::{DynShape, MAX_RANK};

/// The runs of a walk over two layouts of the same `sizes`: axes contiguous in both are
/// merged, and `f(oa, ob, n, ia, ib)` receives each innermost run: its start in each layout,
/// its length and each layout's stride along it (row-major order of the index).
#[inline(always)]
pub(crate) fn runs(
    sizes: &[usize],
    sa: &[usize],
    sb: &[usize],
    mut f: impl FnMut(usize, usize, usize, usize, usize),
) {
    if sizes.contains(&0) {
        return;
    }
    let m = Merged::<MAX_RANK>::new(sizes, sa, sb);
    if m.len == 0 {
        f(0, 0, 1, 0, 0);
        return;
    }
    let last = m.len - 1;
    let (n, ia, ib) = (m.sizes[last], m.a[last], m.b[last]);
    let mut index = [0usize; MAX_RANK];
    let mut at = [0usize; 2];
    loop {
        f(at[0], at[1], n, ia, ib);
        if !step(
            &mut index[..last],
            &m.sizes[..last],
            [&m.a[..last], &m.b[..last]],
            &mut at,
        ) {
            return;
        }
    }
}

/// Folds every element of `a` (laid out by `sizes` and `sa`) into the cell of `b` that the
/// strides `sb` give it (0 along the reduced axes), each run by the op's specialised loop.
/// The caller guarantees that every offset is inside both slices (a layout built by this
/// module is).
///
/// With the `rayon` feature, a walk of at least
/// [`PARALLEL_MIN_ELEMENTS`](super::split::PARALLEL_MIN_ELEMENTS) input elements is cut
/// along the outermost axis the output keeps (its rows own disjoint, contiguous blocks of the
/// output) into about four pieces per thread; each cell is folded by one thread, in the same
/// order as on one, so the results are identical. A reduction to one cell runs on one thread.
pub(crate) fn walk<T: Sync, A: Send>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &(impl FoldOp<T, A> + Sync),
) {
    #[cfg(feature = "rayon")]
    if walk_parallel(sizes, (a, sa), (&mut *b, sb), op) {
        return;
    }
    walk_serial(sizes, (a, sa), (b, sb), op);
}

/// How a walk over `sizes` splits over rayon's pool: along `k`, the outermost axis of size
/// above 1, when the output keeps it (`out_row`, its output stride, is not 0), in pieces of
/// `per_piece` rows. Rows `r0..r1` along `k` then own the input block from `r0 * in_row` and
/// the output block `r0 * out_row..r1 * out_row`, which no other piece touches. `None` (stay
/// on the calling thread) for a small walk, one thread, or a reduced outermost axis: cutting
/// an inner kept axis shortens every run and was measured slower (sum over axis 0 of
/// (1024, 1024): 1.2x slower on two threads).
#[cfg(feature = "rayon")]
pub(crate) fn row_split(sizes: &[usize], out: &[usize], out_len: usize) -> Option<(usize, usize)> {
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))?;
    if total < super::split::PARALLEL_MIN_ELEMENTS || sizes.len() > MAX_RANK {
        // Small work never touches rayon (its pool starts on first use).
        return None;
    }
    let threads = rayon::current_num_threads();
    if threads < 2 {
        return None;
    }
    let k = sizes.iter().position(|&n| n > 1)?;
    if out[k] == 0 || out_len != sizes[k] * out[k] {
        return None;
    }
    Some((k, sizes[k].div_ceil(threads * 4)))
}

/// `sizes` with axis `k` cut to `n`, on the stack.
#[cfg(feature = "rayon")]
pub(crate) fn cut(sizes: &[usize], k: usize, n: usize) -> [usize; MAX_RANK] {
    let mut sub = [0usize; MAX_RANK];
    sub[..sizes.len()].copy_from_slice(sizes);
    sub[k] = n;
    sub
}

/// [`walk`] split over rayon's pool (see [`row_split`]); false (nothing done) when it does
/// not split.
#[cfg(feature = "rayon")]
fn walk_parallel<T: Sync, A: Send>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &(impl FoldOp<T, A> + Sync),
) -> bool {
    let Some((k, per_piece)) = row_split(sizes, sb, b.len()) else {
        return false;
    };
    super::threads::chunks(b, per_piece * sb[k], |i, block| {
        let start = i * per_piece;
        let sub = cut(sizes, k, block.len() / sb[k]);
        walk_serial(
            &sub[..sizes.len()],
            (&a[start * sa[k]..], sa),
            (block, sb),
            op,
        );
    });
    true
}

/// [`walk`] on the calling thread.
fn walk_serial<T, A>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &impl FoldOp<T, A>,
) {
    if short_reduced_runs(sizes, (a, sa), (&mut *b, sb), op) {
        return;
    }
    runs(sizes, sa, sb, |oa, ob, n, ia, ib| match (ia, ib) {
        (1, 0) => op.run(&mut b[ob], &a[oa..oa + n]),
        (1, 1) => op.zip(&mut b[ob..ob + n], &a[oa..oa + n]),
        (0, 1) => {
            let x = &a[oa];
            for acc in &mut b[ob..ob + n] {
                op.step(acc, x);
            }
        }
        _ => {
            for j in 0..n {
                op.step(&mut b[ob + j * ib], &a[oa + j * ia]);
            }
        }
    });
}

/// Runs below this length, each reduced into its own cell, are folded several cells at a
/// time ([`FoldOp::short_runs`]).
const SHORT_RUN: usize = 32;

/// [`walk_serial`] when the innermost merged axis is a reduced contiguous run shorter than
/// [`SHORT_RUN`] and the next one keeps consecutive cells (a mean over a few innermost
/// axes, as after an outer broadcast): each row of cells folded by `op.short_runs`, which
/// overlaps the runs' dependent additions. False (nothing done) for any other layout.
fn short_reduced_runs<T, A>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &impl FoldOp<T, A>,
) -> bool {
    if sizes.contains(&0) {
        return false;
    }
    let m = Merged::<MAX_RANK>::new(sizes, sa, sb);
    let Some(row) = m.len.checked_sub(2) else {
        return false;
    };
    let (last, n) = (row + 1, m.sizes[row + 1]);
    if (m.a[last], m.b[last], m.b[row]) != (1, 0, 1) || n >= SHORT_RUN {
        return false;
    }
    let (cells, gap) = (m.sizes[row], m.a[row]);
    let mut index = [0usize; MAX_RANK];
    let mut at = [0usize; 2];
    loop {
        op.short_runs(&mut b[at[1]..at[1] + cells], &a[at[0]..], (n, gap));
        if !step(
            &mut index[..row],
            &m.sizes[..row],
            [&m.a[..row], &m.b[..row]],
            &mut at,
        ) {
            return true;
        }
    }
}

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
        f(&Source {
            x: Strided {
                sizes: self.x.sizes,
                strides: self.x.strides,
                data: &data,
            },
            mask: self.mask,
        })
    }

    /// Sum of each cell (0 for an empty axis).
    pub(crate) fn sum(&self) -> Vec<T>
    where
        T: Copy + Zero + Add<Output = T>,
    {
        self.fold(T::zero(), &Sum)
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
mod short_run_tests {
    use super::*;

    /// The cells' folds one run at a time, as the walk did before runs were folded several
    /// cells at a time.
    fn one_by_one<T, A: Clone>(
        xs: &[T],
        (cells, n, gap): (usize, usize, usize),
        init: A,
        op: &impl FoldOp<T, A>,
    ) -> Vec<A> {
        (0..cells)
            .map(|j| {
                let mut acc = init.clone();
                op.run(&mut acc, &xs[j * gap..j * gap + n]);
                acc
            })
            .collect()
    }

    /// Runs of 1 to 31 elements, adjacent or apart, in rows of cells that are and are not a
    /// multiple of eight, and two rows of them (an outer axis the walk steps): the sums,
    /// extremes (a NaN among them) and compensated sums equal one run a cell, bit for bit.
    #[test]
    fn short_runs_fold_as_one_run_a_cell() {
        for n in 1..SHORT_RUN {
            for cells in [1, 7, 8, 13, 24] {
                for gap in [n, n + 3] {
                    let len = 2 * cells * gap;
                    let mut xs: Vec<f32> = (0..len)
                        .map(|i| ((i * 7919) % 1013) as f32 * 0.37 - 150.0)
                        .collect();
                    xs[len / 3] = f32::NAN;
                    // Two rows of `cells` cells: [2, cells, n] with strides [cells·gap, gap, 1].
                    let sizes = [2, cells, n];
                    let (sa, sb) = ([cells * gap, gap, 1], [cells, 1, 0]);
                    let rest = &xs[cells * gap..];
                    let mut got = vec![0.5f32; 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &Sum);
                    let mut expect = one_by_one(&xs, (cells, n, gap), 0.5, &Sum);
                    expect.extend(one_by_one(rest, (cells, n, gap), 0.5, &Sum));
                    assert_eq!(got.map_bits(), expect.map_bits(), "sum {n} {cells} {gap}");

                    let max = Extreme::<true>;
                    let mut got = vec![f32::NEG_INFINITY; 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &max);
                    let init = f32::NEG_INFINITY;
                    let mut expect = one_by_one(&xs, (cells, n, gap), init, &max);
                    expect.extend(one_by_one(rest, (cells, n, gap), init, &max));
                    assert_eq!(got.map_bits(), expect.map_bits(), "max {n} {cells} {gap}");

                    let mut got = vec![Kahan::zero(); 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &CompensatedSum);
                    let z = Kahan::zero();
                    let mut expect = one_by_one(&xs, (cells, n, gap), z, &CompensatedSum);
                    expect.extend(one_by_one(rest, (cells, n, gap), z, &CompensatedSum));
                    let sums = |k: Vec<Kahan<f32>>| k.iter().map(|k| k.sum).collect::<Vec<_>>();
                    assert_eq!(
                        sums(got).map_bits(),
                        sums(expect).map_bits(),
                        "mean {n} {cells}"
                    );
                }
            }
        }
    }

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

    trait Bits {
        fn map_bits(&self) -> Vec<u32>;
    }
    impl Bits for Vec<f32> {
        fn map_bits(&self) -> Vec<u32> {
            self.iter().map(|x| x.to_bits()).collect()
        }
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use super::*;

    /// Split over a pool of three threads (so the split happens on any machine), a reduction
    /// folds every cell as the calling thread does, bit for bit: over the inner axis, a middle
    /// one, a transposed input, a broadcast input, an output row that is the whole input
    /// (softmax's last pass); over the outer axis and into one cell it stays on one thread.
    #[test]
    fn the_parallel_walk_folds_what_the_serial_one_does() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        // (sizes, input strides, output strides, output cells)
        type Case<'a> = (&'a [usize], &'a [usize], &'a [usize], usize);
        let cases: [Case; 7] = [
            (&[300, 301], &[301, 1], &[1, 0], 300),
            (&[300, 301], &[301, 1], &[0, 1], 301),
            (&[5, 200, 101], &[20_200, 101, 1], &[101, 0, 1], 505),
            (&[301, 300], &[1, 301], &[1, 0], 301),
            (&[7, 300, 40], &[0, 40, 1], &[300, 1, 0], 2100),
            (&[257, 263], &[263, 1], &[263, 1], 257 * 263),
            (&[300, 301], &[301, 1], &[0, 0], 1),
        ];
        for (sizes, sa, sb, cells) in cases {
            let need = 1 + sizes
                .iter()
                .zip(sa)
                .map(|(&n, &s)| (n - 1) * s)
                .sum::<usize>();
            let a: Vec<f64> = (0..need)
                .map(|x| ((x * 7919) % 1000) as f64 * 0.37)
                .collect();
            let mut serial = vec![0.5; cells];
            let mut parallel = serial.clone();
            walk_serial(sizes, (&a, sa), (&mut serial, sb), &Sum);
            pool.install(|| walk(sizes, (&a, sa), (&mut parallel, sb), &Sum));
            assert_eq!(parallel, serial, "{sizes:?} {sa:?} {sb:?}");
            let ints: Vec<i64> = (0..need as i64).collect();
            let (mut s, mut p) = (vec![0i64; cells], vec![0i64; cells]);
            walk_serial(sizes, (&ints, sa), (&mut s, sb), &Sum);
            pool.install(|| walk(sizes, (&ints, sa), (&mut p, sb), &Sum));
            assert_eq!(p, s, "{sizes:?} {sa:?} {sb:?}");
        }
    }

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
