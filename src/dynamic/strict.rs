//! Strict rule (rule book §5, OpenVINO `NONE`): the shapes must be identical (same sizes, same
//! names, same order). No broadcasting.
//!
//! ```
//! use shapecast::dynamic::strict;
//!
//! assert!(strict::broadcast(&"[2, 3]".parse()?, &"[2, 3]".parse()?).is_ok());
//! assert!(strict::broadcast(&"[2, 3]".parse()?, &"[1, 3]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::pair::{combine, refuse};
use crate::dynamic::plan::{Broadcasted, Plan, Sources};
use crate::values::error::{Error, Reason};
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Checks that `lhs` and `rhs` are identical; the result is that shape.
///
/// ```
/// use shapecast::dynamic::strict;
/// assert!(strict::broadcast(&"[H: 2]".parse()?, &"[2]".parse()?).is_err()); // names differ
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    identical(Rule::Strict, lhs, rhs)
}

/// Identical shapes under `rule` (shared with the comparison rule).
pub(crate) fn identical(rule: Rule, lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    if lhs.rank() != rhs.rank() {
        let reason = Reason::Ranks {
            lhs: lhs.rank(),
            rhs: rhs.rank(),
        };
        return Err(refuse(rule, lhs, rhs, reason));
    }
    let same: Sources = (0..lhs.rank()).map(Some).collect();
    let plan = Plan {
        lhs: same.clone(),
        rhs: same,
    };
    combine(rule, lhs, rhs, plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_sizes_leave_equality_checks() {
        let b = broadcast(&"[?, 3]".parse().unwrap(), &"[2, ?]".parse().unwrap()).unwrap();
        assert_eq!(b.shape.to_string(), "[2, 3]");
        assert_eq!(b.checks.len(), 2);
        assert!(b.resolve(&[2, 3], &[2, 3]).is_ok());
        assert!(b.resolve(&[1, 3], &[2, 3]).is_err());
    }

    #[test]
    fn ranks_must_match() {
        let err = broadcast(&"[3]".parse().unwrap(), &"[1, 3]".parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("ranks differ"));
    }
}
