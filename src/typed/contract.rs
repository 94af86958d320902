//! Contractions at the type level (rule book §17): the twin of
//! [`dynamic::contract`](mod@crate::dynamic::contract).
//!
//! [`Contract<A, B, X>`](crate::Contract): the contracted axes `X` come out of both operands
//! (through the reduction's walk, so a missing name is refused the same way), each contracted
//! pair must have the same size, and the remaining axes combine by the outer rule.
//! [`MatMul<A, B>`](crate::MatMul): NumPy's matmul by position, `[..., M, K]` with
//! `[..., K, N]`, the batch axes broadcast by the named rule.
//!
//! ```
//! use shapecast::{names, shape, Contract, MatMul};
//! names!(BATCH, HEADS, SEQ, KSEQ, DK);
//! type Q = shape![BATCH, HEADS, SEQ, DK: 16];
//! type K = shape![BATCH, HEADS, KSEQ, DK: 16];
//! static_assertions::assert_type_eq_all!(Contract<Q, K, DK>, shape![BATCH, HEADS, SEQ, KSEQ]);
//! static_assertions::assert_type_eq_all!(Contract<Q, K, (HEADS, DK)>, shape![BATCH, SEQ, KSEQ]);
//! static_assertions::assert_type_eq_all!(MatMul<shape![16, 2, 3], shape![3, 4]>, shape![16, 2, 4]);
//! ```

use super::axis::Axis;
use super::bits::Cond;
use super::list::{At, Found, FromRev, Missing, PlanOf, RepeatVerdict, Repeats, Untag};
use super::outcome::{Good, Passed, Refused, Then, Unwrap};
use super::pair::NamePick;
use super::reduce::{AllFound, Lists, Outcome, Selector, Walk};
use super::rule::Compute;
use super::selector::PickIn;
use super::shape::Shape;
use super::size::policy::{Broadcast, Exact};
use super::size::{IsClash, SizePair};
use super::verdict::Accepted;
use crate::dynamic::contract::StaticContraction;
use crate::dynamic::plan::StaticPlan;
use crate::typed::refusals::{LhsAxis, NamesDiffer, RankZero, RhsAxis, SizesDiffer};
use crate::typed::rule::{Named, Outer};

/// A contracted pair: [`Passed`] when the sizes may be equal (static and equal, or a `?`
/// checked at run time), else the refusal naming both axes. Sizes never stretch here.
#[doc(hidden)]
pub trait SamePairSize<FB> {
    type Out;
}
impl<const I: usize, X: Axis, const J: usize, Y: Axis> SamePairSize<Found<At<J, Y>>>
    for Found<At<I, X>>
where
    X::Size: SizePair<Y::Size, Exact>,
    <X::Size as SizePair<Y::Size, Exact>>::Out: IsClash,
{
    type Out = <<<X::Size as SizePair<Y::Size, Exact>>::Out as IsClash>::Out as Cond>::If<
        Refused<SizesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
        Passed,
    >;
}
impl<FB> SamePairSize<FB> for Missing {
    type Out = Passed;
}
impl<A> SamePairSize<Missing> for Found<A> {
    type Out = Passed;
}

/// Every contracted pair has one size: [`Passed`] or the first refusal.
#[doc(hidden)]
pub trait SizesAgree<RevA, RevB> {
    type Out;
}
impl<RA, RB> SizesAgree<RA, RB> for () {
    type Out = Passed;
}
impl<Sel, Rest, RA, RB> SizesAgree<RA, RB> for (Sel, Rest)
where
    Sel: PickIn<RA> + PickIn<RB>,
    <Sel as PickIn<RA>>::Out: SamePairSize<<Sel as PickIn<RB>>::Out>,
    Rest: SizesAgree<RA, RB>,
    <<Sel as PickIn<RA>>::Out as SamePairSize<<Sel as PickIn<RB>>::Out>>::Out:
        Then<<Rest as SizesAgree<RA, RB>>::Out>,
{
    type Out =
        <<<Sel as PickIn<RA>>::Out as SamePairSize<<Sel as PickIn<RB>>::Out>>::Out as Then<
            <Rest as SizesAgree<RA, RB>>::Out,
        >>::Out;
}

/// After the sizes: the outer rule on what remains of both operands (`RA`, `RB`, last
/// first), or the sizes' refusal.
#[doc(hidden)]
pub trait ThenOuter<RA, RB> {
    type Out;
}
impl<RA: FromRev, RB: FromRev> ThenOuter<RA, RB> for Passed
where
    Outer: Compute<RA::Out, RB::Out>,
{
    type Out = <Outer as Compute<RA::Out, RB::Out>>::Outcome;
}
impl<RA, RB, E> ThenOuter<RA, RB> for Refused<E> {
    type Out = E;
}

/// The outcome of a contraction from the two walks: the output list or the bare refusal.
#[doc(hidden)]
pub trait ContractOutcome<A, B, X> {
    type Out;
}
impl<A, B, X, E, OB> ContractOutcome<A, B, X> for (Refused<E>, OB) {
    type Out = E;
}
impl<A, B, X, RA, KA, ZA, E> ContractOutcome<A, B, X> for (Lists<RA, KA, ZA>, Refused<E>) {
    type Out = E;
}
impl<A: Shape, B: Shape, X: Selector, RA, KA, ZA, RB, KB, ZB> ContractOutcome<A, B, X>
    for (Lists<RA, KA, ZA>, Lists<RB, KB, ZB>)
where
    X::List: SizesAgree<A::Rev, B::Rev>,
    <X::List as SizesAgree<A::Rev, B::Rev>>::Out: ThenOuter<RA, RB>,
{
    type Out = <<X::List as SizesAgree<A::Rev, B::Rev>>::Out as ThenOuter<RA, RB>>::Out;
}

/// The outcome as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot contract `{A}` with `{B}` over `{X}`",
    label = "`{A}` and `{B}` do not contract over `{X}`",
    note = "at fault: `{Self}` (`NoSuchAxis<X>`: an operand lacks `X`; `SizesDiffer`: a contracted pair, or a pair of the other axes, differs in size; contracted sizes never stretch)"
)]
#[doc(hidden)]
pub trait ContractVerdict<A, B, X> {
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<A, B, X, Xs: FromRev> ContractVerdict<A, B, X> for Good<Xs> {
    type Output = Xs::Out;
}

type WalkOf<S, X> = <<S as Shape>::Rev as Walk<<X as Selector>::List>>::Out;
type FoundIn<S, X> = <<X as Selector>::List as AllFound<<S as Shape>::Rev>>::Out;
type SideOf<S, X> = <WalkOf<S, X> as Outcome<FoundIn<S, X>>>::Out;
type ContractOf<A, B, X> = <(SideOf<A, X>, SideOf<B, X>) as ContractOutcome<A, B, X>>::Out;

/// `Self` contracts with `B` over the names `X` (rule book §17): the bound to write in generic
/// code. `Output` is the outer rule (§3) applied to both operands without `X`.
///
/// ```
/// use shapecast::{names, shape, ContractWith, Shape};
/// names!(I, J, K);
/// fn rank<A: ContractWith<B, J>, B: Shape>() -> usize { <A::Output as Shape>::RANK }
/// assert_eq!(rank::<shape![I: 2, J: 3], shape![J: 3, K: 4]>(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot contract `{Self}` with `{B}` over `{X}`",
    label = "`{Self}` and `{B}` do not contract over `{X}`",
    note = "`{X}` must name axes both shapes have, with equal sizes; the other shared names are batch axes and broadcast by the named rule"
)]
pub trait ContractWith<B, X>: Shape {
    /// The shape of the contraction.
    type Output: Shape;
}

impl<A: Shape, B: Shape, X: Selector> ContractWith<B, X> for A
where
    A::Rev: Walk<X::List>,
    B::Rev: Walk<X::List>,
    X::List: AllFound<A::Rev> + AllFound<B::Rev>,
    WalkOf<A, X>: Outcome<FoundIn<A, X>>,
    WalkOf<B, X>: Outcome<FoundIn<B, X>>,
    (SideOf<A, X>, SideOf<B, X>): ContractOutcome<A, B, X>,
    ContractOf<A, B, X>: ContractVerdict<A, B, X>,
{
    type Output = <ContractOf<A, B, X> as ContractVerdict<A, B, X>>::Output;
}

/// Whether `Self` contracts with `B` over `X`, as a constant that does not stop the
/// compilation (the twin of [`Accepts`](crate::Accepts)).
///
/// ```
/// use shapecast::{names, shape, AcceptsContract};
/// names!(I, J, K);
/// assert!(<shape![I: 2, J: 3] as AcceptsContract<shape![J: 3], J>>::VALUE);
/// assert!(!<shape![I: 2, J: 3] as AcceptsContract<shape![J: 4], J>>::VALUE);
/// assert!(!<shape![I: 2, J: 3] as AcceptsContract<shape![K: 3], J>>::VALUE);
/// ```
pub trait AcceptsContract<B, X> {
    /// True when the contraction is accepted.
    const VALUE: bool;
}

// The bounds are `ContractWith`'s, written out again: gathered under one more trait, they nest
// a goal deeper, past what rust-analyzer follows for a rank-8 `dot` (the IDE probe's
// `rank_eight_by_name`).
impl<A: Shape, B: Shape, X: Selector> AcceptsContract<B, X> for A
where
    A::Rev: Walk<X::List>,
    B::Rev: Walk<X::List>,
    X::List: AllFound<A::Rev> + AllFound<B::Rev>,
    WalkOf<A, X>: Outcome<FoundIn<A, X>>,
    WalkOf<B, X>: Outcome<FoundIn<B, X>>,
    (SideOf<A, X>, SideOf<B, X>): ContractOutcome<A, B, X>,
    ContractOf<A, B, X>: Accepted,
{
    const VALUE: bool = <ContractOf<A, B, X> as Accepted>::VALUE;
}

/// The shape of `A` contracted with `B` over the names `X` (rule book §17).
///
/// ```
/// use shapecast::{names, shape, Contract};
/// names!(I, J, K);
/// static_assertions::assert_type_eq_all!(Contract<shape![I: 2, J: 3], shape![J: 3, K: 4], J>, shape![I: 2, K: 4]);
/// ```
pub type Contract<A, B, X> = <A as ContractWith<B, X>>::Output;

/// An optional axis of a matmul operand: its `M` or `N`, absent for a rank-1 operand.
#[doc(hidden)]
pub struct NoAxis;
/// A present `M` or `N` axis.
#[doc(hidden)]
pub struct Present<X>(core::marker::PhantomData<X>);

/// A matmul operand split: the batch axes (last first, tagged), `M` or `N`, and `K`.
#[doc(hidden)]
pub struct Parts<Batch, Outer, K>(core::marker::PhantomData<(Batch, Outer, K)>);

/// Which operand of a matmul [`MatParts`] splits.
#[doc(hidden)]
pub struct LeftOperand;
/// See [`LeftOperand`].
#[doc(hidden)]
pub struct RightOperand;

/// A matmul operand split, its axes last first: the left `[..., M, K]` or the right
/// `[..., K, N]` (a rank-1 `[K]` has no `M` or `N`).
#[doc(hidden)]
pub trait MatParts<Side> {
    type Out;
}
impl<Side> MatParts<Side> for () {
    type Out = Refused<RankZero>;
}
impl<Side, K> MatParts<Side> for (K, ()) {
    type Out = Parts<(), NoAxis, K>;
}
impl<K, M, Rest> MatParts<LeftOperand> for (K, (M, Rest)) {
    type Out = Parts<Rest, Present<M>, K>;
}
impl<N, K, Rest> MatParts<RightOperand> for (N, (K, Rest)) {
    type Out = Parts<Rest, Present<N>, K>;
}

/// The `K` pair of a matmul: a name conflict (both named, differently) before a size conflict
/// (sizes must be equal; a `?` is checked at run time).
#[doc(hidden)]
pub trait KPair<KB> {
    type Out;
}
impl<const I: usize, X: Axis, const J: usize, Y: Axis> KPair<At<J, Y>> for At<I, X>
where
    X::Size: SizePair<Y::Size, Exact>,
    <X::Size as SizePair<Y::Size, Exact>>::Out: IsClash,
    (Broadcast, X::Name, Y::Name): NamePick<X, Y, X::Size>,
{
    type Out = <<(Broadcast, X::Name, Y::Name) as NamePick<X, Y, X::Size>>::Conflict as Cond>::If<
        Refused<NamesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
        <<<X::Size as SizePair<Y::Size, Exact>>::Out as IsClash>::Out as Cond>::If<
            Refused<SizesDiffer<LhsAxis<I, X>, RhsAxis<J, Y>>>,
            Passed,
        >,
    >;
}

/// Prepends an optional axis to a reversed output list.
#[doc(hidden)]
pub trait PushOpt<Xs> {
    type Out;
}
impl<Xs> PushOpt<Xs> for NoAxis {
    type Out = Xs;
}
impl<const I: usize, X, Xs> PushOpt<Xs> for Present<At<I, X>> {
    type Out = (X, Xs);
}

/// The matmul output from the batch outcome: `N` last, then `M`, before the batch axes (the
/// list runs last first); a repeated name is refused.
#[doc(hidden)]
pub trait MatOutput<M, N> {
    type Out;
}
impl<M: PushOpt<Xs>, N: PushOpt<<M as PushOpt<Xs>>::Out>, Xs> MatOutput<M, N> for Good<Xs>
where
    <N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out: Repeats,
    <<N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out as Repeats>::Out:
        RepeatVerdict<<N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out>,
    <<<N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out as Repeats>::Out as RepeatVerdict<
        <N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out,
    >>::Out: Unwrap,
{
    type Out = <<<<N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out as Repeats>::Out as RepeatVerdict<
        <N as PushOpt<<M as PushOpt<Xs>>::Out>>::Out,
    >>::Out as Unwrap>::Out;
}
impl<M, N, E: NotOk> MatOutput<M, N> for E {
    type Out = E;
}

/// A refusal (anything but a success).
#[doc(hidden)]
pub trait NotOk {}
impl<L, R> NotOk for SizesDiffer<L, R> {}
impl<L, R> NotOk for NamesDiffer<L, R> {}
impl<X> NotOk for crate::typed::refusals::RepeatedName<X> {}

/// After the `K` pair: the batch by the named rule, then the output.
#[doc(hidden)]
pub trait ThenBatch<BA, BB, M, N> {
    type Out;
}
impl<BA: Untag, BB: Untag, M, N> ThenBatch<BA, BB, M, N> for Passed
where
    BA::Out: FromRev,
    BB::Out: FromRev,
    Named: Compute<<BA::Out as FromRev>::Out, <BB::Out as FromRev>::Out>,
    <Named as Compute<<BA::Out as FromRev>::Out, <BB::Out as FromRev>::Out>>::Outcome:
        MatOutput<M, N>,
{
    type Out = <<Named as Compute<<BA::Out as FromRev>::Out, <BB::Out as FromRev>::Out>>::Outcome as MatOutput<
        M,
        N,
    >>::Out;
}
impl<BA, BB, M, N, E> ThenBatch<BA, BB, M, N> for Refused<E> {
    type Out = E;
}

/// The outcome of a matmul from the two split operands.
#[doc(hidden)]
pub trait MatMulOutcome {
    type Out;
}
impl<E, PB> MatMulOutcome for (Refused<E>, PB) {
    type Out = E;
}
impl<BA, M, KA, E> MatMulOutcome for (Parts<BA, M, KA>, Refused<E>) {
    type Out = E;
}
impl<BA, M, KA: KPair<KB>, BB, N, KB> MatMulOutcome for (Parts<BA, M, KA>, Parts<BB, N, KB>)
where
    KA::Out: ThenBatch<BA, BB, M, N>,
{
    type Out = <KA::Out as ThenBatch<BA, BB, M, N>>::Out;
}

/// The outcome as a diagnostic: implemented only for a success.
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{A}` by `{B}` as matrices",
    label = "`{A}` and `{B}` do not multiply as `[..., M, K]` by `[..., K, N]`",
    note = "at fault: `{Self}` (`RankZero`: an operand is a scalar; the last pair named is `K`, else a batch pair: the batch axes broadcast by the named rule)"
)]
#[doc(hidden)]
pub trait MatMulVerdict<A, B> {
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<A, B, Xs: FromRev> MatMulVerdict<A, B> for Good<Xs> {
    type Output = Xs::Out;
}

/// Both operands of a matmul split.
type PartsOf<A, B> = (
    <<A as Shape>::Rev as MatParts<LeftOperand>>::Out,
    <<B as Shape>::Rev as MatParts<RightOperand>>::Out,
);
type MatOf<A, B> = <PartsOf<A, B> as MatMulOutcome>::Out;

/// `Self` multiplies `B` as NumPy's `matmul` (rule book §17): the bound to write in generic
/// code.
///
/// ```
/// use shapecast::{shape, MatMulWith, Shape};
/// fn rank<A: MatMulWith<B>, B: Shape>() -> usize { <A::Output as Shape>::RANK }
/// assert_eq!(rank::<shape![2, 3], shape![3]>(), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Self}` by `{B}` as matrices",
    label = "`{Self}` and `{B}` do not multiply",
    note = "`[..., M, K]` by `[..., K, N]`: the two K axes must agree in size (and name, if both are named), the batch axes broadcast by the named rule; neither may be a scalar"
)]
pub trait MatMulWith<B>: Shape {
    /// The shape of the product.
    type Output: Shape;
    /// The plan of the product, as a constant.
    #[doc(hidden)]
    const PLAN: StaticContraction;
}

/// The rule behind [`MatMulWith`], for every shape; the public trait forwards to it rank by rank
/// (see `typed::capability`), so a generic shape without the bound is told to add `MatMulWith`.
#[doc(hidden)]
pub trait MatMulWithRule<B>: Shape {
    type Output: Shape;
    const PLAN: StaticContraction;
}
crate::typed::capability::capability!([B] MatMulWith<B> => MatMulWithRule<B> { type Output; const PLAN: StaticContraction; });

/// The named rule's plan on the batch axes of both operands (indices into the operands, whose
/// prefixes they are), as a constant; empty for a refusal.
#[doc(hidden)]
pub trait BatchPlan {
    const PLAN: StaticPlan;
}
impl<BA: Untag, M, KA, BB: Untag, N, KB> BatchPlan for (Parts<BA, M, KA>, Parts<BB, N, KB>)
where
    BA::Out: FromRev,
    BB::Out: FromRev,
    Named: Compute<<BA::Out as FromRev>::Out, <BB::Out as FromRev>::Out>,
    <Named as Compute<<BA::Out as FromRev>::Out, <BB::Out as FromRev>::Out>>::Elems: PlanOf,
{
    const PLAN: StaticPlan = <<Named as Compute<
        <BA::Out as FromRev>::Out,
        <BB::Out as FromRev>::Out,
    >>::Elems as PlanOf>::PLAN;
}
impl<E, PB> BatchPlan for (Refused<E>, PB) {
    const PLAN: StaticPlan = StaticPlan::EMPTY;
}
impl<BA, M, KA, E> BatchPlan for (Parts<BA, M, KA>, Refused<E>) {
    const PLAN: StaticPlan = StaticPlan::EMPTY;
}

impl<A: Shape, B: Shape> MatMulWithRule<B> for A
where
    A::Rev: MatParts<LeftOperand>,
    B::Rev: MatParts<RightOperand>,
    PartsOf<A, B>: MatMulOutcome,
    MatOf<A, B>: MatMulVerdict<A, B>,
    PartsOf<A, B>: BatchPlan,
{
    type Output = <MatOf<A, B> as MatMulVerdict<A, B>>::Output;
    const PLAN: StaticContraction =
        StaticContraction::matmul(<PartsOf<A, B> as BatchPlan>::PLAN, A::RANK, B::RANK);
}

/// Whether `Self` multiplies `B` as matrices, as a constant that does not stop the
/// compilation.
///
/// ```
/// use shapecast::{shape, AcceptsMatMul};
/// assert!(<shape![2, 3] as AcceptsMatMul<shape![3, 4]>>::VALUE);
/// assert!(!<shape![2, 3] as AcceptsMatMul<shape![4, 4]>>::VALUE);
/// assert!(!<shape![] as AcceptsMatMul<shape![4]>>::VALUE);
/// ```
pub trait AcceptsMatMul<B> {
    /// True when the product is accepted.
    const VALUE: bool;
}

impl<A: Shape, B: Shape> AcceptsMatMul<B> for A
where
    A::Rev: MatParts<LeftOperand>,
    B::Rev: MatParts<RightOperand>,
    PartsOf<A, B>: MatMulOutcome,
    MatOf<A, B>: Accepted,
{
    const VALUE: bool = <MatOf<A, B> as Accepted>::VALUE;
}

/// The shape of NumPy's `matmul(A, B)` by position, batch axes broadcast by the named rule
/// (rule book §17); a rank-1 operand is promoted and its inserted axis removed again.
///
/// ```
/// use shapecast::{names, shape, MatMul};
/// names!(M, K, N);
/// static_assertions::assert_type_eq_all!(MatMul<shape![M: 2, K: 3], shape![K: 3, N: 4]>, shape![M: 2, N: 4]);
/// static_assertions::assert_type_eq_all!(MatMul<shape![3], shape![3, 4]>, shape![4]);
/// static_assertions::assert_type_eq_all!(MatMul<shape![2, 3], shape![3]>, shape![2]);
/// ```
pub type MatMul<A, B> = <A as MatMulWith<B>>::Output;
