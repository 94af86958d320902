//! Pooling at the type level (rule book §20): the twin of
//! [`dynamic::pool`](crate::dynamic::pool). One walk over the shape's axes: an axis the
//! selector picks takes PyTorch's pooled size (`(n + 2p - k) / s + 1`, rounded up in ceil
//! mode unless the last window would start in the padding), computed on the sizes' hex
//! digits (`typed::window::WindowLen`) and read back from the size table (`?` for a `?` input or a result above the
//! table); every other axis is kept. Then the checks: every selector finds its axis, none
//! twice, and each static window fits its padded axis.
//!
//! ```
//! use shapecast::{names, shape, Pool, Pooled};
//! names!(N, C, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Pooled<shape![N, C: 16, H: 255, W: 384], (H, W), Pool<2>>,
//!     shape![N, C: 16, H: 127, W: 192]
//! );
//! // Kernel 3, stride 2, padding 1, ceil mode.
//! static_assertions::assert_type_eq_all!(
//!     Pooled<shape![N, C: 16, H: 6, W], (H, W), Pool<3, 2, 1, true>>,
//!     shape![N, C: 16, H: 4, W]
//! );
//! ```

use core::ops::{Add, Mul, Sub};

use typenum::{Const, Diff, IsLessOrEqual, LeEq, Prod, Sub1, Sum, ToUInt, U, U0, U16, U2};

use super::axis::{Axis, HexOf};
use super::bits::{Cond, B0, B1};
use super::hex_window::LowDigit;
use super::list::FromRev;
use super::outcome::{Check, Good, Judge, Judged, Passed};
use super::reduce::{AllFound, Selector};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::size_hex::ToHex;
use super::window::{
    PickWalk, PlusOne, PlusOneAbove, PlusOneAboveBig, PlusZero, StrideKindFor, SummandOf,
    WindowLen, Windowed,
};
use crate::dynamic::pool::PoolSpec;
use crate::typed::refusals::{PaddingTooWide, WindowTooLarge};

/// A pooling window as const parameters, with PyTorch's defaults: `Pool<2>` is a 2-wide
/// window with stride 2, `Pool<3, 2, 1>` kernel 3, stride 2, padding 1; then `ceil_mode`, and
/// whether an average counts the padding in its divisor (`count_include_pad`, true by
/// default; a maximum ignores it).
///
/// ```
/// use shapecast::{names, shape, Pool, PoolGeometry, Pooling, Tensor};
/// assert_eq!(<Pool<3> as PoolGeometry>::SPEC.stride, 3);
/// assert!(<Pool<2, 2, 0, true> as PoolGeometry>::SPEC.ceil);
/// names!(T);
/// let x = Tensor::<f32, shape![T: 3]>::from_array([1.0, 2.0, 6.0]);
/// // The first window is the left padding and 1.0: its average counts the padding or not.
/// let y: Tensor<f32, shape![T: 2]> = x.avg_pool::<T, Pool<2, 2, 1>>();
/// assert_eq!(y.data(), &[0.5, 4.0]);
/// let y: Tensor<f32, shape![T: 2]> = x.avg_pool::<T, Pool<2, 2, 1, false, false>>();
/// assert_eq!(y.data(), &[1.0, 4.0]);
/// ```
pub struct Pool<
    const KERNEL: usize,
    const STRIDE: usize = KERNEL,
    const PADDING: usize = 0,
    const CEIL: bool = false,
    const COUNT_PADDING: bool = true,
>;

/// A geometry a pool takes: [`Pool`]'s parameters as typenum numbers and as the run-time
/// [`PoolSpec`].
///
/// ```
/// use shapecast::{Pool, PoolGeometry};
/// assert_eq!(<Pool<3, 1, 1> as PoolGeometry>::SPEC.padding, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a pooling window",
    label = "kernel and stride must be at least 1",
    note = "write `Pool<KERNEL, STRIDE, PADDING, CEIL, COUNT_PADDING>` (defaults: stride = kernel, 0, false, true)"
)]
pub trait PoolGeometry {
    /// The window at run time.
    const SPEC: PoolSpec;
    /// The stride's kind (1, a digit or larger), for the division (`typed::window`).
    #[doc(hidden)]
    type StrideKind;
    /// What the padding (and in ceil mode the stride) adds to the input's size before the
    /// kernel is taken away, as a summand (`typed::window::Plus`): `2p`, or `2p + s - 1` in
    /// ceil mode, `2p + 1` for a stride of 1 (its `+ 1` taken in).
    #[doc(hidden)]
    type Extra;
    /// The kernel as hex digits.
    #[doc(hidden)]
    type KernelHex;
    /// How the last window counts: always (`PlusOne`), or in ceil mode only when it starts
    /// inside the input or the left padding (`PlusOneAbove`).
    #[doc(hidden)]
    type Rounding;
    /// Whether the padding is at most half the kernel (PyTorch's limit).
    #[doc(hidden)]
    type PaddingFits: Cond;
}

/// The const `bool` as a type-level boolean.
#[doc(hidden)]
pub trait BoolBit {
    type Bit: Cond;
}
impl BoolBit for Bool<true> {
    type Bit = B1;
}
impl BoolBit for Bool<false> {
    type Bit = B0;
}
/// A const `bool` as a type.
#[doc(hidden)]
pub struct Bool<const B: bool>;

impl<const K: usize, const ST: usize, const P: usize, const C: bool, const CP: bool> PoolGeometry
    for Pool<K, ST, P, C, CP>
where
    Const<K>: ToUInt,
    Const<ST>: ToUInt,
    Const<P>: ToUInt,
    Bool<C>: BoolBit,
    U<K>: super::conv::AtLeastOne,
    U<ST>: super::conv::AtLeastOne,
    U<P>: Mul<U2>,
    Prod<U<P>, U2>: IsLessOrEqual<U<K>>,
    LeEq<Prod<U<P>, U2>, U<K>>: Cond,
    U<ST>: StrideKindFor + Sub<B1>,
    U<K>: ToHex,
    Prod<U<P>, U2>: Add<CeilAdd<U<ST>, Bool<C>>> + Add<B1>,
    Sum<Prod<U<P>, U2>, CeilAdd<U<ST>, Bool<C>>>: SummandOf,
    typenum::Add1<Prod<U<P>, U2>>: SummandOf,
    U<ST>: typenum::IsEqual<typenum::U1>,
    typenum::Eq<U<ST>, typenum::U1>: Cond,
    Bool<C>: CeilRounding<U<K>, U<ST>, U<P>>,
{
    const SPEC: PoolSpec = PoolSpec {
        kernel: K,
        stride: ST,
        padding: P,
        ceil: C,
        count_padding: CP,
    };
    type PaddingFits = LeEq<Prod<U<P>, U2>, U<K>>;
    type StrideKind = <U<ST> as StrideKindFor>::Kind;
    // A stride of 1 divides exactly: `n + 2p - k + 1` in one sum, ceil mode or not.
    type Extra = <typenum::Eq<U<ST>, typenum::U1> as Cond>::If<
        <typenum::Add1<Prod<U<P>, U2>> as SummandOf>::Out,
        <Sum<Prod<U<P>, U2>, CeilAdd<U<ST>, Bool<C>>> as SummandOf>::Out,
    >;
    type KernelHex = <U<K> as ToHex>::Out;
    type Rounding = <typenum::Eq<U<ST>, typenum::U1> as Cond>::If<
        PlusZero,
        <Bool<C> as CeilRounding<U<K>, U<ST>, U<P>>>::Rounding,
    >;
}

/// What ceil mode adds to the padded size: `s - 1`, or nothing without it.
type CeilAdd<St, C> = <<C as BoolBit>::Bit as Cond>::If<Sub1<St>, U0>;

/// A pool's [`Rounding`](super::window::Rounding) (`Self` is ceil mode) for the kernel `K`,
/// stride `St` and padding `P` (typenum digits). In ceil mode the quotient `q` counts the
/// windows that start at multiples of `s` up to `n + 2p + s - 1 - k`; the last one is dropped
/// when it would start at or past `n + p` (PyTorch), that is when the remainder of the division
/// is at most `p + s - 1 - k`: the window counts when the remainder is above that threshold,
/// always when the threshold is negative.
#[doc(hidden)]
pub trait CeilRounding<K, St, P> {
    type Rounding;
}
impl<K, St, P> CeilRounding<K, St, P> for Bool<false> {
    type Rounding = PlusOne;
}
impl<K, St: Add<P>, P> CeilRounding<K, St, P> for Bool<true>
where
    Sum<St, P>: IsLessOrEqual<K>,
    LeEq<Sum<St, P>, K>: Cond + ThresholdOf<K, St, P>,
{
    type Rounding = <LeEq<Sum<St, P>, K> as ThresholdOf<K, St, P>>::Rounding;
}

/// The ceil-mode threshold `p + s - 1 - k` by whether it is negative (`B1`: `s + p ≤ k`).
#[doc(hidden)]
pub trait ThresholdOf<K, St, P> {
    type Rounding;
}
impl<K, St, P> ThresholdOf<K, St, P> for B1 {
    type Rounding = PlusOne;
}
impl<K, St: Add<P>, P> ThresholdOf<K, St, P> for B0
where
    Sum<St, P>: Sub<B1>,
    Sub1<Sum<St, P>>: Sub<K>,
    Diff<Sub1<Sum<St, P>>, K>: ToHex,
    <Diff<Sub1<Sum<St, P>>, K> as ToHex>::Out: LowDigit,
    St: IsLessOrEqual<U16>,
    LeEq<St, U16>: Cond,
{
    type Rounding = <LeEq<St, U16> as Cond>::If<
        PlusOneAbove<<<Diff<Sub1<Sum<St, P>>, K> as ToHex>::Out as LowDigit>::Out>,
        PlusOneAboveBig<Diff<Sub1<Sum<St, P>>, K>>,
    >;
}

/// The pooled size of the axis `Self` and the check that the window fits: static when the
/// axis is, else `?` (checked at run time).
impl<X: Axis, P: PoolGeometry> Windowed<P> for X
where
    <X::Size as AxisSize>::Known: PoolWindowIf<X, P>,
{
    type Size = <<X::Size as AxisSize>::Known as PoolWindowIf<X, P>>::Size;
    type Check = <<X::Size as AxisSize>::Known as PoolWindowIf<X, P>>::Check;
}

/// The pooled size by whether the axis' size is static (lazily: only the branch taken is computed).
#[doc(hidden)]
pub trait PoolWindowIf<X, P> {
    type Size;
    type Check;
}
impl<X, P> PoolWindowIf<X, P> for B0 {
    type Size = Dyn;
    type Check = Passed;
}
/// `(n + 2p - k) / s + 1` on the size's hex digits ([`WindowLen`]; in ceil mode rounded up
/// unless the last window would start in the right padding), and the check that the window
/// fits the padded axis (in ceil mode, the axis padded by `s - 1` more, as PyTorch counts).
impl<X: Axis, P: PoolGeometry> PoolWindowIf<X, P> for B1
where
    HexOf<X>: WindowLen<P::Extra, P::KernelHex, P::StrideKind, P::Rounding>,
{
    type Size = <HexOf<X> as WindowLen<P::Extra, P::KernelHex, P::StrideKind, P::Rounding>>::Size;
    type Check = Check<
        <HexOf<X> as WindowLen<P::Extra, P::KernelHex, P::StrideKind, P::Rounding>>::Fits,
        WindowTooLarge<X>,
    >;
}

/// The outcome of a pool as a diagnostic: implemented only for a success, so a refusal names
/// itself.
#[diagnostic::on_unimplemented(
    message = "cannot pool `{S}` over `{A}`",
    label = "`{A}` does not pool `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis; `SelectedTwice<X>`: `X` picks an axis already picked; `WindowTooLarge<X>`: the window is longer than the padded axis `X`; `PaddingTooWide<P>`: padding above half the kernel"
)]
#[doc(hidden)]
pub trait PoolVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> PoolVerdict<S, A> for Good<R> {
    type Out = R::Out;
}

type Rev<S> = <S as Shape>::Rev;
type List<A> = <A as Selector>::List;
type PoolChecks<S, A, P> = (
    Check<<P as PoolGeometry>::PaddingFits, PaddingTooWide<P>>,
    (
        <List<A> as AllFound<Rev<S>>>::Out,
        (<Rev<S> as PickWalk<List<A>, P>>::Check, ()),
    ),
);
type PoolAxes<S, A, P> = <Rev<S> as PickWalk<List<A>, P>>::Axes;

/// `Self` pools over the axes `A` selects with the window `P` (rule book §20): the bound to
/// write in generic code. `Output` is `Self` with each selected axis at its pooled size.
///
/// ```
/// use shapecast::{names, shape, Pool, PoolOver, Shape};
/// names!(H, W);
/// fn pooled<X: PoolOver<(H, W), Pool<2>>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(pooled::<shape![?, H: 8, W: 9]>(), "[?, H: 4, W: 4]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot pool `{Self}` over `{A}` with `{P}`",
    label = "`{A}` does not pool `{Self}` with `{P}`",
    note = "every selector must pick its own axis; the window (kernel x dilation) must fit the padded axis, and padding be at most half the kernel"
)]
pub trait PoolOver<A, P>: Shape {
    /// The pooled shape.
    type Output: Shape;
}

/// The rule behind [`PoolOver`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `PoolOver`.
#[doc(hidden)]
pub trait PoolOverRule<A, P>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([A, P] PoolOver<A, P> => PoolOverRule<A, P> { type Output; });

impl<S: Shape, A: Selector, P: PoolGeometry> PoolOverRule<A, P> for S
where
    S::Rev: PickWalk<A::List, P>,
    A::List: AllFound<S::Rev>,
    PoolChecks<S, A, P>: Judge<PoolAxes<S, A, P>>,
    Judged<PoolChecks<S, A, P>, PoolAxes<S, A, P>>: PoolVerdict<S, A>,
{
    type Output = <Judged<PoolChecks<S, A, P>, PoolAxes<S, A, P>> as PoolVerdict<S, A>>::Out;
}

/// The shape of `S` pooled over the axes `A` selects with the window `P` (rule book §20).
///
/// ```
/// use shapecast::{names, shape, Pool, Pooled};
/// names!(T);
/// static_assertions::assert_type_eq_all!(Pooled<shape![4, T: 9], T, Pool<3, 2>>, shape![4, T: 4]);
/// ```
pub type Pooled<S, A, P> = <S as PoolOver<A, P>>::Output;
