//! Comparison rule (rule book §6, TML): for relational, logical and bitwise operations. One operand
//! is a scalar, or both shapes are identical; the result has that shape (of booleans).
//!
//! ```
//! use shapecast::dynamic::compare;
//!
//! assert_eq!(compare::broadcast(&"[]".parse()?, &"[3, 3]".parse()?)?.shape.to_string(), "[3, 3]");
//! assert!(compare::broadcast(&"[3]".parse()?, &"[1, 3]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::pair::combine;
use crate::dynamic::plan::{Broadcasted, Plan, Sources};
use crate::dynamic::strict::identical;
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// The shape of `lhs <op> rhs` for a comparison `<op>`.
///
/// ```
/// use shapecast::dynamic::compare;
/// let b = compare::broadcast(&"[3]".parse()?, &"[]".parse()?)?;
/// assert_eq!(b.plan.to_string(), "0 ; -");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    let all = |s: &DynShape| (0..s.rank()).map(Some).collect::<Sources>();
    let none = |s: &DynShape| Sources::from_elem(None, s.rank());
    let plan = match (lhs.rank(), rhs.rank()) {
        (0, _) => Plan {
            lhs: none(rhs),
            rhs: all(rhs),
        },
        (_, 0) => Plan {
            lhs: all(lhs),
            rhs: none(lhs),
        },
        _ => return identical(Rule::Compare, lhs, rhs),
    };
    combine(Rule::Compare, lhs, rhs, plan)
}
