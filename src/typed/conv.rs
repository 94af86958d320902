//! Convolution at the type level (rule book §20): the twin of
//! [`dynamic::conv`](crate::dynamic::conv). One walk over the input's axes: the channel `C`
//! becomes the weight's output channel, an axis whose name the weight shares is spatial and
//! takes PyTorch's output size `(n + 2p - d(k - 1) - 1) / s + 1`, computed on the sizes' hex
//! digits (`typed::window::WindowLen`: a few trait steps at any image size, so an editor shows
//! it) and read back as `S<N>` from the size table (a `?` input size, or a result above
//! [`SIZE_TABLE_MAX`](crate::typed::size::SIZE_TABLE_MAX), gives `?`); any other axis is kept. Then the checks, in order: `C` in the input, `C` in the weight, one output
//! channel, a spatial axis, and per axis the channels and the kernel's fit.
//!
//! ```
//! use shapecast::{names, shape, Conv, Convolve};
//! names!(C, K, H, W);
//! static_assertions::assert_type_eq_all!(
//!     Convolve<shape![?, C: 3, H: 256, W: 384], shape![K: 16, C: 3, H: 3, W: 3], C, Conv<2, 1>>,
//!     shape![?, K: 16, H: 128, W: 192]
//! );
//! static_assertions::assert_type_eq_all!(
//!     Convolve<shape![?, C: 3, H, W: 384], shape![K: 16, C: 3, H: 3, W: 3], C>,
//!     shape![?, K: 16, H, W: 382]
//! );
//! ```

use core::ops::{Add, Mul, Sub};

use typenum::{Const, IsEqual, Prod, Sub1, Sum, ToUInt, UInt, UTerm, U, U2};

use super::axis::{Axis, HexOf};
use super::bits::{Cond, B0, B1};
use super::list::{At, Extract, Found, FromRev, Missing};
use super::name::{Named, SameName};
use super::outcome::{Check, Good, Judge, Judged, Passed, Refused, Then};
use super::reduce::Finds;
use super::shape::Shape;
use super::size::{AxisSize, Dyn, SameOrDyn};
use super::size_hex::ToHex;
use super::surgery::SameSizeBits;
use super::window::{PlusOne, PlusZero, StrideKindFor, SummandOf, WindowLen};
use crate::dynamic::conv::ConvSpec;
use crate::typed::refusals::{
    ChannelsDiffer, EmptyKernel, KernelTooLarge, NoOutputChannel, NoSpatialAxis, NoSuchAxis,
    TwoOutputChannels, WeightLacks,
};

/// A convolution's stride, padding, dilation (the same along every spatial axis) and groups,
/// as const parameters with PyTorch's defaults: `Conv` is `Conv<1, 0, 1, 1>`, `Conv<2, 1>` a
/// stride of 2 with one element of zero padding.
///
/// ```
/// use shapecast::{Conv, ConvGeometry};
/// assert_eq!(<Conv<2, 1> as ConvGeometry>::SPEC.padding, 1);
/// assert_eq!(<Conv as ConvGeometry>::SPEC.groups, 1);
/// ```
pub struct Conv<
    const STRIDE: usize = 1,
    const PADDING: usize = 0,
    const DILATION: usize = 1,
    const GROUPS: usize = 1,
>;

/// A geometry a convolution takes: [`Conv`]'s parameters as typenum numbers and as the
/// run-time [`ConvSpec`].
///
/// ```
/// use shapecast::{Conv, ConvGeometry};
/// assert_eq!(<Conv<1, 0, 2, 4> as ConvGeometry>::SPEC.dilation, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a convolution geometry",
    label = "stride, dilation and groups must be at least 1",
    note = "write `Conv<STRIDE, PADDING, DILATION, GROUPS>` (defaults 1, 0, 1, 1)"
)]
pub trait ConvGeometry {
    /// The parameters at run time.
    const SPEC: ConvSpec;
    #[doc(hidden)]
    type Dilation;
    #[doc(hidden)]
    type Groups;
    /// `2p + d - 1` (`2p + d` for a stride of 1, the `+ 1` taken in) as a summand
    /// (`typed::window::Plus`): what the padding and the dilation add to the input's size
    /// before the kernel's `d·k` is taken away (once per geometry).
    #[doc(hidden)]
    type Extra;
    /// What the quotient gets: 1, or nothing for a stride of 1 (`typed::window::Rounding`).
    #[doc(hidden)]
    type Rounding;
    /// The stride's kind for the division (`typed::window`: 1, a digit, or larger).
    #[doc(hidden)]
    type StrideKind;
    /// Whether the dilation is 1 (no product).
    #[doc(hidden)]
    type UnitDilation: Cond;
    /// Whether the groups are 1 (the channels compared without a product).
    #[doc(hidden)]
    type UnitGroups: Cond;
}

/// A typenum number that is at least 1.
#[doc(hidden)]
pub trait AtLeastOne {}
impl<V, B> AtLeastOne for UInt<V, B> {}

impl<const ST: usize, const P: usize, const D: usize, const G: usize> ConvGeometry
    for Conv<ST, P, D, G>
where
    Const<ST>: ToUInt,
    Const<P>: ToUInt,
    Const<D>: ToUInt,
    Const<G>: ToUInt,
    U<P>: Mul<U2>,
    Prod<U<P>, U2>: Add<U<D>>,
    Sum<Prod<U<P>, U2>, U<D>>: Sub<B1> + SummandOf,
    Sub1<Sum<Prod<U<P>, U2>, U<D>>>: SummandOf,
    U<ST>: StrideKindFor + IsEqual<typenum::U1>,
    typenum::Eq<U<ST>, typenum::U1>: Cond,
    U<D>: IsEqual<typenum::U1>,
    typenum::Eq<U<D>, typenum::U1>: Cond,
    U<G>: IsEqual<typenum::U1>,
    typenum::Eq<U<G>, typenum::U1>: Cond,
    U<ST>: AtLeastOne,
    U<D>: AtLeastOne,
    U<G>: AtLeastOne,
{
    const SPEC: ConvSpec = ConvSpec {
        stride: ST,
        padding: P,
        dilation: D,
        groups: G,
    };
    type Dilation = U<D>;
    type Groups = U<G>;
    type Extra = <typenum::Eq<U<ST>, typenum::U1> as Cond>::If<
        <Sum<Prod<U<P>, U2>, U<D>> as SummandOf>::Out,
        <Sub1<Sum<Prod<U<P>, U2>, U<D>>> as SummandOf>::Out,
    >;
    type Rounding = <typenum::Eq<U<ST>, typenum::U1> as Cond>::If<PlusZero, PlusOne>;
    type StrideKind = <U<ST> as StrideKindFor>::Kind;
    type UnitDilation = typenum::Eq<U<D>, typenum::U1>;
    type UnitGroups = typenum::Eq<U<G>, typenum::U1>;
}

/// The output size along a spatial axis `Self` (the input's axis) with the kernel axis `K`,
/// and the check of the kernel's fit: a static size when both are static, else `?` (checked at
/// run time).
#[doc(hidden)]
pub trait Window<K, G> {
    type Size: AxisSize;
    type Check;
}

type KnownBoth<X, K> =
    <<<X as Axis>::Size as AxisSize>::Known as Cond>::And<<<K as Axis>::Size as AxisSize>::Known>;
type BitsOf<X> = <<X as Axis>::Size as AxisSize>::Bits;

impl<X: Axis, K: Axis, G: ConvGeometry> Window<K, G> for X
where
    KnownBoth<X, K>: WindowIf<X, K, G>,
{
    type Size = <KnownBoth<X, K> as WindowIf<X, K, G>>::Size;
    type Check = <KnownBoth<X, K> as WindowIf<X, K, G>>::Check;
}

/// [`Window`] by whether both sizes are static (lazily: only the branch taken is computed).
#[doc(hidden)]
pub trait WindowIf<X, K, G> {
    type Size: AxisSize;
    type Check;
}
impl<X, K, G> WindowIf<X, K, G> for B0 {
    type Size = Dyn;
    type Check = Passed;
}

/// `d·k` on hex digits: the kernel's own when the dilation is 1 (`B1`), without a product.
#[doc(hidden)]
pub trait Dilated<D, K> {
    type Need;
}
impl<D, K: AxisSize> Dilated<D, K> for B1 {
    type Need = K::Hex;
}
impl<D: Mul<K::Bits>, K: AxisSize> Dilated<D, K> for B0
where
    Prod<D, K::Bits>: ToHex,
{
    type Need = <Prod<D, K::Bits> as ToHex>::Out;
}

type NeedOf<K, G> = <<G as ConvGeometry>::UnitDilation as Dilated<
    <G as ConvGeometry>::Dilation,
    <K as Axis>::Size,
>>::Need;
type FitsOf<X, K, G> = <HexOf<X> as WindowLen<
    <G as ConvGeometry>::Extra,
    NeedOf<K, G>,
    <G as ConvGeometry>::StrideKind,
    <G as ConvGeometry>::Rounding,
>>::Fits;
type NotEmpty<K> = <<<K as Axis>::Size as AxisSize>::Zero as Cond>::Not;
type FitCheck<X, K, G> = Check<FitsOf<X, K, G>, KernelTooLarge<X, K>>;

/// The output size `(n + 2p - d(k - 1) - 1) / s + 1` on the sizes' hex digits
/// ([`WindowLen`]), and the checks that the kernel is not empty and fits the padded axis.
impl<X: Axis, K: Axis, G: ConvGeometry> WindowIf<X, K, G> for B1
where
    G::UnitDilation: Dilated<G::Dilation, K::Size>,
    HexOf<X>: WindowLen<G::Extra, NeedOf<K, G>, G::StrideKind, G::Rounding>,
    Check<NotEmpty<K>, EmptyKernel<K>>: Then<FitCheck<X, K, G>>,
{
    type Size = <HexOf<X> as WindowLen<G::Extra, NeedOf<K, G>, G::StrideKind, G::Rounding>>::Size;
    type Check = <Check<NotEmpty<K>, EmptyKernel<K>> as Then<FitCheck<X, K, G>>>::Out;
}

/// The input channel `Self` against the weight's `Wc`: `Self`'s size is `groups` times
/// `Wc`'s where both are static.
#[doc(hidden)]
pub trait ChannelsFit<Wc, G> {
    type Check;
}
impl<X: Axis, Wc: Axis, G: ConvGeometry> ChannelsFit<Wc, G> for X
where
    G::UnitGroups: GroupsFit<X, Wc, G>,
{
    type Check = Check<<G::UnitGroups as GroupsFit<X, Wc, G>>::Out, ChannelsDiffer<X, Wc>>;
}

/// Whether the channels fit, by whether the groups are 1 (`B1`: the sizes compared on their
/// hex digits, no product).
#[doc(hidden)]
pub trait GroupsFit<X, Wc, G> {
    type Out: Cond;
}
impl<X: Axis, Wc: Axis, G> GroupsFit<X, Wc, G> for B1
where
    X::Size: SameOrDyn<Wc::Size>,
{
    type Out = <X::Size as SameOrDyn<Wc::Size>>::Out;
}
impl<X: Axis, Wc: Axis, G: ConvGeometry> GroupsFit<X, Wc, G> for B0
where
    BitsOf<Wc>: TimesGroups<G::Groups>,
    BitsOf<X>: SameSizeBits<<BitsOf<Wc> as TimesGroups<G::Groups>>::Out>,
{
    type Out = <BitsOf<X> as SameSizeBits<<BitsOf<Wc> as TimesGroups<G::Groups>>::Out>>::Out;
}

/// A size's bits times the groups (`()`, a `?`, stays).
#[doc(hidden)]
pub trait TimesGroups<G> {
    type Out;
}
impl<G> TimesGroups<G> for () {
    type Out = ();
}
impl<G> TimesGroups<G> for UTerm {
    type Out = UTerm;
}
impl<V, B, G> TimesGroups<G> for UInt<V, B>
where
    UInt<V, B>: Mul<G>,
{
    type Out = Prod<UInt<V, B>, G>;
}

/// An input axis' fate, by whether it is the channel (`IsC`) and what its name finds in the
/// weight (`Found` or `Missing`): its output axis and a check.
#[doc(hidden)]
pub trait Fate<X, O, G> {
    type Axis;
    type Check;
}
impl<X, O, G, F> Fate<X, O, G> for (B1, F)
where
    F: ChannelOf<X, G>,
{
    type Axis = O;
    type Check = F::Check;
}
impl<X, O, G> Fate<X, O, G> for (B0, Missing) {
    type Axis = X;
    type Check = Passed;
}
impl<X: Axis, O, G, const J: usize, K> Fate<X, O, G> for (B0, Found<At<J, K>>)
where
    X: Window<K, G>,
{
    type Axis = X::Resize<<X as Window<K, G>>::Size>;
    type Check = <X as Window<K, G>>::Check;
}

/// The channel's check, given what it found in the weight.
#[doc(hidden)]
pub trait ChannelOf<X, G> {
    type Check;
}
impl<X, G> ChannelOf<X, G> for Missing {
    // The weight's lack of the channel is a check of its own.
    type Check = Passed;
}
impl<X: ChannelsFit<Wc, G>, G, const J: usize, Wc> ChannelOf<X, G> for Found<At<J, Wc>> {
    type Check = X::Check;
}

/// The first walk over the input's axes (last first): each axis with whether it is the
/// channel and what its name finds in the weight (`Found` or `Missing`), the found weight
/// axes taken out as it goes, so that `Left` is the weight's axes no input axis names (the
/// output channel, if the weight is right). One pass of name comparisons for both questions.
#[doc(hidden)]
pub trait MatchWalk<WRev, C> {
    type Matched;
    type Left;
}
impl<WRev, C> MatchWalk<WRev, C> for () {
    type Matched = ();
    type Left = WRev;
}
type ExtractIn<X, WRev> = <<X as Axis>::Name as Extract<WRev>>::Rest;
type IsC<X, C> = <<X as Axis>::Name as SameName<Named<C>>>::Out;
type FindsIn<X, WRev> = <<X as Axis>::Name as Extract<WRev>>::Out;
impl<const I: usize, X: Axis, Xs, WRev, C> MatchWalk<WRev, C> for (At<I, X>, Xs)
where
    X::Name: SameName<Named<C>> + Extract<WRev>,
    Xs: MatchWalk<ExtractIn<X, WRev>, C>,
{
    type Matched = ((X, (IsC<X, C>, FindsIn<X, WRev>)), Xs::Matched);
    type Left = Xs::Left;
}

/// The second walk: each matched axis' output axis (`O`: the output channel) and its check,
/// the checks joined with [`Then`].
#[doc(hidden)]
pub trait Place<O, G> {
    type Axes;
    type Check;
}
impl<O, G> Place<O, G> for () {
    type Axes = ();
    type Check = Passed;
}
impl<X, F, Rest: Place<O, G>, O, G> Place<O, G> for ((X, F), Rest)
where
    F: Fate<X, O, G>,
    F::Check: Then<Rest::Check>,
{
    type Axes = (F::Axis, Rest::Axes);
    type Check = <F::Check as Then<Rest::Check>>::Out;
}

/// The output channel (`Dyn` standing in when there is none) and the check that the weight
/// has exactly one axis the input does not name: `Self` is those axes, tagged.
#[doc(hidden)]
pub trait OneOut {
    type Axis;
    type Check;
}
impl OneOut for () {
    type Axis = Dyn;
    type Check = Refused<NoOutputChannel>;
}
impl<const J: usize, Y> OneOut for (At<J, Y>, ()) {
    type Axis = Y;
    type Check = Passed;
}
impl<const J: usize, Y, const K: usize, Z, Rest> OneOut for (At<J, Y>, (At<K, Z>, Rest)) {
    type Axis = Y;
    type Check = Refused<TwoOutputChannels<Z, Y>>;
}

/// A weight of at least three axes (channel, output channel, a spatial axis).
#[doc(hidden)]
pub trait HasSpatial {
    type Check;
}
impl HasSpatial for () {
    type Check = Refused<NoSpatialAxis>;
}
impl<A> HasSpatial for (A, ()) {
    type Check = Refused<NoSpatialAxis>;
}
impl<A, B> HasSpatial for (A, (B, ())) {
    type Check = Refused<NoSpatialAxis>;
}
impl<A, B, C, R> HasSpatial for (A, (B, (C, R))) {
    type Check = Passed;
}

/// The outcome of a convolution as a diagnostic: implemented only for a success, so a
/// refusal names itself.
#[diagnostic::on_unimplemented(
    message = "cannot convolve `{S}` with `{W}` over `{C}`",
    label = "`{S}` and `{W}` do not convolve over `{C}`",
    note = "at fault: `{Self}`",
    note = "`ChannelsDiffer<X, Y>`: input channels not groups × the weight's; `KernelTooLarge<X, K>`: the dilated kernel is longer than the padded axis; `TwoOutputChannels<A, B>`/`NoOutputChannel`: the weight needs exactly one axis the input does not name; `NoSuchAxis<C>`/`WeightLacks<C>`: no channel `C`"
)]
#[doc(hidden)]
pub trait ConvVerdict<S, W, C> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, W, C, R: FromRev> ConvVerdict<S, W, C> for Good<R> {
    type Out = R::Out;
}

type SRev<S> = <S as Shape>::Rev;
type Matched<S, W, C> = <SRev<S> as MatchWalk<<W as Shape>::Rev, C>>::Matched;
type Left<S, W, C> = <SRev<S> as MatchWalk<<W as Shape>::Rev, C>>::Left;
type OutOf<S, W, C> = <Left<S, W, C> as OneOut>::Axis;
type ConvChecks<S, W, C, G> = (
    Check<<C as Finds<SRev<S>>>::Out, NoSuchAxis<C>>,
    (
        Check<<C as Finds<<W as Shape>::Rev>>::Out, WeightLacks<C>>,
        (
            <Left<S, W, C> as OneOut>::Check,
            (
                <<W as Shape>::Rev as HasSpatial>::Check,
                (<Matched<S, W, C> as Place<OutOf<S, W, C>, G>>::Check, ()),
            ),
        ),
    ),
);
type ConvAxes<S, W, C, G> = <Matched<S, W, C> as Place<OutOf<S, W, C>, G>>::Axes;

/// `Self` convolves with the weight shape `W` over the channel `C` under the geometry `G`
/// (rule book §20): the bound to write in generic code. `Output` is the input's shape with
/// `C` replaced by the weight's output channel and each spatial axis at its output size.
///
/// ```
/// use shapecast::{names, shape, Conv, ConvBy, Shape};
/// names!(C, K, T);
/// fn out<X: ConvBy<shape![K: 4, C: 2, T: 3], C, Conv>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(out::<shape![?, C: 2, T: 10]>(), "[?, K: 4, T: 8]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot convolve `{Self}` with `{W}` over `{C}`",
    label = "`{Self}` and `{W}` do not convolve over `{C}` with `{G}`",
    note = "the weight is `[out, in, kernel...]`: `{C}` must name the channel axis of both; the kernel's spatial names must be axes of the input, each fitting its padded axis"
)]
pub trait ConvBy<W, C, G>: Shape {
    /// The output's shape.
    type Output: Shape;
}

impl<S: Shape, W: Shape, C: Finds<S::Rev> + Finds<W::Rev>, G: ConvGeometry> ConvBy<W, C, G> for S
where
    W::Rev: HasSpatial,
    S::Rev: MatchWalk<W::Rev, C>,
    Left<S, W, C>: OneOut,
    Matched<S, W, C>: Place<OutOf<S, W, C>, G>,
    ConvChecks<S, W, C, G>: Judge<ConvAxes<S, W, C, G>>,
    Judged<ConvChecks<S, W, C, G>, ConvAxes<S, W, C, G>>: ConvVerdict<S, W, C>,
{
    type Output =
        <Judged<ConvChecks<S, W, C, G>, ConvAxes<S, W, C, G>> as ConvVerdict<S, W, C>>::Out;
}

/// The shape of `S` convolved with the weight `W` over the channel `C` under the geometry `G`
/// ([`Conv`] by default: stride 1, no padding) (rule book §20).
///
/// ```
/// use shapecast::{names, shape, Conv, Convolve};
/// names!(C, K, D, H, W);
/// // A 3-D convolution with stride 2, padding 1 and dilation 2.
/// static_assertions::assert_type_eq_all!(
///     Convolve<shape![C: 1, D: 9, H: 9, W: 9], shape![K: 2, C: 1, D: 3, H: 3, W: 3], C, Conv<2, 1, 2>>,
///     shape![K: 2, D: 4, H: 4, W: 4]
/// );
/// ```
pub type Convolve<S, W, C, G = Conv> = <S as ConvBy<W, C, G>>::Output;
