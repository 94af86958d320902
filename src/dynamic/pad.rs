//! Padding by name at run time (rule book §22): the shape `pad` and `pad_ends` leave, each
//! padded axis longer by the padding at its two ends, its name kept. The twin of
//! [`typed::pad`](crate::typed::pad).
//!
//! ```
//! use shapecast::dynamic::pad::pad;
//! let (shape, _) = pad(&"[?, C: 3, H: 256, W]".parse()?, &["H".parse()?, "W".parse()?], 2)?;
//! assert_eq!(shape.to_string(), "[?, C: 3, H: 260, W]");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynShape, Size};

/// How `pad` fills the padding (PyTorch's `F.pad` modes).
///
/// ```
/// use shapecast::dynamic::pad::PadMode;
/// assert_eq!(PadMode::Constant(0.0f32), PadMode::Constant(0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode<T> {
    /// Every padded element is this value (`mode='constant'`).
    Constant(T),
    /// The axis mirrored at its ends, the edge not repeated (`mode='reflect'`: `[1, 2, 3]`
    /// padded by 2 is `[3, 2, 1, 2, 3, 2, 1]`); the padding must be shorter than the axis.
    Reflect,
    /// The edge element repeated (`mode='replicate'`).
    Replicate,
}

/// The shape `input` padded by `padding` at both ends of each selected axis, and those axes'
/// positions (ascending); or the error: a selector that finds no axis or one already
/// selected, a size that overflows. [`pad_ends`] takes a width for each end.
///
/// ```
/// use shapecast::dynamic::pad::pad;
/// assert!(pad(&"[H: 2]".parse()?, &["W".parse()?], 1).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn pad(
    input: &DynShape,
    axes: &[AxisSelector],
    padding: usize,
) -> Result<(DynShape, Vec<usize>), Error> {
    pad_ends(input, axes, (padding, padding))
}

/// The shape `input` padded by `before` elements before and `after` elements after each
/// selected axis' elements (PyTorch's `F.pad` pair `(left, right)`; the twin of
/// [`Pad<BEFORE, AFTER>`](crate::Pad)), and those axes' positions; or the error of [`pad`].
///
/// ```
/// use shapecast::dynamic::pad::pad_ends;
/// let (shape, at) = pad_ends(&"[N: 2, T: 9]".parse()?, &["T".parse()?], (2, 0))?;
/// assert_eq!((shape.to_string(), at), ("[N: 2, T: 11]".to_string(), vec![1]));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn pad_ends(
    input: &DynShape,
    axes: &[AxisSelector],
    (before, after): (usize, usize),
) -> Result<(DynShape, Vec<usize>), Error> {
    let refuse = super::pool::refusal("pad", input, axes);
    let at = super::pool::picked(input, axes, &refuse)?;
    let mut out = input.axes().to_vec();
    for &k in &at {
        if let Size::Known(n) = out[k].size {
            let grown = before
                .checked_add(after)
                .and_then(|p| n.checked_add(p))
                .ok_or_else(|| {
                    refuse(format!(
                        "axis {k} padded by {} overflows",
                        widths_text(before, after)
                    ))
                })?;
            out[k].size = Size::Known(grown);
        }
    }
    Ok((DynShape::new(out)?, at))
}

/// A padding's widths as its errors write them: `2` for the same width at both ends, else
/// `(0, 1)`.
pub(crate) fn widths_text(before: usize, after: usize) -> String {
    if before == after {
        before.to_string()
    } else {
        format!("({before}, {after})")
    }
}
