//! Upsampling and resizing at the type level (rule book §23): the twin of
//! [`dynamic::upsample`](crate::dynamic::upsample). One walk (the one padding and pooling
//! share): each axis the selector picks becomes `F` times longer for [`Scale<F>`] (the
//! product computed on the hex digits, a doubling and at most one sum for each bit of `F`, and
//! read back from the size table; `?` stays `?`), or takes the static size `Z` for a resize
//! ([`Resized`]); every other axis is kept; the checks are the reductions': every selector
//! finds its axis, none picks one twice (and a resize reads no axis that is statically 0).
//!
//! ```
//! use shapecast::{names, shape, Scale, Upsampled};
//! names!(N, C, H, W);
//! // A segmentation head's logits, at a quarter of the image, back to the image's size.
//! static_assertions::assert_type_eq_all!(
//!     Upsampled<shape![N, C: 21, H: 56, W: 96], (H, W), Scale<4>>,
//!     shape![N, C: 21, H: 224, W: 384]
//! );
//! ```

use typenum::{Const, NonZero, ToUInt, UInt, UTerm, U};

use super::axis::{Axis, HexOf};
use super::bits::{Cond, B0, B1};
use super::digits::X0;
use super::hex_sum::HexSum;
use super::list::FromRev;
use super::outcome::{Check, Good, Judge, Judged, Passed};
use super::reduce::{AllFound, Selector};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::size_hex::H1;
use super::surgery::SizeOfSum;
use super::window::{PickAxes, PickChecks, PickWalk, Windowed};
use crate::typed::refusals::StaticallyEmpty;

/// An upsampling by `FACTOR` along each selected axis (PyTorch's `scale_factor`, an integer
/// here): `n` becomes `FACTOR·n`.
///
/// ```
/// use shapecast::{Scale, UpsampleFactor};
/// assert_eq!(<Scale<2> as UpsampleFactor>::FACTOR, 2);
/// ```
pub struct Scale<const FACTOR: usize>;

/// An upsampling factor: [`Scale<F>`](Scale) for `F` at least 1.
///
/// ```
/// use shapecast::{Scale, UpsampleFactor};
/// fn factor<P: UpsampleFactor>() -> usize { P::FACTOR }
/// assert_eq!(factor::<Scale<8>>(), 8);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an upsampling factor",
    label = "not a factor of at least 1",
    note = "upsample by `Scale<F>` with `F` at least 1: a factor of 0 leaves nothing to read"
)]
pub trait UpsampleFactor: FactorBits {
    /// The factor.
    const FACTOR: usize;
}
#[diagnostic::do_not_recommend]
impl<const F: usize> UpsampleFactor for Scale<F>
where
    Const<F>: ToUInt,
    U<F>: NonZero,
{
    const FACTOR: usize = F;
}

/// A factor as typenum bits, 0 included: the size walk computes with it whatever the
/// factor, so that a factor of 0 is refused once, by [`UpsampleFactor`].
#[doc(hidden)]
pub trait FactorBits {
    type Bits;
}
impl<const F: usize> FactorBits for Scale<F>
where
    Const<F>: ToUInt,
{
    type Bits = U<F>;
}

/// `Self · F` on hex digits, for typenum bits `F`, most significant bit first: `0·n = 0`,
/// `1·n = n`, `(2q + b)·n = q·n + q·n (+ n when b = 1)`; `()` (a size left to run time)
/// once a sum passes 8 digits.
#[doc(hidden)]
pub trait HexTimes<F> {
    type Out;
}
impl<H> HexTimes<UTerm> for H {
    type Out = H1<X0>;
}
impl<H> HexTimes<UInt<UTerm, B1>> for H {
    type Out = H;
}
type Part<H, F> = <H as HexTimes<F>>::Out;
type Doubled<H, F> = <Part<H, F> as HexSum<Part<H, F>>>::Out;
impl<H, Q, C, B: PlusIfOne<Doubled<H, UInt<Q, C>>, H>> HexTimes<UInt<UInt<Q, C>, B>> for H
where
    H: HexTimes<UInt<Q, C>>,
    Part<H, UInt<Q, C>>: HexSum<Part<H, UInt<Q, C>>>,
{
    type Out = <B as PlusIfOne<Doubled<H, UInt<Q, C>>, H>>::Out;
}

/// `Acc + H` when the bit `Self` is 1, else `Acc`.
#[doc(hidden)]
pub trait PlusIfOne<Acc, H> {
    type Out;
}
impl<Acc, H> PlusIfOne<Acc, H> for B0 {
    type Out = Acc;
}
impl<Acc: HexSum<H>, H> PlusIfOne<Acc, H> for B1 {
    type Out = <Acc as HexSum<H>>::Out;
}

/// An axis' size upsampled: `F·n` when static, else `?`; nothing to check.
impl<X: Axis, const F: usize> Windowed<Scale<F>> for X
where
    <X::Size as AxisSize>::Known: ScaledIf<X, Scale<F>>,
{
    type Size = <<X::Size as AxisSize>::Known as ScaledIf<X, Scale<F>>>::Size;
    type Check = Passed;
}
/// The upsampled size by whether the axis' size is static.
#[doc(hidden)]
pub trait ScaledIf<X, P> {
    type Size;
}
impl<X, P> ScaledIf<X, P> for B0 {
    type Size = Dyn;
}
/// `F·n` on hex digits: static within the size table, else `?`.
impl<X: Axis, P: FactorBits> ScaledIf<X, P> for B1
where
    HexOf<X>: HexTimes<P::Bits>,
    <HexOf<X> as HexTimes<P::Bits>>::Out: SizeOfSum,
{
    type Size = <<HexOf<X> as HexTimes<P::Bits>>::Out as SizeOfSum>::Size;
}

/// The outcome of an upsampling as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot upsample `{S}` over `{A}`",
    label = "`{A}` does not select axes of `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis; `SelectedTwice<X>`: `X` picks an axis already picked"
)]
#[doc(hidden)]
pub trait UpsampleVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> UpsampleVerdict<S, A> for Good<R> {
    type Out = R::Out;
}

/// `Self` upsamples over the axes `A` selects by `P` (rule book §23): the bound to write in
/// generic code.
///
/// ```
/// use shapecast::{names, shape, Scale, Shape, UpsampleOver};
/// names!(H, W);
/// fn upsampled<X: UpsampleOver<(H, W), Scale<2>>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(upsampled::<shape![?, H: 7, W]>(), "[?, H: 14, W]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot upsample `{Self}` over `{A}` by `{P}`",
    label = "`{Self}` is not known to upsample over `{A}`",
    note = "every selector must pick its own axis of the shape; generic code says so with the bound `UpsampleOver<{A}, {P}>`"
)]
pub trait UpsampleOver<A, P>: Shape {
    /// The upsampled shape.
    type Output: Shape;
}

/// The rule behind [`UpsampleOver`], for every shape; the public trait forwards to it rank by
/// rank (see `typed::capability`), so a generic shape without the bound is told to add
/// `UpsampleOver`.
#[doc(hidden)]
pub trait UpsampleOverRule<A, P>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([A, P] UpsampleOver<A, P> => UpsampleOverRule<A, P> { type Output; });

impl<S: Shape, A: Selector, P: UpsampleFactor> UpsampleOverRule<A, P> for S
where
    S::Rev: PickWalk<A::List, P>,
    A::List: AllFound<S::Rev>,
    PickChecks<S, A, P>: Judge<PickAxes<S, A, P>>,
    Judged<PickChecks<S, A, P>, PickAxes<S, A, P>>: UpsampleVerdict<S, A>,
{
    type Output = <Judged<PickChecks<S, A, P>, PickAxes<S, A, P>> as UpsampleVerdict<S, A>>::Out;
}

/// The shape of `S` upsampled by `P` along each axis `A` selects (rule book §23).
///
/// ```
/// use shapecast::{names, shape, Scale, Upsampled};
/// names!(T);
/// static_assertions::assert_type_eq_all!(Upsampled<shape![T: 5], T, Scale<3>>, shape![T: 15]);
/// static_assertions::assert_type_eq_all!(Upsampled<shape![T], T, Scale<2>>, shape![T]);
/// ```
pub type Upsampled<S, A, P> = <S as UpsampleOver<A, P>>::Output;

/// A static size an interpolation resizes to: [`S<N>`](crate::S) with `N` at least 1.
///
/// ```
/// use shapecast::{ResizeTarget, S};
/// fn target<Z: ResizeTarget>() -> usize { Z::TARGET }
/// assert_eq!(target::<S<224>>(), 224);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a size to resize to",
    label = "not a static size of at least 1",
    note = "resize to `S<N>` with `N` at least 1: an axis of size 0 holds nothing"
)]
pub trait ResizeTarget: AxisSize {
    /// The size.
    const TARGET: usize;
}
#[diagnostic::do_not_recommend]
impl<Z: AxisSize<Known = B1, Zero = B0>> ResizeTarget for Z {
    const TARGET: usize = match Z::SIZE {
        Some(n) => n,
        None => 0,
    };
}

/// The walk's operation for a resize to the size `Z`.
#[doc(hidden)]
pub struct ResizeTo<Z>(core::marker::PhantomData<Z>);

/// An axis resized: the size `Z`, refused when the axis is statically 0 (nothing to read).
impl<X: Axis, Z> Windowed<ResizeTo<Z>> for X {
    type Size = Z;
    type Check = Check<<<X::Size as AxisSize>::Zero as Cond>::Not, StaticallyEmpty>;
}

/// The outcome of a resize as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot resize `{S}` over `{A}`",
    label = "`{A}` does not select axes of `{S}` that can be resized",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis; `SelectedTwice<X>`: `X` picks an axis already picked; `StaticallyEmpty`: a selected axis is 0 long, nothing to interpolate from"
)]
#[doc(hidden)]
pub trait ResizeVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> ResizeVerdict<S, A> for Good<R> {
    type Out = R::Out;
}

/// `Self` resizes to `Z` over the axes `A` selects (rule book §23): the bound to write in
/// generic code.
///
/// ```
/// use shapecast::{names, shape, ResizeOver, Shape, S};
/// names!(H, W);
/// fn resized<X: ResizeOver<(H, W), S<224>>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(resized::<shape![?, H, W: 341]>(), "[?, H: 224, W: 224]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot resize `{Self}` over `{A}` to `{Z}`",
    label = "`{Self}` is not known to resize over `{A}`",
    note = "every selector must pick its own axis of the shape; generic code says so with the bound `ResizeOver<{A}, {Z}>`"
)]
pub trait ResizeOver<A, Z>: Shape {
    /// The resized shape.
    type Output: Shape;
}

/// The rule behind [`ResizeOver`], for every shape; the public trait forwards to it rank by
/// rank (see `typed::capability`), so a generic shape without the bound is told to add
/// `ResizeOver`.
#[doc(hidden)]
pub trait ResizeOverRule<A, Z>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([A, Z] ResizeOver<A, Z> => ResizeOverRule<A, Z> { type Output; });

type ResizeChecks<S, A, Z> = PickChecks<S, A, ResizeTo<Z>>;
type ResizeAxes<S, A, Z> = PickAxes<S, A, ResizeTo<Z>>;
impl<S: Shape, A: Selector, Z: ResizeTarget> ResizeOverRule<A, Z> for S
where
    S::Rev: PickWalk<A::List, ResizeTo<Z>>,
    A::List: AllFound<S::Rev>,
    ResizeChecks<S, A, Z>: Judge<ResizeAxes<S, A, Z>>,
    Judged<ResizeChecks<S, A, Z>, ResizeAxes<S, A, Z>>: ResizeVerdict<S, A>,
{
    type Output = <Judged<ResizeChecks<S, A, Z>, ResizeAxes<S, A, Z>> as ResizeVerdict<S, A>>::Out;
}

/// The shape of `S` with each axis `A` selects at the static size `Z` (rule book §23:
/// PyTorch's `F.interpolate(size=…)`), whatever its size was, `?` included.
///
/// ```
/// use shapecast::{names, shape, Resized, S};
/// names!(C, H, W);
/// // A photo of any size, to a network's 224x224.
/// static_assertions::assert_type_eq_all!(
///     Resized<shape![C: 3, H, W], (H, W), S<224>>,
///     shape![C: 3, H: 224, W: 224]
/// );
/// ```
pub type Resized<S, A, Z> = <S as ResizeOver<A, Z>>::Output;
