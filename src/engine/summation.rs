//! How the reductions add a contiguous run: in independent lanes combined pairwise
//! ([`lanes`]), pairwise over halves down to blocks of 256 ([`pairwise`], as NumPy's pairwise
//! summation), and with Kahan's compensation across runs ([`Kahan`]).

use core::ops::Add;

use num_traits::{Float, Zero};

/// Independent lanes over a contiguous run (32: enough chains to hide the latency of an add
/// on SSE2, the baseline target), combined pairwise, then the tail.
#[inline(always)]
pub(crate) fn lanes<T: Copy>(xs: &[T], init: T, f: impl Fn(T, T) -> T) -> T {
    lanes_of(xs, init, |x| x, f)
}

/// The lanes `l` combined pairwise by `f` (the upper half onto the lower, down to one): how
/// [`lanes`] and the few-rows dot products of `raw` end. `L` is a power of two.
#[inline(always)]
pub(crate) fn combine_lanes<T: Copy, const L: usize>(mut l: [T; L], f: impl Fn(T, T) -> T) -> T {
    let mut width = L;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            l[k] = f(l[k], l[k + width]);
        }
    }
    l[0]
}

/// [`lanes`] of `map(x)` rather than `x`: each element mapped as it is folded in.
#[inline(always)]
fn lanes_of<T: Copy>(xs: &[T], init: T, map: impl Fn(T) -> T, f: impl Fn(T, T) -> T) -> T {
    const L: usize = 32;
    if xs.len() < L {
        // No lane would be filled: `init` folded with itself is `init` for every fold here
        // (0 + 0, 1 · 1, the first element against itself), so the tail alone gives the
        // same value without combining 32 idle lanes (a mean over 15 elements spent half
        // its time there).
        return xs.iter().fold(init, |acc, &x| f(acc, map(x)));
    }
    let mut l = [init; L];
    let mut chunks = xs.chunks_exact(L);
    for c in &mut chunks {
        let c: &[T; L] = c.try_into().expect("chunks_exact gives L elements");
        for k in 0..L {
            l[k] = f(l[k], map(c[k]));
        }
    }
    let mut acc = combine_lanes(l, &f);
    for &x in chunks.remainder() {
        acc = f(acc, map(x));
    }
    acc
}

/// Runs shorter than [`lanes`]' 32 lanes, one per accumulator of `accs`: run `j` is the `n`
/// elements of `xs` from `j * gap`, folded in order by `f` from `first(run)` and handed to
/// `finish` with its accumulator. Eight runs are folded side by side, so eight chains of
/// dependent operations overlap where one run alone waits on each; every run is folded in
/// the same order as on its own.
#[inline(always)]
pub(crate) fn interleaved<T: Copy, A>(
    accs: &mut [A],
    xs: &[T],
    (n, gap): (usize, usize),
    first: impl Fn(&[T]) -> T,
    f: impl Fn(T, T) -> T,
    finish: impl Fn(&mut A, T),
) {
    const B: usize = 8;
    let run = |j: usize| &xs[j * gap..j * gap + n];
    let whole = accs.len() / B * B;
    let (full, rest) = accs.split_at_mut(whole);
    for (k, block) in full.chunks_exact_mut(B).enumerate() {
        // A fixed count, so the eight partial results stay in registers.
        let runs: [&[T]; B] = core::array::from_fn(|j| run(k * B + j));
        let mut s: [T; B] = core::array::from_fn(|j| first(runs[j]));
        // Element `i` of every run, then `i + 1`: the runs' chains advance side by side.
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            for j in 0..B {
                s[j] = f(s[j], runs[j][i]);
            }
        }
        for (acc, v) in block.iter_mut().zip(s) {
            finish(acc, v);
        }
    }
    for (j, acc) in rest.iter_mut().enumerate() {
        let xs = run(whole + j);
        finish(acc, xs.iter().fold(first(xs), |s, &x| f(s, x)));
    }
}

/// [`interleaved`] sums: each short run added in order from 0 (which is its pairwise sum, a
/// run shorter than the lanes), handed to `finish` with its accumulator.
#[inline(always)]
pub(crate) fn short_sums<T: Copy + Zero + Add<Output = T>, A>(
    accs: &mut [A],
    xs: &[T],
    layout: (usize, usize),
    finish: impl Fn(&mut A, T),
) {
    interleaved(accs, xs, layout, |_| T::zero(), |a, b| a + b, finish);
}

/// The sum of `f(x)` over a contiguous run, pairwise: halves down to blocks of 256, each block
/// in 32 lanes added pairwise (error O(log n) roundings, as NumPy's pairwise summation).
#[inline(always)]
pub(crate) fn pairwise<T: Copy + Zero + Add<Output = T>>(xs: &[T], f: impl Fn(T) -> T + Copy) -> T {
    const BLOCK: usize = 256;
    if xs.len() <= BLOCK {
        return lanes_of(xs, T::zero(), f, |a, b| a + b);
    }
    // Split at a multiple of the block, so every leaf but the last is a full block.
    let half = xs.len().div_ceil(2 * BLOCK) * BLOCK;
    let (a, b) = xs.split_at(half);
    pairwise(a, f) + pairwise(b, f)
}

/// A sum carried with Kahan's compensation: `sum + carry` is the exact sum of what was
/// added, to within a rounding or two whatever the count.
#[derive(Clone, Copy)]
pub(crate) struct Kahan<T> {
    pub(crate) sum: T,
    carry: T,
}

impl<T: Float> Kahan<T> {
    pub(crate) fn zero() -> Kahan<T> {
        Kahan {
            sum: T::zero(),
            carry: T::zero(),
        }
    }

    /// Adds `x`, keeping the low-order digits the addition loses in `carry`.
    #[inline(always)]
    pub(crate) fn add(&mut self, x: T) {
        let y = x - self.carry;
        let t = self.sum + y;
        self.carry = (t - self.sum) - y;
        self.sum = t;
    }
}
