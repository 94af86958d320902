//! NumPy rule (rule book §1): right-align, prepend 1s to the shorter shape, pair axes position by
//! position; every pair must be compatible. Names play no part in the pairing, but two paired
//! axes with different names are an error (PyTorch's named-tensor check).
//!
//! ```
//! use shapecast::dynamic::numpy;
//!
//! let b = numpy::broadcast(&"[6, 5]".parse()?, &"[2, 1, 5]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[2, 6, 5]");
//! assert!(numpy::broadcast(&"[3, 1, 5]".parse()?, &"[4, 4, 5]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::pair::combine;
use crate::dynamic::plan::{Broadcasted, Plan};
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Broadcasts `lhs` with `rhs` by the NumPy rule.
///
/// ```
/// use shapecast::dynamic::numpy;
/// let b = numpy::broadcast(&"[]".parse()?, &"[2, 3]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[2, 3]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    let plan = right_aligned(lhs.rank(), rhs.rank());
    combine(Rule::Numpy, lhs, rhs, plan)
}

/// The plan of right alignment: output rank is the larger rank, missing leading axes are
/// inserted singletons.
pub(crate) fn right_aligned(lhs: usize, rhs: usize) -> Plan {
    let rank = lhs.max(rhs);
    let side = |r: usize| (0..rank).map(|i| (i + r).checked_sub(rank)).collect();
    Plan {
        lhs: side(lhs),
        rhs: side(rhs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(a: &str, b: &str) -> Result<String, Error> {
        Ok(broadcast(&a.parse()?, &b.parse()?)?.shape.to_string())
    }

    #[test]
    fn zero_sizes_and_scalars() {
        assert_eq!(shape("[1]", "[0]").unwrap(), "[0]");
        assert_eq!(shape("[0, 1]", "[3, 0, 5]").unwrap(), "[3, 0, 5]");
        assert!(shape("[2]", "[0]").unwrap_err().is_refusal());
        assert_eq!(shape("[]", "[]").unwrap(), "[]");
        assert_eq!(shape("[0]", "[]").unwrap(), "[0]");
    }

    #[test]
    fn names_ride_along_and_must_not_conflict() {
        assert_eq!(shape("[H: 2, 1]", "[W: 4]").unwrap(), "[H: 2, W: 4]");
        assert!(shape("[H: 2]", "[W: 2]").is_err());
        // Right alignment pairs H with the unnamed 3, giving H twice.
        assert!(shape("[H: 1, 3]", "[H: 3]").is_err());
    }

    #[test]
    fn plan_marks_inserted_axes() {
        let p = right_aligned(2, 4);
        assert_eq!(p.lhs[..], [None, None, Some(0), Some(1)]);
        assert_eq!(p.rhs[..], [Some(0), Some(1), Some(2), Some(3)]);
    }
}
