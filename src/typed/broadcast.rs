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

use crate::alloc_prelude::*;

use super::list::PlanOf;
use super::rule::{Compute, RuleMarker};
use super::shape::Shape;
use super::verdict::{Accepted, Verdict};
use crate::dynamic::pair::pair_size;
use crate::dynamic::plan::StaticPlan;
use crate::dynamic::plan::{Check, Plan};
use crate::values::rule::Rule;
use crate::values::shape::Size;

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

    /// The plan as a constant, for kernels specialised on static shapes.
    #[doc(hidden)]
    const STATIC_PLAN: StaticPlan;

    /// For every output axis, the axis of each operand that feeds it. (Read off the types
    /// only when asked for, so that a broadcast that nobody plans costs nothing more.)
    ///
    /// ```
    /// use shapecast::{rule::Numpy, shape, BroadcastsUnder};
    /// let plan = <shape![3] as BroadcastsUnder<Numpy, shape![2, 3]>>::plan();
    /// assert_eq!(plan.lhs[..], [None, Some(0)]);
    /// ```
    fn plan() -> Plan {
        Self::STATIC_PLAN.to_plan()
    }

    /// The checks left for run time (rule book §14): pairs where a `?` meets anything but a
    /// static 1.
    ///
    /// ```
    /// use shapecast::{rule::Numpy, shape, BroadcastsUnder};
    /// assert_eq!(<shape![3, ?] as BroadcastsUnder<Numpy, shape![?, 1]>>::checks().len(), 1);
    /// ```
    fn checks() -> Vec<Check>
    where
        R: RuleMarker,
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

/// The run-time checks of a plan under a rule's size policy (rule book §14): the same per-pair
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

/// `Self` broadcasts with `Rhs` by the named rule, the default (rule book §2).
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
    fn plan() -> Plan {
        Self::STATIC_PLAN.to_plan()
    }

    /// The checks left for run time.
    ///
    /// ```
    /// use shapecast::{shape, BroadcastWith};
    /// assert!(<shape![4, 3] as BroadcastWith<shape![1, ?]>>::checks()[0].to_string().contains("axis 1"));
    /// ```
    fn checks() -> Vec<Check> {
        checks_of(&Self::plan(), Self::SIZES, Rhs::SIZES, Rule::Named)
    }
}

// `BroadcastWith` is implemented for each written shape (a tuple of axes, in
// `typed::tuples`), not for every `A: Shape`: a type parameter without the bound then fails on
// `A: BroadcastWith<B>` itself, and rustc suggests that bound rather than the rule's internals.

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
    /// For a refusal of one pair of axes, the pair (rule book §19: the leftmost output axis
    /// whose pair fails, a name conflict before a size conflict there): the left operand's
    /// axis, the right operand's, and whether the names conflict. The run-time engine's
    /// [`Reason`](crate::Reason) names the same pair.
    ///
    /// ```
    /// use shapecast::{names, rule::{Named, Numpy}, shape, Accepts};
    /// names!(H, W);
    /// // Both axes fail; the leftmost is named.
    /// assert_eq!(<shape![3, 4] as Accepts<Numpy, shape![5, 6]>>::PAIR, Some((0, 0, false)));
    /// // At axis 0 the names conflict before the sizes do at axis 1.
    /// assert_eq!(<shape![H: 2, 3] as Accepts<Named, shape![W: 2, 4]>>::PAIR, Some((0, 0, true)));
    /// ```
    const PAIR: Option<(usize, usize, bool)>;
}

impl<R, A: Shape, B: Shape> Accepts<R, B> for A
where
    R: Compute<A, B>,
    Outcome<R, A, B>: Accepted,
{
    const VALUE: bool = <Outcome<R, A, B> as Accepted>::VALUE;
    const PAIR: Option<(usize, usize, bool)> = <Outcome<R, A, B> as Accepted>::PAIR;
}
