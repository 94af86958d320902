//! Narrowcasting at the type level (rule book §11): the twin of
//! [`dynamic::narrow`](crate::dynamic::narrow). Only axes that are statically 1 go; a `?`
//! stays. All ones narrow to the scalar shape `shape![]`.
//!
//! ```
//! use shapecast::{names, shape, Narrow};
//! names!(H, H2);
//! static_assertions::assert_type_eq_all!(Narrow<shape![1, 5, 1]>, shape![5]);
//! static_assertions::assert_type_eq_all!(Narrow<shape![1, 1, 1]>, shape![]);
//! static_assertions::assert_type_eq_all!(Narrow<shape![?, H: 1, H2: 4]>, shape![?, H2: 4]);
//! ```

use super::axis::Axis;
use super::bits::Cond;
use super::list::{At, FromRev};
use super::shape::Shape;
use super::size::AxisSize;

/// The axes of a tagged list that are not statically 1, untagged.
pub trait DropOnes {
    /// The remaining axes, last first.
    type Out;
}
impl DropOnes for () {
    type Out = ();
}
impl<const I: usize, X: Axis, Xs: DropOnes> DropOnes for (At<I, X>, Xs) {
    type Out = <<X::Size as AxisSize>::One as Cond>::If<Xs::Out, (X, Xs::Out)>;
}

/// A shape that narrows (every shape does): the bound to write in generic code that calls
/// [`Tensor::narrow`](crate::Tensor::narrow).
///
/// ```
/// use shapecast::{shape, NarrowShape};
/// fn rank_after<S: NarrowShape>() -> usize { <S::Output as shapecast::Shape>::RANK }
/// assert_eq!(rank_after::<shape![1, 5, 1]>(), 1);
/// ```
pub trait NarrowShape: Shape {
    /// `Self` without its statically-1 axes.
    type Output: Shape;
}

impl<S: Shape> NarrowShape for S
where
    S::Rev: DropOnes,
    <S::Rev as DropOnes>::Out: FromRev,
{
    type Output = <<S::Rev as DropOnes>::Out as FromRev>::Out;
}

/// `S` without its statically-1 axes.
///
/// ```
/// use shapecast::{shape, Narrow};
/// static_assertions::assert_type_eq_all!(Narrow<shape![5, 5]>, shape![5, 5]);
/// ```
pub type Narrow<S> = <S as NarrowShape>::Output;
