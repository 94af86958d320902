//! Padding at the type level (rule book §22): the twin of [`dynamic::pad`](crate::dynamic::pad).
//! One walk: each axis the selector picks grows by the padding at its two ends, `B + E` for
//! [`Pad<B, E>`] (its size added on the hex digits and read back from the size table; `?`
//! stays `?`), every other axis is kept; the checks are the reductions': every selector finds
//! its axis, none picks one twice.
//!
//! ```
//! use shapecast::{names, shape, Pad, Padded};
//! names!(N, C, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Padded<shape![N, C: 3, H: 256, W], (H, W), Pad<2>>,
//!     shape![N, C: 3, H: 260, W]
//! );
//! // A causal padding: two elements before each sequence, none after.
//! names!(T);
//! static_assertions::assert_type_eq_all!(Padded<shape![N, T: 9], T, Pad<2, 0>>, shape![N, T: 11]);
//! ```

use core::ops::Add;

use typenum::{Const, Sum, ToUInt, U};

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
use super::window::{PickAxes, PickChecks, PickWalk, Windowed};

/// Padding of `BEFORE` elements before and `AFTER` after each padded axis' elements
/// (PyTorch's `F.pad` pair `(left, right)`); `AFTER` defaults to `BEFORE`, so `Pad<P>` pads
/// both ends alike.
///
/// ```
/// use shapecast::{Pad, PadWidth};
/// assert_eq!((<Pad<3> as PadWidth>::BEFORE, <Pad<3> as PadWidth>::AFTER), (3, 3));
/// // TensorFlow's "same" padding of a 3-wide, stride-2 window on an even axis.
/// assert_eq!((<Pad<0, 1> as PadWidth>::BEFORE, <Pad<0, 1> as PadWidth>::AFTER), (0, 1));
/// ```
pub struct Pad<const BEFORE: usize, const AFTER: usize = BEFORE>;

/// A padding width: [`Pad<BEFORE, AFTER>`](Pad)'s two widths as constants, and their sum as a
/// type-level number.
///
/// ```
/// use shapecast::{Pad, PadWidth};
/// assert_eq!(<Pad<0> as PadWidth>::BEFORE, 0);
/// assert_eq!(<Pad<2, 5> as PadWidth>::AFTER, 5);
/// ```
pub trait PadWidth {
    /// The padding before each padded axis' first element.
    const BEFORE: usize;
    /// The padding after its last element.
    const AFTER: usize;
    /// `BEFORE + AFTER` as hex digits.
    #[doc(hidden)]
    type Total;
}
impl<const B: usize, const E: usize> PadWidth for Pad<B, E>
where
    Const<B>: ToUInt,
    Const<E>: ToUInt,
    U<B>: Add<U<E>>,
    Sum<U<B>, U<E>>: ToHex,
{
    const BEFORE: usize = B;
    const AFTER: usize = E;
    type Total = <Sum<U<B>, U<E>> as ToHex>::Out;
}

/// An axis' size padded: `n + B + E` when static, else `?`; nothing to check.
impl<X: Axis, const B: usize, const E: usize> Windowed<Pad<B, E>> for X
where
    <X::Size as AxisSize>::Known: GrownIf<X, Pad<B, E>>,
{
    type Size = <<X::Size as AxisSize>::Known as GrownIf<X, Pad<B, E>>>::Size;
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
/// `n + B + E` on hex digits (`typed::hex_sum`): static within the size table, else `?`.
impl<X: Axis, P: PadWidth> GrownIf<X, P> for B1
where
    HexOf<X>: HexSum<P::Total>,
    <HexOf<X> as HexSum<P::Total>>::Out: SizeOfSum,
{
    type Size = <<HexOf<X> as HexSum<P::Total>>::Out as SizeOfSum>::Size;
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
    PickChecks<S, A, P>: Judge<PickAxes<S, A, P>>,
    Judged<PickChecks<S, A, P>, PickAxes<S, A, P>>: PadVerdict<S, A>,
{
    type Output = <Judged<PickChecks<S, A, P>, PickAxes<S, A, P>> as PadVerdict<S, A>>::Out;
}

/// The shape of `S` padded by `P` at the ends of each axis `A` selects (rule book §22).
///
/// ```
/// use shapecast::{names, shape, Pad, Padded};
/// names!(T);
/// static_assertions::assert_type_eq_all!(Padded<shape![T: 5], T, Pad<2>>, shape![T: 9]);
/// static_assertions::assert_type_eq_all!(Padded<shape![T: 5], T, Pad<0, 3>>, shape![T: 8]);
/// ```
pub type Padded<S, A, P> = <S as PadOver<A, P>>::Output;
