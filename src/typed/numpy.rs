//! NumPy rule at the type level (rule book §1): the twin of [`dynamic::numpy`](crate::dynamic::numpy).
//! The axes are stored last first, so right alignment is a zip; the shorter side meets
//! inserted singletons.
//!
//! ```
//! use shapecast::{rule::Numpy, shape, BroadcastBy};
//! static_assertions::assert_type_eq_all!(
//!     BroadcastBy<Numpy, shape![5, 1, 4, 1], shape![3, 1, 2]>,
//!     shape![5, 3, 4, 2]
//! );
//! ```

use super::bits::{And, B0, B1};
use super::list::{Collect, DistinctIf, Ins};
use super::outcome::{Refused, Unwrap};
use super::pair::Pair;
use super::rule::Compute;
use super::shape::Shape;
use super::size::policy::Broadcast;
use crate::typed::rule::Numpy;

type Collected<E> = <E as Collect>::Out;

/// Right-aligned pairing of two reversed lists under policy `Pol`.
pub trait ZipRight<R, Pol> {
    /// The output elements, last first.
    type Out;
}

impl<Pol> ZipRight<(), Pol> for () {
    type Out = ();
}

impl<X: Pair<Ins, Pol>, Xs: ZipRight<(), Pol>, Pol> ZipRight<(), Pol> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}

impl<Y, Ys, Pol> ZipRight<(Y, Ys), Pol> for ()
where
    Ins: Pair<Y, Pol>,
    (): ZipRight<Ys, Pol>,
{
    type Out = (<Ins as Pair<Y, Pol>>::Out, <() as ZipRight<Ys, Pol>>::Out);
}

impl<X: Pair<Y, Pol>, Xs: ZipRight<Ys, Pol>, Y, Ys, Pol> ZipRight<(Y, Ys), Pol> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}

impl<A: Shape, B: Shape> Compute<A, B> for Numpy
where
    A::Rev: ZipRight<B::Rev, Broadcast>,
    <A::Rev as ZipRight<B::Rev, Broadcast>>::Out: Collect,
    And<A::HasNames, B::HasNames>:
        DistinctIf<Collected<<A::Rev as ZipRight<B::Rev, Broadcast>>::Out>>,
    <And<A::HasNames, B::HasNames> as DistinctIf<
        Collected<<A::Rev as ZipRight<B::Rev, Broadcast>>::Out>,
    >>::Out: Unwrap,
{
    type Elems = <A::Rev as ZipRight<B::Rev, Broadcast>>::Out;
    /// Positional pairing can name two output axes alike; only possible when both have names.
    type Outcome =
        <<And<A::HasNames, B::HasNames> as DistinctIf<Collected<Self::Elems>>>::Out as Unwrap>::Out;
}

/// Zips two lists under policy `Pol` when `Self` is `B1`, else refuses with `E`.
pub trait ZipOrRefuse<RA, RB, Pol, E> {
    /// The output elements, last first.
    type Out;
}
impl<RA: ZipRight<RB, Pol>, RB, Pol, E> ZipOrRefuse<RA, RB, Pol, E> for B1 {
    type Out = RA::Out;
}
impl<RA, RB, Pol, E> ZipOrRefuse<RA, RB, Pol, E> for B0 {
    type Out = (Refused<E>, ());
}
