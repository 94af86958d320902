//! Broadcasting at the type level: [`BroadcastWith`] (the named rule), the general
//! [`BroadcastsUnder`] with a rule marker from [`rule`](crate::rule), and the aliases
//! [`Broadcast`] and [`BroadcastBy`]. The plan and the run-time checks come from the types.
//!
//! ```
//! use shapecast::{names, shape, Broadcast, BroadcastWith, DynShape};
//! names!(CHANNEL, H, W);
//! type Img = shape![?, CHANNEL: 3, H, W];
//! type Lbl = shape![?, H, W];
//! static_assertions::assert_type_eq_all!(Broadcast<Img, Lbl>, Img);
//! assert_eq!(<Img as BroadcastWith<Lbl>>::plan().to_string(), "0,1,2,3 ; 0,-,1,2");
//! assert_eq!(<Img as BroadcastWith<Lbl>>::checks().len(), 3);
//! ```

use crate::prelude::*;

use super::bits::{And, Or};
use super::list::{Collect, DistinctIf, PlanOf, StaticPlan, Unwrap};
use super::named::NamedOrNumpy;
use super::numpy::ZipRight;
use super::shape::Shape;
use super::size::policy::Bcast;
use super::verdict::{Accepted, Verdict};
use crate::dynamic::plan::{pair_size, Check, Plan};
use crate::dynamic::rule::Rule;
use crate::dynamic::shape::Size;

/// The rule markers of the type level, the twins of [`Rule`](crate::Rule).
pub mod rule {
    /// SPEC §1: right-align, prepend 1s, pair position by position.
    ///
    /// ```
    /// use shapecast::{rule::Numpy, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Numpy, shape![3], shape![2, 1]>, shape![2, 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Numpy;

    /// SPEC §2: pair namesakes, then the rest as NumPy, in the larger operand's frame.
    ///
    /// ```
    /// use shapecast::{names, rule::Named, shape, BroadcastBy};
    /// names!(W);
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Named, shape![3, 4], shape![W: 4]>, shape![3, W: 4]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Named;

    /// SPEC §4: the shorter shape matched to the rightmost order-preserving subsequence.
    ///
    /// ```
    /// use shapecast::{rule::Embed, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Embed, shape![2, 3, 4], shape![2, 4]>, shape![2, 3, 4]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Embed;

    /// SPEC §3: every axis of both sides; names pair by name, unnamed axes by NumPy.
    ///
    /// ```
    /// use shapecast::{names, rule::Outer, shape, BroadcastBy};
    /// names!(H, W);
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Outer, shape![H: 2], shape![W: 3]>, shape![H: 2, W: 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Outer;

    /// SPEC §5: identical shapes only (OpenVINO `NONE`).
    ///
    /// ```
    /// use shapecast::{rule::Strict, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Strict, shape![2, 3], shape![2, 3]>, shape![2, 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Strict;

    /// SPEC §6: one operand is a scalar, or both shapes are identical (comparisons, logic).
    ///
    /// ```
    /// use shapecast::{rule::Compare, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Compare, shape![], shape![3, 3]>, shape![3, 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Compare;

    /// SPEC §7 (Theano): paired as the named rule, but only statically-1 axes stretch; a `?`
    /// must equal its partner at run time.
    ///
    /// ```
    /// use shapecast::{rule::Static, shape, BroadcastBy, BroadcastsUnder};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Static, shape![1, ?], shape![?, ?]>, shape![?, ?]);
    /// let checks = <shape![1, ?] as BroadcastsUnder<Static, shape![?, ?]>>::checks();
    /// assert_eq!(checks[0].condition, shapecast::Condition::Equal);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Static;

    /// SPEC §9 (OpenVINO BIDIRECTIONAL, ONNX Expand): the input broadcast with the target.
    ///
    /// ```
    /// use shapecast::{rule::Bidirectional, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Bidirectional, shape![3, 1], shape![2, 1, 6]>, shape![2, 3, 6]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Bidirectional;

    /// SPEC §10: the right operand into the left (the destination), whose shape never changes.
    ///
    /// ```
    /// use shapecast::{rule::Assign, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Assign, shape![3, 3], shape![3]>, shape![3, 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Assign;

    /// SPEC §8: the right operand onto the left from axis `A`: [`AutoAxis`] (the default,
    /// axis -1), a typenum unsigned (`typenum::U1`) or [`Start<K>`].
    ///
    /// ```
    /// use shapecast::{rule::{Pdpd, Start}, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<Start<0>>, shape![2, 3, 4, 5], shape![1, 3]>, shape![2, 3, 4, 5]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Pdpd<A = AutoAxis>(core::marker::PhantomData<A>);

    /// The PDPD rule's default start axis (-1): the right operand aligned to the end.
    ///
    /// ```
    /// use shapecast::{rule::{AutoAxis, Pdpd}, shape, BroadcastBy};
    /// static_assertions::assert_type_eq_all!(BroadcastBy<Pdpd<AutoAxis>, shape![2, 3], shape![3]>, shape![2, 3]);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct AutoAxis;

    /// A PDPD start axis written as a number: `Pdpd<Start<1>>` (prints as written in errors).
    ///
    /// ```
    /// use shapecast::{rule::{Pdpd, Start}, shape, Accepts};
    /// assert!(<shape![2, 3, 4, 5] as Accepts<Pdpd<Start<1>>, shape![3, 4]>>::VALUE);
    /// ```
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Start<const K: usize>;
}

use rule::{Assign, Bidirectional, Compare, Named, Numpy, Static, Strict};

/// The run-time twin of a rule marker.
///
/// ```
/// use shapecast::{rule, RuleMarker, Rule};
/// assert_eq!(<rule::Static as RuleMarker>::RULE, Rule::Static);
/// ```
pub trait RuleMarker {
    /// The run-time rule.
    const RULE: Rule;
}
impl RuleMarker for Numpy {
    const RULE: Rule = Rule::Numpy;
}
impl RuleMarker for Named {
    const RULE: Rule = Rule::Named;
}
impl RuleMarker for Strict {
    const RULE: Rule = Rule::Strict;
}
impl RuleMarker for Compare {
    const RULE: Rule = Rule::Compare;
}
impl RuleMarker for Static {
    const RULE: Rule = Rule::Static;
}
impl RuleMarker for Bidirectional {
    const RULE: Rule = Rule::Bidirectional;
}
impl RuleMarker for rule::Embed {
    const RULE: Rule = Rule::Embed;
}
impl RuleMarker for rule::Outer {
    const RULE: Rule = Rule::Outer;
}
impl RuleMarker for Assign {
    const RULE: Rule = Rule::Assign;
}
impl<K: super::pdpd::PdpdAxis> RuleMarker for rule::Pdpd<K> {
    const RULE: Rule = Rule::Pdpd { axis: K::AXIS };
}

/// How a rule pairs two shapes: the output elements (last first), and the outcome: the
/// output axes or the error.
#[doc(hidden)]
pub trait Compute<A: ?Sized, B> {
    type Elems;
    type Outcome;
}

type Collected<E> = <E as Collect>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Numpy
where
    A::Rev: ZipRight<B::Rev, Bcast>,
    <A::Rev as ZipRight<B::Rev, Bcast>>::Out: Collect,
    And<A::HasNames, B::HasNames>: DistinctIf<Collected<<A::Rev as ZipRight<B::Rev, Bcast>>::Out>>,
    <And<A::HasNames, B::HasNames> as DistinctIf<
        Collected<<A::Rev as ZipRight<B::Rev, Bcast>>::Out>,
    >>::Out: Unwrap,
{
    type Elems = <A::Rev as ZipRight<B::Rev, Bcast>>::Out;
    /// Positional pairing can name two output axes alike; only possible when both have names.
    type Outcome =
        <<And<A::HasNames, B::HasNames> as DistinctIf<Collected<Self::Elems>>>::Out as Unwrap>::Out;
}

impl<A: Shape, B: Shape> Compute<A, B> for Named
where
    Or<A::HasNames, B::HasNames>: NamedOrNumpy<A::Rev, B::Rev, Bcast>,
    <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Bcast>>::Out: Collect,
    Collected<<Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Bcast>>::Out>: Unwrap,
{
    type Elems = <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, Bcast>>::Out;
    type Outcome = <Collected<Self::Elems> as Unwrap>::Out;
}

type Outcome<R, A, B> = <R as Compute<A, B>>::Outcome;

/// The outcome of a list of output elements: the output axes or the first error.
pub(crate) type Finish<E> = <<E as Collect>::Out as Unwrap>::Out;

/// `Self` broadcasts with `Rhs` under the rule `R`: the output shape as a type, and the plan
/// and run-time checks read off the types.
///
/// ```
/// use shapecast::{rule::Numpy, shape, BroadcastsUnder};
/// type Out = <shape![2, 1, 5] as BroadcastsUnder<Numpy, shape![4, 1]>>::Output;
/// static_assertions::assert_type_eq_all!(Out, shape![2, 4, 5]);
/// assert_eq!(<shape![2, 1, 5] as BroadcastsUnder<Numpy, shape![4, 1]>>::plan().to_string(), "0,1,2 ; -,0,1");
/// ```
pub trait BroadcastsUnder<R, Rhs: Shape>: Shape {
    /// The output shape.
    type Output: Shape;

    /// The plan as a constant, for kernels specialised on static shapes.
    #[doc(hidden)]
    const STATIC_PLAN: StaticPlan;

    /// For every output axis, the axis of each operand that feeds it. (Read off the types
    /// only when asked for, so that a broadcast that nobody plans costs nothing more.)
    ///
    /// ```
    /// use shapecast::{rule::Numpy, shape, BroadcastsUnder};
    /// let plan = <shape![3] as BroadcastsUnder<Numpy, shape![2, 3]>>::plan();
    /// assert_eq!(plan.lhs, vec![None, Some(0)]);
    /// ```
    fn plan() -> Plan
    where
        R: Compute<Self, Rhs>,
        <R as Compute<Self, Rhs>>::Elems: PlanOf,
    {
        let (mut lhs, mut rhs) = (
            Vec::with_capacity(Self::RANK),
            Vec::with_capacity(Self::RANK),
        );
        <R as Compute<Self, Rhs>>::Elems::push(&mut lhs, &mut rhs);
        lhs.reverse();
        rhs.reverse();
        Plan { lhs, rhs }
    }

    /// The checks left for run time (SPEC §14): pairs where a `?` meets anything but a
    /// static 1.
    ///
    /// ```
    /// use shapecast::{rule::Numpy, shape, BroadcastsUnder};
    /// assert_eq!(<shape![3, ?] as BroadcastsUnder<Numpy, shape![?, 1]>>::checks().len(), 1);
    /// ```
    fn checks() -> Vec<Check>
    where
        R: Compute<Self, Rhs> + RuleMarker,
        <R as Compute<Self, Rhs>>::Elems: PlanOf,
    {
        checks_of(&Self::plan(), Self::SIZES, Rhs::SIZES, R::RULE)
    }
}

impl<R, A: Shape, B: Shape> BroadcastsUnder<R, B> for A
where
    R: Compute<A, B>,
    Outcome<R, A, B>: Verdict<R, A, B>,
    <R as Compute<A, B>>::Elems: PlanOf,
{
    type Output = <Outcome<R, A, B> as Verdict<R, A, B>>::Output;
    const STATIC_PLAN: StaticPlan = <<R as Compute<A, B>>::Elems as PlanOf>::PLAN;
}

/// The run-time checks of a plan under a rule's size policy (SPEC §14): the same per-pair
/// function the run-time engine uses. An inserted singleton always stretches.
pub(crate) fn checks_of(
    plan: &Plan,
    lhs: &[Option<usize>],
    rhs: &[Option<usize>],
    rule: Rule,
) -> Vec<Check> {
    let size = |sizes: &[Option<usize>], k: usize| sizes[k].map_or(Size::Unknown, Size::Known);
    let mut checks = Vec::new();
    for (axis, (&l, &r)) in plan.lhs.iter().zip(&plan.rhs).enumerate() {
        let (Some(lk), Some(rk)) = (l, r) else {
            continue;
        };
        let (ls, rs) = (size(lhs, lk), size(rhs, rk));
        if let Some((_, Some(condition))) = pair_size(rule.size_policy(), ls, rs) {
            checks.push(Check {
                axis,
                lhs_axis: l,
                rhs_axis: r,
                lhs: ls,
                rhs: rs,
                condition,
            });
        }
    }
    checks
}

/// `Self` broadcasts with `Rhs` by the named rule, the default (SPEC §2).
///
/// ```
/// use shapecast::{names, shape, BroadcastWith};
/// names!(H, W);
/// fn add<A: BroadcastWith<B>, B: shapecast::Shape>() -> String {
///     <A::Output as shapecast::Shape>::to_dyn().to_string()
/// }
/// assert_eq!(add::<shape![W: 3, H: 2], shape![H: 2, W: 3]>(), "[W: 3, H: 2]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Self}` with `{Rhs}` under the named rule",
    label = "no broadcast of `{Self}` with `{Rhs}`"
)]
pub trait BroadcastWith<Rhs: Shape>: Shape {
    /// The output shape.
    type Output: Shape;

    /// The plan as a constant, for kernels specialised on static shapes.
    #[doc(hidden)]
    const STATIC_PLAN: StaticPlan;

    /// For every output axis, the axis of each operand that feeds it.
    ///
    /// ```
    /// use shapecast::{shape, BroadcastWith};
    /// assert_eq!(<shape![4, 3] as BroadcastWith<shape![1, 3]>>::plan().to_string(), "0,1 ; 0,1");
    /// ```
    fn plan() -> Plan
    where
        Self: BroadcastsUnder<Named, Rhs>,
        Named: Compute<Self, Rhs>,
        <Named as Compute<Self, Rhs>>::Elems: PlanOf,
    {
        <Self as BroadcastsUnder<Named, Rhs>>::plan()
    }

    /// The checks left for run time.
    ///
    /// ```
    /// use shapecast::{shape, BroadcastWith};
    /// assert!(<shape![4, 3] as BroadcastWith<shape![1, ?]>>::checks()[0].to_string().contains("axis 1"));
    /// ```
    fn checks() -> Vec<Check>
    where
        Self: BroadcastsUnder<Named, Rhs>,
        Named: Compute<Self, Rhs>,
        <Named as Compute<Self, Rhs>>::Elems: PlanOf,
    {
        <Self as BroadcastsUnder<Named, Rhs>>::checks()
    }
}

impl<A: Shape, B: Shape> BroadcastWith<B> for A
where
    A: BroadcastsUnder<Named, B>,
{
    type Output = <A as BroadcastsUnder<Named, B>>::Output;
    const STATIC_PLAN: StaticPlan = <A as BroadcastsUnder<Named, B>>::STATIC_PLAN;
}

/// The shape of `A` broadcast with `B` by the named rule.
///
/// ```
/// use shapecast::{shape, Broadcast};
/// static_assertions::assert_type_eq_all!(Broadcast<shape![4, 3], shape![3]>, shape![4, 3]);
/// ```
pub type Broadcast<A, B> = <A as BroadcastWith<B>>::Output;

/// The shape of `A` broadcast with `B` under the rule `R`.
///
/// ```
/// use shapecast::{rule::Numpy, shape, BroadcastBy};
/// static_assertions::assert_type_eq_all!(BroadcastBy<Numpy, shape![], shape![2]>, shape![2]);
/// ```
pub type BroadcastBy<R, A, B> = <A as BroadcastsUnder<R, B>>::Output;

/// Whether `Self` broadcasts with `Rhs` under `R`, as a constant: a compile-time yes or no
/// that does not stop the compilation.
///
/// ```
/// use shapecast::{rule::Numpy, shape, Accepts};
/// const OK: bool = <shape![3, 4] as Accepts<Numpy, shape![4]>>::VALUE;
/// const NO: bool = <shape![3, 4] as Accepts<Numpy, shape![5]>>::VALUE;
/// assert!(OK && !NO);
/// ```
pub trait Accepts<R, Rhs> {
    /// True when the rule accepts the shapes.
    const VALUE: bool;
}

impl<R, A: Shape, B: Shape> Accepts<R, B> for A
where
    R: Compute<A, B>,
    Outcome<R, A, B>: Accepted,
{
    const VALUE: bool = <Outcome<R, A, B> as Accepted>::VALUE;
}
