//! The lists the rules work on. A shape's axes, last first, each tagged with its index
//! (`(At<1, W>, (At<0, H>, ()))`), so right alignment is a plain zip; the rules produce a
//! list of output elements `P<left source, right source, axis>` (or `Refused<error>`), which
//! [`Collect`] turns into the output shape or the first error.

use core::marker::PhantomData;

use super::axis::Axis;
use super::bits::{Cond, B0, B1};
use super::name::{Anon, Named, SameName};
use crate::dynamic::plan::StaticPlan;

use super::outcome::{Good, Passed, Refused};

/// Axis `I` of an operand, of type `X`.
pub struct At<const I: usize, X>(PhantomData<X>);

/// An inserted singleton.
pub struct Ins;

/// Source axis `I`.
pub struct Ix<const I: usize>;

/// No source axis (an inserted singleton).
pub struct No;

/// An output axis `A` fed by left source `L` and right source `R`.
pub struct P<L, R, A>(PhantomData<(L, R, A)>);

/// A source marker's index.
pub trait Source {
    /// The index, `None` for an inserted singleton.
    const INDEX: Option<usize>;
}
impl<const I: usize> Source for Ix<I> {
    const INDEX: Option<usize> = Some(I);
}
impl Source for No {
    const INDEX: Option<usize> = None;
}

/// Output elements to `Good<axes>` or the error of the leftmost refused output axis (rule book
/// §19: both levels name the same pair; the elements are last first, so an error is kept
/// only when the axes before it all pass).
pub trait Collect {
    /// `Good<axes, last first>` or `Refused<E>`.
    type Out;
}
impl Collect for () {
    type Out = Good<()>;
}
impl<L, R, A, Rest: Collect> Collect for (P<L, R, A>, Rest)
where
    Rest::Out: Prepend<A>,
{
    type Out = <Rest::Out as Prepend<A>>::Out;
}
impl<E, Rest: Collect> Collect for (Refused<E>, Rest)
where
    Rest::Out: Leftmost<E>,
{
    type Out = <Rest::Out as Leftmost<E>>::Out;
}

/// The error of an output axis against the outcome of the axes before it: theirs wins.
pub trait Leftmost<E> {
    /// `Refused<E>` when the axes before passed, else their error.
    type Out;
}
impl<E, Xs> Leftmost<E> for Good<Xs> {
    type Out = Refused<E>;
}
impl<E, E2> Leftmost<E> for Refused<E2> {
    type Out = Refused<E2>;
}

/// Adds an axis in front of a successful list; an error stays.
pub trait Prepend<A> {
    /// The longer list, or the error.
    type Out;
}
impl<A, Xs> Prepend<A> for Good<Xs> {
    type Out = Good<(A, Xs)>;
}
impl<A, E> Prepend<A> for Refused<E> {
    type Out = Refused<E>;
}

/// A reversed list of axes back to the tuple `shape!` writes (one impl per rank, generated).
pub trait FromRev {
    /// The tuple.
    type Out: super::shape::Shape;
}

/// The plan carried by a list of output elements (total: an error element adds nothing).
pub trait PlanOf {
    /// The sources of each element, in output order, as a constant.
    const PLAN: StaticPlan;
}
impl PlanOf for () {
    const PLAN: StaticPlan = StaticPlan::EMPTY;
}
impl<L: Source, R: Source, A, Rest: PlanOf> PlanOf for (P<L, R, A>, Rest) {
    // The list runs last axis first, so this element goes after the rest.
    const PLAN: StaticPlan = Rest::PLAN.then(L::INDEX, R::INDEX);
}
impl<E, Rest: PlanOf> PlanOf for (Refused<E>, Rest) {
    const PLAN: StaticPlan = Rest::PLAN;
}

/// Whether a list is at least as long as another.
pub trait NotShorter<O> {
    /// `B1` when `len(Self) >= len(O)`.
    type Out: Cond;
}
impl NotShorter<()> for () {
    type Out = B1;
}
impl<X, Xs> NotShorter<()> for (X, Xs) {
    type Out = B1;
}
impl<Y, Ys> NotShorter<(Y, Ys)> for () {
    type Out = B0;
}
impl<X, Xs: NotShorter<Ys>, Y, Ys> NotShorter<(Y, Ys)> for (X, Xs) {
    type Out = Xs::Out;
}

/// A namesake found: the tagged axis.
pub struct Found<T>(PhantomData<T>);

/// No namesake.
pub struct Missing;

/// A function of one element, for [`Map`].
pub trait Apply<X> {
    /// The image of `X`.
    type Out;
}

/// Every element of a list through `F` (`F: Apply<X>` each): one step per list length, every
/// element's goal side by side (impls in `typed::walks`, generated), where a walk nests a
/// trait step per element.
pub trait Map<F> {
    /// The images, in the list's order.
    type Out;
}

/// A function of one element and a state, for [`Scan`]: an output and the next state.
pub trait Step<X, St> {
    /// The output for `X`.
    type Out;
    /// The state after `X`.
    type St;
}

/// A list through `F` from its head, each step handing its state to the next (`F: Step<X,
/// St>`): one step per list length (impls in `typed::walks`, generated); only the states
/// nest, one projection inside the last.
pub trait Scan<F, St> {
    /// The outputs, in the list's order.
    type Out;
    /// The state after the last element.
    type St;
}

/// An element a [`FilterMap`] keeps (`Flag` = `B1`) as `Item`, or drops.
pub trait Kept {
    /// Whether the element stays.
    type Flag: super::bits::Cond;
    /// What stays in its place.
    type Item;
}
/// The answer of a [`FilterMap`]'s function: keep `X` when `B` is `B1`.
pub struct Keep<B, X>(PhantomData<(B, X)>);
impl<B: super::bits::Cond, X> Kept for Keep<B, X> {
    type Flag = B;
    type Item = X;
}

/// The elements of a list that `F` keeps (`F: Apply<X>`, its answer [`Kept`]), each as `F`
/// makes it: one step per list length (impls in `typed::walks`, generated); the result is a
/// chain of `Cond::Keep`s, each element's test beside the others'.
pub trait FilterMap<F> {
    /// The kept items, in the list's order.
    type Out;
}

/// Whether a list of flags (`B0`/`B1`) holds a `B1`, in one step per list length (impls in
/// `typed::any`, generated).
pub trait AnyTrue {
    /// `B1` when some flag is.
    type Out: super::bits::Cond;
}

/// A name's namesake in a tagged list, without taking it out: `Found<At<J, Y>>` or
/// `Missing` (an unnamed axis finds nothing). One step per list length, every candidate
/// compared side by side (impls in `typed::search`, generated).
pub trait Namesake<List> {
    /// `Found<At<J, Y>>` or `Missing`.
    type Out;
}
impl<List> Namesake<List> for Anon {
    type Out = Missing;
}

/// The first element of `List` whose flag in `Self` (a list of `B0`/`B1`, as long) is `B1`:
/// `Found<_>`, or `Missing` when none is. One step per list length and position (impls in
/// `typed::search`, generated).
pub trait FirstFound<List> {
    /// `Found<_>` or `Missing`.
    type Out;
}

/// Takes a name's namesake out of a tagged list: `Out` is `Found<At<J, Y>>` or `Missing`,
/// `Rest` the list without it. Unnamed finds nothing.
pub trait Extract<List> {
    /// `Found<_>` or `Missing`.
    type Out;
    /// The list without the namesake.
    type Rest;
}
impl<List> Extract<List> for Anon {
    type Out = Missing;
    type Rest = List;
}
impl<N> Extract<()> for Named<N> {
    type Out = Missing;
    type Rest = ();
}
// Two axes a step (and one for the last axis of an odd list): the walk is half as deep,
// which rust-analyzer's trait solver (50 nested goals) needs at the higher ranks.
impl<N, const J: usize, Y: Axis> Extract<(At<J, Y>, ())> for Named<N>
where
    Y::Name: SameName<Named<N>>,
    <Y::Name as SameName<Named<N>>>::Out: ExtractLast<At<J, Y>>,
{
    type Out = <<Y::Name as SameName<Named<N>>>::Out as ExtractLast<At<J, Y>>>::Out;
    type Rest = <<Y::Name as SameName<Named<N>>>::Out as ExtractLast<At<J, Y>>>::Rest;
}

type Same<Y, N> = <<Y as Axis>::Name as SameName<Named<N>>>::Out;

impl<N, const J: usize, Y: Axis, const K: usize, Z: Axis, Zs> Extract<(At<J, Y>, (At<K, Z>, Zs))>
    for Named<N>
where
    Y::Name: SameName<Named<N>>,
    Z::Name: SameName<Named<N>>,
    (Same<Y, N>, Same<Z, N>): ExtractStep<Named<N>, At<J, Y>, At<K, Z>, Zs>,
{
    type Out = <(Same<Y, N>, Same<Z, N>) as ExtractStep<Named<N>, At<J, Y>, At<K, Z>, Zs>>::Out;
    type Rest = <(Same<Y, N>, Same<Z, N>) as ExtractStep<Named<N>, At<J, Y>, At<K, Z>, Zs>>::Rest;
}

/// The last axis of a list: found (`B1`) or not.
pub trait ExtractLast<Here> {
    /// `Found<_>` or `Missing`.
    type Out;
    /// The list without the namesake.
    type Rest;
}
impl<Here> ExtractLast<Here> for B1 {
    type Out = Found<Here>;
    type Rest = ();
}
impl<Here> ExtractLast<Here> for B0 {
    type Out = Missing;
    type Rest = (Here, ());
}

/// Two axes `A`, `B` then `Ys`, by whether each is the namesake: stops at a match, or goes on
/// with the rest (lazily: only the branch taken is computed).
pub trait ExtractStep<N, A, B, Ys> {
    /// `Found<_>` or `Missing`.
    type Out;
    /// The list without the namesake.
    type Rest;
}
impl<N, A, B, Ys, Second> ExtractStep<N, A, B, Ys> for (B1, Second) {
    type Out = Found<A>;
    type Rest = (B, Ys);
}
impl<N, A, B, Ys> ExtractStep<N, A, B, Ys> for (B0, B1) {
    type Out = Found<B>;
    type Rest = (A, Ys);
}
impl<N: Extract<Ys>, A, B, Ys> ExtractStep<N, A, B, Ys> for (B0, B0) {
    type Out = N::Out;
    type Rest = (A, (B, N::Rest));
}

/// The axes of a tagged list that are named (`Want` = `B1`) or unnamed (`B0`).
pub trait ByName<Want> {
    /// The filtered list.
    type Out;
}
impl<Want> ByName<Want> for () {
    type Out = ();
}
// One impl per length, in `typed::walks` (generated): each axis's test sits beside the
// others' rather than inside the next one's.

/// The unnamed axes of a tagged list.
pub type UnnamedOf<L> = <L as ByName<B0>>::Out;

/// The named axes of a tagged list.
pub type NamedOf<L> = <L as ByName<B1>>::Out;

/// Whether a name occurs in a plain list of axes (unnamed never does).
pub trait NameIn<List> {
    /// `B1` when it does.
    type Out: Cond;
}
impl<List> NameIn<List> for Anon {
    type Out = B0;
}
impl<N> NameIn<()> for Named<N> {
    type Out = B0;
}
impl<N, Y: Axis, Ys> NameIn<(Y, Ys)> for Named<N>
where
    Y::Name: SameName<Named<N>>,
    Named<N>: NameIn<Ys>,
{
    type Out = super::bits::Or<<Y::Name as SameName<Named<N>>>::Out, <Named<N> as NameIn<Ys>>::Out>;
}

/// No axis of a list repeats a name.
pub struct NoRepeat;

/// The first axis (from the right) whose name occurs again further left.
pub struct Repeated<X>(PhantomData<X>);

/// Finds a repeated name in a plain list of axes.
pub trait Repeats {
    /// `NoRepeat` or `Repeated<X>`.
    type Out;
}
impl Repeats for () {
    type Out = NoRepeat;
}
impl<X: Axis, Xs: Repeats> Repeats for (X, Xs)
where
    X::Name: NameIn<Xs>,
{
    type Out = <<X::Name as NameIn<Xs>>::Out as Cond>::If<Repeated<X>, Xs::Out>;
}

/// An outcome with no repeated name in its output (checked only when `Self` is `B1`).
pub trait DistinctIf<Outcome> {
    /// The outcome, or `Refused<RepeatedName<X>>`.
    type Out;
}
impl<O> DistinctIf<O> for B0 {
    type Out = O;
}
impl<E> DistinctIf<Refused<E>> for B1 {
    type Out = Refused<E>;
}
impl<Xs: Repeats> DistinctIf<Good<Xs>> for B1
where
    Xs::Out: RepeatVerdict<Xs>,
{
    type Out = <Xs::Out as RepeatVerdict<Xs>>::Out;
}

/// `Good<Xs>` when nothing repeats, else the error.
pub trait RepeatVerdict<Xs> {
    /// The outcome.
    type Out;
}
impl<Xs> RepeatVerdict<Xs> for NoRepeat {
    type Out = Good<Xs>;
}
impl<X, Xs> RepeatVerdict<Xs> for Repeated<X> {
    type Out = Refused<crate::typed::refusals::RepeatedName<X>>;
}

/// [`Repeats`]' answer as a check, without an output (what surgery's checks list): `Passed`
/// when nothing repeats, else the refusal [`RepeatVerdict`] gives.
pub trait RepeatCheck {
    /// `Passed`, or `Refused<RepeatedName<X>>`.
    type Out;
}
impl RepeatCheck for NoRepeat {
    type Out = Passed;
}
impl<X> RepeatCheck for Repeated<X> {
    type Out = Refused<crate::typed::refusals::RepeatedName<X>>;
}

/// Whether a list is empty.
pub trait IsEmpty {
    /// `B1` for `()`.
    type Out: Cond;
}
impl IsEmpty for () {
    type Out = B1;
}
impl<X, Xs> IsEmpty for (X, Xs) {
    type Out = B0;
}

/// Whether two lists have the same length.
pub type SameLen<A, B> = super::bits::And<<A as NotShorter<B>>::Out, <B as NotShorter<A>>::Out>;

/// A tagged list without its tags (still last first).
pub trait Untag {
    /// The plain list.
    type Out;
}
impl Untag for () {
    type Out = ();
}
impl<const I: usize, X, Rest: Untag> Untag for (At<I, X>, Rest) {
    type Out = (X, Rest::Out);
}

/// A list reversed onto an accumulator: `(X, Xs)` onto `Acc` is `Xs` onto `(X, Acc)`.
pub trait ReverseOnto<Acc> {
    /// The reversed list followed by `Acc`.
    type Out;
}
impl<Acc> ReverseOnto<Acc> for () {
    type Out = Acc;
}
impl<X, Xs: ReverseOnto<(X, Acc)>, Acc> ReverseOnto<Acc> for (X, Xs) {
    type Out = Xs::Out;
}

/// Two lists one after the other.
pub trait Append<L> {
    /// `Self` then `L`.
    type Out;
}
impl<L> Append<L> for () {
    type Out = L;
}
impl<X, Xs: Append<L>, L> Append<L> for (X, Xs) {
    type Out = (X, Xs::Out);
}

/// Whether a name occurs in a tagged list (unnamed never does).
pub trait NameInTagged<List> {
    /// `B1` when it does.
    type Out: Cond;
}
impl<List> NameInTagged<List> for Anon {
    type Out = B0;
}
impl<N> NameInTagged<()> for Named<N> {
    type Out = B0;
}
impl<N, const J: usize, Y: Axis, Ys> NameInTagged<(At<J, Y>, Ys)> for Named<N>
where
    Y::Name: SameName<Named<N>>,
    Named<N>: NameInTagged<Ys>,
{
    type Out =
        super::bits::Or<<Y::Name as SameName<Named<N>>>::Out, <Named<N> as NameInTagged<Ys>>::Out>;
}
