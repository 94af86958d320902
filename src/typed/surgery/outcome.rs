//! Outcomes and checks: what a surgery walk ends in (`Pass`, `Fail`, `Done`) and the checks that
//! chain them.

use super::*;

/// All checks so far passed.
#[doc(hidden)]
pub struct Pass;
/// A check failed with the refusal `E`.
#[doc(hidden)]
pub struct Fail<E>(PhantomData<E>);
/// The operation's output axes (last first).
#[doc(hidden)]
pub struct Done<Rev>(PhantomData<Rev>);

/// `Self` then `N`: `N` when `Self` passed, else `Self`'s refusal.
#[doc(hidden)]
pub trait Then<N> {
    type Out;
}
impl<N> Then<N> for Pass {
    type Out = N;
}
impl<E, N> Then<N> for Fail<E> {
    type Out = Fail<E>;
}

/// A boolean as a check: `Pass` or `Fail<E>`.
pub(super) type Check<C, E> = <C as Cond>::If<Pass, Fail<E>>;
/// `A` then `B`.
pub(super) type AndThen<A, B> = <A as Then<B>>::Out;

/// A selector finds its axis in a tagged list.
pub(super) type FoundIn<Sel, Rev> = Check<<Sel as Finds<Rev>>::Out, NoSuchAxis<Sel>>;

/// No name repeats in a plain list of axes (last first).
#[doc(hidden)]
pub trait Distinct {
    type Out;
}
impl<Xs: Repeats> Distinct for Xs
where
    Xs::Out: RepeatCheck,
{
    type Out = <Xs::Out as RepeatCheck>::Out;
}
/// [`Repeats`]' answer as a check.
#[doc(hidden)]
pub trait RepeatCheck {
    type Out;
}
impl RepeatCheck for NoRepeat {
    type Out = Pass;
}
impl<X> RepeatCheck for Repeated<X> {
    type Out = Fail<RepeatedName<X>>;
}

/// The refusal itself (so a diagnostic names `NoSuchAxis<W>`), or the output shape's axes.
#[doc(hidden)]
pub trait BareDone {
    type Out;
}
impl<R> BareDone for Done<R> {
    type Out = Done<R>;
}
impl<E> BareDone for Fail<E> {
    type Out = E;
}

/// The whole verdict of an operation: checks, then the output.
pub(super) type Judged<Checks, Rev> = <AndThen<Checks, Done<Rev>> as BareDone>::Out;
