//! Compile errors are part of the API. A rule never fails half-way with a missing trait
//! impl; it computes either the output or an error type that names the axes at fault, and
//! this module turns an error type into one short diagnostic naming both shapes and the rule:
//!
//! ```text
//! error[E0277]: cannot broadcast `(S<3>, S<4>)` with `(S<5>,)` under the `Numpy` rule
//!   |
//!   = help: the pair at fault: `SizesDiffer<LhsAxis<1, S<4>>, RhsAxis<0, S<5>>>`
//! ```
//!
//! `LhsAxis<1, S<4>>` reads "axis 1 of the left operand, of size 4"; `H<S<2>>` is an axis named
//! `H` of size 2, `H` alone one whose size is known at run time, `Dyn` an unnamed `?`.

use super::list::FromRev;
use super::outcome::Good;
use super::shape::Shape;

use crate::typed::refusals::{
    LhsAxis, NamesDiffer, NoMatch, PdpdRange, RanksDiffer, RepeatedName, RhsAxis, RhsLonger,
    SizesDiffer,
};

/// The outcome of a rule on shapes `A` and `B`: implemented only for a success, so an error
/// type reaching it becomes the diagnostic.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{A}` with `{B}` under the `{R}` rule",
    label = "`{A}` and `{B}` do not broadcast under the `{R}` rule",
    note = "at fault: `{Self}`",
    note = "`LhsAxis<I, X>`: axis I of the left shape, of type X (`S<N>`: size N; `Dyn`: `?`; `H<S<N>>`: named H)"
)]
pub trait Verdict<R, A, B> {
    /// The output shape.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<R, A, B, Xs: FromRev> Verdict<R, A, B> for Good<Xs> {
    type Output = Xs::Out;
}

/// Whether an outcome is a success (for [`Accepts`](super::broadcast::Accepts)), and the
/// pair a refusal names.
pub trait Accepted {
    /// True for a success.
    const VALUE: bool;
    /// For a refused pair: the left and right operands' axes and whether the names (rather
    /// than the sizes) conflict.
    const PAIR: Option<(usize, usize, bool)> = None;
}
impl<Xs> Accepted for Good<Xs> {
    const VALUE: bool = true;
}
impl<const I: usize, X, const J: usize, Y> Accepted for SizesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>> {
    const VALUE: bool = false;
    const PAIR: Option<(usize, usize, bool)> = Some((I, J, false));
}
impl<const I: usize, X, const J: usize, Y> Accepted for NamesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>> {
    const VALUE: bool = false;
    const PAIR: Option<(usize, usize, bool)> = Some((I, J, true));
}
impl<X> Accepted for RepeatedName<X> {
    const VALUE: bool = false;
}
impl Accepted for RanksDiffer {
    const VALUE: bool = false;
}
impl Accepted for RhsLonger {
    const VALUE: bool = false;
}
impl<X> Accepted for NoMatch<X> {
    const VALUE: bool = false;
}
impl Accepted for PdpdRange {
    const VALUE: bool = false;
}
impl<X> Accepted for crate::typed::refusals::NoSuchAxis<X> {
    const VALUE: bool = false;
}
impl<X> Accepted for crate::typed::refusals::SelectedTwice<X> {
    const VALUE: bool = false;
}
impl Accepted for crate::typed::refusals::RankZero {
    const VALUE: bool = false;
}
