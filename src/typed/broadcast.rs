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

use super::bits::{And, Or};
use super::list::{Collect, DistinctIf, PlanOf, Unwrap};
use super::named::NamedOrNumpy;
use super::numpy::ZipRight;
use super::shape::Shape;
use super::size::policy::Bcast;
use super::verdict::{Accepted, Verdict};
use crate::dynamic::plan::{Check, Condition, Plan};
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
}

use rule::{Named, Numpy};

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
        R: Compute<Self, Rhs>,
        <R as Compute<Self, Rhs>>::Elems: PlanOf,
    {
        checks_of(
            &Self::plan(),
            Self::SIZES,
            Rhs::SIZES,
            Condition::Broadcastable,
        )
    }
}

impl<R, A: Shape, B: Shape> BroadcastsUnder<R, B> for A
where
    R: Compute<A, B>,
    Outcome<R, A, B>: Verdict<R, A, B>,
{
    type Output = <Outcome<R, A, B> as Verdict<R, A, B>>::Output;
}

/// The run-time checks of a plan: every pair with a `?` facing anything but a static 1.
pub(crate) fn checks_of(
    plan: &Plan,
    lhs: &[Option<usize>],
    rhs: &[Option<usize>],
    condition: Condition,
) -> Vec<Check> {
    let size = |sizes: &[Option<usize>], k: Option<usize>| match k {
        None => Size::Known(1),
        Some(k) => sizes[k].map_or(Size::Unknown, Size::Known),
    };
    let mut checks = Vec::new();
    for (axis, (&l, &r)) in plan.lhs.iter().zip(&plan.rhs).enumerate() {
        let (ls, rs) = (size(lhs, l), size(rhs, r));
        let unknown = ls == Size::Unknown || rs == Size::Unknown;
        if unknown && !ls.is_one() && !rs.is_one() {
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
