//! Padding at the type level (rule book §22): the twin of [`dynamic::pad`](crate::dynamic::pad).
//! One walk: each axis the selector picks grows by `2P` (its size added on the hex digits and
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

use core::ops::Mul;

use typenum::{Const, Prod, ToUInt, U, U2};

use super::axis::{Axis, HexOf};
use super::bits::{B0, B1};
use super::hex_sum::HexSum;
use super::list::FromRev;
use super::outcome::{Good, Judge, Judged, Passed};
use super::reduce::{AllFound, Selector};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::size_hex::ToHex;
use super::surgery::SizeOfSum;
use super::window::{PickWalk, Windowed};

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
    /// `2P` as hex digits.
    #[doc(hidden)]
    type Twice;
}
impl<const P: usize> PadWidth for Pad<P>
where
    Const<P>: ToUInt,
    U<P>: Mul<U2>,
    Prod<U<P>, U2>: ToHex,
{
    const PADDING: usize = P;
    type Twice = <Prod<U<P>, U2> as ToHex>::Out;
}

/// An axis' size padded: `n + 2P` when static, else `?`; nothing to check.
impl<X: Axis, const P: usize> Windowed<Pad<P>> for X
where
    <X::Size as AxisSize>::Known: GrownIf<X, Pad<P>>,
{
    type Size = <<X::Size as AxisSize>::Known as GrownIf<X, Pad<P>>>::Size;
    type Check = Passed;
}
/// The padded size by whether the axis' size is static.
#[doc(hidden)]
pub trait GrownIf<X, P> {
    type Size;
}
impl<X, P> GrownIf<X, P> for B0 {
    type Size = Dyn;
}
/// `n + 2P` on hex digits (`typed::hex_sum`): static within the size table, else `?`.
impl<X: Axis, P: PadWidth> GrownIf<X, P> for B1
where
    HexOf<X>: HexSum<P::Twice>,
    <HexOf<X> as HexSum<P::Twice>>::Out: SizeOfSum,
{
    type Size = <<HexOf<X> as HexSum<P::Twice>>::Out as SizeOfSum>::Size;
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
    (<Rev<S> as PickWalk<List<A>, P>>::Check, ()),
);
type PadAxes<S, A, P> = <Rev<S> as PickWalk<List<A>, P>>::Axes;

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
    label = "`{A}` does not select axes of `{Self}`",
    note = "every selector must pick its own axis of the shape"
)]
pub trait PadOver<A, P>: Shape {
    /// The padded shape.
    type Output: Shape;
}

impl<S: Shape, A: Selector, P: PadWidth> PadOver<A, P> for S
where
    S::Rev: PickWalk<A::List, P>,
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
