//! Bidirectional rule at the type level (rule book §9): the twin of
//! [`dynamic::bidirectional`](crate::dynamic::bidirectional): the input broadcast with the
//! target by the named rule.
//!
//! ```
//! use shapecast::{rule::Bidirectional, shape, Accepts, BroadcastBy};
//! static_assertions::assert_type_eq_all!(BroadcastBy<Bidirectional, shape![3, 1], shape![1, 1]>, shape![3, 1]);
//! assert!(!<shape![3] as Accepts<Bidirectional, shape![4]>>::VALUE);
//! ```

use super::rule::Compute;
use super::shape::Shape;
use crate::typed::rule::{Bidirectional, Named};

impl<A: Shape, B: Shape> Compute<A, B> for Bidirectional
where
    Named: Compute<A, B>,
{
    type Elems = <Named as Compute<A, B>>::Elems;
    type Outcome = <Named as Compute<A, B>>::Outcome;
}
