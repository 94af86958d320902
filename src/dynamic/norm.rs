//! Norms at run time (rule book §16, norms): the twin of `typed::norm`. A norm normalises the
//! input over the selected axes (each index of the other axes is a row, normalised on its
//! own) and scales it by a weight (and for `layer_norm` shifts it by a bias) that broadcasts
//! into the input by the assignment rule (§10): a weight `[DIM]` serves every row of
//! `[BATCH, SEQ, DIM]`, a weight `[HEADS, HD]` every position of `[SEQ, HEADS, HD]`. The
//! output has the input's shape.
//!
//! ```
//! use shapecast::dynamic::norm::norm;
//! let n = norm("layer_norm", &"[SEQ: 4, DIM: 8]".parse()?, &["DIM".parse()?], &"[DIM: 8]".parse()?, Some(&"[DIM: 8]".parse()?))?;
//! assert_eq!(n.over, vec![false, true]);
//! assert!(norm("rms_norm", &"[SEQ: 4, DIM: 8]".parse()?, &["HD".parse()?], &"[DIM: 8]".parse()?, None).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::dynamic::assign;
use crate::dynamic::plan::Broadcasted;
use crate::values::error::Error;
use crate::values::selector::{selected, AxisSelector};
use crate::values::shape::{DynShape, Size};

/// A norm's plan: the normalised axes, and where the weight and the bias come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normed {
    /// For each input axis, whether it is normalised over.
    pub over: Vec<bool>,
    /// The weight's plan into the input (assignment rule).
    pub weight: Broadcasted,
    /// The bias' plan into the input, when there is one.
    pub bias: Option<Broadcasted>,
}

/// The selected axes as written.
pub(crate) fn axes_text(axes: &[AxisSelector]) -> String {
    let parts: Vec<String> = axes.iter().map(ToString::to_string).collect();
    parts.join(", ")
}

/// The plan of `op` (`layer_norm`, `rms_norm`) normalising `x` over `axes` with a weight of
/// shape `weight` and an optional bias; or the refusal ([`Error::Norm`]).
///
/// ```
/// use shapecast::dynamic::norm::norm;
/// let n = norm("rms_norm", &"[SEQ: 4, HEADS: 2, HD: 8]".parse()?, &["HD".parse()?], &"[HD: 8]".parse()?, None)?;
/// assert_eq!(n.weight.plan.rhs[..], [None, None, Some(0)]);
/// let err = norm("rms_norm", &"[SEQ: 4, HD: 8]".parse()?, &["HD".parse()?, "HD".parse()?], &"[HD: 8]".parse()?, None);
/// assert!(err.unwrap_err().to_string().contains("selects axis 1 twice"));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn norm(
    op: &'static str,
    x: &DynShape,
    axes: &[AxisSelector],
    weight: &DynShape,
    bias: Option<&DynShape>,
) -> Result<Normed, Error> {
    let refuse = |reason: String| Error::Norm {
        op,
        shape: x.clone(),
        axes: axes_text(axes),
        reason,
    };
    let over = selected(x, axes).map_err(|e| match e {
        Error::UnknownAxis { selector, .. } => refuse(format!("it has no axis {selector}")),
        Error::RepeatedAxis { axis, .. } => refuse(format!("it selects axis {axis} twice")),
        other => other,
    })?;
    if axes.is_empty() {
        return Err(refuse("no axis is selected".into()));
    }
    let into = |w: &DynShape, what: &str| {
        assign::broadcast(x, w).map_err(|_| {
            // The first axis that does not fit, by name or by position from the right.
            let why = w
                .axes()
                .iter()
                .enumerate()
                .find_map(|(j, a)| {
                    let at = match &a.name {
                        Some(n) => x.position(n.as_str()),
                        None => (x.rank() + j).checked_sub(w.rank()),
                    };
                    let label = a
                        .name
                        .as_ref()
                        .map_or_else(|| format!("axis {j}"), ToString::to_string);
                    match at {
                        None => Some(format!("the input has no axis {label}")),
                        Some(i) => match (a.size, x.axes()[i].size) {
                            (Size::Known(n), Size::Known(m)) if n != m && n != 1 => Some(format!(
                                "{label} has size {n} in the {what} and {m} in the input"
                            )),
                            _ => None,
                        },
                    }
                })
                .unwrap_or_else(|| format!("it has more axes than the input {x}"));
            refuse(format!("the {what} {w} does not broadcast into it ({why})"))
        })
    };
    let weight = into(weight, "weight")?;
    let bias = bias.map(|b| into(b, "bias")).transpose()?;
    Ok(Normed { over, weight, bias })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_axis_and_the_operand() {
        let x: DynShape = "[SEQ: 4, DIM: 8]".parse().unwrap();
        let dim: AxisSelector = "DIM".parse().unwrap();
        let r = |w: &str, b: Option<&str>| {
            let b: Option<DynShape> = b.map(|b| b.parse().unwrap());
            norm(
                "layer_norm",
                &x,
                core::slice::from_ref(&dim),
                &w.parse().unwrap(),
                b.as_ref(),
            )
            .unwrap_err()
            .to_string()
        };
        assert!(r("[HD: 8]", None)
            .ends_with("the weight [HD: 8] does not broadcast into it (the input has no axis HD)"));
        assert!(r("[DIM: 8]", Some("[SEQ: 3, DIM: 8]"))
            .ends_with("(SEQ has size 3 in the bias and 4 in the input)"));
        assert!(r("[7]", None).ends_with("(axis 0 has size 7 in the weight and 8 in the input)"));
        let empty = norm("rms_norm", &x, &[], &"[DIM: 8]".parse().unwrap(), None);
        assert!(empty
            .unwrap_err()
            .to_string()
            .ends_with("no axis is selected"));
        // A weight of size 1 broadcasts; `?` sizes are checked when the data arrives.
        assert!(norm(
            "rms_norm",
            &x,
            core::slice::from_ref(&dim),
            &"[DIM: 1]".parse().unwrap(),
            None
        )
        .is_ok());
        assert!(norm(
            "rms_norm",
            &x,
            core::slice::from_ref(&dim),
            &"[DIM]".parse().unwrap(),
            None
        )
        .is_ok());
    }
}
