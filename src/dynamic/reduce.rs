//! Reductions at run time (rule book §16): which axes a list of selectors picks, and the
//! shape a reduction leaves. The twin of `typed::reduce`.
//!
//! ```
//! use shapecast::dynamic::reduce::{reduce, AxisSelector};
//!
//! let x = "[N: 2, C: 3, H: 4, W: 5]".parse()?;
//! let hw: Vec<AxisSelector> = vec!["H".parse()?, "W".parse()?];
//! assert_eq!(reduce(&x, &hw, false)?.to_string(), "[N: 2, C: 3]");
//! assert_eq!(reduce(&x, &hw, true)?.to_string(), "[N: 2, C: 3, H: 1, W: 1]");
//! assert!(reduce(&x, &["Q".parse()?], false).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::values::error::Error;
use crate::values::shape::{DynAxis, DynShape, Size};

#[doc(hidden)]
pub use crate::values::selector::StaticSelectors;
pub use crate::values::selector::{selected, AxisSelector};

/// The shape of a reduction of `shape` over `selectors`: without the selected axes, or with
/// them as statically-1 axes (names kept) when `keep` is true (NumPy's `keepdims`).
///
/// ```
/// use shapecast::dynamic::reduce;
/// let x = "[?, CLASS: 10]".parse()?;
/// assert_eq!(reduce(&x, &["CLASS".parse()?], false)?.to_string(), "[?]");
/// assert_eq!(reduce(&x, &["CLASS".parse()?], true)?.to_string(), "[?, CLASS: 1]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn reduce(shape: &DynShape, selectors: &[AxisSelector], keep: bool) -> Result<DynShape, Error> {
    let mask = selected(shape, selectors)?;
    Ok(apply(shape, &mask, keep))
}

/// `shape` with the masked axes removed, or made statically 1 when `keep`.
pub(crate) fn apply(shape: &DynShape, mask: &[bool], keep: bool) -> DynShape {
    let axes = shape
        .axes()
        .iter()
        .zip(mask)
        .filter_map(|(axis, &gone)| match (gone, keep) {
            (false, _) => Some(axis.clone()),
            (true, true) => Some(DynAxis {
                size: Size::Known(1),
                name: axis.name.clone(),
            }),
            (true, false) => None,
        });
    DynShape::from_axes_unchecked(axes.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(s: &str) -> Vec<AxisSelector> {
        s.split(',').map(|x| x.parse().unwrap()).collect()
    }

    #[test]
    fn the_rule_books_table() {
        let cases = [
            ("[?, CLASS: 10]", "CLASS", "[?]", "[?, CLASS: 1]"),
            (
                "[N: 2, C: 3, H: 4, W: 5]",
                "H,W",
                "[N: 2, C: 3]",
                "[N: 2, C: 3, H: 1, W: 1]",
            ),
            ("[4, 5]", "1", "[4]", "[4, 1]"),
            ("[4, 5]", "0,1", "[]", "[1, 1]"),
        ];
        for (x, a, out, kept) in cases {
            let x: DynShape = x.parse().unwrap();
            assert_eq!(reduce(&x, &sel(a), false).unwrap().to_string(), out);
            assert_eq!(reduce(&x, &sel(a), true).unwrap().to_string(), kept);
        }
    }

    #[test]
    fn refusals_name_the_selector() {
        let x: DynShape = "[H: 2]".parse().unwrap();
        let err = reduce(&x, &sel("W"), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot reduce [H: 2] over W: it has no axis W"
        );
        assert!(err.is_refusal());
        let err = reduce(&x, &sel("1"), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot reduce [H: 2] over position 1: position 1 is past its rank 1"
        );
        let err = reduce(&x, &sel("H,0"), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot reduce [H: 2] over position 0: it selects axis 0, already selected"
        );
    }
}
