//! Assignment rule (rule book §10, TML assignment, ONNX unidirectional, `a += b`): the source B
//! broadcasts into the destination A without changing A's shape. rank(B) ≤ rank(A); B is
//! embedded into A's frame by the named rule, and every B axis must equal A's or be 1.
//!
//! ```
//! use shapecast::dynamic::assign;
//!
//! let b = assign::broadcast(&"[3, 3]".parse()?, &"[3]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[3, 3]");
//! assert!(assign::broadcast(&"[3]".parse()?, &"[2]".parse()?).is_err());
//! assert!(assign::broadcast(&"[1]".parse()?, &"[3]".parse()?).is_err()); // would grow A
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::named::{finish, pairing};
use crate::dynamic::pair::refuse;
use crate::dynamic::plan::Broadcasted;
use crate::values::error::{Error, Reason};
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// The plan of `dst = src` (and `dst += src`): the result is always `dst`'s shape.
///
/// ```
/// use shapecast::dynamic::assign;
/// let b = assign::broadcast(&"[H: 2, W: 3]".parse()?, &"[W: 3, H: 1]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[H: 2, W: 3]");
/// assert_eq!(b.plan.rhs[..], [Some(1), Some(0)]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(dst: &DynShape, src: &DynShape) -> Result<Broadcasted, Error> {
    if src.rank() > dst.rank() {
        let reason = Reason::RhsRank {
            lhs: dst.rank(),
            rhs: src.rank(),
        };
        return Err(refuse(Rule::Assign, dst, src, reason));
    }
    let pairing = pairing(dst, src);
    finish(Rule::Assign, dst, src, pairing)
}
