//! The walk pooling and padding share (rule book §20, §22): over a shape's axes, last first,
//! each axis the selector picks once becomes what the operation `M` makes of it
//! ([`Windowed`]: a size and a check), an axis it does not pick is kept, an axis it picks
//! twice is refused. Each operation then judges the checks with its own verdict.

use core::marker::PhantomData;
use core::ops::{Div, Rem};

use typenum::{Eq, Gr, IsEqual, IsGreater, IsLessOrEqual, LeEq, Mod, Quot, U1, U15, U16};

use super::axis::Axis;
use super::bits::{Cond, B0, B1};
use super::digits::{DigitEq, X0, X1};
use super::hex_sum::{HexBits, HexSum};
use super::hex_window::{DigitDiff, HexDiff, HexDiv, HexShift, HexTrim, LowDigit};
use super::list::At;
use super::outcome::{Passed, Refused, Then};
use super::reduce::{AllFound, CountPicks, One, Selector, Twice, Zero};
use super::shape::Shape;
use super::size::{AxisSize, Dyn};
use super::size_hex::{ToHex, H1, H2, H3, H4, H5, H6, H7, H8};
use super::surgery::SizeOfSum;
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

/// The checks of a walk whose operation refuses nothing of its own (padding, upsampling):
/// every selector of `A` finds its axis of `S` and none picks one twice.
pub(super) type PickChecks<S, A, M> = (
    <<A as Selector>::List as AllFound<<S as Shape>::Rev>>::Out,
    (
        <<S as Shape>::Rev as PickWalk<<A as Selector>::List, M>>::Check,
        (),
    ),
);
/// The walk's output axes, reversed (the verdict reads them back into a shape).
pub(super) type PickAxes<S, A, M> = <<S as Shape>::Rev as PickWalk<<A as Selector>::List, M>>::Axes;

/// A window's output length on the input size's hex digits `Self` (rule book §20):
/// `q + 1` with `q = (n + Add - Sub) / s`, where `Rnd` may add the last partial window (a
/// pool's ceil mode) instead. Convolution: `Add = 2p + d - 1`, `Sub = d·k`; pool:
/// `Add = 2p` (`+ s - 1` in ceil mode), `Sub = k`. For a stride of 1 the geometry adds the
/// `+ 1` to `Add` and `Rnd` is [`PlusZero`]: one sum fewer. `Add` is a [`Plus`] summand
/// ([`NoAdd`] for 0: no step). `Fits` is whether `n + Add ≥ Sub`; the
/// size is `S<N>` from the size table, `?` above it. Each step is a table step per digit
/// (`typed::hex_sum`, `typed::hex_window`), so the editor resolves images of any size.
#[doc(hidden)]
pub trait WindowLen<Add, Sub, Stride, Rnd> {
    type Size: AxisSize;
    type Fits: Cond;
}

type Reached<N, A> = <A as Plus<N>>::Out;
type Span<N, A, Sb> = <Reached<N, A> as HexDiff<Sb>>::Out;
type Below<N, A, Sb> = <Reached<N, A> as HexDiff<Sb>>::Borrow;
type Trimmed<N, A, Sb> = <Span<N, A, Sb> as HexTrim>::Out;
type QuotOf<N, A, Sb, St> = <Trimmed<N, A, Sb> as Divided<St>>::Out;
type RemOf<N, A, Sb, St> = <Trimmed<N, A, Sb> as Divided<St>>::Rem;
type LenOf<N, A, Sb, St, Rnd> =
    <<Rnd as Rounding<RemOf<N, A, Sb, St>>>::Inc as Plus<QuotOf<N, A, Sb, St>>>::Out;

impl<N, A, Sb, St, Rnd> WindowLen<A, Sb, St, Rnd> for N
where
    A: Plus<N>,
    Reached<N, A>: HexDiff<Sb>,
    Span<N, A, Sb>: HexTrim,
    Trimmed<N, A, Sb>: Divided<St>,
    Rnd: Rounding<RemOf<N, A, Sb, St>>,
    <Rnd as Rounding<RemOf<N, A, Sb, St>>>::Inc: Plus<QuotOf<N, A, Sb, St>>,
    Trimmed<N, A, Sb>: IsZeroHex,
    Short<N, A, Sb, St, Rnd>: UnlessBelow<LenOf<N, A, Sb, St, Rnd>>,
{
    type Size = <Short<N, A, Sb, St, Rnd> as UnlessBelow<LenOf<N, A, Sb, St, Rnd>>>::Size;
    type Fits = <Short<N, A, Sb, St, Rnd> as Cond>::Not;
}

/// Whether the window does not fit: the difference went below zero, or, when the stride's
/// `+ 1` is in the summand ([`PlusZero`]), it is zero.
type Short<N, A, Sb, St, Rnd> = <Below<N, A, Sb> as Cond>::Or<
    <<Rnd as Rounding<RemOf<N, A, Sb, St>>>::ZeroRefused as Cond>::And<
        <Trimmed<N, A, Sb> as IsZeroHex>::Out,
    >,
>;

/// Whether trimmed hex digits are 0.
#[doc(hidden)]
pub trait IsZeroHex {
    type Out: Cond;
}
impl<D0: DigitEq<X0, Out: Cond>> IsZeroHex for H1<D0> {
    type Out = D0::Out;
}
macro_rules! nonzero_hex {
    ($($h:ident<$($d:ident),*>),*) => {$(
        impl<$($d),*> IsZeroHex for $h<$($d),*> {
            type Out = B0;
        }
    )*};
}
nonzero_hex!(
    H2<D0, D1>,
    H3<D0, D1, D2>,
    H4<D0, D1, D2, D3>,
    H5<D0, D1, D2, D3, D4>,
    H6<D0, D1, D2, D3, D4, D5>,
    H7<D0, D1, D2, D3, D4, D5, D6>,
    H8<D0, D1, D2, D3, D4, D5, D6, D7>
);

/// The size whose hex digits are `L`, unless the difference went below zero (`Self` = `B1`, a
/// window that does not fit: `?`, the refusal being the caller's check).
#[doc(hidden)]
pub trait UnlessBelow<L> {
    type Size: AxisSize;
}
impl<L> UnlessBelow<L> for B1 {
    type Size = Dyn;
}
impl<L: SizeOfSum> UnlessBelow<L> for B0 {
    type Size = L::Size;
}

/// A stride of 1: no division.
#[doc(hidden)]
pub struct UnitStride;
/// A stride `S` from 2 to 15, a hex digit: long division, one table step per digit.
#[doc(hidden)]
pub struct DigitStride<S>(PhantomData<S>);
/// A stride of 16: the digits shifted by one, the lowest the remainder.
#[doc(hidden)]
pub struct SixteenStride;
/// A stride above 16 (typenum digits `U`): typenum's division.
#[doc(hidden)]
pub struct BigStride<U>(PhantomData<U>);

/// The kind of the stride `Self` (typenum digits): [`UnitStride`], [`DigitStride`],
/// [`SixteenStride`] or [`BigStride`].
#[doc(hidden)]
pub trait StrideKindFor {
    type Kind;
}
impl<St> StrideKindFor for St
where
    St: IsEqual<U1> + IsEqual<U16> + IsLessOrEqual<U15> + ToHex,
    Eq<St, U1>: Cond,
    Eq<St, U16>: Cond,
    LeEq<St, U15>: Cond,
    <St as ToHex>::Out: LowDigit,
{
    type Kind = <Eq<St, U1> as Cond>::If<
        UnitStride,
        <LeEq<St, U15> as Cond>::If<
            DigitStride<<<St as ToHex>::Out as LowDigit>::Out>,
            <Eq<St, U16> as Cond>::If<SixteenStride, BigStride<St>>,
        >,
    >;
}

/// `Self / s` by the stride's kind: the quotient's hex digits and the remainder (a digit, or
/// typenum digits for a [`BigStride`]).
#[doc(hidden)]
pub trait Divided<St> {
    type Out;
    type Rem;
}
impl<H> Divided<UnitStride> for H {
    type Out = H;
    type Rem = X0;
}
impl<H: HexDiv<S>, S> Divided<DigitStride<S>> for H {
    type Out = H::Out;
    type Rem = H::Rem;
}
impl<H: HexShift> Divided<SixteenStride> for H {
    type Out = H::Out;
    type Rem = H::Rem;
}
impl<H: HexBits, U> Divided<BigStride<U>> for H
where
    H::Out: Div<U> + Rem<U>,
    Quot<H::Out, U>: ToHex,
{
    type Out = <Quot<H::Out, U> as ToHex>::Out;
    type Rem = Mod<H::Out, U>;
}

/// What is added to the quotient for the remainder `R`: [`PlusOne`] always (a convolution, a
/// pool without ceil mode); [`PlusOneAbove`] only when `R` is above a threshold (a pool's ceil
/// mode: PyTorch drops the last window when it would start in the right padding);
/// [`PlusZero`] for a stride of 1, whose `+ 1` the geometry puts in its summand.
#[doc(hidden)]
pub trait Rounding<R> {
    /// A summand ([`Plus`]): 1 or nothing.
    type Inc;
    /// Whether a difference of 0 means the window does not fit ([`PlusZero`]: the `+ 1` was
    /// added before it).
    type ZeroRefused: Cond;
}
/// Add 1.
#[doc(hidden)]
pub struct PlusOne;
/// Add 1 when the remainder is above the digit `T` (the remainder of a stride up to 16).
#[doc(hidden)]
pub struct PlusOneAbove<T>(PhantomData<T>);
/// Add nothing: a stride of 1, whose `+ 1` the geometry adds before the difference.
#[doc(hidden)]
pub struct PlusZero;
impl<R> Rounding<R> for PlusZero {
    type Inc = NoAdd;
    type ZeroRefused = B1;
}
impl<R> Rounding<R> for PlusOne {
    type Inc = AddHex<H1<X1>>;
    type ZeroRefused = B0;
}
impl<R, T: DigitDiff<R, B0>> Rounding<R> for PlusOneAbove<T> {
    type Inc = <T::Borrow as Cond>::If<AddHex<H1<X1>>, NoAdd>;
    type ZeroRefused = B0;
}
/// [`PlusOneAbove`] for a [`BigStride`]: the threshold `T` and the remainder are typenum
/// digits.
#[doc(hidden)]
pub struct PlusOneAboveBig<T>(PhantomData<T>);
impl<R: IsGreater<T>, T> Rounding<R> for PlusOneAboveBig<T>
where
    Gr<R, T>: Cond,
{
    type Inc = <Gr<R, T> as Cond>::If<AddHex<H1<X1>>, NoAdd>;
    type ZeroRefused = B0;
}

/// A summand of a window's arithmetic: [`NoAdd`] (0, no step) or [`AddHex<H>`](AddHex) (the hex
/// digits `H`, added with `typed::hex_sum`).
#[doc(hidden)]
pub trait Plus<N> {
    /// `N` plus the summand.
    type Out;
}
/// Nothing to add.
#[doc(hidden)]
pub struct NoAdd;
/// The hex digits `H` to add.
#[doc(hidden)]
pub struct AddHex<H>(PhantomData<H>);
impl<N> Plus<N> for NoAdd {
    type Out = N;
}
impl<N: HexSum<H>, H> Plus<N> for AddHex<H> {
    type Out = N::Out;
}

/// A typenum number as a summand: [`NoAdd`] for 0, else its hex digits.
#[doc(hidden)]
pub trait SummandOf {
    type Out;
}
impl SummandOf for typenum::UTerm {
    type Out = NoAdd;
}
impl<U, B> SummandOf for typenum::UInt<U, B>
where
    typenum::UInt<U, B>: ToHex,
{
    type Out = AddHex<<typenum::UInt<U, B> as ToHex>::Out>;
}
