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

pub use super::buffer::{Buffer, INLINE_MAX};
#[doc(hidden)]
pub use super::buffer::{Buffered, Count, Heap, Times};
use super::shape::Shape;

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
