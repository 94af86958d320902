//! Shape surgery at the type level (rule book §18): the twin of
//! [`dynamic::surgery`](crate::dynamic::surgery). Each operation walks the shape's reversed,
//! index-tagged axis list once, replacing the axis a selector picks, and then runs its checks
//! in order (the selector finds its axis; names stay distinct; static sizes fit), so a wrong
//! transformation is a compile error naming the shape, the selector and the fault.
//!
//! Sizes the operation computes (a merged axis, a concatenated axis) are written by the
//! caller on the result's axis and checked: `MergeAxes<S, (PH, PW), PATCH<S<64>>>` checks
//! 8 × 8 = 64 at compile time, and a bare `PATCH` gives a `?` size. (Stable Rust cannot turn
//! a product of two const generics into a new const generic, so the compiler checks the size
//! it cannot compute.)
//!
//! ```
//! use shapecast::{names, shape, MergeAxes, Rename, Select, SplitAxis, S};
//! names!(N, C, K, H, W, PH, H4);
//! type Img = shape![N: 2, C: 3, H: 32, W: 32];
//! static_assertions::assert_type_eq_all!(Rename<Img, C, K>, shape![N: 2, K: 3, H: 32, W: 32]);
//! static_assertions::assert_type_eq_all!(Select<Img, C>, shape![N: 2, H: 32, W: 32]);
//! type Split = SplitAxis<Img, H, (PH<S<8>>, H4<S<4>>)>;
//! static_assertions::assert_type_eq_all!(Split, shape![N: 2, C: 3, PH: 8, H4: 4, W: 32]);
//! static_assertions::assert_type_eq_all!(MergeAxes<Split, (PH, H4), H<S<32>>>, Img);
//! ```

use core::marker::PhantomData;
use core::ops::{Add, Mul};

/// The size 1 (of an inserted axis).
type SizeOne = S<1>;

use typenum::{Add1, Const, IsEqual, IsLessOrEqual, Prod, Sum, ToUInt, UInt, UTerm, U, U1};

use super::axis::Axis;
use super::bits::{And, Cond, Not, Or, B0, B1};
use super::list::{Append, At, FromRev, NoRepeat, NotShorter, Repeated, Repeats, Untag};
use super::name::{Anon, NameKind, Named, SameName};
use super::reduce::{CountPicks, Finds, One, OneAxis, Picks, Pos, Selector, Twice, Zero};
use super::shape::Shape;
use super::size::{AxisSize, Dyn, SameSize, S, SIZE_TABLE_MAX};
use super::sizes::SizeOfDigits;
use crate::{NoMatch, NoSuchAxis, NotAdjacent, RanksDiffer, RepeatedName, SizesDiffer, WrongSize};

/// No name, where an operation names an axis: `insert_axis::<0, Unnamed>()`,
/// `rename::<H, Unnamed>()`, `merge_axes::<(H, W), Unnamed>()`. (It is [`Dyn`], the unnamed
/// axis of unknown size; an unnamed static axis such as `S<64>` names nothing either and
/// carries its size.)
///
/// ```
/// use shapecast::{names, shape, InsertAxis, Unnamed};
/// names!(H);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H: 2], 0, Unnamed>, shape![1, H: 2]);
/// ```
pub type Unnamed = Dyn;

// ---------------------------------------------------------------------------------------
// Outcomes and checks.

/// All checks so far passed.
#[doc(hidden)]
pub struct Pass;
/// A check failed with the refusal `E`.
#[doc(hidden)]
pub struct Fail<E>(PhantomData<E>);
/// The operation's output axes (last first).
#[doc(hidden)]
pub struct Done<Rev>(PhantomData<Rev>);

/// `Self` then `N`: `N` when `Self` passed, else `Self`'s refusal.
#[doc(hidden)]
pub trait Then<N> {
    type Out;
}
impl<N> Then<N> for Pass {
    type Out = N;
}
impl<E, N> Then<N> for Fail<E> {
    type Out = Fail<E>;
}

/// A boolean as a check: `Pass` or `Fail<E>`.
type Check<C, E> = <C as Cond>::If<Pass, Fail<E>>;
/// `A` then `B`.
type AndThen<A, B> = <A as Then<B>>::Out;

/// A selector finds its axis in a tagged list.
type FoundIn<Sel, Rev> = Check<<Sel as Finds<Rev>>::Out, NoSuchAxis<Sel>>;

/// No name repeats in a plain list of axes (last first).
#[doc(hidden)]
pub trait Distinct {
    type Out;
}
impl<Xs: Repeats> Distinct for Xs
where
    Xs::Out: RepeatCheck,
{
    type Out = <Xs::Out as RepeatCheck>::Out;
}
/// [`Repeats`]' answer as a check.
#[doc(hidden)]
pub trait RepeatCheck {
    type Out;
}
impl RepeatCheck for NoRepeat {
    type Out = Pass;
}
impl<X> RepeatCheck for Repeated<X> {
    type Out = Fail<RepeatedName<X>>;
}

/// The refusal itself (so a diagnostic names `NoSuchAxis<W>`), or the output shape's axes.
#[doc(hidden)]
pub trait Bare {
    type Out;
}
impl<R> Bare for Done<R> {
    type Out = Done<R>;
}
impl<E> Bare for Fail<E> {
    type Out = E;
}

/// The whole verdict of an operation: checks, then the output.
type Judged<Checks, Rev> = <AndThen<Checks, Done<Rev>> as Bare>::Out;

// ---------------------------------------------------------------------------------------
// Sizes as typenum numbers, for the checks.

/// `Acc` times this size's bits (`Acc` itself for `?`).
#[doc(hidden)]
pub trait TimesBits<Acc> {
    type Out;
}
impl<const N: usize, B, Acc> TimesBits<Acc> for S<N, B>
where
    S<N, B>: AxisSize,
    <S<N, B> as AxisSize>::Bits: Mul<Acc>,
{
    type Out = Prod<<S<N, B> as AxisSize>::Bits, Acc>;
}
impl<Acc> TimesBits<Acc> for Dyn {
    type Out = Acc;
}

/// Whether two sizes' bits are equal; true when either is `?` (bits `()`).
#[doc(hidden)]
pub trait SameBits<P> {
    type Out: Cond;
}
impl<P> SameBits<P> for () {
    type Out = B1;
}
impl SameBits<()> for UTerm {
    type Out = B1;
}
impl<V, B> SameBits<()> for UInt<V, B> {
    type Out = B1;
}
impl<P> SameBits<P> for UTerm
where
    UTerm: SameSize<P>,
{
    type Out = <UTerm as SameSize<P>>::Out;
}
impl<V, B, P> SameBits<P> for UInt<V, B>
where
    UInt<V, B>: SameSize<P>,
{
    type Out = <UInt<V, B> as SameSize<P>>::Out;
}

/// Whether this size's bits are at most `P`'s; true when either is `?` (bits `()`).
#[doc(hidden)]
pub trait AtMostBits<P> {
    type Out: Cond;
}
impl<P> AtMostBits<P> for () {
    type Out = B1;
}
impl AtMostBits<()> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<()> for UInt<V, B> {
    type Out = B1;
}
impl AtMostBits<UTerm> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<UInt<V, B>> for UTerm {
    type Out = B1;
}
impl<V, B> AtMostBits<UTerm> for UInt<V, B> {
    type Out = B0;
}
impl<V, B, V2, B2> AtMostBits<UInt<V2, B2>> for UInt<V, B>
where
    UInt<V, B>: IsLessOrEqual<UInt<V2, B2>>,
    <UInt<V, B> as IsLessOrEqual<UInt<V2, B2>>>::Output: Cond,
{
    type Out = <UInt<V, B> as IsLessOrEqual<UInt<V2, B2>>>::Output;
}

/// The bits of the sum of two sizes, `()` when one is `?`.
#[doc(hidden)]
pub trait SumOf<Y> {
    type Bits;
}
impl<const N: usize, B, const M: usize, C> SumOf<S<M, C>> for S<N, B>
where
    S<N, B>: AxisSize,
    S<M, C>: AxisSize,
    <S<N, B> as AxisSize>::Bits: Add<<S<M, C> as AxisSize>::Bits>,
{
    type Bits = Sum<<S<N, B> as AxisSize>::Bits, <S<M, C> as AxisSize>::Bits>;
}
impl<const N: usize, B> SumOf<Dyn> for S<N, B> {
    type Bits = ();
}
impl<Y> SumOf<Y> for Dyn {
    type Bits = ();
}

/// The bits of a size (`()` for `?`).
type BitsOf<Z> = <Z as AxisSize>::Bits;
/// Whether a size is static.
type KnownOf<Z> = <Z as AxisSize>::Known;

/// The size a computation gives (a concatenation's sum, a merge's product): `S<N>` from the
/// digits `Bits` when `Self` says they are known (`B1`) and `N` is in the size table (up to
/// `SIZE_TABLE_MAX`), else `?`, which the run-time sizes then carry.
#[doc(hidden)]
pub trait StaticOr<Bits> {
    type Size: AxisSize;
}
impl<Bits> StaticOr<Bits> for B0 {
    type Size = Dyn;
}
impl<Bits> StaticOr<Bits> for B1
where
    Bits: AtMostBits<TableMax>,
    <Bits as AtMostBits<TableMax>>::Out: InTable<Bits>,
{
    type Size = <<Bits as AtMostBits<TableMax>>::Out as InTable<Bits>>::Size;
}
/// `SIZE_TABLE_MAX` as typenum digits.
type TableMax = typenum::U2048;
const _: () = assert!(<TableMax as typenum::Unsigned>::USIZE == SIZE_TABLE_MAX);

/// `S<N>` for digits in the size table (`Self` = `B1`), else `?`.
#[doc(hidden)]
pub trait InTable<Bits> {
    type Size: AxisSize;
}
impl<Bits: SizeOfDigits> InTable<Bits> for B1
where
    Bits::Size: AxisSize,
{
    type Size = Bits::Size;
}
impl<Bits> InTable<Bits> for B0 {
    type Size = Dyn;
}

/// The size of `X` and `Y` concatenated: their sum when both are static, else `?`.
type SumSize<X, Y> = <And<KnownOf<X>, KnownOf<Y>> as StaticOr<<X as SumOf<Y>>::Bits>>::Size;

// ---------------------------------------------------------------------------------------
// Walks over the tagged list.

/// What replaces a picked axis `X`: a reversed list of axes.
#[doc(hidden)]
pub trait Surgeon<X> {
    type Rev;
}
/// The picked axis goes.
#[doc(hidden)]
pub struct Removed;
impl<X> Surgeon<X> for Removed {
    type Rev = ();
}
/// The picked axis takes the name of `B` (none for [`Unnamed`]), its size kept.
#[doc(hidden)]
pub struct Renamed<B>(PhantomData<B>);
impl<X: Axis, B: Axis> Surgeon<X> for Renamed<B> {
    type Rev = (B::Resize<X::Size>, ());
}
/// The picked axis takes the size `Z`, its name kept.
#[doc(hidden)]
pub struct Resized<Z>(PhantomData<Z>);
impl<X: Axis, Z> Surgeon<X> for Resized<Z> {
    type Rev = (X::Resize<Z>, ());
}
/// The picked axis becomes the axes `Rev` (last first).
#[doc(hidden)]
pub struct Parts<Rev>(PhantomData<Rev>);
impl<X, Rev> Surgeon<X> for Parts<Rev> {
    type Rev = Rev;
}

/// The plain list of axes (last first) with the axis `Sel` picks replaced by what `R` makes
/// of it.
#[doc(hidden)]
pub trait Replace<Sel, R> {
    type Out;
}
impl<Sel, R> Replace<Sel, R> for () {
    type Out = ();
}
impl<Sel, R, const I: usize, X, Xs> Replace<Sel, R> for (At<I, X>, Xs)
where
    Sel: Picks<At<I, X>>,
    R: Surgeon<X>,
    Xs: Replace<Sel, R>,
    R::Rev: Append<Xs::Out>,
{
    type Out =
        <<Sel as Picks<At<I, X>>>::Out as Cond>::If<<R::Rev as Append<Xs::Out>>::Out, (X, Xs::Out)>;
}

/// The position of the axis `Sel` picks (`usize::MAX` when none does).
#[doc(hidden)]
pub trait PositionOf<Sel> {
    const AT: usize;
}
impl<Sel> PositionOf<Sel> for () {
    const AT: usize = usize::MAX;
}
impl<Sel: Picks<At<I, X>>, const I: usize, X, Xs: PositionOf<Sel>> PositionOf<Sel>
    for (At<I, X>, Xs)
{
    const AT: usize = if <<Sel as Picks<At<I, X>>>::Out as Cond>::VALUE {
        I
    } else {
        Xs::AT
    };
}

/// The product of the sizes of the axes a list of selectors `L` picks: whether they are all
/// static, and the product of the static ones.
#[doc(hidden)]
pub trait PickedProduct<L> {
    type Known: Cond;
    type Bits;
}
impl<L> PickedProduct<L> for () {
    type Known = B1;
    type Bits = U1;
}
impl<L, const I: usize, X: Axis, Xs: PickedProduct<L>> PickedProduct<L> for (At<I, X>, Xs)
where
    L: CountPicks<At<I, X>>,
    <L as CountPicks<At<I, X>>>::Out: Picked,
    X::Size: TimesBits<Xs::Bits>,
{
    // Picked: this axis' size must be known too.
    type Known = And<
        Or<Not<<<L as CountPicks<At<I, X>>>::Out as Picked>::Out>, KnownOf<X::Size>>,
        Xs::Known,
    >;
    type Bits = <<<L as CountPicks<At<I, X>>>::Out as Picked>::Out as Cond>::If<
        <X::Size as TimesBits<Xs::Bits>>::Out,
        Xs::Bits,
    >;
}

/// Whether a pick count picks.
#[doc(hidden)]
pub trait Picked {
    type Out: Cond;
}
impl Picked for Zero {
    type Out = B0;
}
impl Picked for One {
    type Out = B1;
}
impl<Sel> Picked for Twice<Sel> {
    type Out = B1;
}

/// The product of a plain list of axes' sizes: whether all are static, and the product of
/// the static ones.
#[doc(hidden)]
pub trait Product {
    type Known: Cond;
    type Bits;
}
impl Product for () {
    type Known = B1;
    type Bits = U1;
}
impl<X: Axis, Xs: Product> Product for (X, Xs)
where
    X::Size: TimesBits<Xs::Bits>,
{
    type Known = And<KnownOf<X::Size>, Xs::Known>;
    type Bits = <X::Size as TimesBits<Xs::Bits>>::Out;
}

/// A whole whose static size must equal a static product: a check that passes unless both
/// are static and differ.
type Fits<WholeKnown, WholeBits, PartsKnown, PartsBits> =
    Or<Not<And<WholeKnown, PartsKnown>>, <WholeBits as SameBits<PartsBits>>::Out>;

// ---------------------------------------------------------------------------------------
// Rename.

/// `Self` with the axis `A` picks renamed to `B` (rule book §18): the bound to write in
/// generic code. `B` must not name another axis; [`Unnamed`] removes the name.
///
/// ```
/// use shapecast::{names, shape, RenameAxis, Shape};
/// names!(C, K);
/// fn renamed<X: RenameAxis<C, K>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(renamed::<shape![?, C: 3]>(), "[?, K: 3]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot rename `{A}` of `{Self}` to `{B}`",
    label = "`{A}` cannot become `{B}` in `{Self}`"
)]
pub trait RenameAxis<A, B>: Shape {
    /// The renamed shape.
    type Output: Shape;
    /// The position of the renamed axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The verdict of a rename, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot rename `{A}` of `{S}` to `{B}`",
    label = "`{A}` cannot become `{B}` in `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape (or `Pos<K>` is past its rank); `RepeatedName<X>`: the new name would name two axes (`X` is the renamed one): rename the other first"
)]
#[doc(hidden)]
pub trait RenameVerdict<S, A, B> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, B, R: FromRev> RenameVerdict<S, A, B> for Done<R> {
    type Out = R::Out;
}

type RenamedRev<S, A, B> = <<S as Shape>::Rev as Replace<A, Renamed<B>>>::Out;
type RenameChecks<S, A, B> =
    AndThen<FoundIn<A, <S as Shape>::Rev>, <RenamedRev<S, A, B> as Distinct>::Out>;

impl<S: Shape, A: OneAxis, B: Axis> RenameAxis<A, B> for S
where
    S::Rev: Replace<A, Renamed<B>> + PositionOf<A>,
    A: Finds<S::Rev>,
    RenamedRev<S, A, B>: Distinct,
    FoundIn<A, S::Rev>: Then<<RenamedRev<S, A, B> as Distinct>::Out>,
    RenameChecks<S, A, B>: Then<Done<RenamedRev<S, A, B>>>,
    AndThen<RenameChecks<S, A, B>, Done<RenamedRev<S, A, B>>>: Bare,
    Judged<RenameChecks<S, A, B>, RenamedRev<S, A, B>>: RenameVerdict<S, A, B>,
{
    type Output =
        <Judged<RenameChecks<S, A, B>, RenamedRev<S, A, B>> as RenameVerdict<S, A, B>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` with the axis `A` picks renamed to `B` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Pos, Rename, Unnamed};
/// names!(C, K);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], C, K>, shape![?, K: 3]);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], Pos<0>, K>, shape![K, C: 3]);
/// static_assertions::assert_type_eq_all!(Rename<shape![?, C: 3], C, Unnamed>, shape![?, 3]);
/// ```
pub type Rename<S, A, B> = <S as RenameAxis<A, B>>::Output;

// ---------------------------------------------------------------------------------------
// Select and slice.

/// `Self` without the axis `A` picks: the shape of `select` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, SelectAxis, Shape};
/// names!(CHANNEL);
/// assert_eq!(<shape![?, CHANNEL: 3, 4] as SelectAxis<CHANNEL>>::Output::RANK, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot select along `{A}` of `{Self}`",
    label = "`{A}` is not one axis of `{Self}`"
)]
pub trait SelectAxis<A>: Shape {
    /// The shape without the axis.
    type Output: Shape;
    /// The position of the axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The verdict of a select, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot select along `{A}` of `{S}`",
    label = "`{A}` is not one axis of `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape (or `Pos<K>` is past its rank)"
)]
#[doc(hidden)]
pub trait TakeVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> TakeVerdict<S, A> for Done<R> {
    type Out = R::Out;
}

/// The verdict of a slice, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot slice `{A}` of `{S}` to `{Z}`",
    label = "`{A}` of `{S}` has no window `{Z}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape (or `Pos<K>` is past its rank); `WrongSize<S<N>>`: a window of static length `N` is longer than the axis"
)]
#[doc(hidden)]
pub trait SliceVerdict<S, A, Z> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, Z, R: FromRev> SliceVerdict<S, A, Z> for Done<R> {
    type Out = R::Out;
}

type Replaced<S, A, R> = <<S as Shape>::Rev as Replace<A, R>>::Out;

impl<S: Shape, A: OneAxis> SelectAxis<A> for S
where
    S::Rev: Replace<A, Removed> + PositionOf<A>,
    A: Finds<S::Rev>,
    FoundIn<A, S::Rev>: Then<Done<Replaced<S, A, Removed>>>,
    AndThen<FoundIn<A, S::Rev>, Done<Replaced<S, A, Removed>>>: Bare,
    Judged<FoundIn<A, S::Rev>, Replaced<S, A, Removed>>: TakeVerdict<S, A>,
{
    type Output = <Judged<FoundIn<A, S::Rev>, Replaced<S, A, Removed>> as TakeVerdict<S, A>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` without the axis `A` picks (rule book §18): `select::<A>(i)` takes index `i` of it.
///
/// ```
/// use shapecast::{names, shape, Select};
/// names!(CHANNEL, H, W);
/// static_assertions::assert_type_eq_all!(Select<shape![?, CHANNEL: 3, H, W], CHANNEL>, shape![?, H, W]);
/// ```
pub type Select<S, A> = <S as SelectAxis<A>>::Output;

/// `Self` with the axis `A` picks sliced to the size `Z` ([`Dyn`] for a length known at run
/// time, `S<N>` for a window of static length `N`, which must fit a static axis).
///
/// ```
/// use shapecast::{names, shape, Dyn, Shape, SliceAxis, S};
/// names!(T);
/// assert_eq!(<shape![T: 100, 8] as SliceAxis<T, Dyn>>::Output::to_dyn().to_string(), "[T, 8]");
/// assert_eq!(<shape![T: 100, 8] as SliceAxis<T, S<10>>>::Output::to_dyn().to_string(), "[T: 10, 8]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot slice `{A}` of `{Self}` to `{Z}`",
    label = "`{A}` of `{Self}` cannot be sliced to `{Z}`"
)]
pub trait SliceAxis<A, Z>: Shape {
    /// The sliced shape.
    type Output: Shape;
    /// The position of the axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The size of the axis a selector picks (`Dyn` when none does, for the checks' sake).
#[doc(hidden)]
pub trait PickedSize<Sel> {
    type Out;
}
impl<Sel> PickedSize<Sel> for () {
    type Out = Dyn;
}
impl<Sel: Picks<At<I, X>>, const I: usize, X: Axis, Xs: PickedSize<Sel>> PickedSize<Sel>
    for (At<I, X>, Xs)
{
    type Out = <<Sel as Picks<At<I, X>>>::Out as Cond>::If<X::Size, Xs::Out>;
}

type Window<S, A, Z> = Check<
    <BitsOf<Z> as AtMostBits<BitsOf<<<S as Shape>::Rev as PickedSize<A>>::Out>>>::Out,
    WrongSize<Z>,
>;
type SliceChecks<S, A, Z> = AndThen<FoundIn<A, <S as Shape>::Rev>, Window<S, A, Z>>;

impl<S: Shape, A: OneAxis, Z: AxisSize> SliceAxis<A, Z> for S
where
    S::Rev: Replace<A, Resized<Z>> + PositionOf<A> + PickedSize<A>,
    <S::Rev as PickedSize<A>>::Out: AxisSize,
    A: Finds<S::Rev>,
    BitsOf<Z>: AtMostBits<BitsOf<<S::Rev as PickedSize<A>>::Out>>,
    FoundIn<A, S::Rev>: Then<Window<S, A, Z>>,
    SliceChecks<S, A, Z>: Then<Done<Replaced<S, A, Resized<Z>>>>,
    AndThen<SliceChecks<S, A, Z>, Done<Replaced<S, A, Resized<Z>>>>: Bare,
    Judged<SliceChecks<S, A, Z>, Replaced<S, A, Resized<Z>>>: SliceVerdict<S, A, Z>,
{
    type Output =
        <Judged<SliceChecks<S, A, Z>, Replaced<S, A, Resized<Z>>> as SliceVerdict<S, A, Z>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` with the axis `A` picks sliced to a length known at run time (rule book §18): its name
/// kept, its size `?`.
///
/// ```
/// use shapecast::{names, shape, Slice};
/// names!(T);
/// static_assertions::assert_type_eq_all!(Slice<shape![T: 100, 8], T>, shape![T, 8]);
/// ```
pub type Slice<S, A> = <S as SliceAxis<A, Dyn>>::Output;

/// `S` with the axis `A` picks sliced to a window of static length `Z` (`S<N>`): the static
/// form of [`Slice`]. A window longer than a static axis is a compile error.
///
/// ```
/// use shapecast::{names, shape, SliceTo, S};
/// names!(T);
/// static_assertions::assert_type_eq_all!(SliceTo<shape![T: 100, 8], T, S<10>>, shape![T: 10, 8]);
/// static_assertions::assert_type_eq_all!(SliceTo<shape![T, 8], T, S<10>>, shape![T: 10, 8]);
/// ```
pub type SliceTo<S, A, Z> = <S as SliceAxis<A, Z>>::Output;

// ---------------------------------------------------------------------------------------
// Insert.

/// `Self` with a size-1 axis named `N` (or [`Unnamed`]) inserted at position `K`
/// (`0 ≤ K ≤ rank`).
///
/// ```
/// use shapecast::{names, shape, InsertAxisAt, Shape};
/// names!(N);
/// assert_eq!(<shape![2, 3] as InsertAxisAt<2, N>>::Output::to_dyn().to_string(), "[2, 3, N: 1]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot insert `{N}` at position {K} of `{Self}`",
    label = "`{N}` cannot go at position {K} of `{Self}`"
)]
pub trait InsertAxisAt<const K: usize, N>: Shape {
    /// The shape with the new axis.
    type Output: Shape;
}

/// The verdict of an insertion, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis `{N}` into `{S}`",
    label = "`{N}` cannot be inserted into `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<Pos<K>>`: position `K` is past the rank (it may equal the rank); `RepeatedName<X>`: the new name already names the axis `X`"
)]
#[doc(hidden)]
pub trait InsertVerdict<S, N> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, N, R: FromRev> InsertVerdict<S, N> for Done<R> {
    type Out = R::Out;
}

/// The plain list (last first) with `New` inserted at position `K`.
#[doc(hidden)]
pub trait InsertWalk<KBits, New> {
    type Out;
}
impl<KBits: IsEqual<UTerm>, New> InsertWalk<KBits, New> for ()
where
    <KBits as IsEqual<UTerm>>::Output: Cond,
{
    type Out = <<KBits as IsEqual<UTerm>>::Output as Cond>::If<(New, ()), ()>;
}
impl<KBits, New, const I: usize, X, Xs: InsertWalk<KBits, New>> InsertWalk<KBits, New>
    for (At<I, X>, Xs)
where
    Const<I>: ToUInt,
    U<I>: Add<typenum::B1>,
    KBits: IsEqual<Add1<U<I>>>,
    <KBits as IsEqual<Add1<U<I>>>>::Output: Cond,
{
    type Out =
        <<KBits as IsEqual<Add1<U<I>>>>::Output as Cond>::If<(New, (X, Xs::Out)), (X, Xs::Out)>;
}

/// The length of a tagged list as typenum bits.
#[doc(hidden)]
pub trait LenBits {
    type Out;
}
impl LenBits for () {
    type Out = UTerm;
}
impl<const I: usize, X, Xs> LenBits for (At<I, X>, Xs)
where
    Const<I>: ToUInt,
    U<I>: Add<typenum::B1>,
{
    type Out = Add1<U<I>>;
}

type Inserted<S, const K: usize, N> =
    <<S as Shape>::Rev as InsertWalk<U<K>, <N as Axis>::Resize<SizeOne>>>::Out;
type InsertChecks<S, const K: usize, N> = AndThen<
    Check<<U<K> as IsLessOrEqual<<<S as Shape>::Rev as LenBits>::Out>>::Output, NoSuchAxis<Pos<K>>>,
    <Inserted<S, K, N> as Distinct>::Out,
>;

impl<S: Shape, const K: usize, N: Axis> InsertAxisAt<K, N> for S
where
    Const<K>: ToUInt,
    S::Rev: InsertWalk<U<K>, N::Resize<SizeOne>> + LenBits,
    U<K>: IsLessOrEqual<<S::Rev as LenBits>::Out>,
    <U<K> as IsLessOrEqual<<S::Rev as LenBits>::Out>>::Output: Cond,
    Inserted<S, K, N>: Distinct,
    Check<<U<K> as IsLessOrEqual<<S::Rev as LenBits>::Out>>::Output, NoSuchAxis<Pos<K>>>:
        Then<<Inserted<S, K, N> as Distinct>::Out>,
    InsertChecks<S, K, N>: Then<Done<Inserted<S, K, N>>>,
    AndThen<InsertChecks<S, K, N>, Done<Inserted<S, K, N>>>: Bare,
    Judged<InsertChecks<S, K, N>, Inserted<S, K, N>>: InsertVerdict<S, N>,
{
    type Output = <Judged<InsertChecks<S, K, N>, Inserted<S, K, N>> as InsertVerdict<S, N>>::Out;
}

/// `S` with a size-1 axis named `N` (or [`Unnamed`]) at position `K` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, InsertAxis};
/// names!(N, H, W);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H, W: 3], 0, N>, shape![N: 1, H, W: 3]);
/// static_assertions::assert_type_eq_all!(InsertAxis<shape![H, W: 3], 2, N>, shape![H, W: 3, N: 1]);
/// ```
pub type InsertAxis<S, const K: usize, N> = <S as InsertAxisAt<K, N>>::Output;

// ---------------------------------------------------------------------------------------
// Split.

/// `Self` with the axis `A` picks split into the axes `P` (a tuple such as
/// `(PH<S<8>>, H4<S<4>>)`, row-major: the last part varies fastest). When the axis and every
/// part are static, the parts' product must equal the axis' size at compile time; otherwise
/// it is checked at run time.
///
/// ```
/// use shapecast::{names, shape, Shape, SplitAxisInto, S};
/// names!(H, PH, H4);
/// type P = (PH<S<8>>, H4<S<4>>);
/// assert_eq!(<shape![?, H: 32] as SplitAxisInto<H, P>>::Output::to_dyn().to_string(), "[?, PH: 8, H4: 4]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot split `{A}` of `{Self}` into `{P}`",
    label = "`{A}` of `{Self}` cannot become `{P}`"
)]
pub trait SplitAxisInto<A, P>: Shape {
    /// The split shape.
    type Output: Shape;
    /// The position of the split axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The verdict of a split or a merge, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{S}` by `{A}`",
    label = "`{A}` does not reshape `{S}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the shape; `WrongSize<X>`: the static sizes' product differs from `X`'s size; `NotAdjacent<X, Y>`: `Y` is not the axis right after `X`; `RepeatedName<X>`: a new name already names `X`"
)]
#[doc(hidden)]
pub trait ReshapeVerdict<S, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, R: FromRev> ReshapeVerdict<S, A> for Done<R> {
    type Out = R::Out;
}

type PartsRev<P> = <<P as Shape>::Rev as Untag>::Out;
type SplitRev<S, A, P> = Replaced<S, A, Parts<PartsRev<P>>>;
type WholeOf<S, A> = <<S as Shape>::Rev as PickedSize<A>>::Out;
type SplitFits<S, A, P> = Check<
    Fits<
        KnownOf<WholeOf<S, A>>,
        BitsOf<WholeOf<S, A>>,
        <PartsRev<P> as Product>::Known,
        <PartsRev<P> as Product>::Bits,
    >,
    WrongSize<P>,
>;
type SplitChecks<S, A, P> = AndThen<
    AndThen<FoundIn<A, <S as Shape>::Rev>, SplitFits<S, A, P>>,
    <SplitRev<S, A, P> as Distinct>::Out,
>;

impl<S: Shape, A: OneAxis, P: Shape> SplitAxisInto<A, P> for S
where
    P::Rev: Untag,
    PartsRev<P>: Product,
    S::Rev: Replace<A, Parts<PartsRev<P>>> + PositionOf<A> + PickedSize<A>,
    WholeOf<S, A>: AxisSize,
    A: Finds<S::Rev>,
    BitsOf<WholeOf<S, A>>: SameBits<<PartsRev<P> as Product>::Bits>,
    SplitRev<S, A, P>: Distinct,
    FoundIn<A, S::Rev>: Then<SplitFits<S, A, P>>,
    AndThen<FoundIn<A, S::Rev>, SplitFits<S, A, P>>: Then<<SplitRev<S, A, P> as Distinct>::Out>,
    SplitChecks<S, A, P>: Then<Done<SplitRev<S, A, P>>>,
    AndThen<SplitChecks<S, A, P>, Done<SplitRev<S, A, P>>>: Bare,
    Judged<SplitChecks<S, A, P>, SplitRev<S, A, P>>: ReshapeVerdict<S, A>,
{
    type Output = <Judged<SplitChecks<S, A, P>, SplitRev<S, A, P>> as ReshapeVerdict<S, A>>::Out;
    const AT: usize = <S::Rev as PositionOf<A>>::AT;
}

/// `S` with the axis `A` picks split into the axes `P` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Dyn, SplitAxis, S};
/// names!(HW, H, W);
/// static_assertions::assert_type_eq_all!(SplitAxis<shape![?, HW: 12], HW, (H<S<3>>, W<S<4>>)>, shape![?, H: 3, W: 4]);
/// // A `?` part is found at run time.
/// static_assertions::assert_type_eq_all!(SplitAxis<shape![?, HW: 12], HW, (H<S<3>>, W)>, shape![?, H: 3, W]);
/// ```
pub type SplitAxis<S, A, P> = <S as SplitAxisInto<A, P>>::Output;

// ---------------------------------------------------------------------------------------
// Merge.

/// Position of the axis a selector picks, as typenum bits (`Missing` when none does).
#[doc(hidden)]
pub trait PosBits<Sel> {
    type Out;
}
/// No axis picked.
#[doc(hidden)]
pub struct Missing;
impl<Sel> PosBits<Sel> for () {
    type Out = Missing;
}
impl<Sel: Picks<At<I, X>>, const I: usize, X, Xs: PosBits<Sel>> PosBits<Sel> for (At<I, X>, Xs)
where
    Const<I>: ToUInt,
{
    type Out = <<Sel as Picks<At<I, X>>>::Out as Cond>::If<U<I>, Xs::Out>;
}

/// Whether position `Self` is the one right after `P` (true when either is missing: the
/// found-check refuses that first).
#[doc(hidden)]
pub trait Follows<P> {
    type Out: Cond;
}
impl<P> Follows<P> for Missing {
    type Out = B1;
}
impl Follows<Missing> for UTerm {
    type Out = B1;
}
impl<V, B> Follows<Missing> for UInt<V, B> {
    type Out = B1;
}
impl<P: typenum::Unsigned> Follows<P> for UTerm {
    type Out = B0;
}
impl<V, B, P: typenum::Unsigned + Add<typenum::B1>> Follows<P> for UInt<V, B>
where
    Add1<P>: IsEqual<UInt<V, B>>,
    <Add1<P> as IsEqual<UInt<V, B>>>::Output: Cond,
{
    type Out = <Add1<P> as IsEqual<UInt<V, B>>>::Output;
}

/// Every selector of a list picks the axis right after the previous one's.
#[doc(hidden)]
pub trait AdjacentIn<Rev> {
    type Out;
}
impl<Rev, A> AdjacentIn<Rev> for (A, ()) {
    type Out = Pass;
}
impl<Rev, A, B, Rest> AdjacentIn<Rev> for (A, (B, Rest))
where
    Rev: PosBits<A> + PosBits<B>,
    <Rev as PosBits<B>>::Out: Follows<<Rev as PosBits<A>>::Out>,
    (B, Rest): AdjacentIn<Rev>,
{
    type Out = <<<Rev as PosBits<B>>::Out as Follows<<Rev as PosBits<A>>::Out>>::Out as Cond>::If<
        <(B, Rest) as AdjacentIn<Rev>>::Out,
        Fail<NotAdjacent<A, B>>,
    >;
}

/// Every selector of a list finds its axis: the first that does not is refused.
#[doc(hidden)]
pub trait AllFoundIn<Rev> {
    type Out;
}
impl<Rev> AllFoundIn<Rev> for () {
    type Out = Pass;
}
impl<Rev, A: Finds<Rev>, Rest: AllFoundIn<Rev>> AllFoundIn<Rev> for (A, Rest) {
    type Out = <<A as Finds<Rev>>::Out as Cond>::If<Rest::Out, Fail<NoSuchAxis<A>>>;
}

/// The plain list (last first) with the axis `First` picks replaced by `New` and the axes
/// the selectors `Rest` pick removed.
#[doc(hidden)]
pub trait MergeWalk<First, Rest, New> {
    type Out;
}
impl<F, R, N> MergeWalk<F, R, N> for () {
    type Out = ();
}
impl<F, R, N, const I: usize, X, Xs> MergeWalk<F, R, N> for (At<I, X>, Xs)
where
    F: Picks<At<I, X>>,
    R: CountPicks<At<I, X>>,
    <R as CountPicks<At<I, X>>>::Out: Picked,
    Xs: MergeWalk<F, R, N>,
{
    type Out = <<F as Picks<At<I, X>>>::Out as Cond>::If<
        (N, Xs::Out),
        <<<R as CountPicks<At<I, X>>>::Out as Picked>::Out as Cond>::If<Xs::Out, (X, Xs::Out)>,
    >;
}

/// The first selector of a list, and the rest.
#[doc(hidden)]
pub trait Head {
    type First;
    type Rest;
}
impl<A, Rest> Head for (A, Rest) {
    type First = A;
    type Rest = Rest;
}

/// `Self` with the adjacent axes `L` picks (a tuple, in order) merged into the axis `N`: a
/// name with its size (`PATCH<S<64>>`, checked against the product at compile time when the
/// merged sizes are static), a bare name (`PATCH`: the product when the merged sizes are
/// static and at most `SIZE_TABLE_MAX`, else `?`), or an unnamed `S<64>` or [`Unnamed`] (the
/// same rule for the size).
///
/// ```
/// use shapecast::{names, shape, MergeAxesInto, Shape, S};
/// names!(PH, PW, PATCH);
/// type M = <shape![?, PH: 8, PW: 8] as MergeAxesInto<(PH, PW), PATCH<S<64>>>>::Output;
/// assert_eq!(M::to_dyn().to_string(), "[?, PATCH: 64]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot merge `{L}` of `{Self}` into `{N}`",
    label = "`{L}` of `{Self}` cannot become `{N}`"
)]
pub trait MergeAxesInto<L, N>: Shape {
    /// The merged shape.
    type Output: Shape;
    /// The position of the first merged axis.
    #[doc(hidden)]
    const AT: usize;
    /// How many axes are merged.
    #[doc(hidden)]
    const COUNT: usize;
}

type SelList<L> = <L as Selector>::List;
type PickedKnown<S, L> = <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Known;
type PickedBits<S, L> = <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Bits;
/// The merged axis: `N` as written when it has a size; a bare `N` (or [`Unnamed`]) takes the
/// product of the merged sizes when they are all static.
type MergedAxis<S, L, N> = <KnownOf<<N as Axis>::Size> as Cond>::If<
    N,
    <N as Axis>::Resize<<PickedKnown<S, L> as StaticOr<PickedBits<S, L>>>::Size>,
>;
type MergedRev<S, L, N> = <<S as Shape>::Rev as MergeWalk<
    <SelList<L> as Head>::First,
    <SelList<L> as Head>::Rest,
    MergedAxis<S, L, N>,
>>::Out;
type MergeFits<S, L, N> = Check<
    Fits<
        KnownOf<<N as Axis>::Size>,
        BitsOf<<N as Axis>::Size>,
        <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Known,
        <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Bits,
    >,
    WrongSize<N>,
>;
type MergeChecks<S, L, N> = AndThen<
    AndThen<
        AndThen<
            <SelList<L> as AllFoundIn<<S as Shape>::Rev>>::Out,
            <SelList<L> as AdjacentIn<<S as Shape>::Rev>>::Out,
        >,
        MergeFits<S, L, N>,
    >,
    <MergedRev<S, L, N> as Distinct>::Out,
>;

impl<S: Shape, L: Selector, N: Axis> MergeAxesInto<L, N> for S
where
    SelList<L>: Head + AllFoundIn<S::Rev> + AdjacentIn<S::Rev>,
    PickedKnown<S, L>: StaticOr<PickedBits<S, L>>,
    S::Rev: MergeWalk<<SelList<L> as Head>::First, <SelList<L> as Head>::Rest, MergedAxis<S, L, N>>
        + PickedProduct<SelList<L>>
        + PositionOf<<SelList<L> as Head>::First>,
    BitsOf<N::Size>: SameBits<<S::Rev as PickedProduct<SelList<L>>>::Bits>,
    MergedRev<S, L, N>: Distinct,
    <SelList<L> as AllFoundIn<S::Rev>>::Out: Then<<SelList<L> as AdjacentIn<S::Rev>>::Out>,
    AndThen<<SelList<L> as AllFoundIn<S::Rev>>::Out, <SelList<L> as AdjacentIn<S::Rev>>::Out>:
        Then<MergeFits<S, L, N>>,
    AndThen<
        AndThen<<SelList<L> as AllFoundIn<S::Rev>>::Out, <SelList<L> as AdjacentIn<S::Rev>>::Out>,
        MergeFits<S, L, N>,
    >: Then<<MergedRev<S, L, N> as Distinct>::Out>,
    MergeChecks<S, L, N>: Then<Done<MergedRev<S, L, N>>>,
    AndThen<MergeChecks<S, L, N>, Done<MergedRev<S, L, N>>>: Bare,
    Judged<MergeChecks<S, L, N>, MergedRev<S, L, N>>: ReshapeVerdict<S, L>,
{
    type Output = <Judged<MergeChecks<S, L, N>, MergedRev<S, L, N>> as ReshapeVerdict<S, L>>::Out;
    const AT: usize = <S::Rev as PositionOf<<SelList<L> as Head>::First>>::AT;
    const COUNT: usize = L::COUNT;
}

/// `S` with the adjacent axes `L` picks merged into the axis `N` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, MergeAxes, Unnamed, S};
/// names!(PH, PW, PATCH);
/// static_assertions::assert_type_eq_all!(MergeAxes<shape![?, PH: 8, PW: 8], (PH, PW), PATCH<S<64>>>, shape![?, PATCH: 64]);
/// // Without a size, the product of static sizes.
/// static_assertions::assert_type_eq_all!(MergeAxes<shape![?, PH: 8, PW: 8], (PH, PW), PATCH>, shape![?, PATCH: 64]);
/// static_assertions::assert_type_eq_all!(MergeAxes<shape![?, PH: 8, PW: 8], (PH, PW), Unnamed>, shape![?, 64]);
/// static_assertions::assert_type_eq_all!(MergeAxes<shape![?, PH, PW: 8], (PH, PW), PATCH>, shape![?, PATCH]);
/// ```
pub type MergeAxes<S, L, N> = <S as MergeAxesInto<L, N>>::Output;

// ---------------------------------------------------------------------------------------
// Concat and stack.

/// The size an axis selector asks of a concatenated axis: a name's own size (`T<S<8>>`), or
/// `?` for a bare name or a position (the output then takes the sum when it is static).
#[doc(hidden)]
pub trait Along {
    type Size: AxisSize;
}
impl<N: Axis> Along for N {
    type Size = N::Size;
}
impl<const K: usize> Along for Pos<K> {
    type Size = Dyn;
}

/// The axis of a tagged list that axis `I`, `X`, of another shape meets (rule book §18): the
/// namesake of a named `X`; for an unnamed `X`, the axis at position `I`, which must be
/// unnamed. `Found<size>` or [`Missing`].
#[doc(hidden)]
pub trait PartnerIn<const I: usize, X> {
    type Out;
}
/// The size of a partner.
#[doc(hidden)]
pub struct Partner<Z>(PhantomData<Z>);
impl<const I: usize, X> PartnerIn<I, X> for () {
    type Out = Missing;
}
type IsNamed<X> = <<X as Axis>::Name as NameKind>::IsNamed;

/// Whether axis `J`, `Y`, of the other shape is the partner of an axis `I` whose name kind is
/// `Self`: the namesake for a name; for no name, the unnamed axis at the same position. Only
/// the comparison the kind needs is computed.
#[doc(hidden)]
pub trait MeetsAt<const I: usize, const J: usize, Y> {
    type Out: Cond;
}
impl<N, const I: usize, const J: usize, Y: Axis> MeetsAt<I, J, Y> for Named<N>
where
    Named<N>: SameName<Y::Name>,
{
    type Out = <Named<N> as SameName<Y::Name>>::Out;
}
impl<const I: usize, const J: usize, Y: Axis> MeetsAt<I, J, Y> for Anon
where
    Const<I>: ToUInt,
    Const<J>: ToUInt,
    U<I>: IsEqual<U<J>>,
    <U<I> as IsEqual<U<J>>>::Output: Cond,
{
    type Out = And<<U<I> as IsEqual<U<J>>>::Output, Not<IsNamed<Y>>>;
}

/// Stops at the partner, or looks further (lazily: only the branch taken is computed).
#[doc(hidden)]
pub trait PartnerStep<const I: usize, X, Y, Ys> {
    type Out;
}
impl<const I: usize, X, Y: Axis, Ys> PartnerStep<I, X, Y, Ys> for B1 {
    type Out = Partner<Y::Size>;
}
impl<const I: usize, X, Y, Ys: PartnerIn<I, X>> PartnerStep<I, X, Y, Ys> for B0 {
    type Out = Ys::Out;
}

impl<const I: usize, X: Axis, const J: usize, Y: Axis, Ys> PartnerIn<I, X> for (At<J, Y>, Ys)
where
    X::Name: MeetsAt<I, J, Y>,
    <X::Name as MeetsAt<I, J, Y>>::Out: PartnerStep<I, X, Y, Ys>,
{
    type Out = <<X::Name as MeetsAt<I, J, Y>>::Out as PartnerStep<I, X, Y, Ys>>::Out;
}

/// One axis `X` of the first operand with its partner `P` in the second: the output axis or
/// the refusal. `Picked` is `B1` for the concatenated axis, whose size must be `Z`.
#[doc(hidden)]
pub trait ConcatStep<X, Picked, Z> {
    type Out;
}
/// One output axis.
#[doc(hidden)]
pub struct Axis1<X>(PhantomData<X>);
impl<X, Pk, Z> ConcatStep<X, Pk, Z> for Missing {
    type Out = Fail<NoMatch<X>>;
}
impl<X: Axis, Y: AxisSize, Z: AxisSize> ConcatStep<X, B1, Z> for Partner<Y>
where
    X::Size: SumOf<Y>,
    BitsOf<Z>: SameBits<<X::Size as SumOf<Y>>::Bits>,
    And<KnownOf<X::Size>, KnownOf<Y>>: StaticOr<<X::Size as SumOf<Y>>::Bits>,
{
    // A selector without a size (a bare name or a position) takes the sum when it is static.
    type Out = <<BitsOf<Z> as SameBits<<X::Size as SumOf<Y>>::Bits>>::Out as Cond>::If<
        Axis1<X::Resize<<KnownOf<Z> as Cond>::If<Z, SumSize<X::Size, Y>>>>,
        Fail<WrongSize<Z>>,
    >;
}
impl<X: Axis, Y: AxisSize, Z> ConcatStep<X, B0, Z> for Partner<Y>
where
    BitsOf<X::Size>: SameBits<BitsOf<Y>>,
{
    type Out = <<BitsOf<X::Size> as SameBits<BitsOf<Y>>>::Out as Cond>::If<
        Axis1<<KnownOf<X::Size> as Cond>::If<X, X::Resize<Y>>>,
        Fail<SizesDiffer<X, Y>>,
    >;
}

/// One step's outcome pushed onto the outcome of the axes before it (those are judged
/// first: the leftmost refusal is named).
#[doc(hidden)]
pub trait PushStep<Before> {
    type Out;
}
impl<X, R> PushStep<Done<R>> for Axis1<X> {
    type Out = Done<(X, R)>;
}
impl<E, R> PushStep<Done<R>> for Fail<E> {
    type Out = Fail<E>;
}
impl<S, E> PushStep<Fail<E>> for S {
    type Out = Fail<E>;
}

/// The concatenation's walk over the first operand's tagged list: `Done<axes>` or the
/// first refusal.
#[doc(hidden)]
pub trait ConcatWalk<A, Rev2> {
    type Out;
}
impl<A, Rev2> ConcatWalk<A, Rev2> for () {
    type Out = Done<()>;
}
type StepOf<A, Rev2, const I: usize, X> = <<Rev2 as PartnerIn<I, X>>::Out as ConcatStep<
    X,
    <A as Picks<At<I, X>>>::Out,
    <A as Along>::Size,
>>::Out;
impl<A, Rev2, const I: usize, X, Xs> ConcatWalk<A, Rev2> for (At<I, X>, Xs)
where
    A: Picks<At<I, X>> + Along,
    Rev2: PartnerIn<I, X>,
    <Rev2 as PartnerIn<I, X>>::Out: ConcatStep<X, <A as Picks<At<I, X>>>::Out, A::Size>,
    Xs: ConcatWalk<A, Rev2>,
    StepOf<A, Rev2, I, X>: PushStep<Xs::Out>,
{
    type Out = <StepOf<A, Rev2, I, X> as PushStep<Xs::Out>>::Out;
}

/// The outcome of a concatenation walk as checks and axes.
#[doc(hidden)]
pub trait Walked {
    type Checks;
    type Rev;
}
impl<R> Walked for Done<R> {
    type Checks = Pass;
    type Rev = R;
}
impl<E> Walked for Fail<E> {
    type Checks = Fail<E>;
    type Rev = ();
}

/// `Self` concatenated with `S2` along the axis `A` picks (rule book §18): every other axis
/// meets its namesake (or the unnamed axis at its position) with an equal size; the output
/// has `Self`'s order. The concatenated axis takes `A`'s size: `T<S<8>>` is checked against
/// the sum at compile time when both operands' sizes are static; a bare `T` or a `Pos<K>`
/// gives `?`.
///
/// ```
/// use shapecast::{names, shape, ConcatWith, Shape, S};
/// names!(T, F);
/// type C = <shape![T: 3, F: 8] as ConcatWith<T<S<8>>, shape![F: 8, T: 5]>>::Output;
/// assert_eq!(C::to_dyn().to_string(), "[T: 8, F: 8]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{Self}` with `{S2}` along `{A}`",
    label = "`{Self}` and `{S2}` do not concatenate along `{A}`"
)]
pub trait ConcatWith<A, S2>: Shape {
    /// The concatenated shape.
    type Output: Shape;
    /// The position of the concatenated axis in `Self`.
    #[doc(hidden)]
    const AT: usize;
}

/// The verdict of a concatenation, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{S1}` with `{S2}` along `{A}`",
    label = "`{S1}` and `{S2}` do not concatenate along `{A}`",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<X>`: `X` names no axis of the first shape; `NoMatch<X>`: the axis `X` finds no namesake (or no unnamed axis at its position) in the second; `SizesDiffer<X, Y>`: the sizes of `X` and its partner differ; `WrongSize<X>`: the sizes along the axis do not add up to `X`'s; `RanksDiffer`"
)]
#[doc(hidden)]
pub trait ConcatVerdict<S1, S2, A> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S1, S2, A, R: FromRev> ConcatVerdict<S1, S2, A> for Done<R> {
    type Out = R::Out;
}

type ConcatOutcome<S1, A, S2> = <<S1 as Shape>::Rev as ConcatWalk<A, <S2 as Shape>::Rev>>::Out;
type SameRank<S1, S2> = Check<
    And<
        <<S1 as Shape>::Rev as NotShorter<<S2 as Shape>::Rev>>::Out,
        <<S2 as Shape>::Rev as NotShorter<<S1 as Shape>::Rev>>::Out,
    >,
    RanksDiffer,
>;
type ConcatChecks<S1, A, S2> = AndThen<
    AndThen<FoundIn<A, <S1 as Shape>::Rev>, SameRank<S1, S2>>,
    <ConcatOutcome<S1, A, S2> as Walked>::Checks,
>;
type ConcatRev<S1, A, S2> = <ConcatOutcome<S1, A, S2> as Walked>::Rev;

impl<S1: Shape, A: OneAxis, S2: Shape> ConcatWith<A, S2> for S1
where
    S1::Rev: ConcatWalk<A, S2::Rev> + PositionOf<A> + NotShorter<S2::Rev>,
    S2::Rev: NotShorter<S1::Rev>,
    A: Finds<S1::Rev>,
    ConcatOutcome<S1, A, S2>: Walked,
    FoundIn<A, S1::Rev>: Then<SameRank<S1, S2>>,
    AndThen<FoundIn<A, S1::Rev>, SameRank<S1, S2>>:
        Then<<ConcatOutcome<S1, A, S2> as Walked>::Checks>,
    ConcatChecks<S1, A, S2>: Then<Done<ConcatRev<S1, A, S2>>>,
    AndThen<ConcatChecks<S1, A, S2>, Done<ConcatRev<S1, A, S2>>>: Bare,
    Judged<ConcatChecks<S1, A, S2>, ConcatRev<S1, A, S2>>: ConcatVerdict<S1, S2, A>,
{
    type Output =
        <Judged<ConcatChecks<S1, A, S2>, ConcatRev<S1, A, S2>> as ConcatVerdict<S1, S2, A>>::Out;
    const AT: usize = <S1::Rev as PositionOf<A>>::AT;
}

/// `S1` and `S2` concatenated along the axis `A` picks (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Concat, S};
/// names!(T, F);
/// static_assertions::assert_type_eq_all!(Concat<T<S<8>>, shape![T: 3, F: 8], shape![T: 5, F: 8]>, shape![T: 8, F: 8]);
/// // A bare name takes the sum of static sizes.
/// static_assertions::assert_type_eq_all!(Concat<T, shape![T: 3, F], shape![F: 8, T: 5]>, shape![T: 8, F: 8]);
/// static_assertions::assert_type_eq_all!(Concat<T, shape![T, F: 8], shape![F: 8, T: 5]>, shape![T, F: 8]);
/// ```
pub type Concat<A, S1, S2> = <S1 as ConcatWith<A, S2>>::Output;

/// `Self` under a new leading axis named `N` (or [`Unnamed`]) whose size, the count of
/// stacked tensors, is `?` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Shape, StackUnder};
/// names!(N, H);
/// assert_eq!(<shape![H: 2] as StackUnder<N>>::Output::to_dyn().to_string(), "[N, H: 2]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot stack `{Self}` under `{N}`",
    label = "`{N}` cannot lead `{Self}`"
)]
pub trait StackUnder<N>: Shape {
    /// The stacked shape.
    type Output: Shape;
}

/// The verdict of a stack, implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot stack `{S}` under `{N}`",
    label = "`{N}` cannot lead `{S}`",
    note = "at fault: `{Self}`",
    note = "`RepeatedName<X>`: the new name already names the axis `X`"
)]
#[doc(hidden)]
pub trait StackVerdict<S, N> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, N, R: FromRev> StackVerdict<S, N> for Done<R> {
    type Out = R::Out;
}

type StackedRev<S, N> =
    <<<S as Shape>::Rev as Untag>::Out as Append<(<N as Axis>::Resize<Dyn>, ())>>::Out;

impl<S: Shape, N: Axis> StackUnder<N> for S
where
    S::Rev: Untag,
    <S::Rev as Untag>::Out: Append<(N::Resize<Dyn>, ())>,
    StackedRev<S, N>: Distinct,
    <StackedRev<S, N> as Distinct>::Out: Then<Done<StackedRev<S, N>>>,
    AndThen<<StackedRev<S, N> as Distinct>::Out, Done<StackedRev<S, N>>>: Bare,
    Judged<<StackedRev<S, N> as Distinct>::Out, StackedRev<S, N>>: StackVerdict<S, N>,
{
    type Output =
        <Judged<<StackedRev<S, N> as Distinct>::Out, StackedRev<S, N>> as StackVerdict<S, N>>::Out;
}

/// `S` under a new leading axis `N` of size `?` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Stack};
/// names!(N, H, W);
/// static_assertions::assert_type_eq_all!(Stack<N, shape![H: 2, W]>, shape![N, H: 2, W]);
/// ```
pub type Stack<N, S> = <S as StackUnder<N>>::Output;
