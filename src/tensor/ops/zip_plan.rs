//! Where a typed elementwise operation takes its plan and its layout from: the rule and the
//! constant plan its types carry ([`PlanFor`]), the layout worked out at compile time when
//! every size is static, and otherwise the layout built on the stack from the sizes alone
//! ([`RunTimeLayout`]) after the run-time checks `?` sizes leave. The operations are in
//! [`zip`](super::zip).

use crate::alloc_prelude::*;

use crate::dynamic::pair::pair_size;
use crate::dynamic::plan::StaticPlan;
use crate::engine::layout::row_major_into;
use crate::engine::static_kernel::StaticLayout;
use crate::engine::zip_fn::{zip_own, ZipFn};
use crate::typed::broadcast::{BroadcastWith, BroadcastsUnder};
use crate::typed::rule::RuleMarker;
use crate::typed::shape::Shape;
use crate::typed::storage::INLINE_MAX;
use crate::values::error::Error;
use crate::values::rule::SizePolicy;
use crate::values::shape::{Size, MAX_TYPED_RANK};

/// Whether every size is static.
pub(crate) const fn all_static(sizes: &[Option<usize>]) -> bool {
    let mut i = 0;
    while i < sizes.len() {
        if sizes[i].is_none() {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether a shape's elements live inline: every size static, at most [`INLINE_MAX`] of them.
pub(crate) const fn inline_static(sizes: &[Option<usize>]) -> bool {
    let (mut i, mut count) = (0, 1usize);
    while i < sizes.len() {
        match sizes[i] {
            Some(n) => count = count.saturating_mul(n),
            None => return false,
        }
        i += 1;
    }
    count <= INLINE_MAX
}

/// The compile-time layout of `O = f(S, B)` by the plan of `P`.
pub(crate) const fn static_layout<P: PlanFor<S, B>, S: Shape, B: Shape, O: Shape>() -> StaticLayout
{
    StaticLayout::new(
        O::SIZES,
        (&P::PLAN.lhs, &P::PLAN.rhs, P::PLAN.len),
        S::SIZES,
        B::SIZES,
    )
}

/// Where a typed operation takes its rule and its constant plan from: a rule marker's
/// [`BroadcastsUnder`], or [`BroadcastWith`] for the named rule (the bound the operators
/// carry).
pub(crate) trait PlanFor<S, B> {
    const RULE: crate::values::rule::Rule;
    const PLAN: StaticPlan;
}

/// The plan of `S: BroadcastsUnder<R, B>`.
pub(crate) struct ByRule<R>(core::marker::PhantomData<R>);
impl<R: RuleMarker, S: BroadcastsUnder<R, B>, B: Shape> PlanFor<S, B> for ByRule<R> {
    const RULE: crate::values::rule::Rule = R::RULE;
    const PLAN: StaticPlan = <S as BroadcastsUnder<R, B>>::STATIC_PLAN;
}

/// The plan of `S: BroadcastWith<B>` (the named rule).
pub(crate) struct ByNamed;
impl<S: BroadcastWith<B>, B: Shape> PlanFor<S, B> for ByNamed {
    const RULE: crate::values::rule::Rule = crate::values::rule::Rule::Named;
    const PLAN: StaticPlan = <S as BroadcastWith<B>>::STATIC_PLAN;
}

/// The layout of `f(S, B)` for sizes known only at run time, from the plan the types carry:
/// the output's sizes after the rule's run-time checks (rule book §14) and each operand's
/// strides in the output frame, all on the stack.
pub(crate) struct RunTimeLayout<const N: usize> {
    /// The output's axes are the left operand's, in its order (the plan's left side is the
    /// identity), so the output can live in the left's buffer when the sizes agree.
    pub(crate) lhs_is_frame: bool,
    /// The same for the right operand.
    pub(crate) rhs_is_frame: bool,
    pub(crate) len: usize,
    /// The output's element count.
    pub(crate) total: usize,
    pub(crate) sizes: [usize; N],
    pub(crate) a: [usize; N],
    pub(crate) b: [usize; N],
}

impl<const N: usize> RunTimeLayout<N> {
    /// The output's sizes.
    pub(crate) fn sizes(&self) -> &[usize] {
        &self.sizes[..self.len]
    }

    /// `f(a, b)` over this layout into `out` (cleared first).
    pub(crate) fn run<A, B, O>(
        &self,
        a: &[A],
        b: &[B],
        out: &mut Vec<O>,
        f: impl ZipFn<A, B, O>,
    ) -> Result<(), Error> {
        let n = self.len;
        let (sizes, a, b) = (&self.sizes[..n], (a, &self.a[..n]), (b, &self.b[..n]));
        // The layout comes from the types and the tensors' own sizes: sound by construction.
        zip_own::<N, A, B, O>(&f, self.total, sizes, a, b, out)
    }
}

/// See [`RunTimeLayout`]; `None` when a run-time check fails. `N` is at least the output's
/// rank.
pub(crate) fn run_time_layout<const N: usize, P: PlanFor<S, B>, S: Shape, B: Shape>(
    sa: &[usize],
    sb: &[usize],
) -> Option<RunTimeLayout<N>> {
    let (ra, rb) = (
        row_major_stack::<MAX_TYPED_RANK>(sa),
        row_major_stack::<MAX_TYPED_RANK>(sb),
    );
    strided_layout::<N, P, S, B>((sa, &ra[..sa.len()]), (sb, &rb[..sb.len()]))
}

/// [`run_time_layout`] of operands laid out with strides (views): each operand's sizes and
/// strides, which the caller guarantees stay inside its data.
pub(crate) fn strided_layout<const N: usize, P: PlanFor<S, B>, S: Shape, B: Shape>(
    (sa, ra): (&[usize], &[usize]),
    (sb, rb): (&[usize], &[usize]),
) -> Option<RunTimeLayout<N>> {
    let plan = P::PLAN;
    let policy = P::RULE.size_policy();
    let symbolic = |d: Option<usize>| d.map_or(Size::Unknown, Size::Known);
    let lhs_is_frame = plan.len == S::RANK && (0..plan.len).all(|k| plan.lhs[k] == Some(k));
    let rhs_is_frame = plan.len == B::RANK && (0..plan.len).all(|k| plan.rhs[k] == Some(k));
    let mut l = RunTimeLayout {
        lhs_is_frame,
        rhs_is_frame,
        len: plan.len,
        total: 1,
        sizes: [1; N],
        a: [0; N],
        b: [0; N],
    };
    for k in 0..plan.len {
        l.sizes[k] = match (plan.lhs[k], plan.rhs[k]) {
            (Some(i), Some(j)) => {
                let (n, m) = (sa[i], sb[j]);
                // The types passed the pair; what is left is the check its `?` sizes leave.
                let (_, check) = pair_size(policy, symbolic(S::SIZES[i]), symbolic(B::SIZES[j]))?;
                if check.is_some_and(|c| !c.holds(n, m)) {
                    return None;
                }
                if policy == SizePolicy::IntoLhs || m == 1 {
                    n
                } else {
                    m
                }
            }
            (Some(i), None) => sa[i],
            (None, Some(j)) => sb[j],
            (None, None) => 1,
        };
        // A size-1 axis facing a larger one is broadcast: stride 0.
        if let Some(i) = plan.lhs[k] {
            l.a[k] = if sa[i] == 1 { 0 } else { ra[i] };
        }
        if let Some(j) = plan.rhs[k] {
            l.b[k] = if sb[j] == 1 { 0 } else { rb[j] };
        }
        l.total = l.total.checked_mul(l.sizes[k])?;
    }
    Some(l)
}

/// Row-major strides of at most `N` sizes, on the stack.
pub(crate) fn row_major_stack<const N: usize>(sizes: &[usize]) -> [usize; N] {
    let mut strides = [1usize; N];
    row_major_into(sizes, &mut strides);
    strides
}
