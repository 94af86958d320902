//! Pooling at the type level (rule book §20): the twin of
//! [`dynamic::pool`](crate::dynamic::pool). One walk over the shape's axes: an axis the
//! selector picks takes PyTorch's pooled size (`(n + 2p - k) / s + 1`, rounded up in ceil
//! mode unless the last window would start in the padding), computed on the sizes' binary
//! digits and read back from the size table (`?` for a `?` input or a result above the
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

use core::ops::{Add, Div, Mul, Sub};

use typenum::{
    Add1, Const, Diff, IsLess, IsLessOrEqual, Le, LeEq, Prod, Quot, Sum, ToUInt, U, U0, U2,
};

use super::axis::Axis;
use super::bits::{Cond, Not, B0, B1};
use super::conv::{Half, KindOf, StrideAny, StrideOne, StrideTwo};
use super::list::FromRev;
use super::outcome::{Check, Good, Judge, Judged, Passed, Refused};
use super::reduce::{AllFound, Selector};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::surgery::StaticOr;
use super::window::{PickWalk, Windowed};
use crate::dynamic::pool::PoolSpec;
use crate::typed::refusals::{PaddingTooWide, WindowTooLarge};

/// A pooling window as const parameters, with PyTorch's defaults: `Pool<2>` is a 2-wide
/// window with stride 2, `Pool<3, 2, 1>` kernel 3, stride 2, padding 1; the last parameter is
/// `ceil_mode`.
///
/// ```
/// use shapecast::{Pool, PoolGeometry};
/// assert_eq!(<Pool<3> as PoolGeometry>::SPEC.stride, 3);
/// assert!(<Pool<2, 2, 0, true> as PoolGeometry>::SPEC.ceil);
/// ```
pub struct Pool<
    const KERNEL: usize,
    const STRIDE: usize = KERNEL,
    const PADDING: usize = 0,
    const CEIL: bool = false,
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
    note = "write `Pool<KERNEL, STRIDE, PADDING, CEIL>` (defaults: stride = kernel, 0, false)"
)]
pub trait PoolGeometry {
    /// The window at run time.
    const SPEC: PoolSpec;
    #[doc(hidden)]
    type Kernel;
    #[doc(hidden)]
    type Stride;
    #[doc(hidden)]
    type Padding;
    #[doc(hidden)]
    type Ceil: Cond;
    /// The stride's kind (1, 2 or any), for the division.
    #[doc(hidden)]
    type StrideKind;
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

impl<const K: usize, const ST: usize, const P: usize, const C: bool> PoolGeometry
    for Pool<K, ST, P, C>
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
    U<ST>: typenum::IsEqual<typenum::U1> + typenum::IsEqual<U2>,
    typenum::Eq<U<ST>, typenum::U1>: Cond,
    typenum::Eq<U<ST>, U2>: Cond,
{
    const SPEC: PoolSpec = PoolSpec {
        kernel: K,
        stride: ST,
        padding: P,
        ceil: C,
        count_padding: true,
    };
    type Kernel = U<K>;
    type Stride = U<ST>;
    type Padding = U<P>;
    type Ceil = <Bool<C> as BoolBit>::Bit;
    type PaddingFits = LeEq<Prod<U<P>, U2>, U<K>>;
    type StrideKind = KindOf<U<ST>>;
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
type BitsOf<X> = <<X as Axis>::Size as AxisSize>::Bits;
impl<X: Axis, P: PoolGeometry> PoolWindowIf<X, P> for B1
where
    BitsOf<X>: PoolArith<P>,
    <BitsOf<X> as PoolArith<P>>::Fits: PoolFits<X, BitsOf<X>, P>,
{
    type Size = <<BitsOf<X> as PoolArith<P>>::Fits as PoolFits<X, BitsOf<X>, P>>::Size;
    type Check = <<BitsOf<X> as PoolArith<P>>::Fits as PoolFits<X, BitsOf<X>, P>>::Check;
}

/// `n + 2p` (plus `s - 1` in ceil mode: PyTorch's rounding up) and whether the kernel fits
/// it.
#[doc(hidden)]
pub trait PoolArith<P> {
    type Reach;
    type Fits;
}
type Round<P> =
    <<P as PoolGeometry>::Ceil as Cond>::If<<<P as PoolGeometry>::Stride as Sub<B1>>::Output, U0>;
type ReachOf<N, P> = Sum<Sum<N, Prod<<P as PoolGeometry>::Padding, U2>>, Round<P>>;
impl<N, P: PoolGeometry> PoolArith<P> for N
where
    P::Padding: Mul<U2>,
    P::Stride: Sub<B1>,
    N: Add<Prod<P::Padding, U2>>,
    Sum<N, Prod<P::Padding, U2>>: Add<Round<P>>,
    P::Kernel: IsLessOrEqual<ReachOf<N, P>>,
{
    type Reach = ReachOf<N, P>;
    type Fits = LeEq<P::Kernel, ReachOf<N, P>>;
}

/// The pooled size when the window fits (`B1`), else a refusal.
#[doc(hidden)]
pub trait PoolFits<X, N, P> {
    type Size;
    type Check;
}
impl<X, N, P> PoolFits<X, N, P> for B0 {
    type Size = Dyn;
    type Check = Refused<WindowTooLarge<X>>;
}
impl<X, N: PoolArith<P>, P: PoolGeometry> PoolFits<X, N, P> for B1
where
    N::Reach: PooledLen<N, P>,
{
    type Size = <N::Reach as PooledLen<N, P>>::Size;
    type Check = Passed;
}

/// The pooled length from the reach `Self` and the input's `N`: `q = (reach - k) / s`; `q`
/// windows in ceil mode when the last would start at or past `n + p` (PyTorch drops it),
/// else `q + 1`.
#[doc(hidden)]
pub trait PooledLen<N, P> {
    type Size;
}
type Q<R, P> = <Diff<R, <P as PoolGeometry>::Kernel> as Divided<
    <P as PoolGeometry>::Stride,
    <P as PoolGeometry>::StrideKind,
>>::Out;
impl<R, N, P: PoolGeometry> PooledLen<N, P> for R
where
    R: Sub<P::Kernel>,
    Diff<R, P::Kernel>: Divided<P::Stride, P::StrideKind>,
    P::Ceil: CeilLen<Q<R, P>, N, P>,
{
    type Size = <P::Ceil as CeilLen<Q<R, P>, N, P>>::Size;
}

/// `Self / Stride` by the stride's kind: itself for 1, a shift for 2, typenum's division
/// otherwise (the costliest step, and the deepest for an editor's trait solver).
#[doc(hidden)]
pub trait Divided<Stride, Kind> {
    type Out;
}
impl<R, St> Divided<St, StrideOne> for R {
    type Out = R;
}
impl<R: Half, St> Divided<St, StrideTwo> for R {
    type Out = R::Out;
}
impl<R: Div<St>, St> Divided<St, StrideAny> for R {
    type Out = Quot<R, St>;
}

/// The pooled length from `Q = (reach - k) / s`: `Q + 1`, or in ceil mode `Q` when the last
/// window would start at or past `n + p` (only then is that comparison made).
#[doc(hidden)]
pub trait CeilLen<Q, N, P> {
    type Size;
}
impl<Q: Add<B1>, N, P> CeilLen<Q, N, P> for B0
where
    B1: StaticOr<Add1<Q>>,
{
    type Size = <B1 as StaticOr<Add1<Q>>>::Size;
}
type StartsInside<Q, N, P> =
    Le<Prod<Q, <P as PoolGeometry>::Stride>, Sum<N, <P as PoolGeometry>::Padding>>;
impl<Q, N, P: PoolGeometry> CeilLen<Q, N, P> for B1
where
    Q: Add<B1> + Mul<P::Stride>,
    N: Add<P::Padding>,
    Prod<Q, P::Stride>: IsLess<Sum<N, P::Padding>>,
    StartsInside<Q, N, P>: Cond,
    B1: StaticOr<Q> + StaticOr<Add1<Q>>,
{
    type Size = <Not<StartsInside<Q, N, P>> as Cond>::If<
        <B1 as StaticOr<Q>>::Size,
        <B1 as StaticOr<Add1<Q>>>::Size,
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
