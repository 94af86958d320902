//! Rotary embeddings at run time (rule book §16, norms and rotations): the twin of
//! `typed::rope`. A rotation turns the feature axis' pairs of each row by the angle of the
//! row's index along the position axis; the output has the input's shape. The two axes must
//! be distinct axes of the input, the features as many as the table's.
//!
//! ```
//! use shapecast::dynamic::rope::rope;
//! let r = rope(&"[SEQ: 4, HEADS: 2, HD: 8]".parse()?, &"SEQ".parse()?, &"HD".parse()?)?;
//! assert_eq!((r.position, r.feature), (0, 2));
//! assert!(rope(&"[SEQ: 4, HD: 8]".parse()?, &"HD".parse()?, &"HD".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// A rotation's plan: which axis holds the positions, which the features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roped {
    /// The position axis.
    pub position: usize,
    /// The feature axis.
    pub feature: usize,
}

/// The plan of a rotary embedding of `x` with positions along `position` and feature pairs
/// along `feature`; or the refusal ([`Error::Norm`], operation `rope`).
///
/// ```
/// use shapecast::dynamic::rope::rope;
/// let err = rope(&"[SEQ: 4, HD: 8]".parse()?, &"POS".parse()?, &"HD".parse()?).unwrap_err();
/// assert_eq!(err.to_string(), "cannot rope [SEQ: 4, HD: 8] over POS, HD: it has no axis POS");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn rope(x: &DynShape, position: &AxisSelector, feature: &AxisSelector) -> Result<Roped, Error> {
    let refuse = |reason: String| Error::Norm {
        op: "rope",
        shape: x.clone(),
        axes: format!("{position}, {feature}"),
        reason,
    };
    let find = |s: &AxisSelector| {
        s.position(x)
            .ok_or_else(|| refuse(format!("it has no axis {s}")))
    };
    let (p, f) = (find(position)?, find(feature)?);
    if p == f {
        return Err(refuse(format!(
            "the positions and the features are both axis {p}"
        )));
    }
    Ok(Roped {
        position: p,
        feature: f,
    })
}
