//! Narrowcasting (rule book §11, TML): removes every axis of size 1. With no axis of size 1 the
//! shape is unchanged; with all axes of size 1 the result is the element type itself (a
//! scalar). Only statically-1 axes go: a `?` stays.
//!
//! ```
//! use shapecast::dynamic::narrow;
//!
//! let n = narrow::narrow(&"[1, 5, 1]".parse()?);
//! assert_eq!(n.shape.to_string(), "[5]");
//! assert_eq!(n.kept, vec![1]);
//! assert!(narrow::narrow(&"[1, 1, 1]".parse()?).scalar);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::shape::DynShape;

/// The result of narrowing a shape.
///
/// ```
/// use shapecast::dynamic::narrow;
/// let n = narrow::narrow(&"[5, 5]".parse()?);
/// assert_eq!((n.shape.to_string(), n.scalar), ("[5, 5]".to_string(), false));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrowed {
    /// The narrowed shape (`[]` when it is a scalar).
    pub shape: DynShape,
    /// The input axis that feeds each output axis.
    pub kept: Vec<usize>,
    /// Whether the result is the element itself rather than a tensor.
    pub scalar: bool,
}

/// Narrows `shape`: drops its statically-1 axes.
///
/// ```
/// use shapecast::dynamic::narrow;
/// let n = narrow::narrow(&"[?, H: 1, W]".parse()?);
/// assert_eq!(n.shape.to_string(), "[?, W]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn narrow(shape: &DynShape) -> Narrowed {
    let kept: Vec<usize> = (0..shape.rank())
        .filter(|&i| !shape.axes()[i].size.is_one())
        .collect();
    let axes = kept.iter().map(|&i| shape.axes()[i].clone()).collect();
    Narrowed {
        shape: DynShape::from_axes_unchecked(axes),
        scalar: kept.is_empty(),
        kept,
    }
}
