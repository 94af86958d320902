//! How an elementwise function runs over a layout: [`ZipFn`] with its two runners, [`Serial`]
//! (the calling thread) and [`Parallel`] (split over rayon's pool with the `rayon` feature),
//! and the kernels the tensor layer calls with them: [`zip_own`] on a tensor's own layout and
//! [`zip_framed`] on two operands placed in the output frame by a rule's plan; and the
//! adapters ([`cloned`] and its siblings) that give a shape-generic operation a function
//! whose type depends on the elements only, so each kernel is compiled once per operator.

use crate::alloc_prelude::*;

use super::kernel::{room_for, zip_checked, zip_sound};
use super::layout::frame_on_stack;
use super::split::PARALLEL_MIN_ELEMENTS;
use crate::values::error::Error;
use crate::values::shape::MAX_RANK;

/// An elementwise function and how it runs over a layout: [`Serial`] on the calling thread,
/// [`Parallel`] split over rayon's pool (with the `rayon` feature, above
/// [`PARALLEL_MIN_ELEMENTS`]). The operators and the methods taking a caller's elementwise
/// closure (`zip_with`, `zip_with_rule`, under every rule) use `Parallel`, so the closure is
/// `Sync`; `Serial` serves assignments in place and small inline tensors.
pub(crate) trait ZipFn<A, B, O> {
    /// Whether [`zip`](Self::zip) may split the work over threads.
    const PARALLEL: bool;
    /// The function on one pair of elements.
    fn call(&self, a: &A, b: &B) -> O;
    /// [`zip_checked`] with this function.
    fn zip<const N: usize>(
        &self,
        sizes: &[usize],
        a: (&[A], &[usize]),
        b: (&[B], &[usize]),
        out: &mut Vec<O>,
    ) -> Result<(), Error>;
}

/// A function run on the calling thread.
pub(crate) struct Serial<F>(pub(crate) F);

impl<A, B, O, F: Fn(&A, &B) -> O> ZipFn<A, B, O> for Serial<F> {
    const PARALLEL: bool = false;
    #[inline(always)]
    fn call(&self, a: &A, b: &B) -> O {
        (self.0)(a, b)
    }
    fn zip<const N: usize>(
        &self,
        sizes: &[usize],
        a: (&[A], &[usize]),
        b: (&[B], &[usize]),
        out: &mut Vec<O>,
    ) -> Result<(), Error> {
        zip_checked::<N, A, B, O>(sizes, a, b, out, &self.0)
    }
}

/// A function that may run on several threads (with the `rayon` feature).
pub(crate) struct Parallel<F>(pub(crate) F);

impl<A: Sync, B: Sync, O: Send, F: Fn(&A, &B) -> O + Sync> ZipFn<A, B, O> for Parallel<F> {
    const PARALLEL: bool = cfg!(feature = "rayon");
    #[inline(always)]
    fn call(&self, a: &A, b: &B) -> O {
        (self.0)(a, b)
    }
    fn zip<const N: usize>(
        &self,
        sizes: &[usize],
        a: (&[A], &[usize]),
        b: (&[B], &[usize]),
        out: &mut Vec<O>,
    ) -> Result<(), Error> {
        #[cfg(feature = "rayon")]
        {
            super::zip_threads::zip_parallel::<N, A, B, O>(sizes, a, b, out, &self.0)
        }
        #[cfg(not(feature = "rayon"))]
        {
            zip_checked::<N, A, B, O>(sizes, a, b, out, &self.0)
        }
    }
}

/// Whether `f` splits an output of `total` elements over threads rather than running on the
/// calling thread.
pub(crate) fn splits<A, B, O, F: ZipFn<A, B, O>>(_: &F, total: usize) -> bool {
    F::PARALLEL && total >= PARALLEL_MIN_ELEMENTS
}

/// `f` over a layout sound by construction (tensors' own sizes and strides, `total` elements,
/// at most `N` axes): split over threads above the threshold, else the kernel without the
/// validation a caller's strides need.
pub(crate) fn zip_own<const N: usize, A, B, O>(
    f: &impl ZipFn<A, B, O>,
    total: usize,
    sizes: &[usize],
    a: (&[A], &[usize]),
    b: (&[B], &[usize]),
    out: &mut Vec<O>,
) -> Result<(), Error> {
    if splits(f, total) {
        return f.zip::<N>(sizes, a, b, out);
    }
    room_for::<O>(sizes)?;
    zip_sound::<N, A, B, O>(total, sizes, a, b, out, |x, y| f.call(x, y));
    Ok(())
}

/// The rank up to which [`zip_framed`]'s working arrays are short.
const SMALL_RANK: usize = 8;

/// `f(a, b)` into `out` over the output `sizes`, each operand given by its own sizes, strides
/// (`None`: contiguous, row-major) and data, and placed in the output frame by one side of a
/// plan (`sides`: the operand axis feeding each output axis, `None` where it is broadcast).
/// The operands' layouts are their tensors' own (their data holds every offset).
pub(crate) fn zip_framed<A, B, O>(
    sizes: &[usize],
    sides: (&[Option<usize>], &[Option<usize>]),
    a: (&[A], &[usize], Option<&[usize]>),
    b: (&[B], &[usize], Option<&[usize]>),
    out: &mut Vec<O>,
    f: impl ZipFn<A, B, O>,
) -> Result<(), Error> {
    // The working arrays are as long as the rank needs: less to fill for the common ranks.
    // An operand may have more axes than the output (the pdpd rule drops a right operand's
    // trailing 1s), and its strides are computed in the same arrays.
    let widest = sizes.len().max(a.1.len()).max(b.1.len());
    if widest <= SMALL_RANK {
        zip_framed_in::<SMALL_RANK, _, _, _>(sizes, sides, a, b, out, f)
    } else {
        zip_framed_in::<MAX_RANK, _, _, _>(sizes, sides, a, b, out, f)
    }
}

/// [`zip_framed`] on a rank of at most `N`.
fn zip_framed_in<const N: usize, A, B, O>(
    sizes: &[usize],
    (lhs, rhs): (&[Option<usize>], &[Option<usize>]),
    (a, a_sizes, a_strides): (&[A], &[usize], Option<&[usize]>),
    (b, b_sizes, b_strides): (&[B], &[usize], Option<&[usize]>),
    out: &mut Vec<O>,
    f: impl ZipFn<A, B, O>,
) -> Result<(), Error> {
    let sa = frame_on_stack::<N>(lhs, a_sizes, a_strides);
    let sb = frame_on_stack::<N>(rhs, b_sizes, b_strides);
    let n = sizes.len();
    let (a, b) = ((a, &sa[..n]), (b, &sb[..n]));
    match sizes.iter().try_fold(1usize, |acc, &k| acc.checked_mul(k)) {
        Some(total) => zip_own::<N, A, B, O>(&f, total, sizes, a, b, out),
        // The kernel refuses an element count that overflows.
        None => f.zip::<N>(sizes, a, b, out),
    }
}

// Adapters from a function on owned elements to the borrowed form the kernels call.
//
// A closure written inside a generic function has a type that carries every generic parameter
// of that function, used or not: `|x, y| f(x.clone(), y)` inside a method of `Tensor<T, S>`
// is a new type for every shape `S`, and with it every kernel it reaches is compiled again.
// Built here, from the element types and `f` alone, one closure (and one copy of each
// kernel) serves every shape (a ResNet-18 whose closures carry its shapes compiles some 900
// copies of the strided walk; `docs/performance.md`, compile time). Each adapter is `Sync`
// when `f` is (an opaque type keeps its closure's auto traits), as `Parallel` asks.

/// `f(x.clone(), y.clone())`: an operator on owned elements (such as `<T as Add<U>>::add`).
pub(crate) fn cloned<T: Clone, U: Clone, O, F>(f: F) -> impl Fn(&T, &U) -> O
where
    F: Fn(T, U) -> O,
{
    move |x, y| f(x.clone(), y.clone())
}

/// `f(x.clone(), y)`: an update of an owned left element by a borrowed right one.
pub(crate) fn cloned_left<T: Clone, U, O, F>(f: F) -> impl Fn(&T, &U) -> O
where
    F: Fn(T, &U) -> O,
{
    move |x, y| f(x.clone(), y)
}

/// `f(x, y.clone())`: an update of an owned right element by a borrowed left one.
pub(crate) fn cloned_right<T, U: Clone, O, F>(f: F) -> impl Fn(&T, &U) -> O
where
    F: Fn(&T, U) -> O,
{
    move |x, y| f(x, y.clone())
}

/// `f(x, y.clone())` for an operator on owned elements: the left one owned, the right borrowed.
pub(crate) fn owned_left<T, U: Clone, O, F>(f: F) -> impl Fn(T, &U) -> O
where
    F: Fn(T, U) -> O,
{
    move |x, y| f(x, y.clone())
}

/// `f(x.clone(), y)` for an operator on owned elements: the right one owned, the left borrowed.
pub(crate) fn owned_right<T: Clone, U, O, F>(f: F) -> impl Fn(&T, U) -> O
where
    F: Fn(T, U) -> O,
{
    move |x, y| f(x.clone(), y)
}

/// `f(y, x)`: the operands' order swapped (an update of the right operand in place).
pub(crate) fn swapped<T, U, O, F>(f: F) -> impl Fn(U, &T) -> O
where
    F: Fn(&T, U) -> O,
{
    move |y, x| f(x, y)
}
