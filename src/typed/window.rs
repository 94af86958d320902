//! The walk pooling and padding share (rule book §20, §22): over a shape's axes, last first,
//! each axis the selector picks once becomes what the operation `M` makes of it
//! ([`Windowed`]: a size and a check), an axis it does not pick is kept, an axis it picks
//! twice is refused. Each operation then judges the checks with its own verdict.

use super::axis::Axis;
use super::list::At;
use super::outcome::{Passed, Refused, Then};
use super::reduce::{CountPicks, One, Twice, Zero};
use crate::typed::refusals::SelectedTwice;

/// What the operation `M` makes of the axis `Self` when picked: its new size and a check
/// (`Passed` or `Refused<E>`).
#[doc(hidden)]
pub trait Windowed<M> {
    type Size;
    type Check;
}

/// An axis' fate under the selector's pick count.
#[doc(hidden)]
pub trait PickFate<X, M> {
    type Axis;
    type Check;
}
impl<X, M> PickFate<X, M> for Zero {
    type Axis = X;
    type Check = Passed;
}
impl<X: Axis + Windowed<M>, M> PickFate<X, M> for One {
    type Axis = X::Resize<<X as Windowed<M>>::Size>;
    type Check = <X as Windowed<M>>::Check;
}
impl<X, M, Sel> PickFate<X, M> for Twice<Sel> {
    type Axis = X;
    type Check = Refused<SelectedTwice<Sel>>;
}

/// The walk (last axis first) under the selector list `L`: the output's axes and one check
/// per axis, joined with [`Then`].
#[doc(hidden)]
pub trait PickWalk<L, M> {
    type Axes;
    type Check;
}
impl<L, M> PickWalk<L, M> for () {
    type Axes = ();
    type Check = Passed;
}
impl<L: CountPicks<At<I, X>>, M, const I: usize, X, Xs: PickWalk<L, M>> PickWalk<L, M>
    for (At<I, X>, Xs)
where
    L::Out: PickFate<X, M>,
    <L::Out as PickFate<X, M>>::Check: Then<Xs::Check>,
{
    type Axes = (<L::Out as PickFate<X, M>>::Axis, Xs::Axes);
    type Check = <<L::Out as PickFate<X, M>>::Check as Then<Xs::Check>>::Out;
}
