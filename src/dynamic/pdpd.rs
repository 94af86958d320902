//! PDPD rule (rule book §8, OpenVINO/PaddlePaddle): the right operand B broadcasts onto the left A
//! only, starting at `axis`; the result is A's shape.
//!
//! 1. Trailing size-1 axes of B are dropped first (`(3, 1)` counts as `(3)`).
//! 2. rank(B) ≤ rank(A); `axis` is -1 (the default) or ≥ 0.
//! 3. `axis = -1` means rank(A) − rank(B).
//! 4. axis + rank(B) ≤ rank(A), and each B\[i\] equals A\[axis + i\] or is 1; where both
//!    axes are named the names must be equal. The result keeps A's names.
//!
//! ```
//! use shapecast::dynamic::pdpd;
//!
//! let a = "[2, 3, 4, 5]".parse()?;
//! assert!(pdpd::broadcast(&a, &"[3, 4]".parse()?, 1).is_ok());
//! assert!(pdpd::broadcast(&a, &"[4, 5, 1]".parse()?, -1).is_ok());
//! assert!(pdpd::broadcast(&a, &"[3, 4]".parse()?, 3).is_err());
//! assert!(pdpd::broadcast(&a, &"[3, 4]".parse()?, -2).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::pair::{combine, refuse};
use crate::dynamic::plan::{Broadcasted, Plan};
use crate::values::error::{Error, Reason};
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Broadcasts `rhs` onto `lhs` from `axis` (-1 for the default).
///
/// An `axis` below -1 is bad input ([`Error::InvalidAxis`]); shapes the rule refuses give
/// [`Error::Refused`].
///
/// ```
/// use shapecast::{dynamic::pdpd, Error};
/// let b = pdpd::broadcast(&"[2, 3, 4, 5]".parse()?, &"[1, 3]".parse()?, 0)?;
/// assert_eq!(b.plan.to_string(), "0,1,2,3 ; 0,1,-,-");
/// assert!(matches!(pdpd::broadcast(&b.shape, &b.shape, -3), Err(Error::InvalidAxis { axis: -3 })));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape, axis: isize) -> Result<Broadcasted, Error> {
    let rule = Rule::Pdpd { axis };
    if axis < -1 {
        return Err(Error::InvalidAxis { axis });
    }
    let rank_b = rhs.rank()
        - rhs
            .axes()
            .iter()
            .rev()
            .take_while(|a| a.size.is_one())
            .count();
    if rank_b > lhs.rank() {
        let reason = Reason::RhsRank {
            lhs: lhs.rank(),
            rhs: rank_b,
        };
        return Err(refuse(rule, lhs, rhs, reason));
    }
    let start = if axis == -1 {
        lhs.rank() - rank_b
    } else {
        axis.unsigned_abs()
    };
    if start.saturating_add(rank_b) > lhs.rank() {
        let reason = Reason::PdpdRange {
            axis: start,
            rhs: rank_b,
            lhs: lhs.rank(),
        };
        return Err(refuse(rule, lhs, rhs, reason));
    }
    let plan = Plan {
        lhs: (0..lhs.rank()).map(Some).collect(),
        rhs: (0..lhs.rank())
            .map(|i| i.checked_sub(start).filter(|&j| j < rank_b))
            .collect(),
    };
    combine(rule, lhs, rhs, plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(a: &str, b: &str, axis: isize) -> bool {
        broadcast(&a.parse().unwrap(), &b.parse().unwrap(), axis).is_ok()
    }

    #[test]
    fn spec_cases() {
        let a = "[2, 3, 4, 5]";
        assert!(ok(a, "[3, 4]", 1));
        assert!(ok(a, "[3, 1]", 1));
        assert!(ok(a, "[4, 5]", -1) && ok(a, "[4, 5]", 2));
        assert!(ok(a, "[1, 3]", 0));
        assert!(ok(a, "[]", -1));
        assert!(ok(a, "[5]", -1) && ok(a, "[5]", 3));
        assert!(ok(a, "[4, 5, 1]", -1));
        assert!(!ok(a, "[3, 4]", 3));
        assert!(!ok("[8, 1, 6, 1]", "[7, 1, 5]", 1));
    }

    #[test]
    fn names_must_agree_and_the_left_keeps_its_own() {
        let b = broadcast(&"[2, 3]".parse().unwrap(), &"[C: 3]".parse().unwrap(), -1).unwrap();
        assert_eq!(b.shape.to_string(), "[2, 3]");
        assert!(!ok("[H: 2, W: 3]", "[C: 3]", -1));
        assert!(ok("[H: 2, W: 3]", "[W: 3]", -1));
    }

    #[test]
    fn huge_axis_is_refused_not_overflowed() {
        assert!(!ok("[2]", "[2]", isize::MAX));
    }
}
