//! The buffers a tensor's elements live in, and the element counts that pick one: an array
//! `[T; N]` for a static count up to [`INLINE_MAX`], a `Vec` otherwise. A shape's reversed
//! list of axes has a [`Count`] (`Shape::Rev: Count`), so every shape has a buffer
//! ([`Storage`](super::storage::Storage) names it).

use crate::alloc_prelude::*;

use super::counts::{MulSmall, SmallCount, C1};
use super::size::{AxisSize, Dyn, S};
use crate::engine::sink::Runs;
use crate::values::sealed::Sealed;

/// The most elements a tensor keeps inline.
///
/// ```
/// assert_eq!(shapecast::INLINE_MAX, 64);
/// ```
pub const INLINE_MAX: usize = 64;

/// Marker: the element count is not static, or above [`INLINE_MAX`]; the storage is a `Vec`.
#[doc(hidden)]
pub struct Heap;

/// The element count of a reversed, tagged list of axes: a count `C0` … `C64` up to
/// [`INLINE_MAX`] (`typed::counts`), or [`Heap`]. Every [`Shape`](super::shape::Shape)'s list has
/// one (`Shape::Rev: Count`), so a generic `S: Shape` has a buffer for every element type.
#[doc(hidden)]
pub trait Count {
    type Out: Buffered;
}
impl Count for () {
    type Out = C1;
}
// One impl per length, in `typed::tuples` (generated): a walk over the list would nest a
// trait step per axis in every use of a shape's `Rev`.

/// A count times an axis size, [`Heap`] once it passes [`INLINE_MAX`] or meets a `?`: one
/// table look-up (`MulSmall`) by the size's class.
#[doc(hidden)]
pub trait Times<Size> {
    type Out: Buffered;
}
impl<Size> Times<Size> for Heap {
    type Out = Heap;
}
impl<C: SmallCount> Times<Dyn> for C {
    type Out = Heap;
}
impl<C: SmallCount, const N: usize, Bits> Times<S<N, Bits>> for C
where
    S<N, Bits>: AxisSize,
    C: MulSmall<<S<N, Bits> as AxisSize>::Small>,
{
    type Out = <C as MulSmall<<S<N, Bits> as AxisSize>::Small>>::Out;
}

/// The buffer for a count, for any element type: an array `[T; N]` (the counts up to
/// [`INLINE_MAX`], in `typed::counts`) or `Vec<T>`. (Not generic-array's `GenericArray`: its
/// lengths are bounded by a constant rust-analyzer does not evaluate, so the editor could not
/// prove such a tensor `Sized` and lost its type after a `?`.)
#[doc(hidden)]
pub trait Buffered {
    type Buf<T>: Buffer<T>;
}
impl Buffered for Heap {
    type Buf<T> = Vec<T>;
}

/// A tensor's element buffer: contiguous, row-major.
///
/// ```
/// use shapecast::Buffer;
/// let v = <Vec<u8> as Buffer<u8>>::from_vec(vec![1, 2]).unwrap();
/// assert_eq!(v.as_slice(), &[1, 2]);
/// ```
pub trait Buffer<T>: Sized + Sealed {
    /// The elements.
    fn as_slice(&self) -> &[T];
    /// The elements, for writing.
    fn as_mut_slice(&mut self) -> &mut [T];
    /// The buffer holding `data`, or `data` back when its length does not fit.
    fn from_vec(data: Vec<T>) -> Result<Self, Vec<T>>;
    /// The elements by value.
    fn into_vec(self) -> Vec<T>;
    /// The buffer of `total` elements that `runs` writes, in order.
    #[doc(hidden)]
    fn from_runs<R: Runs<T>>(total: usize, runs: R) -> Self;
    /// A copy of the buffer (what `Clone` gives, asked of `T` alone, so that a generic
    /// `Tensor<T, S>` is `Clone` whenever `T` is).
    #[doc(hidden)]
    fn clone_buf(&self) -> Self
    where
        T: Clone;
    /// Refills the buffer through `fill`, which receives an empty `Vec` (this buffer's own
    /// allocation when it is one) and must leave it untouched when it fails; on failure the
    /// buffer keeps its elements. `fill` must push exactly as many elements as the buffer
    /// holds when it is inline.
    #[doc(hidden)]
    fn write_with<E>(&mut self, fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<(), E>;
}

impl<T> Sealed for Vec<T> {}
impl<T, const N: usize> Sealed for [T; N] {}
