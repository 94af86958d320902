//! Comparison rule at the type level (rule book §6): the twin of
//! [`dynamic::compare`](crate::dynamic::compare). A scalar operand takes the other's shape;
//! otherwise the shapes must be identical.
//!
//! ```
//! use shapecast::{rule::Compare, shape, Accepts, BroadcastBy};
//! static_assertions::assert_type_eq_all!(BroadcastBy<Compare, shape![3], shape![]>, shape![3]);
//! assert!(!<shape![3] as Accepts<Compare, shape![1, 3]>>::VALUE);
//! ```

use super::bits::{Or, B0, B1};
use super::list::{Collect, IsEmpty, NotShorter, SameLen};
use super::numpy::ZipOrRefuse;
use super::numpy::ZipRight;
use super::outcome::Unwrap;
use super::rule::{Compute, Finish};
use super::shape::Shape;
use super::size::policy::{Broadcast, Exact};
use super::strict::Identical;
use crate::typed::refusals::RanksDiffer;
use crate::typed::rule::Compare;

/// A scalar operand (`B1`): the other shape, its axes facing inserted singletons; else
/// identical shapes.
pub trait CompareCase<RA, RB> {
    /// The output elements, last first.
    type Out;
}
impl<RA: ZipRight<RB, Broadcast>, RB> CompareCase<RA, RB> for B1 {
    type Out = RA::Out;
}
impl<RA: NotShorter<RB>, RB: NotShorter<RA>> CompareCase<RA, RB> for B0
where
    SameLen<RA, RB>: ZipOrRefuse<RA, RB, Exact, RanksDiffer>,
{
    type Out = Identical<RA, RB>;
}

type Scalar<A, B> = Or<<<A as Shape>::Rev as IsEmpty>::Out, <<B as Shape>::Rev as IsEmpty>::Out>;
type Elems<A, B> = <Scalar<A, B> as CompareCase<<A as Shape>::Rev, <B as Shape>::Rev>>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Compare
where
    A::Rev: IsEmpty,
    B::Rev: IsEmpty,
    Scalar<A, B>: CompareCase<A::Rev, B::Rev>,
    Elems<A, B>: Collect,
    <Elems<A, B> as Collect>::Out: Unwrap,
{
    type Elems = Elems<A, B>;
    type Outcome = Finish<Self::Elems>;
}
