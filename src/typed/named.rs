//! Named rule at the type level (rule book §2): the twin of [`dynamic::named`](crate::dynamic::named).
//!
//! The frame F is the longer operand (the left on ties); E is embedded into it. A first pass
//! over F finds each axis' namesake in E and takes it out of E, so what is left of E is the
//! queue of axes without a namesake, last first (each name is compared once). A second pass
//! walks F from its last axis: an axis with a namesake pairs with it, a *target* axis takes
//! the next axis of the queue, any other axis meets an inserted singleton. Targets are F's
//! unnamed axes when there are at least as many as the queue (step 2), else all of F's axes
//! without a namesake (step 3). Without any names the rule is NumPy's and costs what NumPy
//! costs.
//!
//! ```
//! use shapecast::{names, shape, Broadcast};
//! names!(CHANNEL, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Broadcast<shape![10, CHANNEL: 3, H: 256, W: 384], shape![10, H: 256, W: 384]>,
//!     shape![10, CHANNEL: 3, H: 256, W: 384]
//! );
//! ```

use super::axis::Axis;
use super::bits::{Cond, Not, Or, B0, B1};
use super::list::{
    At, ByName, Collect, Extract, Found, Ins, Missing, NotShorter, UnnamedOf, Unwrap,
};
use super::name::NameKind;
use super::numpy::ZipRight;
use super::rule::Compute;
use super::shape::Shape;
use super::size::policy::Broadcast;
use crate::rule::Named;

type Collected<E> = <E as Collect>::Out;
use super::pair::Pair;

/// Named pairing of reversed lists `Self` (left) and `RB` (right), by whether either has names.
pub trait NamedOrNumpy<RA, RB, Pol> {
    /// The output elements, last first.
    type Out;
}

/// No names anywhere: NumPy's zip.
impl<RA: ZipRight<RB, Pol>, RB, Pol> NamedOrNumpy<RA, RB, Pol> for B0 {
    type Out = RA::Out;
}

/// Names: pick the frame.
impl<RA: NotShorter<RB>, RB, Pol> NamedOrNumpy<RA, RB, Pol> for B1
where
    RA::Out: FrameOf<RA, RB, Pol>,
{
    type Out = <RA::Out as FrameOf<RA, RB, Pol>>::Out;
}

/// The frame is the left (`B1`) or the right (`B0`).
pub trait FrameOf<RA, RB, Pol> {
    /// The output elements, last first.
    type Out;
}
impl<RA: NamedFrame<RB, B0, Pol>, RB, Pol> FrameOf<RA, RB, Pol> for B1 {
    type Out = RA::Out;
}
impl<RA, RB: NamedFrame<RA, B1, Pol>, Pol> FrameOf<RA, RB, Pol> for B0 {
    type Out = RB::Out;
}

/// The named rule with `Self` as the frame F and `E` embedded; `Sw` is `B1` when F is the
/// right operand; pairs follow policy `Pol`.
pub trait NamedFrame<E, Sw, Pol> {
    /// The output elements, last first.
    type Out;
}

type Marked<F, E> = <F as Namesakes<E>>::Marked;
type Queue<F, E> = <F as Namesakes<E>>::Rest;
type Mode<F, E> = <UnnamedOf<F> as NotShorter<Queue<F, E>>>::Out;

impl<F, E, Sw, Pol> NamedFrame<E, Sw, Pol> for F
where
    F: Namesakes<E> + ByName<B0>,
    UnnamedOf<F>: NotShorter<Queue<F, E>>,
    Marked<F, E>: Walk<Queue<F, E>, Mode<F, E>, (Sw, Pol)>,
{
    type Out = <Marked<F, E> as Walk<Queue<F, E>, Mode<F, E>, (Sw, Pol)>>::Out;
}

/// First pass (step 1): marks each axis of F with its namesake in E (`Found<At<J, Y>>`) or
/// `Missing`, taking the namesakes out of E; `Rest` is the queue.
pub trait Namesakes<E> {
    /// F's axes as `(Found<_> | Missing, At<I, X>)`, last first.
    type Marked;
    /// E without the namesakes, last first.
    type Rest;
}

impl<E> Namesakes<E> for () {
    type Marked = ();
    type Rest = E;
}

impl<const I: usize, X: Axis, Xs, E> Namesakes<E> for (At<I, X>, Xs)
where
    X::Name: Extract<E>,
    Xs: Namesakes<<X::Name as Extract<E>>::Rest>,
{
    type Marked = (
        (<X::Name as Extract<E>>::Out, At<I, X>),
        <Xs as Namesakes<<X::Name as Extract<E>>::Rest>>::Marked,
    );
    type Rest = <Xs as Namesakes<<X::Name as Extract<E>>::Rest>>::Rest;
}

/// Second pass: walks F's marked axes from the last, pairing with namesakes, the queue `Q`,
/// or inserted singletons; `Sw` is `(F is the right, policy)`.
pub trait Walk<Q, M, Sw> {
    /// The output elements, last first.
    type Out;
    /// What is left of the queue.
    type Left;
}

impl<Q, M, Sw> Walk<Q, M, Sw> for () {
    type Out = ();
    type Left = Q;
}

type IsTarget<X, M> = <M as Cond>::If<Not<<<X as Axis>::Name as NameKind>::IsNamed>, B1>;
type PartnerOf<C, X, M, Q> = <C as Classify<IsTarget<X, M>, Q>>::Partner;
type RestOf<C, X, M, Q> = <C as Classify<IsTarget<X, M>, Q>>::Rest;

impl<C, const I: usize, X: Axis, Xs, Q, M: Cond, Sw> Walk<Q, M, Sw> for ((C, At<I, X>), Xs)
where
    C: Classify<IsTarget<X, M>, Q>,
    Sw: Orient<At<I, X>, PartnerOf<C, X, M, Q>>,
    Xs: Walk<RestOf<C, X, M, Q>, M, Sw>,
{
    type Out = (
        <Sw as Orient<At<I, X>, PartnerOf<C, X, M, Q>>>::Out,
        <Xs as Walk<RestOf<C, X, M, Q>, M, Sw>>::Out,
    );
    type Left = <Xs as Walk<RestOf<C, X, M, Q>, M, Sw>>::Left;
}

/// An axis of F pairs with its namesake; else, if it is a target, with the head of the
/// queue; else with an inserted singleton.
pub trait Classify<T, Q> {
    /// E's axis (or `Ins`).
    type Partner;
    /// The queue afterwards.
    type Rest;
}
impl<Y, T, Q> Classify<T, Q> for Found<Y> {
    type Partner = Y;
    type Rest = Q;
}
impl<Qh, Qt> Classify<B1, (Qh, Qt)> for Missing {
    type Partner = Qh;
    type Rest = Qt;
}
impl Classify<B1, ()> for Missing {
    type Partner = Ins;
    type Rest = ();
}
impl<Q> Classify<B0, Q> for Missing {
    type Partner = Ins;
    type Rest = Q;
}

/// Puts a pair back in the operands' order: `Self` is `(F is the right, policy)`.
pub trait Orient<Fx, Ex> {
    /// The output element.
    type Out;
}
impl<Fx: Pair<Ex, Pol>, Ex, Pol> Orient<Fx, Ex> for (B0, Pol) {
    type Out = Fx::Out;
}
impl<Fx, Ex: Pair<Fx, Pol>, Pol> Orient<Fx, Ex> for (B1, Pol) {
    type Out = Ex::Out;
}

impl<A: Shape, B: Shape> Compute<A, B> for Named
where
    Or<A::HasNames, B::HasNames>: NamedOrNumpy<A::Rev, B::Rev, Broadcast>,
    <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out: Collect,
    Collected<<Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out>:
        Unwrap,
{
    type Elems = <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out;
    type Outcome = <Collected<Self::Elems> as Unwrap>::Out;
}
