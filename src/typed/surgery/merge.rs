//! Merge adjacent axes into one (rule book §18).

use super::*;

/// Position of the axis a selector picks, as typenum bits (`NonePicked` when none does).
#[doc(hidden)]
pub trait PosBits<Sel> {
    type Out;
}
/// No axis picked.
#[doc(hidden)]
pub struct NonePicked;
impl<Sel: PickIn<Rev>, Rev> PosBits<Sel> for Rev
where
    Sel::Out: PositionBits,
{
    type Out = <Sel::Out as PositionBits>::Out;
}

/// The position a search's answer holds, as typenum bits (`NonePicked` for `Missing`).
#[doc(hidden)]
pub trait PositionBits {
    type Out;
}
impl<const I: usize, X> PositionBits for Found<At<I, X>>
where
    Const<I>: ToUInt,
{
    type Out = U<I>;
}
impl PositionBits for Missing {
    type Out = NonePicked;
}

/// Whether position `Self` is the one right after `P` (true when either is missing: the
/// found-check refuses that first).
#[doc(hidden)]
pub trait Follows<P> {
    type Out: Cond;
}
impl<P> Follows<P> for NonePicked {
    type Out = B1;
}
impl Follows<NonePicked> for UTerm {
    type Out = B1;
}
impl<V, B> Follows<NonePicked> for UInt<V, B> {
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
    type Out = Passed;
}
impl<Rev, A, B, Rest> AdjacentIn<Rev> for (A, (B, Rest))
where
    Rev: PosBits<A> + PosBits<B>,
    <Rev as PosBits<B>>::Out: Follows<<Rev as PosBits<A>>::Out>,
    (B, Rest): AdjacentIn<Rev>,
{
    type Out = <<<Rev as PosBits<B>>::Out as Follows<<Rev as PosBits<A>>::Out>>::Out as Cond>::If<
        <(B, Rest) as AdjacentIn<Rev>>::Out,
        Refused<NotAdjacent<A, B>>,
    >;
}

/// Every selector of a list finds its axis: the first that does not is refused.
#[doc(hidden)]
pub trait AllFoundIn<Rev> {
    type Out;
}
impl<Rev> AllFoundIn<Rev> for () {
    type Out = Passed;
}
impl<Rev, A: Finds<Rev>, Rest: AllFoundIn<Rev>> AllFoundIn<Rev> for (A, Rest) {
    type Out = <<A as Finds<Rev>>::Out as Cond>::If<Rest::Out, Refused<NoSuchAxis<A>>>;
}

/// The plain list (last first) with the axis `First` picks replaced by `New` and the axes
/// the selectors `Rest` pick removed.
#[doc(hidden)]
pub trait MergeWalk<First, Rest, New> {
    type Out;
}
impl<F, R, N, Rev: FilterMap<MergeStep<F, R, N>>> MergeWalk<F, R, N> for Rev {
    type Out = Rev::Out;
}

/// One axis of a merge: the new axis `N` where `F` picks, dropped where a selector of `R`
/// does, else kept (the function [`MergeWalk`] filters with).
#[doc(hidden)]
pub struct MergeStep<F, R, N>(PhantomData<(F, R, N)>);
type ByFirst<F, A> = <F as Picks<A>>::Out;
type ByRest<R, A> = <<R as CountPicks<A>>::Out as Picked>::Out;
impl<F, R, N, const I: usize, X> Apply<At<I, X>> for MergeStep<F, R, N>
where
    F: Picks<At<I, X>>,
    R: CountPicks<At<I, X>>,
    <R as CountPicks<At<I, X>>>::Out: Picked,
{
    type Out = Keep<
        Or<ByFirst<F, At<I, X>>, Not<ByRest<R, At<I, X>>>>,
        <ByFirst<F, At<I, X>> as Cond>::If<N, X>,
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
    label = "`{L}` of `{Self}` cannot become `{N}`",
    note = "the axes must be adjacent and in the shape's order, each picked once; a static size on the new axis must equal their product, and its name must be new"
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

/// The rule behind [`MergeAxesInto`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `MergeAxesInto`.
#[doc(hidden)]
pub trait MergeAxesIntoRule<L, N>: Shape {
    type Output: Shape;
    const AT: usize;
    const COUNT: usize;
}
crate::typed::capability::capability!([L, N] MergeAxesInto<L, N> => MergeAxesIntoRule<L, N> { type Output; const AT: usize; const COUNT: usize; });

pub(super) type SelList<L> = <L as Selector>::List;
pub(super) type PickedKnown<S, L> = <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Known;
pub(super) type PickedBits<S, L> = <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Bits;
/// The merged axis: `N` as written when it has a size; a bare `N` (or [`Unnamed`]) takes the
/// product of the merged sizes when they are all static.
pub(super) type MergedAxis<S, L, N> = <KnownOf<<N as Axis>::Size> as Cond>::If<
    N,
    <N as Axis>::Resize<<PickedKnown<S, L> as StaticOr<PickedBits<S, L>>>::Size>,
>;
pub(super) type MergedRev<S, L, N> = <<S as Shape>::Rev as MergeWalk<
    <SelList<L> as Head>::First,
    <SelList<L> as Head>::Rest,
    MergedAxis<S, L, N>,
>>::Out;
pub(super) type MergeFits<S, L, N> = Check<
    Fits<
        KnownOf<<N as Axis>::Size>,
        BitsOf<<N as Axis>::Size>,
        <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Known,
        <<S as Shape>::Rev as PickedProduct<SelList<L>>>::Bits,
    >,
    WrongSize<N>,
>;
pub(super) type MergeChecks<S, L, N> = (
    <SelList<L> as AllFoundIn<<S as Shape>::Rev>>::Out,
    (
        <SelList<L> as AdjacentIn<<S as Shape>::Rev>>::Out,
        (
            MergeFits<S, L, N>,
            (<MergedRev<S, L, N> as Distinct>::Out, ()),
        ),
    ),
);

impl<S: Shape, L: Selector, N: Axis> MergeAxesIntoRule<L, N> for S
where
    SelList<L>: Head + AllFoundIn<S::Rev> + AdjacentIn<S::Rev>,
    PickedKnown<S, L>: StaticOr<PickedBits<S, L>>,
    S::Rev: MergeWalk<<SelList<L> as Head>::First, <SelList<L> as Head>::Rest, MergedAxis<S, L, N>>
        + PickedProduct<SelList<L>>
        + PositionOf<<SelList<L> as Head>::First>,
    BitsOf<N::Size>: SameSizeBits<<S::Rev as PickedProduct<SelList<L>>>::Bits>,
    MergedRev<S, L, N>: Distinct,
    MergeChecks<S, L, N>: Judge<MergedRev<S, L, N>>,
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
