//! Concatenate along an axis, and stack under a new one (rule book §18).

use super::*;

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
/// unnamed. `Found<size>` or [`NonePicked`].
#[doc(hidden)]
pub trait PartnerIn<const I: usize, X> {
    type Out;
}
/// The size of a partner.
#[doc(hidden)]
pub struct Partner<Z>(PhantomData<Z>);
pub(super) type IsNamed<X> = <<X as Axis>::Name as NameKind>::IsNamed;

impl<const I: usize, X: Axis, Rev2> PartnerIn<I, X> for Rev2
where
    X::Name: PartnerBy<I, Rev2>,
{
    type Out = <X::Name as PartnerBy<I, Rev2>>::Out;
}

/// The partner in `Rev2` of an axis at position `I` whose name kind is `Self`: the namesake
/// for a name, in one search step ([`Namesake`]); for no name, the axis at position `I`,
/// which must be unnamed.
#[doc(hidden)]
pub trait PartnerBy<const I: usize, Rev2> {
    type Out;
}
impl<N, const I: usize, Rev2> PartnerBy<I, Rev2> for Named<N>
where
    Named<N>: Namesake<Rev2>,
    <Named<N> as Namesake<Rev2>>::Out: PartnerOf<B0>,
{
    type Out = <<Named<N> as Namesake<Rev2>>::Out as PartnerOf<B0>>::Out;
}
impl<const I: usize, Rev2> PartnerBy<I, Rev2> for Anon
where
    Pos<I>: PickIn<Rev2>,
    <Pos<I> as PickIn<Rev2>>::Out: PartnerOf<B1>,
{
    type Out = <<Pos<I> as PickIn<Rev2>>::Out as PartnerOf<B1>>::Out;
}

/// A search's answer as a partner: `Partner<size>` or [`NonePicked`]; with `Unnamed` = `B1`
/// the axis found must be unnamed.
#[doc(hidden)]
pub trait PartnerOf<Unnamed> {
    type Out;
}
impl<U> PartnerOf<U> for Missing {
    type Out = NonePicked;
}
impl<const J: usize, Y: Axis> PartnerOf<B0> for Found<At<J, Y>> {
    type Out = Partner<Y::Size>;
}
impl<const J: usize, Y: Axis> PartnerOf<B1> for Found<At<J, Y>> {
    type Out = <IsNamed<Y> as Cond>::If<NonePicked, Partner<Y::Size>>;
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
impl<X, Pk, Z> ConcatStep<X, Pk, Z> for NonePicked {
    type Out = Refused<NoMatch<X>>;
}
impl<X: Axis, Y: AxisSize, Z: AxisSize> ConcatStep<X, B1, Z> for Partner<Y>
where
    <X::Size as AxisSize>::Hex: HexSum<Y::Hex>,
    KnownOf<Z>: SumStep<X, SumHex<X::Size, Y>, Z>,
{
    type Out = <KnownOf<Z> as SumStep<X, SumHex<X::Size, Y>, Z>>::Out;
}

/// The hex digits of the sum of two sizes (`()` when either is `?`).
type SumHex<A, B> = <<A as AxisSize>::Hex as HexSum<<B as AxisSize>::Hex>>::Out;

/// The concatenated axis of `X` and a partner whose sizes sum to the hex digits `Sum`, by
/// whether the selector has a size `Z` (`Self`). The sum is added digit by digit
/// (`typed::hex_sum`: a few trait steps at any size, where typenum's addition nests one per
/// bit, past rust-analyzer's 50 goals at a model's sizes).
#[doc(hidden)]
pub trait SumStep<X, Sum, Z> {
    type Out;
}
/// No size on the selector: the sum, static when it is in the size table, else `?`.
impl<X: Axis, Sum: SizeOfSum, Z> SumStep<X, Sum, Z> for B0 {
    type Out = Axis1<X::Resize<Sum::Size>>;
}
/// A selector with a size: the sum must be it (or is checked at run time when an operand's
/// size is `?`).
impl<X: Axis, Sum, Z: AxisSize> SumStep<X, Sum, Z> for B1
where
    Z::Hex: SumIs<Sum>,
{
    type Out =
        <<Z::Hex as SumIs<Sum>>::Out as Cond>::If<Axis1<X::Resize<Z>>, Refused<WrongSize<Z>>>;
}

/// The size whose hex digits are `Self`: `S<N>` from the size table when the sum is in it,
/// else `?` (also for an unknown sum, `()`).
#[doc(hidden)]
pub trait SizeOfSum {
    type Size: AxisSize;
}
impl SizeOfSum for () {
    type Size = Dyn;
}
impl<H: HexInTable + HexBits> SizeOfSum for H
where
    <H as HexInTable>::Out: InTable<<H as HexBits>::Out>,
{
    type Size = <<H as HexInTable>::Out as InTable<<H as HexBits>::Out>>::Size;
}

/// Whether a written size (its hex digits, `Self`) is the sum `Sum`: true for an unknown sum.
#[doc(hidden)]
pub trait SumIs<Sum> {
    type Out: Cond;
}
impl<Z> SumIs<()> for Z {
    type Out = B1;
}
impl<Z: SameHex<H>, H: HexInTable> SumIs<H> for Z {
    type Out = <Z as SameHex<H>>::Out;
}

impl<X: Axis, Y: AxisSize, Z> ConcatStep<X, B0, Z> for Partner<Y>
where
    X::Size: SameOrDyn<Y>,
{
    type Out = <<X::Size as SameOrDyn<Y>>::Out as Cond>::If<
        Axis1<<KnownOf<X::Size> as Cond>::If<X, X::Resize<Y>>>,
        Refused<SizesDiffer<X, Y>>,
    >;
}

/// An output axis of a concatenation joins the outcome of the axes before it (the elements
/// of a rule's list do the same, `P<_, _, axis>`).
impl<X, Rest: Collect> Collect for (Axis1<X>, Rest)
where
    Rest::Out: Prepend<X>,
{
    type Out = <Rest::Out as Prepend<X>>::Out;
}

/// The concatenation's walk over the first operand's tagged list: `Good<axes>` or the
/// leftmost refusal. Each axis finds its partner and is judged beside the others (a [`Map`]
/// of [`ConcatAxis`]), then the outcomes are gathered ([`Collect`]).
#[doc(hidden)]
pub trait ConcatWalk<A, Rev2> {
    type Out;
}
impl<A, Rev2, Rev1: Map<ConcatAxis<A, Rev2>>> ConcatWalk<A, Rev2> for Rev1
where
    Rev1::Out: Collect,
{
    type Out = <Rev1::Out as Collect>::Out;
}

/// One axis of the first operand against its partner in `Rev2`: `Axis1<output axis>` or the
/// refusal (the function [`ConcatWalk`] maps).
#[doc(hidden)]
pub struct ConcatAxis<A, Rev2>(PhantomData<(A, Rev2)>);
pub(super) type StepOf<A, Rev2, const I: usize, X> =
    <<Rev2 as PartnerIn<I, X>>::Out as ConcatStep<
        X,
        <A as Picks<At<I, X>>>::Out,
        <A as Along>::Size,
    >>::Out;
impl<A, Rev2, const I: usize, X> Apply<At<I, X>> for ConcatAxis<A, Rev2>
where
    A: Picks<At<I, X>> + Along,
    Rev2: PartnerIn<I, X>,
    <Rev2 as PartnerIn<I, X>>::Out: ConcatStep<X, <A as Picks<At<I, X>>>::Out, A::Size>,
{
    type Out = StepOf<A, Rev2, I, X>;
}

/// The outcome of a concatenation walk as checks and axes.
#[doc(hidden)]
pub trait Walked {
    type Checks;
    type Rev;
}
impl<R> Walked for Good<R> {
    type Checks = Passed;
    type Rev = R;
}
impl<E> Walked for Refused<E> {
    type Checks = Refused<E>;
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
    label = "`{Self}` and `{S2}` do not concatenate along `{A}`",
    note = "`{A}` must pick one axis in both; every other axis must pair by name (unnamed by position) with equal sizes"
)]
pub trait ConcatWith<A, S2>: Shape {
    /// The concatenated shape.
    type Output: Shape;
    /// The position of the concatenated axis in `Self`.
    #[doc(hidden)]
    const AT: usize;
}

/// The rule behind [`ConcatWith`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `ConcatWith`.
#[doc(hidden)]
pub trait ConcatWithRule<A, S2>: Shape {
    type Output: Shape;
    const AT: usize;
}
crate::typed::capability::capability!([A, S2] ConcatWith<A, S2> => ConcatWithRule<A, S2> { type Output; const AT: usize; });

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
impl<S1, S2, A, R: FromRev> ConcatVerdict<S1, S2, A> for Good<R> {
    type Out = R::Out;
}

pub(super) type ConcatOutcome<S1, A, S2> =
    <<S1 as Shape>::Rev as ConcatWalk<A, <S2 as Shape>::Rev>>::Out;
pub(super) type SameRank<S1, S2> = Check<
    And<
        <<S1 as Shape>::Rev as NotShorter<<S2 as Shape>::Rev>>::Out,
        <<S2 as Shape>::Rev as NotShorter<<S1 as Shape>::Rev>>::Out,
    >,
    RanksDiffer,
>;
pub(super) type ConcatChecks<S1, A, S2> = (
    FoundIn<A, <S1 as Shape>::Rev>,
    (
        SameRank<S1, S2>,
        (<ConcatOutcome<S1, A, S2> as Walked>::Checks, ()),
    ),
);
pub(super) type ConcatRev<S1, A, S2> = <ConcatOutcome<S1, A, S2> as Walked>::Rev;

impl<S1: Shape, A: OneAxis, S2: Shape> ConcatWithRule<A, S2> for S1
where
    S1::Rev: ConcatWalk<A, S2::Rev> + PositionOf<A> + NotShorter<S2::Rev>,
    S2::Rev: NotShorter<S1::Rev>,
    A: Finds<S1::Rev>,
    ConcatOutcome<S1, A, S2>: Walked,
    ConcatChecks<S1, A, S2>: Judge<ConcatRev<S1, A, S2>>,
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
    label = "`{N}` cannot lead `{Self}`",
    note = "the new axis's name must not name an axis of the shape"
)]
pub trait StackUnder<N>: Shape {
    /// The stacked shape.
    type Output: Shape;
}

/// The rule behind [`StackUnder`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `StackUnder`.
#[doc(hidden)]
pub trait StackUnderRule<N>: Shape {
    type Output: Shape;
}
crate::typed::capability::capability!([N] StackUnder<N> => StackUnderRule<N> { type Output; });

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
impl<S, N, R: FromRev> StackVerdict<S, N> for Good<R> {
    type Out = R::Out;
}

pub(super) type StackChecks<S, N> = (<StackedRev<S, N> as Distinct>::Out, ());
pub(super) type StackedRev<S, N> =
    <<<S as Shape>::Rev as Untag>::Out as Append<(<N as Axis>::Resize<Dyn>, ())>>::Out;

impl<S: Shape, N: Axis> StackUnderRule<N> for S
where
    S::Rev: Untag,
    <S::Rev as Untag>::Out: Append<(N::Resize<Dyn>, ())>,
    StackedRev<S, N>: Distinct,
    StackChecks<S, N>: Judge<StackedRev<S, N>>,
    Judged<StackChecks<S, N>, StackedRev<S, N>>: StackVerdict<S, N>,
{
    type Output = <Judged<StackChecks<S, N>, StackedRev<S, N>> as StackVerdict<S, N>>::Out;
}

/// `S` under a new leading axis `N` of size `?` (rule book §18).
///
/// ```
/// use shapecast::{names, shape, Stack};
/// names!(N, H, W);
/// static_assertions::assert_type_eq_all!(Stack<N, shape![H: 2, W]>, shape![N, H: 2, W]);
/// ```
pub type Stack<N, S> = <S as StackUnder<N>>::Output;

/// `S` with a new axis `N` of run-time size (the count of stacked views) at position `K`: the
/// shape of [`stack_at`](crate::stack_at), made of two shape functions, [`InsertAxis`] (the new
/// axis, size 1) then [`Slice`] along it (size `?`). Generic code bounds
/// `S: InsertAxisAt<K, N>` and `InsertAxis<S, K, N>: SliceAxis<Pos<K>, Dyn>`.
///
/// ```
/// use shapecast::{names, shape, StackAt};
/// names!(HALF, PAIR);
/// static_assertions::assert_type_eq_all!(StackAt<shape![HALF: 4], 1, PAIR>, shape![HALF: 4, PAIR]);
/// ```
pub type StackAt<S, const K: usize, N> =
    <InsertAxis<S, K, N> as SliceAxis<crate::typed::reduce::Pos<K>, Dyn>>::Output;

/// [`StackAt`] with the new axis of static size `M`: the shape of an array of `M` views
/// stacked (`StackArray::stack_at`), [`StackAt`]'s `?` then sliced to `S<M>`. Generic code
/// bounds `S: StacksAt<K, N, M>`.
///
/// ```
/// use shapecast::{names, shape, StackAtStatic};
/// names!(HALF, PAIR);
/// static_assertions::assert_type_eq_all!(StackAtStatic<shape![HALF: 4], 1, PAIR, 2>, shape![HALF: 4, PAIR: 2]);
/// ```
pub type StackAtStatic<S, const K: usize, N, const M: usize> = <S as StacksAt<K, N, M>>::Output;

/// `Self` stacks `M` times under a new axis `N` at position `K`, the new axis of static size
/// `M`: the one bound generic code writes for `StackArray::stack_at` (its three steps,
/// [`InsertAxisAt`], then [`SliceAxis`] to `?`, then to `S<M>`, in one trait); `Output` is
/// [`StackAtStatic`].
///
/// ```
/// use shapecast::{names, shape, Shape, StacksAt};
/// names!(HALF, PAIR);
/// assert_eq!(<shape![HALF: 4] as StacksAt<1, PAIR, 2>>::Output::to_dyn().to_string(), "[HALF: 4, PAIR: 2]");
/// ```
pub trait StacksAt<const K: usize, N, const M: usize>: InsertAxisAt<K, N> {
    /// The stacked shape.
    type Output: Shape;
}

impl<S, const K: usize, N, const M: usize> StacksAt<K, N, M> for S
where
    S: InsertAxisAt<K, N>,
    InsertAxis<S, K, N>: SliceAxis<crate::typed::reduce::Pos<K>, Dyn>,
    StackAt<S, K, N>: SliceAxis<crate::typed::reduce::Pos<K>, crate::typed::size::S<M>>,
{
    type Output = <StackAt<S, K, N> as SliceAxis<
        crate::typed::reduce::Pos<K>,
        crate::typed::size::S<M>,
    >>::Output;
}
