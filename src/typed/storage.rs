//! Where a [`Tensor`](crate::Tensor) keeps its elements, chosen by its shape's type: inline
//! (an array `[T; N]`, no heap) when every size is static and there are at most
//! [`INLINE_MAX`] elements, a `Vec` otherwise. The run-time twin is the plain `Vec` of
//! [`DynTensor`](crate::DynTensor).
//!
//! ```
//! use shapecast::{shape, Storage};
//! // 4 x 4 f32: sixteen floats inline, no allocation.
//! assert_eq!(core::mem::size_of::<<shape![4, 4] as Storage<f32>>::Buf>(), 64);
//! static_assertions::assert_type_eq_all!(<shape![?, 4] as Storage<f32>>::Buf, Vec<f32>);
//! static_assertions::assert_type_eq_all!(<shape![1024, 1024] as Storage<f32>>::Buf, Vec<f32>);
//! ```

use crate::alloc_prelude::*;

use super::counts::{MulSmall, SmallCount, C1};
use super::shape::Shape;
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
/// [`INLINE_MAX`] (`typed::counts`), or [`Heap`]. Every [`Shape`]'s list has one
/// (`Shape::Rev: Count`), so a generic `S: Shape` has a buffer for every element type.
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

/// The buffer of a shape's tensors of `T`. Every [`Shape`] implements it for every `T`, so
/// generic code needs no more than `S: Shape` (this trait names the buffer type).
///
/// ```
/// use shapecast::{shape, Shape, Tensor};
/// fn total<S: Shape>(t: &Tensor<f32, S>) -> f32 {
///     t.iter().sum()
/// }
/// assert_eq!(total(&Tensor::<f32, shape![2, 2]>::ones()?), 4.0);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Storage<T>: Shape {
    /// `[T; N]` for at most [`INLINE_MAX`] static elements, else `Vec<T>`.
    type Buf: Buffer<T>;
}
impl<T, Sh: Shape> Storage<T> for Sh {
    type Buf = <<Sh::Rev as Count>::Out as Buffered>::Buf<T>;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape;

    #[test]
    fn inline_up_to_the_limit_then_heap() {
        type Buf<Sh> = <Sh as Storage<u8>>::Buf;
        static_assertions::assert_type_eq_all!(Buf<shape![]>, [u8; 1]);
        static_assertions::assert_type_eq_all!(Buf<shape![8, 8]>, [u8; 64]);
        static_assertions::assert_type_eq_all!(Buf<shape![0, 1000]>, [u8; 0]);
        static_assertions::assert_type_eq_all!(Buf<shape![5, 13]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![1, ?]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![50257, 2]>, Vec<u8>);
        // Counted from the first axis: a 0 first counts 0 whatever follows, a 0 after a
        // count above the limit keeps the heap (as before the table).
        static_assertions::assert_type_eq_all!(Buf<shape![0, 1000, 3]>, [u8; 0]);
        static_assertions::assert_type_eq_all!(Buf<shape![3, 1000, 0]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![2, 2, 2, 2, 2, 2]>, [u8; 64]);
        static_assertions::assert_type_eq_all!(Buf<shape![2, 2, 2, 2, 2, 2, 2]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![4096, 4096]>, Vec<u8>);
    }
}
