//! Narrowcasting (rule book §11) on typed tensors: [`Tensor::narrow`] drops the axes that are
//! statically 1, and [`ElementOr`] gives its result, a tensor or the element itself. The
//! shape rule is [`typed::narrow`](crate::typed::narrow) (run time:
//! [`dynamic::narrow`](crate::dynamic::narrow)).

use crate::alloc_prelude::*;

use super::tensor::Tensor;
use crate::typed::narrow::{Narrow, NarrowShape};
use crate::typed::shape::Shape;
use crate::typed::storage::{Buffer, Storage};

impl<T, S: Storage<T>> Tensor<T, S> {
    /// Narrowcasting (rule book §11): the same elements without the axes that are statically 1;
    /// when every axis is statically 1, the element itself. A `?` axis stays, whatever its
    /// run-time size; only the outer level of a nested tensor is narrowed.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![1, 3, 1]>::from_vec(vec![1, 2, 3])?;
    /// let n: Tensor<i32, shape![3]> = t.narrow();
    /// assert_eq!(n.data(), &[1, 2, 3]);
    /// let one = Tensor::<i32, shape![1, 1, 1]>::from_vec(vec![42])?;
    /// let x: i32 = one.narrow(); // [1, 1, 1] of i32 gives i32
    /// assert_eq!(x, 42);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn narrow(self) -> <Narrow<S> as ElementOr<T>>::Out
    where
        S: NarrowShape,
        Narrow<S>: ElementOr<T>,
    {
        let kept = self
            .sizes()
            .iter()
            .zip(S::SIZES)
            .filter(|(_, known)| **known != Some(1))
            .map(|(&n, _)| n)
            .collect::<Vec<_>>();
        <Narrow<S> as ElementOr<T>>::wrap(&kept, self.data.into_vec())
    }
}

/// The result of narrowing to a shape: the element itself for `shape![]`, a tensor
/// otherwise (rule book §11). Used by [`Tensor::narrow`].
///
/// ```
/// use shapecast::{shape, ElementOr, Tensor};
/// static_assertions::assert_type_eq_all!(<shape![] as ElementOr<u8>>::Out, u8);
/// static_assertions::assert_type_eq_all!(<shape![2] as ElementOr<u8>>::Out, Tensor<u8, shape![2]>);
/// ```
pub trait ElementOr<T> {
    /// `T` or `Tensor<T, Self>`.
    type Out;
    #[doc(hidden)]
    fn wrap(sizes: &[usize], data: Vec<T>) -> Self::Out;
}

impl<T, S: Shape> ElementOr<T> for S
where
    S::Rev: ScalarOrTensor<T, S>,
{
    type Out = <S::Rev as ScalarOrTensor<T, S>>::Out;
    fn wrap(sizes: &[usize], data: Vec<T>) -> Self::Out {
        <S::Rev as ScalarOrTensor<T, S>>::wrap(sizes, data)
    }
}

/// [`ElementOr`] by whether the shape has axes, read off its axis list: the element for the
/// empty list, a tensor otherwise (one impl each, whatever the rank).
#[doc(hidden)]
pub trait ScalarOrTensor<T, S> {
    type Out;
    fn wrap(sizes: &[usize], data: Vec<T>) -> Self::Out;
}

impl<T, S> ScalarOrTensor<T, S> for () {
    type Out = T;
    fn wrap(_: &[usize], mut data: Vec<T>) -> T {
        // `S` is `[]` here, whose element count is 1 (the empty product): the data of an
        // operation's output always holds its element count.
        data.pop().expect("a tensor of shape [] holds one element")
    }
}

impl<T, S: Storage<T>, X, Xs> ScalarOrTensor<T, S> for (X, Xs) {
    type Out = Tensor<T, S>;
    fn wrap(sizes: &[usize], data: Vec<T>) -> Tensor<T, S> {
        Tensor::from_parts(sizes, data)
    }
}
