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

/// [`lanes`] of `map(x)` rather than `x`: each element mapped as it is folded in.
#[inline(always)]
fn lanes_of<T: Copy>(xs: &[T], init: T, map: impl Fn(T) -> T, f: impl Fn(T, T) -> T) -> T {
    const L: usize = 32;
    let mut l = [init; L];
    let mut chunks = xs.chunks_exact(L);
    for c in &mut chunks {
        let c: &[T; L] = c.try_into().expect("chunks_exact gives L elements");
        for k in 0..L {
            l[k] = f(l[k], map(c[k]));
        }
    }
    let mut width = L;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            l[k] = f(l[k], l[k + width]);
        }
    }
    let mut acc = l[0];
    for &x in chunks.remainder() {
        acc = f(acc, map(x));
    }
    acc
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
