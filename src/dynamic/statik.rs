//! Static rule (rule book §7, Theano): axes pair as in the named rule, but only axes that are
//! *statically* 1 may stretch. An axis whose size is known only at run time must equal its
//! partner exactly, even if it turns out to be 1. See also
//! [`DynShape::broadcastable`](crate::DynShape::broadcastable) for Theano's pattern, and
//! [`DynShape::row`](crate::DynShape::row) / [`DynShape::col`](crate::DynShape::col).
//!
//! ```
//! use shapecast::{dynamic::statik, DynShape};
//!
//! let b = statik::broadcast(&DynShape::row(), &"[?, ?]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[?, ?]");
//! assert!(b.resolve(&[1, 3], &[3, 3]).is_ok());
//! assert!(b.resolve(&[1, 1], &[3, 3]).is_err()); // the row's ? is not broadcastable
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::named::{finish, pairing};
use crate::dynamic::plan::Broadcasted;
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Broadcasts `lhs` with `rhs` by the static rule.
///
/// ```
/// use shapecast::dynamic::statik;
/// let b = statik::broadcast(&"[?, 3]".parse()?, &"[1, 3]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[?, 3]");
/// assert_eq!(b.shape.broadcastable(), vec![false, false]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    finish(Rule::Static, lhs, rhs, pairing(lhs, rhs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_pattern_is_the_and_of_the_inputs() {
        let b = broadcast(&"[1, ?, 1]".parse().unwrap(), &"[1, 1]".parse().unwrap()).unwrap();
        assert_eq!(b.shape.broadcastable(), vec![true, false, true]);
    }

    #[test]
    fn an_unknown_must_equal_a_static_partner() {
        let b = broadcast(&"[?]".parse().unwrap(), &"[3]".parse().unwrap()).unwrap();
        assert_eq!(b.shape.to_string(), "[3]");
        assert!(b.resolve(&[1], &[3]).is_err());
        assert!(b.resolve(&[3], &[3]).is_ok());
    }
}
