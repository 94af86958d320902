//! Static rule at the type level (rule book §7, Theano): the twin of
//! [`dynamic::statik`](crate::dynamic::statik). Axes pair as in the named rule and the output
//! types are the same (a `?` meeting a static n gives n either way); what differs is the
//! run-time check, which demands equality (a `?` that turns out to be 1 does not stretch).
//! Theano's pattern is [`Shape::BROADCASTABLE`]; [`Row`] and [`Col`] are its `row` and `col`.
//!
//! ```
//! use shapecast::{rule::Static, shape, Accepts, Shape};
//! use shapecast::rule::{Col, Row};
//! assert_eq!(<Row as Shape>::BROADCASTABLE, &[true, false]);
//! assert_eq!(<Col as Shape>::BROADCASTABLE, &[false, true]);
//! assert!(<Row as Accepts<Static, shape![?, ?]>>::VALUE);
//! ```

use super::rule::Compute;
use super::shape::Shape;
#[cfg(doc)]
use super::size::policy::StaticOnly;
use super::size::{Dyn, S};
use crate::typed::rule::{Named, Static};

/// Theano's `row`: `[1, ?]`.
pub type Row = (S<1>, Dyn);

/// Theano's `col`: `[?, 1]`.
pub type Col = (Dyn, S<1>);

/// The named rule's pairing: under the static rule's policy ([`StaticOnly`], the named
/// rule's `Broadcast` at the type level) the output types are the named rule's; only the
/// run-time check differs, and it comes from `Rule::Static`'s size policy.
impl<A: Shape, B: Shape> Compute<A, B> for Static
where
    Named: Compute<A, B>,
{
    type Elems = <Named as Compute<A, B>>::Elems;
    type Outcome = <Named as Compute<A, B>>::Outcome;
}
