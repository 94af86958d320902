//! Static rule at the type level (rule book §7, Theano): the twin of
//! [`dynamic::statik`](crate::dynamic::statik). Axes pair as in the named rule and the output
//! types are the same (a `?` meeting a static n gives n either way); what differs is the
//! run-time check, which demands equality (a `?` that turns out to be 1 does not stretch).
//! Theano's pattern is [`Shape::BROADCASTABLE`]; [`Row`] and [`Col`] are its `row` and `col`.
//!
//! ```
//! use shapecast::{rule::Static, shape, Accepts, Shape};
//! use shapecast::typed::statik::{Col, Row};
//! assert_eq!(<Row as Shape>::BROADCASTABLE, &[true, false]);
//! assert_eq!(<Col as Shape>::BROADCASTABLE, &[false, true]);
//! assert!(<Row as Accepts<Static, shape![?, ?]>>::VALUE);
//! ```

use super::bits::Or;
use super::list::{Collect, Unwrap};
use super::named::NamedOrNumpy;
use super::rule::Compute;
use super::shape::Shape;
use super::size::policy::StaticOnly;
use super::size::{Dyn, S};
use crate::rule::Static;

type Collected<E> = <E as Collect>::Out;

/// Theano's `row`: `[1, ?]`.
pub type Row = (S<1>, Dyn);

/// Theano's `col`: `[?, 1]`.
pub type Col = (Dyn, S<1>);

/// The named rule's pairing under the static rule's policy.
impl<A: Shape, B: Shape> Compute<A, B> for Static
where
    Or<A::HasNames, B::HasNames>: NamedOrNumpy<A::Rev, B::Rev, StaticOnly>,
    <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, StaticOnly>>::Out: Collect,
    Collected<<Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, StaticOnly>>::Out>:
        Unwrap,
{
    type Elems = <Or<A::HasNames, B::HasNames> as NamedOrNumpy<A::Rev, B::Rev, StaticOnly>>::Out;
    type Outcome = <Collected<Self::Elems> as Unwrap>::Out;
}
