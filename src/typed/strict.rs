//! Strict rule at the type level (SPEC §5): the twin of
//! [`dynamic::strict`](crate::dynamic::strict). Equal ranks, then an exact zip: equal sizes
//! (a `?` is checked at run time) and identical names.
//!
//! ```
//! use shapecast::{rule::Strict, shape, Accepts};
//! assert!(<shape![2, 3] as Accepts<Strict, shape![2, 3]>>::VALUE);
//! assert!(!<shape![2, 3] as Accepts<Strict, shape![1, 3]>>::VALUE);
//! assert!(!<shape![3] as Accepts<Strict, shape![1, 3]>>::VALUE);
//! ```

use super::broadcast::{Compute, Finish};
use super::list::{Collect, NotShorter, SameLen, Unwrap, ZipOrRefuse};
use super::shape::Shape;
use super::size::policy::Exact;
use crate::rule::Strict;
use crate::RanksDiffer;

/// Identical shapes: an exact zip when the ranks are equal (`Self` is `B1`), else the error.
pub trait Identical<RA, RB> {
    /// The output elements, last first.
    type Out;
}
impl<Eq: ZipOrRefuse<RA, RB, Exact, RanksDiffer>, RA, RB> Identical<RA, RB> for Eq {
    type Out = Eq::Out;
}

impl<A: Shape, B: Shape> Compute<A, B> for Strict
where
    A::Rev: NotShorter<B::Rev>,
    B::Rev: NotShorter<A::Rev>,
    SameLen<A::Rev, B::Rev>: Identical<A::Rev, B::Rev>,
    <SameLen<A::Rev, B::Rev> as Identical<A::Rev, B::Rev>>::Out: Collect,
    <<SameLen<A::Rev, B::Rev> as Identical<A::Rev, B::Rev>>::Out as Collect>::Out: Unwrap,
{
    type Elems = <SameLen<A::Rev, B::Rev> as Identical<A::Rev, B::Rev>>::Out;
    type Outcome = Finish<Self::Elems>;
}
