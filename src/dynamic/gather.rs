//! Gathering by name at run time (rule book §21): the shapes `take` (PyTorch's
//! `index_select`, NumPy's `take` along an axis: an embedding lookup), `gather` (PyTorch's
//! `gather`, NumPy's `take_along_axis`) and `one_hot` leave. The twin of
//! [`typed::gather`](crate::typed::gather).
//!
//! `take` replaces the selected axis of the source by the axes of the indices, in place, by
//! name: `[VOCAB: 50257, EMBED: 768]` taken along `VOCAB` by `[B, T]` is `[B, T, EMBED: 768]`.
//! `gather` picks one element along the axis for every index: the indices have that axis (any
//! size) and otherwise exactly the source's axes, and the result has their shape.
//! `one_hot` appends a class axis to the labels' shape.
//!
//! ```
//! use shapecast::dynamic::gather::{gather, one_hot, take};
//! let (shape, _) = take(&"[VOCAB: 50257, EMBED: 768]".parse()?, &"VOCAB".parse()?, &"[B, T]".parse()?)?;
//! assert_eq!(shape.to_string(), "[B, T, EMBED: 768]");
//! assert_eq!(one_hot(&"[?, H, W]".parse()?, "CLASS", 3)?.to_string(), "[?, H, W, CLASS: 3]");
//! assert_eq!(gather(&"[B: 2, CLASS: 10]".parse()?, &"CLASS".parse()?, &"[B: 2, CLASS: 1]".parse()?)?, (1, 1));
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
    let (refuse, at) = along("take", source, axis, indices)?;
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

/// Where `source`'s and `indices`' axis `axis` are, when `source` can be gathered along it by
/// `indices` (the result has the indices' shape); or the error: the axis missing from either,
/// or the indices' other axes not the source's (their names, their order, their static sizes).
///
/// ```
/// use shapecast::dynamic::gather::gather;
/// assert_eq!(gather(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[N: 7, C: 3]".parse()?)?, (0, 0));
/// assert_eq!(gather(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[C: 3, N: 2]".parse()?)?, (0, 1));
/// assert!(gather(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[N: 1, C: 2]".parse()?).is_err());
/// assert!(gather(&"[N: 4, C: 3]".parse()?, &"N".parse()?, &"[C: 3]".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn gather(
    source: &DynShape,
    axis: &AxisSelector,
    indices: &DynShape,
) -> Result<(usize, usize), Error> {
    let (refuse, at) = along("gather", source, axis, indices)?;
    let ia = axis
        .position(indices)
        .ok_or_else(|| refuse(format!("the indices have no axis {axis}")))?;
    let rest = |s: &DynShape, skip: usize| -> Vec<DynAxis> {
        let mut axes = s.axes().to_vec();
        axes.remove(skip);
        axes
    };
    let (want, have) = (rest(source, at), rest(indices, ia));
    let differs = want.len() != have.len()
        || want.iter().zip(&have).any(|(w, h)| {
            w.name != h.name
                || matches!((w.size, h.size), (Size::Known(a), Size::Known(b)) if a != b)
        });
    if differs {
        return Err(refuse(format!(
            "besides {axis}, the indices must have the source's axes, {}",
            DynShape::new(want)?
        )));
    }
    Ok((at, ia))
}

/// The refusal of `op` (`take`, `gather`) of `source` along `axis` by `indices`, and where
/// the axis is in the source; or that refusal for an axis the source lacks.
fn along<'a>(
    op: &'static str,
    source: &'a DynShape,
    axis: &'a AxisSelector,
    indices: &'a DynShape,
) -> Result<(impl Fn(String) -> Error + 'a, usize), Error> {
    let refuse = move |reason: String| Error::Gather {
        op,
        shape: source.clone(),
        by: format!("{axis} by {indices}"),
        reason,
    };
    match axis.position(source) {
        Some(at) => Ok((refuse, at)),
        None => Err(refuse(format!("it has no axis {axis}"))),
    }
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
