//! Gathering at the type level (rule book §21): the twin of
//! [`dynamic::gather`](crate::dynamic::gather). [`Take<S, A, I>`] replaces the axis `A` picks
//! by the index shape `I`'s axes (one walk, the surgery's `Replace`); [`Gather<S, A, I>`] is
//! the index shape `I` once its axes other than `A` are checked identical to the source's;
//! [`OneHot<S, N>`] appends the class axis `N`; each checks that every name stays distinct.
//!
//! ```
//! use shapecast::{names, shape, Gather, OneHot, Take, S};
//! names!(VOCAB, EMBED, B, T, CLASS);
//! static_assertions::assert_type_eq_all!(
//!     Take<shape![VOCAB: 50257, EMBED: 768], VOCAB, shape![B, T]>,
//!     shape![B, T, EMBED: 768]
//! );
//! static_assertions::assert_type_eq_all!(OneHot<shape![?, T], CLASS<S<3>>>, shape![?, T, CLASS: 3]);
//! static_assertions::assert_type_eq_all!(Gather<shape![B: 2, CLASS: 10], CLASS, shape![B: 2, CLASS: 1]>, shape![B: 2, CLASS: 1]);
//! ```

use super::list::{Collect, FromRev, NotShorter, SameLen, Untag};
use super::numpy::ZipOrRefuse;
use super::outcome::{Check, Good, Judge, Judged, Succeeded};
use super::reduce::{Finds, OneAxis};
use super::shape::Shape;
use super::size::policy::Exact;
use super::strict::Identical;
use super::surgery::{Distinct, Parts, Replace};
use crate::typed::refusals::{IndexLacks, NoSuchAxis, RanksDiffer};

/// The outcome of a gather as a diagnostic: implemented only for a success, so a refusal
/// names itself.
#[diagnostic::on_unimplemented(
    message = "cannot gather `{S}` along `{A}` by `{I}`",
    label = "`{S}` along `{A}` by `{I}` is refused",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<A>`: the source has no axis `A`; `RepeatedName<X>`: the result would name two axes `X` (rename one)"
)]
#[doc(hidden)]
pub trait GatherVerdict<S, A, I> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, I, R: FromRev> GatherVerdict<S, A, I> for Good<R> {
    type Out = R::Out;
}

type Taken<S, A, I> =
    <<S as Shape>::Rev as Replace<A, Parts<<<I as Shape>::Rev as Untag>::Out>>>::Out;
type TakeChecks<S, A, I> = (
    Check<<A as Finds<<S as Shape>::Rev>>::Out, NoSuchAxis<A>>,
    (<Taken<S, A, I> as Distinct>::Out, ()),
);

/// `Self` can be taken along the axis `A` by indices of shape `I` (rule book §21): the bound
/// to write in generic code. `Output` is `Self` with `A` replaced by `I`'s axes.
///
/// ```
/// use shapecast::{names, shape, Shape, TakeAlong};
/// names!(VOCAB, EMBED, T);
/// fn looked_up<E: TakeAlong<VOCAB, shape![T]>>() -> String { E::Output::to_dyn().to_string() }
/// assert_eq!(looked_up::<shape![VOCAB: 100, EMBED: 8]>(), "[T, EMBED: 8]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot take `{Self}` along `{A}` by `{I}`",
    label = "`{A}` must name an axis of `{Self}`, and `{I}`'s names must not repeat its others"
)]
pub trait TakeAlong<A, I>: Shape {
    /// The gathered shape.
    type Output: Shape;
}

/// The rule behind [`TakeAlong`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `TakeAlong`.
#[doc(hidden)]
pub trait TakeAlongRule<A, I>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([A, I] TakeAlong<A, I> => TakeAlongRule<A, I> { type Output; });

impl<S: Shape, A: OneAxis + Finds<S::Rev>, I: Shape> TakeAlongRule<A, I> for S
where
    I::Rev: Untag,
    S::Rev: Replace<A, Parts<<I::Rev as Untag>::Out>>,
    Taken<S, A, I>: Distinct,
    TakeChecks<S, A, I>: Judge<Taken<S, A, I>>,
    Judged<TakeChecks<S, A, I>, Taken<S, A, I>>: GatherVerdict<S, A, I>,
{
    type Output = <Judged<TakeChecks<S, A, I>, Taken<S, A, I>> as GatherVerdict<S, A, I>>::Out;
}

/// [`TakeAlong`] asked of the indices' shape (`Self`; `S` is the source's): a bound whose
/// `Self` is the argument's type waits until that type is known, so a refusal is reported
/// once, naming both shapes.
#[diagnostic::on_unimplemented(
    message = "cannot take `{S}` along `{A}` by `{Self}`",
    label = "in generic code, bound the source's shape: `{S}: TakeAlong<{A}, {Self}>`"
)]
#[doc(hidden)]
pub trait TakenFrom<S, A> {
    /// [`Take<S, A, Self>`].
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<I: Shape, S: TakeAlong<A, I>, A> TakenFrom<S, A> for I {
    type Output = Take<S, A, I>;
}

/// `S` taken along `A` by indices of shape `I` (rule book §21).
///
/// ```
/// use shapecast::{names, shape, Take};
/// names!(N, C, K);
/// static_assertions::assert_type_eq_all!(Take<shape![N: 4, C: 3], N, shape![K: 2]>, shape![K: 2, C: 3]);
/// ```
pub type Take<S, A, I> = <S as TakeAlong<A, I>>::Output;

type Appended<L, N> = (N, <<L as Shape>::Rev as Untag>::Out);

/// The outcome of a one-hot encoding as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot one-hot encode `{L}` into `{N}`",
    label = "`{N}` already names an axis of `{L}`",
    note = "at fault: `{Self}`"
)]
#[doc(hidden)]
pub trait OneHotVerdict<L, N> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<L, N, R: FromRev> OneHotVerdict<L, N> for Good<R> {
    type Out = R::Out;
}

/// `Self` (the labels' shape) can take the class axis `N` last (rule book §21): the bound to
/// write in generic code. `Output` is `Self` then `N`.
///
/// ```
/// use shapecast::{names, shape, OneHotInto, Shape, S};
/// names!(CLASS);
/// fn encoded<L: OneHotInto<CLASS<S<10>>>>() -> String { L::Output::to_dyn().to_string() }
/// assert_eq!(encoded::<shape![?]>(), "[?, CLASS: 10]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot one-hot encode `{Self}` into `{N}`",
    label = "`{N}` must not name an axis of `{Self}`"
)]
pub trait OneHotInto<N>: Shape {
    /// The encoded shape.
    type Output: Shape;
}

/// The rule behind [`OneHotInto`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `OneHotInto`.
#[doc(hidden)]
pub trait OneHotIntoRule<N>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([N] OneHotInto<N> => OneHotIntoRule<N> { type Output; });

type OneHotChecks<L, N> = (<Appended<L, N> as Distinct>::Out, ());

impl<L: Shape, N> OneHotIntoRule<N> for L
where
    L::Rev: Untag,
    Appended<L, N>: Distinct,
    OneHotChecks<L, N>: Judge<Appended<L, N>>,
    Judged<OneHotChecks<L, N>, Appended<L, N>>: OneHotVerdict<L, N>,
{
    type Output = <Judged<OneHotChecks<L, N>, Appended<L, N>> as OneHotVerdict<L, N>>::Out;
}

/// `L` with the class axis `N` appended (rule book §21): the shape of `one_hot`.
///
/// ```
/// use shapecast::{names, shape, OneHot, S};
/// names!(N, CLASS);
/// static_assertions::assert_type_eq_all!(OneHot<shape![N: 2], CLASS<S<5>>>, shape![N: 2, CLASS: 5]);
/// ```
pub type OneHot<L, N> = <L as OneHotInto<N>>::Output;

/// `S` without the axis `A` picks, as a shape: what a gather's source and indices share.
type Without<S, A> = <<<S as Shape>::Rev as Replace<A, Parts<()>>>::Out as FromRev>::Out;
/// Whether the axes of `I` and `S` other than `A` are identical (the strict rule): `Good` or
/// the refusal of the first pair that differs.
type OthersAgree<S, A, I> = <Identical<RestOf<I, A>, RestOf<S, A>> as Collect>::Out;
type RestOf<S, A> = <Without<S, A> as Shape>::Rev;
type GatherChecks<S, A, I> = (
    Check<<A as Finds<<S as Shape>::Rev>>::Out, NoSuchAxis<A>>,
    (
        Check<<A as Finds<<I as Shape>::Rev>>::Out, IndexLacks<A>>,
        (<OthersAgree<S, A, I> as Succeeded>::Out, ()),
    ),
);
type IndexList<I> = <<I as Shape>::Rev as Untag>::Out;

/// The outcome of `gather` as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot gather `{S}` along `{A}` by `{I}`",
    label = "`{S}` along `{A}` by `{I}` is refused",
    note = "at fault: `{Self}`",
    note = "`NoSuchAxis<A>`: the source has no axis `A`; `IndexLacks<A>`: the indices have no axis `A`; `NamesDiffer`, `SizesDiffer`, `RanksDiffer` (`LhsAxis` the indices', `RhsAxis` the source's): besides `A`, the indices' axes must be the source's"
)]
#[doc(hidden)]
pub trait GatherAlongVerdict<S, A, I> {
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S, A, I, R: FromRev> GatherAlongVerdict<S, A, I> for Good<R> {
    type Out = R::Out;
}

/// `Self` can be gathered along the axis `A` by indices of shape `I` (rule book §21, PyTorch's
/// `gather`): `I` has the axis `A` (any size) and otherwise the source's axes, in its order
/// with its names and sizes. The bound to write in generic code; `Output` is `I`.
///
/// ```
/// use shapecast::{names, shape, GatherAlong, Shape};
/// names!(B, CLASS);
/// fn picked<X: GatherAlong<CLASS, shape![B, CLASS: 1]>>() -> String { X::Output::to_dyn().to_string() }
/// assert_eq!(picked::<shape![B, CLASS: 10]>(), "[B, CLASS: 1]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot gather `{Self}` along `{A}` by `{I}`",
    label = "`{I}` must have `{A}`, and otherwise the axes of `{Self}`"
)]
pub trait GatherAlong<A, I>: Shape {
    /// The gathered shape: the indices' shape.
    type Output: Shape;
}

/// The rule behind [`GatherAlong`], for every shape; the public trait forwards to it rank by
/// rank (see `typed::capability`).
#[doc(hidden)]
pub trait GatherAlongRule<A, I>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([A, I] GatherAlong<A, I> => GatherAlongRule<A, I> { type Output; });

impl<S: Shape, A: OneAxis + Finds<S::Rev> + Finds<I::Rev>, I: Shape> GatherAlongRule<A, I> for S
where
    I::Rev: Untag + Replace<A, Parts<()>>,
    S::Rev: Replace<A, Parts<()>>,
    <I::Rev as Replace<A, Parts<()>>>::Out: FromRev,
    <S::Rev as Replace<A, Parts<()>>>::Out: FromRev,
    RestOf<I, A>: NotShorter<RestOf<S, A>>,
    RestOf<S, A>: NotShorter<RestOf<I, A>>,
    SameLen<RestOf<I, A>, RestOf<S, A>>:
        ZipOrRefuse<RestOf<I, A>, RestOf<S, A>, Exact, RanksDiffer>,
    Identical<RestOf<I, A>, RestOf<S, A>>: Collect,
    OthersAgree<S, A, I>: Succeeded,
    GatherChecks<S, A, I>: Judge<IndexList<I>>,
    Judged<GatherChecks<S, A, I>, IndexList<I>>: GatherAlongVerdict<S, A, I>,
{
    type Output = <Judged<GatherChecks<S, A, I>, IndexList<I>> as GatherAlongVerdict<S, A, I>>::Out;
}

/// [`GatherAlong`] asked of the indices' shape (`Self`; `S` is the source's), so a refusal is
/// reported once the argument's type is known, naming both shapes.
#[diagnostic::on_unimplemented(
    message = "cannot gather `{S}` along `{A}` by `{Self}`",
    label = "in generic code, bound the source's shape: `{S}: GatherAlong<{A}, {Self}>`"
)]
#[doc(hidden)]
pub trait GatheredFrom<S, A> {
    /// [`Gather<S, A, Self>`].
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<I: Shape, S: GatherAlong<A, I>, A> GatheredFrom<S, A> for I {
    type Output = Gather<S, A, I>;
}

/// `S` gathered along `A` by indices of shape `I` (rule book §21): `I` itself, once its other
/// axes are checked to be `S`'s.
///
/// ```
/// use shapecast::{names, shape, Gather};
/// names!(N, C);
/// static_assertions::assert_type_eq_all!(Gather<shape![N: 4, C: 3], C, shape![N: 4, C: 5]>, shape![N: 4, C: 5]);
/// ```
pub type Gather<S, A, I> = <S as GatherAlong<A, I>>::Output;
