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

use super::bits::B0;
use super::bits::B1;
use super::broadcast::{Compute, Finish};
use super::list::{Bad, Collect, NotShorter, SameLen, Unwrap};
use super::numpy::ZipRight;
use super::shape::Shape;
use super::size::policy::Exact;
use crate::rule::Strict;
use crate::RanksDiffer;

/// Identical shapes: an exact zip when the ranks are equal (`B1`), else the error.
pub trait Identical<RA, RB> {
    /// The output elements, last first.
    type Out;
}
impl<RA: ZipRight<RB, Exact>, RB> Identical<RA, RB> for B1 {
    type Out = RA::Out;
}
impl<RA, RB> Identical<RA, RB> for B0 {
    type Out = (Bad<RanksDiffer>, ());
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
