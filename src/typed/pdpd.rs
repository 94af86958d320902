//! PDPD rule at the type level (rule book §8): the twin of [`dynamic::pdpd`](crate::dynamic::pdpd).
//! The right operand B goes onto the left A only, from a start axis: trailing statically-1
//! axes of B are dropped first; with [`AutoAxis`](crate::rule::AutoAxis) B is aligned to the
//! end of A, with an axis `K` (a typenum unsigned such as `typenum::U1`, or
//! [`Start<K>`](crate::rule::Start)) B's axis i meets A's axis K + i. Each pair goes into
//! the left, and the result is A.
//!
//! ```
//! use shapecast::rule::{AutoAxis, Pdpd, Start};
//! use shapecast::{shape, Accepts, BroadcastBy};
//! type A = shape![2, 3, 4, 5];
//! static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<Start<1>>, A, shape![3, 1]>, A);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<typenum::U1>, A, shape![3, 4]>, A);
//! assert!(<A as Accepts<Pdpd, shape![4, 5, 1]>>::VALUE);
//! assert!(!<A as Accepts<Pdpd<Start<3>>, shape![3, 4]>>::VALUE);
//! ```

use core::ops::Sub;

use typenum::{UInt, UTerm, Unsigned, B1};

use super::axis::Axis;
use super::bits::Cond;
use super::list::{At, Collect, Ins, NotShorter, ReverseOnto};
use super::numpy::ZipOrRefuse;
use super::outcome::{Refused, Unwrap};
use super::pair::Pair;
use super::rule::{Compute, Finish, PdpdAxis};
use super::shape::Shape;
use super::size::policy::IntoLhs;
use super::size::AxisSize;
use crate::typed::refusals::{PdpdRange, RhsLonger};
use crate::typed::rule::{AutoAxis, Pdpd};

/// B's list (last first) without its trailing statically-1 axes (step 1).
pub trait DropTrailingOnes {
    /// The trimmed list.
    type Out;
}
impl DropTrailingOnes for () {
    type Out = ();
}
impl<const J: usize, Y: Axis, Ys: DropTrailingOnes> DropTrailingOnes for (At<J, Y>, Ys) {
    type Out = <<Y::Size as AxisSize>::One as Cond>::If<Ys::Out, (At<J, Y>, Ys)>;
}

/// Pairs A (`Self`, last first) with the trimmed B by the start axis `K`.
pub trait Place<RB, K> {
    /// The output elements, last first.
    type Out;
}

/// The default axis: B aligned to the end of A, if it is not longer.
impl<RA: NotShorter<RB>, RB> Place<RB, AutoAxis> for RA
where
    RA::Out: ZipOrRefuse<RA, RB, IntoLhs, RhsLonger>,
{
    type Out = <RA::Out as ZipOrRefuse<RA, RB, IntoLhs, RhsLonger>>::Out;
}

/// An explicit axis: walk A from its first axis, skip `K` axes, then zip B from its first.
impl<RA: ReverseOnto<()>, RB: ReverseOnto<()>, K: Unsigned> Place<RB, K> for RA
where
    RA::Out: SkipThenZip<RB::Out, K, ()>,
{
    type Out = <RA::Out as SkipThenZip<RB::Out, K, ()>>::Out;
}

/// `Self` is A from its first axis, `FB` B from its first; `Acc` the output so far, last
/// first. Skips `K` axes of A (facing inserted singletons), then zips.
pub trait SkipThenZip<FB, K, Acc> {
    /// The output elements, last first.
    type Out;
}
impl<FA: ZipLeft<FB, Acc>, FB, Acc> SkipThenZip<FB, UTerm, Acc> for FA {
    type Out = FA::Out;
}
impl<X: Pair<Ins, IntoLhs>, Xs, FB, U, Bt, Acc> SkipThenZip<FB, UInt<U, Bt>, Acc> for (X, Xs)
where
    UInt<U, Bt>: Sub<B1>,
    Xs: SkipThenZip<FB, <UInt<U, Bt> as Sub<B1>>::Output, (X::Out, Acc)>,
{
    type Out = <Xs as SkipThenZip<FB, <UInt<U, Bt> as Sub<B1>>::Output, (X::Out, Acc)>>::Out;
}
impl<FB, U, Bt, Acc> SkipThenZip<FB, UInt<U, Bt>, Acc> for () {
    type Out = (Refused<PdpdRange>, ());
}

/// Zips A and B from their first axes onto `Acc`; A's axes past B face inserted singletons;
/// B longer than what is left of A is the error.
pub trait ZipLeft<FB, Acc> {
    /// The output elements, last first.
    type Out;
}
impl<Acc> ZipLeft<(), Acc> for () {
    type Out = Acc;
}
impl<X: Pair<Ins, IntoLhs>, Xs: ZipLeft<(), (X::Out, Acc)>, Acc> ZipLeft<(), Acc> for (X, Xs) {
    type Out = Xs::Out;
}
impl<X: Pair<Y, IntoLhs>, Xs: ZipLeft<Ys, (X::Out, Acc)>, Y, Ys, Acc> ZipLeft<(Y, Ys), Acc>
    for (X, Xs)
{
    type Out = Xs::Out;
}
impl<Y, Ys, Acc> ZipLeft<(Y, Ys), Acc> for () {
    type Out = (Refused<PdpdRange>, ());
}

type Trimmed<B> = <<B as Shape>::Rev as DropTrailingOnes>::Out;
type Elems<A, B, K> = <<A as Shape>::Rev as Place<Trimmed<B>, <K as PdpdAxis>::Skip>>::Out;

impl<A: Shape, B: Shape, K: PdpdAxis> Compute<A, B> for Pdpd<K>
where
    B::Rev: DropTrailingOnes,
    A::Rev: Place<Trimmed<B>, K::Skip>,
    Elems<A, B, K>: Collect,
    <Elems<A, B, K> as Collect>::Out: Unwrap,
{
    type Elems = Elems<A, B, K>;
    type Outcome = Finish<Self::Elems>;
}
