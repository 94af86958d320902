//! Bidirectional rule (rule book §9, OpenVINO Broadcast-3 BIDIRECTIONAL, ONNX Expand):
//! `broadcast_to(x, target)` is the broadcast of x's shape with the target by the named
//! rule, so the result may be larger than the target.
//!
//! ```
//! use shapecast::dynamic::bidirectional;
//!
//! let b = bidirectional::broadcast(&"[3, 1]".parse()?, &"[2, 1, 6]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[2, 3, 6]");
//! assert!(bidirectional::broadcast(&"[3]".parse()?, &"[4]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::named::{finish, pairing};
use crate::dynamic::plan::Broadcasted;
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// The shape of `input` broadcast to `target`.
///
/// ```
/// use shapecast::dynamic::bidirectional;
/// let b = bidirectional::broadcast(&"[3, 1]".parse()?, &"[1, 1]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[3, 1]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(input: &DynShape, target: &DynShape) -> Result<Broadcasted, Error> {
    let pairing = pairing(input, target);
    finish(Rule::Bidirectional, input, target, pairing)
}
