//! One vocabulary for "checks, then the output or a refusal", shared by the rules' lists
//! ([`list`](super::list)), reductions ([`reduce`](super::reduce)), contractions
//! ([`contract`](super::contract)) and shape surgery ([`surgery`](super::surgery)).
//!
//! | item | means |
//! |---|---|
//! | [`Passed`] | a check passed (or every check so far) |
//! | [`Refused<E>`] | a check refused with `E`, a refusal marker such as `NoSuchAxis<X>` |
//! | [`Good<X>`] | the output `X` (a list of axes, last first) |
//! | `Check<C, E>` | a type-level boolean `C` as a check: `Passed`, or `Refused<E>` |
//! | [`Then<N>`] | `Passed` then `N`; a refusal stays |
//! | [`Unwrap`] | a success stays; `Refused<E>` becomes the bare `E`, so a diagnostic names it |
//! | [`Succeeded`] | `Good<X>` as `Passed`, a refusal as itself: an outcome used as a check |
//! | [`Judge<X>`] | a list of checks, then the output: `Good<X>` when all passed, else the first bare refusal |
//!
//! A verdict trait per operation (`RenameVerdict`, `ReduceVerdict`, …) is implemented for the
//! success alone: a refusal fails it and the compiler prints the bare refusal as the type at
//! fault.

use core::marker::PhantomData;

use super::bits::Cond;

/// A check passed.
#[doc(hidden)]
pub struct Passed;

/// A check refused with `E`.
#[doc(hidden)]
pub struct Refused<E>(PhantomData<E>);

/// The output `X`: a list of axes, last first.
#[doc(hidden)]
pub struct Good<X>(PhantomData<X>);

/// A type-level boolean as a check: [`Passed`] when `C` is true, else [`Refused<E>`].
pub(crate) type Check<C, E> = <C as Cond>::If<Passed, Refused<E>>;

/// `Self` then `N`: `N` when `Self` passed, else `Self`'s refusal.
#[doc(hidden)]
pub trait Then<N> {
    type Out;
}
impl<N> Then<N> for Passed {
    type Out = N;
}
impl<E, N> Then<N> for Refused<E> {
    type Out = Refused<E>;
}

/// The refusal itself, so that a diagnostic names `NoSuchAxis<W>` rather than its wrapper; a
/// success stays as it is. (Reductions implement it for their own success, `Lists`.)
#[doc(hidden)]
pub trait Unwrap {
    type Out;
}
impl<X> Unwrap for Good<X> {
    type Out = Good<X>;
}
impl<E> Unwrap for Refused<E> {
    type Out = E;
}

/// A computed outcome as a check: `Good<X>` (the computation succeeded) passed, a refusal
/// stays; so a whole sub-rule can stand in a [`Judge`] list.
#[doc(hidden)]
pub trait Succeeded {
    type Out;
}
impl<X> Succeeded for Good<X> {
    type Out = Passed;
}
impl<E> Succeeded for Refused<E> {
    type Out = Refused<E>;
}

/// A list of checks `(C1, (C2, (…, ())))` run in order, then the output `X`: `Good<X>` when
/// every check passed, else the first refusal, bare. One bound in place of a chain of
/// [`Then`]s and an [`Unwrap`].
#[doc(hidden)]
pub trait Judge<X> {
    type Out;
}
impl<X> Judge<X> for () {
    type Out = Good<X>;
}
impl<X, Rest: Judge<X>> Judge<X> for (Passed, Rest) {
    type Out = Rest::Out;
}
impl<X, E, Rest> Judge<X> for (Refused<E>, Rest) {
    type Out = E;
}

/// The verdict of checks `Cs` on the output `X`: what [`Judge`] gives.
pub(crate) type Judged<Cs, X> = <Cs as Judge<X>>::Out;
