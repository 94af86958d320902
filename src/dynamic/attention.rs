//! Attention at run time (rule book §17, attention): the twin of `typed::attention`. The
//! scores are the queries contracted with the keys over the head dimension (`D`), the
//! output the scores contracted with the values over the key axis (`KS`): two contractions
//! by the rule of §17, so the head axes pair by name and a KV head axis the queries split
//! into groups broadcasts over the group axis. A mask is added to the scores by the
//! assignment rule (it broadcasts into the scores, never grows them); a causal mask names
//! the queries' position axis.
//!
//! ```
//! use shapecast::dynamic::attention::{attention, Masking};
//! let q = "[SEQ: 4, KVH: 2, GROUP: 3, HD: 8]".parse()?;
//! let k = "[KSEQ: 6, KVH: 2, HD: 8]".parse()?;
//! let a = attention(&q, &k, &k, &["HD".parse()?], &"KSEQ".parse()?, Masking::Causal(&"SEQ".parse()?))?;
//! assert_eq!(a.scores.shape.to_string(), "[SEQ: 4, KVH: 2, GROUP: 3, KSEQ: 6]");
//! assert_eq!(a.output.shape.to_string(), "[SEQ: 4, KVH: 2, GROUP: 3, HD: 8]");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::dynamic::assign;
use crate::dynamic::contract::{contract, Contracted};
use crate::dynamic::plan::Broadcasted;
use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// What is added to the scores before the softmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Masking<'a> {
    /// Nothing.
    None,
    /// Causal: a query at position `p` along the named axis (an axis of the queries alone)
    /// sees the keys up to `p` plus the offset the kernel is given.
    Causal(&'a AxisSelector),
    /// A tensor of this shape, broadcast into the scores by the assignment rule (rule book
    /// §10): `-inf` where a query must not see a key, or any additive bias.
    Additive(&'a DynShape),
}

/// An attention's shapes and plans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attended {
    /// The scores: the queries contracted with the keys over the head dimension.
    pub scores: Contracted,
    /// The output: the scores contracted with the values over the key axis.
    pub output: Contracted,
    /// The key axis' position among the scores' axes.
    pub key: usize,
    /// The mask's plan into the scores, for a mask tensor.
    pub mask: Option<Broadcasted>,
    /// The position among the scores' axes of a causal mask's query axis.
    pub causal: Option<usize>,
}

/// The attention of queries `q` to keys `k` with values `v`, contracted over `depth` (the
/// head dimension) and softmaxed over `key` (an axis of the keys and values that the
/// queries do not have), with `masking`; or the refusal.
///
/// ```
/// use shapecast::dynamic::attention::{attention, Masking};
/// let q = "[BATCH: 2, HEADS: 4, SEQ: 8, DK: 16]".parse()?;
/// let k = "[BATCH: 2, HEADS: 4, KSEQ: 8, DK: 16]".parse()?;
/// let mask = "[SEQ: 8, KSEQ: 8]".parse()?;
/// let a = attention(&q, &k, &k, &["DK".parse()?], &"KSEQ".parse()?, Masking::Additive(&mask))?;
/// assert_eq!(a.output.shape, q);
/// let bad = "[SEQ: 8, KSEQ: 9]".parse()?;
/// let err = attention(&q, &k, &k, &["DK".parse()?], &"KSEQ".parse()?, Masking::Additive(&bad));
/// assert!(err.unwrap_err().to_string().contains("the mask [SEQ: 8, KSEQ: 9] does not broadcast into the scores"));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn attention(
    q: &DynShape,
    k: &DynShape,
    v: &DynShape,
    depth: &[AxisSelector],
    key: &AxisSelector,
    masking: Masking<'_>,
) -> Result<Attended, Error> {
    let refuse = |reason: String| Error::Attention {
        query: q.clone(),
        keys: k.clone(),
        values: v.clone(),
        reason,
    };
    let AxisSelector::Name(key_name) = key else {
        return Err(refuse(format!(
            "the key axis is picked by name, not by {key}"
        )));
    };
    let reason = |e: Error| match e {
        Error::Contraction { reason, .. } => reason,
        other => other.to_string(),
    };
    let scores = contract(q, k, depth).map_err(|e| {
        refuse(format!(
            "the queries and keys do not contract: {}",
            reason(e)
                .replace("the left", "the queries")
                .replace("the right", "the keys")
        ))
    })?;
    let Some(at) = key.position(&scores.shape) else {
        return Err(refuse(format!(
            "the keys have no axis {key_name} besides the contracted ones"
        )));
    };
    if scores.plan.lhs[at].is_some() {
        return Err(refuse(format!(
            "the queries have the key axis {key_name} too (name the keys' sequence apart, e.g. rename it)"
        )));
    }
    let Some(vat) = key.position(v) else {
        return Err(refuse(format!("the values have no key axis {key_name}")));
    };
    let kat = scores.plan.rhs[at].expect("a scores axis the queries do not feed is the keys'");
    if let (crate::values::shape::Size::Known(n), crate::values::shape::Size::Known(m)) =
        (k.axes()[kat].size, v.axes()[vat].size)
        && n != m
    {
        return Err(refuse(format!(
            "{key_name} has size {n} in the keys and {m} in the values"
        )));
    }
    let output = contract(&scores.shape, v, core::slice::from_ref(key)).map_err(|e| {
        refuse(format!(
            "the scores {} and the values do not contract over {key_name}: {}",
            scores.shape,
            reason(e)
                .replace("the left", "the scores")
                .replace("the right", "the values")
        ))
    })?;
    let (mut mask, mut causal) = (None, None);
    match masking {
        Masking::None => {}
        Masking::Additive(m) => {
            let plan = assign::broadcast(&scores.shape, m).map_err(|e| {
                refuse(format!(
                    "the mask {m} does not broadcast into the scores {}: {e}",
                    scores.shape
                ))
            })?;
            mask = Some(plan);
        }
        Masking::Causal(axis) => {
            let Some(c) = axis.position(&scores.shape) else {
                return Err(refuse(format!(
                    "the scores {} have no axis {axis} for the causal mask",
                    scores.shape
                )));
            };
            if scores.plan.lhs[c].is_none() || scores.plan.rhs[c].is_some() {
                return Err(refuse(format!(
                    "the causal mask's axis {axis} must be the queries' own (not the keys')"
                )));
            }
            causal = Some(c);
        }
    }
    Ok(Attended {
        scores,
        output,
        key: at,
        mask,
        causal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> DynShape {
        s.parse().unwrap()
    }

    fn refusal(q: &str, k: &str, v: &str, masking: Masking<'_>) -> String {
        attention(
            &shape(q),
            &shape(k),
            &shape(v),
            &["D".parse().unwrap()],
            &"KS".parse().unwrap(),
            masking,
        )
        .unwrap_err()
        .to_string()
    }

    #[test]
    fn grouped_heads_broadcast_and_the_output_keeps_the_query_order() {
        let a = attention(
            &shape("[B: 2, S: 3, H: 2, G: 4, D: 8]"),
            &shape("[B: 2, KS: 5, H: 2, D: 8]"),
            &shape("[B: 2, KS: 5, H: 2, E: 6]"),
            &["D".parse().unwrap()],
            &"KS".parse().unwrap(),
            Masking::None,
        )
        .unwrap();
        assert_eq!(
            a.scores.shape.to_string(),
            "[B: 2, S: 3, H: 2, G: 4, KS: 5]"
        );
        assert_eq!(a.key, 4);
        assert_eq!(a.output.shape.to_string(), "[B: 2, S: 3, H: 2, G: 4, E: 6]");
    }

    #[test]
    fn each_refusal_names_what_is_wrong() {
        let none = Masking::None;
        let r = refusal(
            "[S: 3, H: 2, D: 8]",
            "[KS: 5, H: 2, D: 4]",
            "[KS: 5, H: 2, D: 4]",
            none,
        );
        assert!(r.contains("the queries and keys do not contract"), "{r}");
        let r = refusal("[S: 3, D: 8]", "[KS: 5, D: 8]", "[KS: 4, D: 8]", none);
        assert!(
            r.ends_with("KS has size 5 in the keys and 4 in the values"),
            "{r}"
        );
        let r = refusal("[S: 3, D: 8]", "[S: 3, D: 8]", "[S: 3, D: 8]", none);
        assert!(r.contains("the keys have no axis KS"), "{r}");
        let r = refusal("[KS: 3, D: 8]", "[KS: 3, D: 8]", "[KS: 3, D: 8]", none);
        assert!(r.contains("the queries have the key axis KS too"), "{r}");
        let r = refusal("[S: 3, D: 8]", "[KS: 5, D: 8]", "[T: 5, D: 8]", none);
        assert!(r.contains("the values have no key axis KS"), "{r}");
        let r = refusal(
            "[S: 3, D: 8]",
            "[KS: 5, D: 8]",
            "[KS: 5, D: 8]",
            Masking::Additive(&shape("[S: 3, KS: 4]")),
        );
        assert!(
            r.contains("the mask [S: 3, KS: 4] does not broadcast into the scores [S: 3, KS: 5]"),
            "{r}"
        );
        let r = refusal(
            "[S: 3, D: 8]",
            "[KS: 5, D: 8]",
            "[KS: 5, D: 8]",
            Masking::Additive(&shape("[S: 3, X: 1, KS: 5]")),
        );
        assert!(r.contains("does not broadcast"), "{r}");
        let sel = "KS".parse().unwrap();
        let r = refusal(
            "[S: 3, D: 8]",
            "[KS: 5, D: 8]",
            "[KS: 5, D: 8]",
            Masking::Causal(&sel),
        );
        assert!(r.contains("must be the queries' own"), "{r}");
        let sel = "T".parse().unwrap();
        let r = refusal(
            "[S: 3, D: 8]",
            "[KS: 5, D: 8]",
            "[KS: 5, D: 8]",
            Masking::Causal(&sel),
        );
        assert!(r.contains("have no axis T for the causal mask"), "{r}");
        let r = attention(
            &shape("[S: 3, D: 8]"),
            &shape("[KS: 5, D: 8]"),
            &shape("[KS: 5, D: 8]"),
            &["D".parse().unwrap()],
            &"1".parse().unwrap(),
            Masking::None,
        )
        .unwrap_err()
        .to_string();
        assert!(r.contains("picked by name"), "{r}");
    }
}
