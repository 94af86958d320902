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
use core::marker::PhantomData;

use super::list::{
    Apply, At, ByName, Collect, Extract, Found, Ins, Map, Missing, NotShorter, Scan, Step,
    UnnamedOf,
};
use super::name::NameKind;
use super::numpy::ZipRight;
use super::outcome::Unwrap;
use super::rule::Compute;
use super::shape::Shape;
use super::size::policy::Broadcast;
use crate::typed::rule::Named;

type Collected<E> = <E as Collect>::Out;
/// `(whether either operand has names, whether the left is not shorter)`.
type Case<A, B> = (
    Or<<A as Shape>::HasNames, <B as Shape>::HasNames>,
    <<A as Shape>::Rev as NotShorter<<B as Shape>::Rev>>::Out,
);
use super::pair::Pair;

/// Named pairing of reversed lists `RA` (left) and `RB` (right). `Self` is `(whether either
/// has names, whether the left is not shorter)`: the frame is chosen in the same step as the
/// rule (one trait step, which rust-analyzer's solver, 50 nested goals deep, needs at rank 8).
pub trait NamedOrNumpy<RA, RB, Pol> {
    /// The output elements, last first.
    type Out;
}

/// No names anywhere: NumPy's zip.
impl<RA: ZipRight<RB, Pol>, RB, Pol, L> NamedOrNumpy<RA, RB, Pol> for (B0, L) {
    type Out = RA::Out;
}

/// Names, the left not shorter: the left is the frame.
impl<RA: NamedFrame<RB, B0, Pol>, RB, Pol> NamedOrNumpy<RA, RB, Pol> for (B1, B1) {
    type Out = RA::Out;
}

/// Names, the left shorter: the right is the frame.
impl<RA, RB: NamedFrame<RA, B1, Pol>, Pol> NamedOrNumpy<RA, RB, Pol> for (B1, B0) {
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

impl<F: Namesakes<E>, E, Sw, Pol> NamedFrame<E, Sw, Pol> for F
where
    Queue<F, E>: PairAll<F, E, (Sw, Pol)>,
{
    type Out = <Queue<F, E> as PairAll<F, E, (Sw, Pol)>>::Out;
}

/// The second pass, by the queue (`Self`): when it is empty (every axis of E has a namesake,
/// the common case), each axis of F pairs with its namesake or an inserted singleton, every
/// axis on its own (a [`Map`]: side by side, not nested); else the [`Walk`] hands the queue
/// from axis to axis.
pub trait PairAll<F, E, Sw> {
    /// The output elements, last first.
    type Out;
}
impl<F: Namesakes<E>, E, Sw> PairAll<F, E, Sw> for ()
where
    Marked<F, E>: Map<PairUp<Sw>>,
{
    type Out = <Marked<F, E> as Map<PairUp<Sw>>>::Out;
}
impl<F, E, Sw, Qh, Qt> PairAll<F, E, Sw> for (Qh, Qt)
where
    F: Namesakes<E> + ByName<B0>,
    UnnamedOf<F>: NotShorter<Queue<F, E>>,
    Marked<F, E>: Walk<Queue<F, E>, Mode<F, E>, Sw>,
{
    type Out = <Marked<F, E> as Walk<Queue<F, E>, Mode<F, E>, Sw>>::Out;
}

/// Which axes of F take the queue: `B1` when F's unnamed axes do (step 2), `B0` when all of
/// F's axes without a namesake do (step 3).
type Mode<F, E> = <UnnamedOf<F> as NotShorter<Queue<F, E>>>::Out;

/// With no queue, a marked axis pairs with its namesake or an inserted singleton (the
/// function the second pass maps; `Sw` is `(F is the right, policy)`).
pub struct PairUp<Sw>(PhantomData<Sw>);
impl<C: Alone, const I: usize, X: Axis, Pol> Apply<(C, At<I, X>)> for PairUp<(B0, Pol)>
where
    At<I, X>: Pair<C::Partner, Pol>,
{
    type Out = <At<I, X> as Pair<C::Partner, Pol>>::Out;
}
impl<C: Alone, const I: usize, X: Axis, Pol> Apply<(C, At<I, X>)> for PairUp<(B1, Pol)>
where
    C::Partner: Pair<At<I, X>, Pol>,
{
    type Out = <C::Partner as Pair<At<I, X>, Pol>>::Out;
}

/// An axis's partner when no queue is left: its namesake, or an inserted singleton.
pub trait Alone {
    /// E's axis or `Ins`.
    type Partner;
}
impl<Y> Alone for Found<Y> {
    type Partner = Y;
}
impl Alone for Missing {
    type Partner = Ins;
}

/// First pass (step 1): marks each axis of F with its namesake in E (`Found<At<J, Y>>`) or
/// `Missing`, taking the namesakes out of E; `Rest` is the queue. Each name is compared with
/// what is left of E until it is found (a search of the whole of E per axis, side by side,
/// is shallower but compares every pair of names: measured twice the compile time at rank
/// 8); two axes a step keep the walk half as deep.
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

// Each name is taken out of E once found: the queue is what is left, with no second search.
// Two axes a step (one for the last of an odd list): the walk is half as deep.
impl<const I: usize, X: Axis, E> Namesakes<E> for (At<I, X>, ())
where
    X::Name: Extract<E>,
{
    type Marked = ((<X::Name as Extract<E>>::Out, At<I, X>), ());
    type Rest = <X::Name as Extract<E>>::Rest;
}

type After<X, E> = <<X as Axis>::Name as Extract<E>>::Rest;
type AfterTwo<X, Y, E> = After<Y, After<X, E>>;

impl<const I: usize, X: Axis, const J: usize, Y: Axis, Xs, E> Namesakes<E>
    for (At<I, X>, (At<J, Y>, Xs))
where
    X::Name: Extract<E>,
    Y::Name: Extract<After<X, E>>,
    Xs: Namesakes<AfterTwo<X, Y, E>>,
{
    type Marked = (
        (<X::Name as Extract<E>>::Out, At<I, X>),
        (
            (<Y::Name as Extract<After<X, E>>>::Out, At<J, Y>),
            <Xs as Namesakes<AfterTwo<X, Y, E>>>::Marked,
        ),
    );
    type Rest = <Xs as Namesakes<AfterTwo<X, Y, E>>>::Rest;
}

/// Second pass: walks F's marked axes from the last, pairing with namesakes, the queue `Q`,
/// or inserted singletons; `M` is the mode (`B1`: the targets are F's unnamed axes); `Sw` is
/// `(F is the right, policy)`. A [`Scan`] of [`Queued`] with the queue as its state: the axes'
/// goals sit side by side, only the queue's states nest.
pub trait Walk<Q, M, Sw> {
    /// The output elements, last first.
    type Out;
    /// What is left of the queue.
    type Left;
}

impl<L: Scan<Queued<M, Sw>, Q>, Q, M, Sw> Walk<Q, M, Sw> for L {
    type Out = L::Out;
    type Left = L::St;
}

/// One marked axis of F with its partner, the queue its state (the step [`Walk`] scans).
pub struct Queued<M, Sw>(PhantomData<(M, Sw)>);

type IsTarget<X, M> = <M as Cond>::If<Not<<<X as Axis>::Name as NameKind>::IsNamed>, B1>;
type PartnerOf<C, X, M, Q> = <C as Classify<IsTarget<X, M>, Q>>::Partner;
type RestOf<C, X, M, Q> = <C as Classify<IsTarget<X, M>, Q>>::Rest;

// One impl per orientation (F the left, `B0`, or the right, `B1`), so the pair is formed
// directly rather than through `Orient`: a trait step less on the deepest path.
impl<C, const I: usize, X: Axis, Q, M: Cond, Pol> Step<(C, At<I, X>), Q> for Queued<M, (B0, Pol)>
where
    C: Classify<IsTarget<X, M>, Q>,
    At<I, X>: Pair<PartnerOf<C, X, M, Q>, Pol>,
{
    type Out = <At<I, X> as Pair<PartnerOf<C, X, M, Q>, Pol>>::Out;
    type St = RestOf<C, X, M, Q>;
}

impl<C, const I: usize, X: Axis, Q, M: Cond, Pol> Step<(C, At<I, X>), Q> for Queued<M, (B1, Pol)>
where
    C: Classify<IsTarget<X, M>, Q>,
    PartnerOf<C, X, M, Q>: Pair<At<I, X>, Pol>,
{
    type Out = <PartnerOf<C, X, M, Q> as Pair<At<I, X>, Pol>>::Out;
    type St = RestOf<C, X, M, Q>;
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
    A::Rev: NotShorter<B::Rev>,
    Case<A, B>: NamedOrNumpy<A::Rev, B::Rev, Broadcast>,
    <Case<A, B> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out: Collect,
    Collected<<Case<A, B> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out>: Unwrap,
{
    type Elems = <Case<A, B> as NamedOrNumpy<A::Rev, B::Rev, Broadcast>>::Out;
    type Outcome = <Collected<Self::Elems> as Unwrap>::Out;
}
