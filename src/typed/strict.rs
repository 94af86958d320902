//! Strict rule at the type level (rule book §5): the twin of
//! [`dynamic::strict`](crate::dynamic::strict). Equal ranks, then an exact zip: equal sizes
//! (a `?` is checked at run time) and identical names.
//!
//! ```
//! use shapecast::{rule::Strict, shape, Accepts};
//! assert!(<shape![2, 3] as Accepts<Strict, shape![2, 3]>>::VALUE);
//! assert!(!<shape![2, 3] as Accepts<Strict, shape![1, 3]>>::VALUE);
//! assert!(!<shape![3] as Accepts<Strict, shape![1, 3]>>::VALUE);
//! ```

use super::list::{Collect, NotShorter, SameLen};
use super::numpy::ZipOrRefuse;
use super::outcome::Unwrap;
use super::rule::{Compute, Finish};
use super::shape::Shape;
use super::size::policy::Exact;
use crate::typed::refusals::RanksDiffer;
use crate::typed::rule::Strict;

/// Identical shapes: an exact zip of the two lists when their lengths are equal, else the error.
pub(crate) type Identical<RA, RB> =
    <SameLen<RA, RB> as ZipOrRefuse<RA, RB, Exact, RanksDiffer>>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Strict
where
    A::Rev: NotShorter<B::Rev>,
    B::Rev: NotShorter<A::Rev>,
    SameLen<A::Rev, B::Rev>: ZipOrRefuse<A::Rev, B::Rev, Exact, RanksDiffer>,
    Identical<A::Rev, B::Rev>: Collect,
    <Identical<A::Rev, B::Rev> as Collect>::Out: Unwrap,
{
    type Elems = Identical<A::Rev, B::Rev>;
    type Outcome = Finish<Self::Elems>;
}
