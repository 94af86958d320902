//! The checks surgery operations share: a selector finds its axis, names stay distinct. Each is
//! [`Passed`] or a [`Refused`] (the vocabulary of [`outcome`](crate::typed::outcome)).

use super::*;

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
