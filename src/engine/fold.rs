//! The folds a reduction applies to each element or contiguous run ([`FoldOp`]): addition
//! (pairwise within a run), multiplication, the maximum and minimum (the first NaN wins),
//! the compensated sum of the mean, and the squared deviations of the variance. The walks
//! that feed them are in [`fold_walk`](super::fold_walk).

use core::ops::{Add, Mul};

use num_traits::{Float, One, Zero};

use super::raw::fold_into_slice;
use super::summation::{interleaved, lanes, pairwise, short_sums, Kahan};

/// A fold of input elements `T` into accumulators `A`.
pub(crate) trait FoldOp<T, A> {
    /// One element into one accumulator.
    fn step(&self, acc: &mut A, x: &T);
    /// A contiguous run into one accumulator.
    #[inline(always)]
    fn run(&self, acc: &mut A, xs: &[T]) {
        for x in xs {
            self.step(acc, x);
        }
    }
    /// Runs of `n` contiguous elements, `gap` apart in `xs`, each into its own accumulator
    /// of `accs` (consecutive cells); `n` is below 32 (see [`interleaved`]).
    #[inline(always)]
    fn short_runs(&self, accs: &mut [A], xs: &[T], (n, gap): (usize, usize)) {
        for (j, acc) in accs.iter_mut().enumerate() {
            self.run(acc, &xs[j * gap..j * gap + n]);
        }
    }
    /// A contiguous run into as many contiguous accumulators.
    #[inline(always)]
    fn zip(&self, accs: &mut [A], xs: &[T]) {
        for (acc, x) in accs.iter_mut().zip(xs) {
            self.step(acc, x);
        }
    }
}

/// Whether `x` replaces `best` for a maximum (or minimum): strictly better, or a NaN when
/// `best` is not one (so the first NaN wins and stays).
#[inline(always)]
pub(crate) fn better<const MAX: bool, T: PartialOrd>(best: &T, x: &T) -> bool {
    #[allow(clippy::eq_op)]
    let best_is_number = best == best;
    let not_worse = if MAX { best >= x } else { best <= x };
    !not_worse && best_is_number
}

/// The better of two (see [`better`]).
#[inline(always)]
pub(crate) fn pick<const MAX: bool, T: PartialOrd>(best: T, x: T) -> T {
    if better::<MAX, T>(&best, &x) {
        x
    } else {
        best
    }
}

/// Addition: runs pairwise, contiguous rows in blocks.
pub(crate) struct Sum;
impl<T: Copy + Zero + Add<Output = T>> FoldOp<T, T> for Sum {
    #[inline(always)]
    fn step(&self, acc: &mut T, x: &T) {
        *acc = *acc + *x;
    }
    #[inline(always)]
    fn zip(&self, accs: &mut [T], xs: &[T]) {
        fold_into_slice(accs, xs, |a, b| a + b);
    }

    #[inline(always)]
    fn run(&self, acc: &mut T, xs: &[T]) {
        *acc = *acc + pairwise(xs, |x| x);
    }
    #[inline(always)]
    fn short_runs(&self, accs: &mut [T], xs: &[T], layout: (usize, usize)) {
        short_sums(accs, xs, layout, |acc, s| *acc = *acc + s);
    }
}

/// Multiplication: runs in lanes.
pub(crate) struct Prod;
impl<T: Copy + One + Mul<Output = T>> FoldOp<T, T> for Prod {
    #[inline(always)]
    fn step(&self, acc: &mut T, x: &T) {
        *acc = *acc * *x;
    }
    #[inline(always)]
    fn run(&self, acc: &mut T, xs: &[T]) {
        *acc = *acc * lanes(xs, T::one(), |a, b| a * b);
    }
}

/// The maximum (`MAX`) or minimum, NaN-propagating.
pub(crate) struct Extreme<const MAX: bool>;
impl<const MAX: bool, T: Copy + PartialOrd> FoldOp<T, T> for Extreme<MAX> {
    #[inline(always)]
    fn step(&self, acc: &mut T, x: &T) {
        if better::<MAX, T>(acc, x) {
            *acc = *x;
        }
    }
    #[inline(always)]
    fn run(&self, acc: &mut T, xs: &[T]) {
        *acc = pick::<MAX, T>(*acc, lanes(xs, xs[0], pick::<MAX, T>));
    }
    #[inline(always)]
    fn short_runs(&self, accs: &mut [T], xs: &[T], layout: (usize, usize)) {
        let pick = pick::<MAX, T>;
        interleaved(
            accs,
            xs,
            layout,
            |run| run[0],
            pick,
            |acc, s| *acc = pick(*acc, s),
        );
    }
    #[inline(always)]
    fn zip(&self, accs: &mut [T], xs: &[T]) {
        fold_into_slice(accs, xs, pick::<MAX, T>);
    }
}

/// Sums for the mean: runs pairwise, everything added with compensation.
pub(crate) struct CompensatedSum;
impl<T: Float> FoldOp<T, Kahan<T>> for CompensatedSum {
    #[inline(always)]
    fn step(&self, acc: &mut Kahan<T>, x: &T) {
        acc.add(*x);
    }
    #[inline(always)]
    fn run(&self, acc: &mut Kahan<T>, xs: &[T]) {
        acc.add(pairwise(xs, |x| x));
    }
    #[inline(always)]
    fn short_runs(&self, accs: &mut [Kahan<T>], xs: &[T], layout: (usize, usize)) {
        short_sums(accs, xs, layout, |acc, s| acc.add(s));
    }
}

/// A cell's mean and the compensated sum of its squared deviations from it.
#[derive(Clone, Copy)]
pub(crate) struct Deviations<T> {
    pub(crate) mean: T,
    pub(crate) squares: Kahan<T>,
}

/// The squared deviations from a cell's mean.
pub(crate) struct SquaredDeviation;
impl<T: Float> FoldOp<T, Deviations<T>> for SquaredDeviation {
    #[inline(always)]
    fn step(&self, acc: &mut Deviations<T>, x: &T) {
        let d = *x - acc.mean;
        acc.squares.add(d * d);
    }
    #[inline(always)]
    fn run(&self, acc: &mut Deviations<T>, xs: &[T]) {
        let m = acc.mean;
        acc.squares.add(pairwise(xs, |x| (x - m) * (x - m)));
    }
}
