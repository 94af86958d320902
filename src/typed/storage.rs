//! Where a [`Tensor`](crate::Tensor) keeps its elements, chosen by its shape's type: inline
//! (a `GenericArray`, no heap) when every size is static and there are at most
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

use crate::prelude::*;

use generic_array::{ArrayLength, GenericArray};
use typenum::{IsLessOrEqual, LeEq, Prod, Unsigned, U1, U64};

use super::axis::Axis;
use super::list::At;
use super::sealed::Sealed;
use super::shape::Shape;
use super::size::{AxisSize, Dyn, S};
use crate::tensor::static_kernel::Runs;

/// The most elements a tensor keeps inline.
///
/// ```
/// assert_eq!(shapecast::INLINE_MAX, 64);
/// ```
pub const INLINE_MAX: usize = 64;

/// Marker: the element count is not static, or above [`INLINE_MAX`]; the storage is a `Vec`.
#[doc(hidden)]
pub struct Heap;

/// The element count of a reversed, tagged list of axes: a typenum number up to
/// [`INLINE_MAX`], or [`Heap`]. Every [`Shape`]'s list has one (`Shape::Rev: Count`), so a
/// generic `S: Shape` has a buffer for every element type.
#[doc(hidden)]
pub trait Count {
    type Out: Buffered;
}
impl Count for () {
    type Out = U1;
}
impl<const I: usize, X: Axis, Xs: Count> Count for (At<I, X>, Xs)
where
    Xs::Out: Times<X::Size>,
{
    type Out = <Xs::Out as Times<X::Size>>::Out;
}

/// A count times an axis size, [`Heap`] once it passes [`INLINE_MAX`] or meets a `?`.
#[doc(hidden)]
pub trait Times<Size> {
    type Out: Buffered;
}
impl<Size> Times<Size> for Heap {
    type Out = Heap;
}
impl<U: Unsigned> Times<Dyn> for U {
    type Out = Heap;
}
impl<U: Unsigned, const N: usize, Bits> Times<S<N, Bits>> for U
where
    S<N, Bits>: AxisSize,
    U: core::ops::Mul<<S<N, Bits> as AxisSize>::Bits>,
    Prod<U, <S<N, Bits> as AxisSize>::Bits>: IsLessOrEqual<U64>,
    LeEq<Prod<U, <S<N, Bits> as AxisSize>::Bits>, U64>:
        Inline<Prod<U, <S<N, Bits> as AxisSize>::Bits>>,
{
    type Out = <LeEq<Prod<U, <S<N, Bits> as AxisSize>::Bits>, U64> as Inline<
        Prod<U, <S<N, Bits> as AxisSize>::Bits>,
    >>::Out;
}

/// The count `N` if small enough (typenum's `True`), else [`Heap`].
#[doc(hidden)]
pub trait Inline<N> {
    type Out: Buffered;
}
impl<N: ArrayLength> Inline<N> for typenum::True {
    type Out = N;
}
impl<N> Inline<N> for typenum::False {
    type Out = Heap;
}

/// The buffer for a count, for any element type: `GenericArray<T, N>` or `Vec<T>`.
#[doc(hidden)]
pub trait Buffered {
    type Buf<T>: Buffer<T>;
}
impl Buffered for Heap {
    type Buf<T> = Vec<T>;
}
impl<N: ArrayLength> Buffered for N {
    type Buf<T> = GenericArray<T, N>;
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
    /// `GenericArray<T, N>` for at most [`INLINE_MAX`] static elements, else `Vec<T>`.
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
impl<T, N: ArrayLength> Sealed for GenericArray<T, N> {}

impl<T> Buffer<T> for Vec<T> {
    fn as_slice(&self) -> &[T] {
        self
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
    fn from_vec(data: Vec<T>) -> Result<Self, Vec<T>> {
        Ok(data)
    }
    fn into_vec(self) -> Vec<T> {
        self
    }
    fn from_runs<R: Runs<T>>(total: usize, runs: R) -> Self {
        let mut v = Vec::with_capacity(total);
        runs.write_to(&mut v);
        v
    }
    fn clone_buf(&self) -> Self
    where
        T: Clone,
    {
        self.clone()
    }
    fn write_with<E>(&mut self, fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<(), E> {
        // `fill` validates before clearing, so on failure `self` still holds its elements.
        fill(self)
    }
}

impl<T, N: ArrayLength> Buffer<T> for GenericArray<T, N> {
    fn as_slice(&self) -> &[T] {
        self
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
    fn from_vec(data: Vec<T>) -> Result<Self, Vec<T>> {
        if data.len() != N::USIZE {
            return Err(data);
        }
        Ok(GenericArray::try_from_iter(data).expect("the length was checked"))
    }
    fn into_vec(self) -> Vec<T> {
        self.into_iter().collect()
    }
    #[inline(always)]
    fn from_runs<R: Runs<T>>(_total: usize, runs: R) -> Self {
        crate::tensor::raw::init_inline(|sink| runs.write_to(sink))
    }
    fn clone_buf(&self) -> Self
    where
        T: Clone,
    {
        self.clone()
    }
    fn write_with<E>(&mut self, fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<(), E> {
        let mut data = Vec::with_capacity(N::USIZE);
        fill(&mut data)?;
        match Self::from_vec(data) {
            Ok(filled) => *self = filled,
            Err(_) => unreachable!("an inline buffer's element count is static"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape;

    #[test]
    fn inline_up_to_the_limit_then_heap() {
        type Buf<Sh> = <Sh as Storage<u8>>::Buf;
        static_assertions::assert_type_eq_all!(Buf<shape![]>, GenericArray<u8, U1>);
        static_assertions::assert_type_eq_all!(Buf<shape![8, 8]>, GenericArray<u8, U64>);
        static_assertions::assert_type_eq_all!(Buf<shape![0, 1000]>, GenericArray<u8, typenum::U0>);
        static_assertions::assert_type_eq_all!(Buf<shape![5, 13]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![1, ?]>, Vec<u8>);
        static_assertions::assert_type_eq_all!(Buf<shape![50257, 2]>, Vec<u8>);
    }
}
