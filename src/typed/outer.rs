//! Outer rule at the type level (rule book §3): the twin of [`dynamic::outer`](crate::dynamic::outer).
//! Names pair by name, unnamed axes by NumPy among the unnamed axes. The output is the
//! right's extra leading unnamed axes, then the left's axes, then the right's named axes
//! the left lacks. Built from the named rule's two passes: the namesakes come out of the
//! right, then the left is walked with the right's unnamed axes as the queue.
//!
//! ```
//! use shapecast::{names, rule::Outer, shape, BroadcastBy};
//! names!(H, W);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Outer, shape![2, H: 3], shape![W: 4, 5, 1]>, shape![5, 2, H: 3, W: 4]);
//! ```

use super::bits::{B0, B1};
use super::list::{Append, ByName, Collect, Ins, Map, NamedOf, UnnamedOf};
use super::named::{Namesakes, PairUp, Walk};
use super::outcome::Unwrap;
use super::pair::Pair;
use super::rule::{Compute, Finish};
use super::shape::Shape;
use super::size::policy::Broadcast;
use crate::typed::rule::Outer;

/// Axes of the right only: each faces an inserted singleton on the left.
pub trait RightOnly {
    /// The output elements.
    type Out;
}
impl RightOnly for () {
    type Out = ();
}
impl<Y, Ys: RightOnly> RightOnly for (Y, Ys)
where
    Ins: Pair<Y, Broadcast>,
{
    type Out = (<Ins as Pair<Y, Broadcast>>::Out, Ys::Out);
}

type Marked<A, B> = <<A as Shape>::Rev as Namesakes<<B as Shape>::Rev>>::Marked;
type RestB<A, B> = <<A as Shape>::Rev as Namesakes<<B as Shape>::Rev>>::Rest;
type Queue<A, B> = UnnamedOf<RestB<A, B>>;
type Walked<A, B> = <Queue<A, B> as OuterWalk<Marked<A, B>>>::Out;
type Leftover<A, B> = <Queue<A, B> as OuterWalk<Marked<A, B>>>::Left;

/// The walk over the left operand's marked axes, by the queue of the right's unnamed axes
/// without a namesake (`Self`): empty (the common case, a contraction's), every axis pairs on
/// its own, side by side (a [`Map`]); else the queue goes from axis to axis ([`Walk`]).
#[doc(hidden)]
pub trait OuterWalk<M> {
    /// The output elements, last first.
    type Out;
    /// What is left of the queue.
    type Left;
}
impl<M: Map<PairUp<(B0, Broadcast)>>> OuterWalk<M> for () {
    type Out = M::Out;
    type Left = ();
}
impl<M: Walk<(Qh, Qt), B1, (B0, Broadcast)>, Qh, Qt> OuterWalk<M> for (Qh, Qt) {
    type Out = M::Out;
    type Left = M::Left;
}
type Tail<A, B> = <Walked<A, B> as Append<<Leftover<A, B> as RightOnly>::Out>>::Out;
type Elems<A, B> = <<NamedOf<RestB<A, B>> as RightOnly>::Out as Append<Tail<A, B>>>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Outer
where
    A::Rev: Namesakes<B::Rev>,
    RestB<A, B>: ByName<B0> + ByName<B1>,
    Queue<A, B>: OuterWalk<Marked<A, B>>,
    Leftover<A, B>: RightOnly,
    Walked<A, B>: Append<<Leftover<A, B> as RightOnly>::Out>,
    NamedOf<RestB<A, B>>: RightOnly,
    <NamedOf<RestB<A, B>> as RightOnly>::Out: Append<Tail<A, B>>,
    Elems<A, B>: Collect,
    <Elems<A, B> as Collect>::Out: Unwrap,
{
    type Elems = Elems<A, B>;
    type Outcome = Finish<Self::Elems>;
}
