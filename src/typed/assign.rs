//! Assignment rule at the type level (rule book §10): the twin of
//! [`dynamic::assign`](crate::dynamic::assign). The source (right) has at most the
//! destination's rank, pairs into the destination's frame by the named rule, and each of its
//! axes is 1 or equal to the destination's; the result is the destination itself.
//!
//! ```
//! use shapecast::{names, rule::Assign, shape, Accepts, BroadcastBy};
//! names!(H, W);
//! static_assertions::assert_type_eq_all!(BroadcastBy<Assign, shape![H: 2, W: 3], shape![W: 3, H: 1]>, shape![H: 2, W: 3]);
//! assert!(!<shape![1] as Accepts<Assign, shape![3]>>::VALUE); // would grow the destination
//! assert!(!<shape![3] as Accepts<Assign, shape![1, 3]>>::VALUE);
//! ```

use super::bits::{Or, B0, B1};
use super::broadcast::BroadcastsUnder;
use super::list::{Collect, NotShorter};
use super::named::NamedOrNumpy;
use super::outcome::{Refused, Unwrap};
use super::rule::{Compute, Finish};
use super::shape::Shape;
use super::size::policy::Destination;
use crate::typed::refusals::RhsLonger;
use crate::typed::rule::Assign;

/// The source fits the destination's rank (`B1`): named pairing in the destination's frame,
/// each pair into the left; else the error. `Nm` is whether either has names.
pub trait AssignCase<RA, RB, Nm> {
    /// The output elements, last first.
    type Out;
}
impl<RA, RB, Nm> AssignCase<RA, RB, Nm> for B1
where
    (Nm, B1): NamedOrNumpy<RA, RB, Destination>,
{
    type Out = <(Nm, B1) as NamedOrNumpy<RA, RB, Destination>>::Out;
}
impl<RA, RB, Nm> AssignCase<RA, RB, Nm> for B0 {
    type Out = (Refused<RhsLonger>, ());
}

type HasNames<A, B> = Or<<A as Shape>::HasNames, <B as Shape>::HasNames>;
type Fits<A, B> = <<A as Shape>::Rev as NotShorter<<B as Shape>::Rev>>::Out;
type Elems<A, B> =
    <Fits<A, B> as AssignCase<<A as Shape>::Rev, <B as Shape>::Rev, HasNames<A, B>>>::Out;

impl<A: Shape, B: Shape> Compute<A, B> for Assign
where
    A::Rev: NotShorter<B::Rev>,
    Fits<A, B>: AssignCase<A::Rev, B::Rev, HasNames<A, B>>,
    Elems<A, B>: Collect,
    <Elems<A, B> as Collect>::Out: Unwrap,
{
    type Elems = Elems<A, B>;
    type Outcome = Finish<Self::Elems>;
}

/// `Self` broadcasts into `Target` by the assignment rule (rule book §10): what a source must
/// be to be written into a `Target` ([`TensorViewMut::assign`](crate::TensorViewMut::assign)),
/// the bound to write in generic code. The same as `Target: BroadcastsUnder<Assign, Self>`
/// (the result is `Target` itself), named for the source.
///
/// ```
/// use shapecast::{names, shape, BroadcastsInto, Shape};
/// names!(H, W);
/// fn fits<X: BroadcastsInto<shape![H: 2, W: 3]>>() -> String { X::to_dyn().to_string() }
/// assert_eq!(fits::<shape![W: 3]>(), "[W: 3]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot write `{Self}` into `{Target}` by the assignment rule",
    label = "each axis of `{Self}` must pair with one of `{Target}` (by name, else from the right) and be 1 or its size"
)]
pub trait BroadcastsInto<Target>: Shape {}

/// The rule behind [`BroadcastsInto`], for every shape; the public trait forwards to it rank
/// by rank (see `typed::capability`), so a generic shape without the bound is told to add
/// `BroadcastsInto`.
#[doc(hidden)]
pub trait BroadcastsIntoRule<Target>: Shape {}
crate::typed::capability::capability!(#[diagnostic::do_not_recommend] [Target] BroadcastsInto<Target> => BroadcastsIntoRule<Target> {});

impl<S: Shape, Target: BroadcastsUnder<Assign, S>> BroadcastsIntoRule<Target> for S {}
