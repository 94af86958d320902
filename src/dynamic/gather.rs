//! Gathering by name at run time (rule book §21): the shapes `take` (PyTorch's
//! `index_select`, NumPy's `take` along an axis: an embedding lookup) and `one_hot` leave. The
//! twin of [`typed::gather`](crate::typed::gather).
//!
//! `take` replaces the selected axis of the source by the axes of the indices, in place, by
//! name: `[VOCAB: 50257, EMBED: 768]` taken along `VOCAB` by `[B, T]` is `[B, T, EMBED: 768]`.
//! `one_hot` appends a class axis to the labels' shape.
//!
//! ```
//! use shapecast::dynamic::gather::{one_hot, take};
//! let (shape, _) = take(&"[VOCAB: 50257, EMBED: 768]".parse()?, &"VOCAB".parse()?, &"[B, T]".parse()?)?;
//! assert_eq!(shape.to_string(), "[B, T, EMBED: 768]");
//! assert_eq!(one_hot(&"[?, H, W]".parse()?, "CLASS", 3)?.to_string(), "[?, H, W, CLASS: 3]");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynAxis, DynShape, Size};

/// The shape of `source` taken along `axis` by indices of shape `indices`, and the taken
/// axis' position; or the error: the axis missing, or a name of the indices that the
/// source's other axes already have.
///
/// ```
/// use shapecast::dynamic::gather::take;
/// let (shape, at) = take(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[K: 2]".parse()?)?;
/// assert_eq!((shape.to_string(), at), ("[K: 2, C: 3]".to_string(), 0));
/// assert!(take(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[C: 2]".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn take(
    source: &DynShape,
    axis: &AxisSelector,
    indices: &DynShape,
) -> Result<(DynShape, usize), Error> {
    let refuse = |reason: String| Error::Gather {
        op: "take",
        shape: source.clone(),
        by: format!("{axis} by {indices}"),
        reason,
    };
    let at = axis
        .position(source)
        .ok_or_else(|| refuse(format!("it has no axis {axis}")))?;
    let mut axes: Vec<DynAxis> = source.axes()[..at].to_vec();
    axes.extend(indices.axes().iter().cloned());
    axes.extend(source.axes()[at + 1..].iter().cloned());
    let shape = DynShape::new(axes).map_err(|e| match e {
        Error::RepeatedName { name, .. } => refuse(format!(
            "the indices' axis {name} would name a second axis of the result: rename one"
        )),
        other => other,
    })?;
    Ok((shape, at))
}

/// The shape of `labels` one-hot encoded into `classes` classes along a new last axis
/// `name`, or the error: `name` taken, or not an identifier.
///
/// ```
/// use shapecast::dynamic::gather::one_hot;
/// assert_eq!(one_hot(&"[N: 2]".parse()?, "CLASS", 10)?.to_string(), "[N: 2, CLASS: 10]");
/// assert!(one_hot(&"[CLASS: 2]".parse()?, "CLASS", 10).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn one_hot(labels: &DynShape, name: &str, classes: usize) -> Result<DynShape, Error> {
    let mut axes = labels.axes().to_vec();
    axes.push(DynAxis::named(
        Cow::Owned(name.to_string()),
        Size::Known(classes),
    )?);
    DynShape::new(axes).map_err(|e| match e {
        Error::RepeatedName { .. } => Error::Gather {
            op: "one_hot",
            shape: labels.clone(),
            by: name.to_string(),
            reason: format!("{name} already names an axis of the labels"),
        },
        other => other,
    })
}
