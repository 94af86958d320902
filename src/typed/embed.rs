//! Embedding rule at the type level (rule book §4): the twin of
//! [`dynamic::embed`](crate::dynamic::embed). Walking the longer shape F from its last axis,
//! each axis pairs with the next axis of the shorter shape E (last first) when they may pair,
//! and meets an inserted singleton otherwise: the rightmost order-preserving matching. Axes
//! may pair when their sizes are possibly compatible and their names neither differ nor let
//! a name occur twice. An axis of E left over has no partner: the rule refuses.
//!
//! ```
//! use shapecast::{rule::Embed, shape, Accepts, BroadcastBy};
//! static_assertions::assert_type_eq_all!(BroadcastBy<Embed, shape![64, 32, 8, 5], shape![64, 32, 8]>, shape![64, 32, 8, 5]);
//! assert!(!<shape![2, 3] as Accepts<Embed, shape![3, 2]>>::VALUE);
//! ```

use super::axis::{Axis, HexOf};
use super::bits::{And, Cond, Not, Or, B0, B1};
use super::list::{At, Collect, Ins, NameInTagged, NotShorter};
use super::name::{Anon, NameId, Named, SameBits};
use super::named::Orient;
use super::outcome::{Refused, Unwrap};
use super::rule::{Compute, Finish};
use super::shape::Shape;
use super::size::policy::Broadcast;
use super::size::{AxisSize, BothKnownSame};
use crate::typed::refusals::{LhsAxis, NoMatch, RhsAxis};
use crate::typed::rule::Embed;

/// The frame is the left (`B1`) or the right (`B0`).
pub trait EmbedFrame<RA, RB> {
    /// The output elements, last first.
    type Out;
}
impl<RA: EmbedWalk<RB, RA, RB, B0>, RB> EmbedFrame<RA, RB> for B1 {
    type Out = RA::Out;
}
impl<RA, RB: EmbedWalk<RA, RB, RA, B1>> EmbedFrame<RA, RB> for B0 {
    type Out = RB::Out;
}

/// Walks F (`Self`, last first) with the queue `Q` of E's axes; `Fa` and `Ea` are all of F
/// and E (for the name rule); `Sw` is `B1` when F is the right operand.
pub trait EmbedWalk<Q, Fa, Ea, Sw> {
    /// The output elements, last first.
    type Out;
}
impl<Q: Leftover<Sw>, Fa, Ea, Sw> EmbedWalk<Q, Fa, Ea, Sw> for () {
    type Out = Q::Out;
}
impl<const I: usize, X, Xs, Fa, Ea, Sw> EmbedWalk<(), Fa, Ea, Sw> for (At<I, X>, Xs)
where
    (Sw, Broadcast): Orient<At<I, X>, Ins>,
    Xs: EmbedWalk<(), Fa, Ea, Sw>,
{
    type Out = (
        <(Sw, Broadcast) as Orient<At<I, X>, Ins>>::Out,
        <Xs as EmbedWalk<(), Fa, Ea, Sw>>::Out,
    );
}
impl<const I: usize, X, Xs, Qh, Qt, Fa, Ea, Sw> EmbedWalk<(Qh, Qt), Fa, Ea, Sw> for (At<I, X>, Xs)
where
    (At<I, X>, Qh): MayPair<Fa, Ea>,
    <(At<I, X>, Qh) as MayPair<Fa, Ea>>::Out: EmbedStep<At<I, X>, Xs, Qh, Qt, Fa, Ea, Sw>,
{
    type Out = <<(At<I, X>, Qh) as MayPair<Fa, Ea>>::Out as EmbedStep<
        At<I, X>,
        Xs,
        Qh,
        Qt,
        Fa,
        Ea,
        Sw,
    >>::Out;
}

/// Pairs F's axis with the head of the queue (`B1`) or with an inserted singleton (`B0`).
pub trait EmbedStep<Fx, Xs, Qh, Qt, Fa, Ea, Sw> {
    /// The output elements, last first.
    type Out;
}
impl<Fx, Xs, Qh, Qt, Fa, Ea, Sw> EmbedStep<Fx, Xs, Qh, Qt, Fa, Ea, Sw> for B1
where
    (Sw, Broadcast): Orient<Fx, Qh>,
    Xs: EmbedWalk<Qt, Fa, Ea, Sw>,
{
    type Out = (<(Sw, Broadcast) as Orient<Fx, Qh>>::Out, Xs::Out);
}
impl<Fx, Xs, Qh, Qt, Fa, Ea, Sw> EmbedStep<Fx, Xs, Qh, Qt, Fa, Ea, Sw> for B0
where
    (Sw, Broadcast): Orient<Fx, Ins>,
    Xs: EmbedWalk<(Qh, Qt), Fa, Ea, Sw>,
{
    type Out = (<(Sw, Broadcast) as Orient<Fx, Ins>>::Out, Xs::Out);
}

/// What is left of the queue: nothing, or the error naming its last unmatched axis.
pub trait Leftover<Sw> {
    /// The trailing elements.
    type Out;
}
impl<Sw> Leftover<Sw> for () {
    type Out = ();
}
impl<const J: usize, Y, Ys> Leftover<B0> for (At<J, Y>, Ys) {
    type Out = (Refused<NoMatch<RhsAxis<J, Y>>>, ());
}
impl<const J: usize, Y, Ys> Leftover<B1> for (At<J, Y>, Ys) {
    type Out = (Refused<NoMatch<LhsAxis<J, Y>>>, ());
}

/// Whether an axis of F and an axis of E may pair (`Self` is the pair).
pub trait MayPair<Fa, Ea> {
    /// `B1` when they may.
    type Out: Cond;
}
impl<const I: usize, X: Axis, const J: usize, Y: Axis, Fa, Ea> MayPair<Fa, Ea>
    for (At<I, X>, At<J, Y>)
where
    KnownPair<X, Y>: BothKnownSame<HexOf<X>, HexOf<Y>>,
    (X::Name, Y::Name): NamesMay<Fa, Ea>,
{
    // Sizes may be compatible when either is a 1, or they are equal (any `?` counts as equal:
    // run time checks it).
    type Out = And<
        Or<
            Or<<X::Size as AxisSize>::One, <Y::Size as AxisSize>::One>,
            <KnownPair<X, Y> as BothKnownSame<HexOf<X>, HexOf<Y>>>::Out,
        >,
        <(X::Name, Y::Name) as NamesMay<Fa, Ea>>::Out,
    >;
}

/// Whether each axis's size is static.
type KnownPair<X, Y> = (
    <<X as Axis>::Size as AxisSize>::Known,
    <<Y as Axis>::Size as AxisSize>::Known,
);

/// Names that may pair: equal, or one side unnamed and the other's name absent from the
/// unnamed side's shape.
pub trait NamesMay<Fa, Ea> {
    /// `B1` when they may.
    type Out: Cond;
}
impl<Fa, Ea> NamesMay<Fa, Ea> for (Anon, Anon) {
    type Out = B1;
}
impl<N, Fa, Ea> NamesMay<Fa, Ea> for (Named<N>, Anon)
where
    Named<N>: NameInTagged<Ea>,
{
    type Out = Not<<Named<N> as NameInTagged<Ea>>::Out>;
}
impl<M, Fa, Ea> NamesMay<Fa, Ea> for (Anon, Named<M>)
where
    Named<M>: NameInTagged<Fa>,
{
    type Out = Not<<Named<M> as NameInTagged<Fa>>::Out>;
}
impl<N: NameId, M: NameId, Fa, Ea> NamesMay<Fa, Ea> for (Named<N>, Named<M>)
where
    N::Bits: SameBits<M::Bits>,
{
    type Out = <N::Bits as SameBits<M::Bits>>::Out;
}

type Elems<A, B> = <<<A as Shape>::Rev as NotShorter<<B as Shape>::Rev>>::Out as EmbedFrame<
    <A as Shape>::Rev,
    <B as Shape>::Rev,
>>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Embed
where
    A::Rev: NotShorter<B::Rev>,
    <A::Rev as NotShorter<B::Rev>>::Out: EmbedFrame<A::Rev, B::Rev>,
    Elems<A, B>: Collect,
    <Elems<A, B> as Collect>::Out: Unwrap,
{
    type Elems = Elems<A, B>;
    type Outcome = Finish<Self::Elems>;
}
