//! Padding at the type level (rule book §22): the twin of [`dynamic::pad`](crate::dynamic::pad).
//! One walk: each axis the selector picks grows by `2P` (its size computed on the digits and
//! read back from the size table; `?` stays `?`), every other axis is kept; the checks are the
//! reductions': every selector finds its axis, none picks one twice.
//!
//! ```
//! use shapecast::{names, shape, Pad, Padded};
//! names!(N, C, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Padded<shape![N, C: 3, H: 256, W], (H, W), Pad<2>>,
//!     shape![N, C: 3, H: 260, W]
//! );
//! ```

use core::ops::{Add, Mul};

use typenum::{Const, Prod, Sum, ToUInt, U, U2};

use super::axis::Axis;
use super::bits::{B0, B1};
use super::list::{At, FromRev};
use super::outcome::{Good, Judge, Judged, Passed, Refused, Then};
use super::reduce::{AllFound, CountPicks, One, Selector, Twice, Zero};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::surgery::StaticOr;
use crate::SelectedTwice;

/// Padding of `P` elements at both ends of each padded axis.
///
/// ```
/// use shapecast::{Pad, PadWidth};
/// assert_eq!(<Pad<3> as PadWidth>::PADDING, 3);
/// ```
pub struct Pad<const P: usize>;

/// A padding width: [`Pad<P>`]'s `P` as a constant and as a typenum number.
///
/// ```
/// use shapecast::{Pad, PadWidth};
/// assert_eq!(<Pad<0> as PadWidth>::PADDING, 0);
/// ```
pub trait PadWidth {
    /// The padding at each end.
    const PADDING: usize;
    /// `2P` as typenum digits.
    #[doc(hidden)]
    type Twice;
}
impl<const P: usize> PadWidth for Pad<P>
where
    Const<P>: ToUInt,
    U<P>: Mul<U2>,
{
    const PADDING: usize = P;
    type Twice = Prod<U<P>, U2>;
}

/// An axis' size padded: `n + 2P` when static, else `?`.
#[doc(hidden)]
pub trait Grown<P> {
    type Size;
}
impl<X: Axis, P> Grown<P> for X
where
    <X::Size as AxisSize>::Known: GrownIf<X, P>,
{
    type Size = <<X::Size as AxisSize>::Known as GrownIf<X, P>>::Size;
}
/// [`Grown`] by whether the size is static.
#[doc(hidden)]
pub trait GrownIf<X, P> {
    type Size;
}
impl<X, P> GrownIf<X, P> for B0 {
    type Size = Dyn;
}
type BitsOf<X> = <<X as Axis>::Size as AxisSize>::Bits;
impl<X: Axis, P: PadWidth> GrownIf<X, P> for B1
where
    BitsOf<X>: Add<P::Twice>,
    B1: StaticOr<Sum<BitsOf<X>, P::Twice>>,
{
    type Size = <B1 as StaticOr<Sum<BitsOf<X>, P::Twice>>>::Size;
}

/// An axis' fate under the selector's pick count: kept, padded, or picked twice.
#[doc(hidden)]
pub trait PadFate<X, P> {
    type Axis;
    type Check;
}
impl<X, P> PadFate<X, P> for Zero {
    type Axis = X;
    type Check = Passed;
}
impl<X: Axis + Grown<P>, P> PadFate<X, P> for One {
    type Axis = X::Resize<<X as Grown<P>>::Size>;
    type Check = Passed;
}
impl<X, P, Sel> PadFate<X, P> for Twice<Sel> {
    type Axis = X;
    type Check = Refused<SelectedTwice<Sel>>;
}

/// The walk over the shape's axes (last first).
#[doc(hidden)]
pub trait PadWalk<L, P> {
    type Axes;
    type Check;
}
impl<L, P> PadWalk<L, P> for () {
    type Axes = ();
    type Check = Passed;
}
impl<L: CountPicks<At<I, X>>, P, const I: usize, X, Xs: PadWalk<L, P>> PadWalk<L, P>
    for (At<I, X>, Xs)
where
    L::Out: PadFate<X, P>,
    <L::Out as PadFate<X, P>>::Check: Then<Xs::Check>,
{
    type Axes = (<L::Out as PadFate<X, P>>::Axis, Xs::Axes);
    type Check = <<L::Out as PadFate<X, P>>::Check as Then<Xs::Check>>::Out;
}

/// The outcome of a padding as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot pad `{S}` over `{A}`",
    label = "`{A}` does not select axes of `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis; `SelectedTwice<X>`: `X` picks an axis already picked"
)]
#[doc(hidden)]
pub trait PadVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> PadVerdict<S, A> for Good<R> {
    type Out = R::Out;
}

type Rev<S> = <S as Shape>::Rev;
type List<A> = <A as Selector>::List;
type PadChecks<S, A, P> = (
    <List<A> as AllFound<Rev<S>>>::Out,
    (<Rev<S> as PadWalk<List<A>, P>>::Check, ()),
);
type PadAxes<S, A, P> = <Rev<S> as PadWalk<List<A>, P>>::Axes;

/// `Self` pads over the axes `A` selects by `P` (rule book §22): the bound to write in
/// generic code.
///
/// ```
/// use shapecast::{names, shape, Pad, PadOver, Shape};
/// names!(T);
/// fn padded<X: PadOver<T, Pad<1>>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(padded::<shape![2, T: 5]>(), "[2, T: 7]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot pad `{Self}` over `{A}`",
    label = "`{A}` does not select axes of `{Self}`"
)]
pub trait PadOver<A, P>: Shape {
    /// The padded shape.
    type Output: Shape;
}

impl<S: Shape, A: Selector, P: PadWidth> PadOver<A, P> for S
where
    S::Rev: PadWalk<A::List, P>,
    A::List: AllFound<S::Rev>,
    PadChecks<S, A, P>: Judge<PadAxes<S, A, P>>,
    Judged<PadChecks<S, A, P>, PadAxes<S, A, P>>: PadVerdict<S, A>,
{
    type Output = <Judged<PadChecks<S, A, P>, PadAxes<S, A, P>> as PadVerdict<S, A>>::Out;
}

/// The shape of `S` padded by `P` at both ends of each axis `A` selects (rule book §22).
///
/// ```
/// use shapecast::{names, shape, Pad, Padded};
/// names!(T);
/// static_assertions::assert_type_eq_all!(Padded<shape![T: 5], T, Pad<2>>, shape![T: 9]);
/// ```
pub type Padded<S, A, P> = <S as PadOver<A, P>>::Output;
