//! The run-time path of an elementwise operation: the operands' shapes go through the rule
//! (`dynamic`), and the plan it gives places each operand in the output frame for the
//! engine's kernel ([`zip_framed`](crate::engine::zip_fn::zip_framed)). `DynTensor`'s
//! operators, views and typed tensors with run-time sizes take this path.

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use crate::dynamic::broadcast;
use crate::dynamic::plan::SizeList;
use crate::engine::zip_fn::{zip_framed, ZipFn};
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// One operand of an elementwise operation: its concrete shape (every size known), its
/// sizes, its strides (`None`: contiguous, row-major) and its data.
pub(crate) struct Operand<'a, T> {
    /// Borrowed from a `DynTensor`; a typed tensor's is built from its type.
    pub(crate) shape: Cow<'a, DynShape>,
    pub(crate) sizes: &'a [usize],
    pub(crate) strides: Option<&'a [usize]>,
    pub(crate) data: &'a [T],
}

/// `f(a, b)` elementwise under `rule` into `out` (left untouched on error): the rule's plan,
/// its run-time checks, then the kernel. Gives the output's shape and sizes.
pub(crate) fn zip_operands<A, B, O>(
    rule: Rule,
    a: Operand<'_, A>,
    b: Operand<'_, B>,
    out: &mut Vec<O>,
    f: impl ZipFn<A, B, O>,
) -> Result<(DynShape, SizeList), Error> {
    let plan = broadcast(rule, &a.shape, &b.shape)?;
    let sizes = plan.resolve_sizes(a.sizes, b.sizes)?;
    zip_framed(
        &sizes,
        (&plan.plan.lhs, &plan.plan.rhs),
        (a.data, a.sizes, a.strides),
        (b.data, b.sizes, b.strides),
        out,
        f,
    )?;
    Ok((plan.shape.into_resolved(&sizes), sizes))
}
