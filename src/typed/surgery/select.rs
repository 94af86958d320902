//! Select (drop) and slice one axis (rule book §18).

use super::*;

/// `Self` without the axis `A` picks: the shape of `select` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, SelectAxis, Shape};
/// names!(CHANNEL);
/// assert_eq!(<shape![?, CHANNEL: 3, 4] as SelectAxis<CHANNEL>>::Output::RANK, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot select along `{A}` of `{Self}`",
    label = "`{A}` is not one axis of `{Self}`",
    note = "`{A}` must pick exactly one axis: a name the shape has, or `Pos<K>` below its rank"
)]
pub trait SelectAxis<A>: Shape {
    /// The shape without the axis.
    type Output: Shape;
    /// The position of the axis.
    #[doc(hidden)]
    const AT: usize;
}

/// `Self` has the axis `A` picks: a name (`CHANNEL`) or a position ([`Pos<K>`](crate::Pos)),
/// and [`AT`](HasAxis::AT) is where it stands. The bound of
/// [`Tensor::size`](crate::Tensor::size) and of a named index's
/// [`at`](crate::Index::at); a constraint to write in a generic function's `where` clause.
///
/// ```
/// use shapecast::{names, shape, HasAxis, Pos};
/// names!(BATCH, CHANNEL);
/// assert_eq!(<shape![BATCH, CHANNEL: 3, 4] as HasAxis<CHANNEL>>::AT, 1);
/// assert_eq!(<shape![BATCH, CHANNEL: 3, 4] as HasAxis<Pos<2>>>::AT, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no axis `{A}`",
    label = "no axis `{A}` in `{Self}`",
    note = "an axis is picked by its name, or by `Pos<K>` below the rank"
)]
pub trait HasAxis<A>: Shape {
    /// The axis' position.
    const AT: usize;
}

#[diagnostic::do_not_recommend]
impl<S: SelectAxis<A>, A> HasAxis<A> for S {
    const AT: usize = <S as SelectAxis<A>>::AT;
}

/// The rule behind [`SelectAxis`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `SelectAxis`.
#[doc(hidden)]
pub trait SelectAxisRule<A>: Shape {
    type Output: Shape;
    const AT: usize;
}
crate::typed::capability::capability!([A] SelectAxis<A> => SelectAxisRule<A> { type Output; const AT: usize; });

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
impl<S, A, R: FromRev> TakeVerdict<S, A> for Good<R> {
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
impl<S, A, Z, R: FromRev> SliceVerdict<S, A, Z> for Good<R> {
    type Out = R::Out;
}

pub(super) type Replaced<S, A, R> = <<S as Shape>::Rev as Replace<A, R>>::Out;
pub(super) type TakeChecks<S, A> = (FoundIn<A, <S as Shape>::Rev>, ());

impl<S: Shape, A: OneAxis> SelectAxisRule<A> for S
where
    S::Rev: Replace<A, Removed> + PositionOf<A>,
    A: Finds<S::Rev>,
    TakeChecks<S, A>: Judge<Replaced<S, A, Removed>>,
    Judged<TakeChecks<S, A>, Replaced<S, A, Removed>>: TakeVerdict<S, A>,
{
    type Output = <Judged<TakeChecks<S, A>, Replaced<S, A, Removed>> as TakeVerdict<S, A>>::Out;
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
    label = "`{A}` of `{Self}` cannot be sliced to `{Z}`",
    note = "`{A}` must pick one axis, and a window `S<N>` must fit that axis's static size"
)]
pub trait SliceAxis<A, Z>: Shape {
    /// The sliced shape.
    type Output: Shape;
    /// The position of the axis.
    #[doc(hidden)]
    const AT: usize;
}

/// The rule behind [`SliceAxis`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `SliceAxis`.
#[doc(hidden)]
pub trait SliceAxisRule<A, Z>: Shape {
    type Output: Shape;
    const AT: usize;
}
crate::typed::capability::capability!([A, Z] SliceAxis<A, Z> => SliceAxisRule<A, Z> { type Output; const AT: usize; });

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

pub(super) type Window<S, A, Z> = Check<
    <BitsOf<Z> as AtMostBits<BitsOf<<<S as Shape>::Rev as PickedSize<A>>::Out>>>::Out,
    WrongSize<Z>,
>;
pub(super) type SliceChecks<S, A, Z> = (FoundIn<A, <S as Shape>::Rev>, (Window<S, A, Z>, ()));

impl<S: Shape, A: OneAxis, Z: AxisSize> SliceAxisRule<A, Z> for S
where
    S::Rev: Replace<A, Resized<Z>> + PositionOf<A> + PickedSize<A>,
    <S::Rev as PickedSize<A>>::Out: AxisSize,
    A: Finds<S::Rev>,
    BitsOf<Z>: AtMostBits<BitsOf<<S::Rev as PickedSize<A>>::Out>>,
    SliceChecks<S, A, Z>: Judge<Replaced<S, A, Resized<Z>>>,
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
