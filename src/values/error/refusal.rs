//! A rule's refusal of two shapes (rule book §15, §19): both shapes, the rule, the side and
//! axis at fault and the reason, and the sentence it reads as.

use crate::alloc_prelude::*;

use core::fmt;

use crate::values::rule::Rule;
use crate::values::shape::{DynShape, Name, Size};

/// A rule refusing two shapes: both shapes, the rule, and the reason with the axis at fault.
///
/// ```
/// use shapecast::{broadcast, DynShape, Error, Reason, Rule};
///
/// let err = broadcast(Rule::Numpy, &"[H: 2]".parse()?, &"[W: 2]".parse()?).unwrap_err();
/// let Error::Refused(refusal) = err else { panic!() };
/// assert!(matches!(refusal.reason, Reason::Names { axis: 0, .. }));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rule that refused.
    pub rule: Rule,
    /// The left operand (the destination for `assign`, the input for `bidirectional`).
    pub lhs: DynShape,
    /// The right operand (the target for `bidirectional`).
    pub rhs: DynShape,
    /// Why, and where.
    pub reason: Reason,
}

impl core::error::Error for Refusal {}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, r) = (&self.lhs, &self.rhs);
        match self.rule {
            Rule::Assign => write!(f, "cannot assign {r} into {l}")?,
            Rule::Bidirectional => write!(f, "cannot broadcast {l} to {r}")?,
            Rule::Pdpd { .. } => write!(f, "cannot broadcast {r} onto {l}")?,
            Rule::Compare => write!(f, "cannot compare {l} with {r}")?,
            _ => write!(f, "cannot broadcast {l} with {r}")?,
        }
        write!(f, " ({} rule): ", self.rule)?;
        match &self.reason {
            // A pair where one side is named and the other is not: say which is which
            // (rule book §19), and the usual cause.
            Reason::Sizes {
                axis,
                lhs_axis: Some(i),
                rhs_axis: Some(j),
                lhs,
                rhs,
                ..
            } => {
                let (ln, rn) = (&l.axes()[*i].name, &r.axes()[*j].name);
                if ln.is_some() == rn.is_some() {
                    return write!(f, "{}", self.reason);
                }
                let name =
                    |n: &Option<Name>| n.as_ref().map_or("unnamed", Name::as_str).to_string();
                let named = ln.as_ref().or(rn.as_ref()).map_or("", Name::as_str);
                write!(
                    f,
                    "axis {axis} is {} on the left (size {lhs}) and {} on the right (size {rhs}); \
                     {named} has no namesake on the other side, so it took an unnamed axis",
                    name(ln),
                    name(rn),
                )
            }
            Reason::Names {
                axis,
                lhs_name: None,
                rhs_name: Some(n),
                ..
            } if matches!(self.rule, Rule::Assign | Rule::Pdpd { .. }) => write!(
                f,
                "axis {axis} is unnamed in the destination and {n} in the source, so the name {n} \
                 would be lost: rename the source's axis first (or drop its name explicitly)"
            ),
            reason => write!(f, "{reason}"),
        }
    }
}

/// Which operand an axis or a name belongs to.
///
/// ```
/// use shapecast::Side;
/// assert_eq!(Side::Left.to_string(), "left");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The left operand.
    Left,
    /// The right operand.
    Right,
}

impl Side {
    /// The other side.
    ///
    /// ```
    /// use shapecast::Side;
    /// assert_eq!(Side::Left.other(), Side::Right);
    /// ```
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}

/// Why a rule refused, with the output axis at fault where there is one.
///
/// ```
/// use shapecast::{broadcast, DynShape, Error, Reason, Rule, Size};
///
/// let err = broadcast(Rule::Numpy, &"[5, 2, 4, 1]".parse()?, &"[3, 1, 1]".parse()?).unwrap_err();
/// let Error::Refused(r) = err else { panic!() };
/// assert_eq!(r.reason, Reason::Sizes {
///     axis: 1, name: None,
///     lhs_axis: Some(1), rhs_axis: Some(0),
///     lhs: Size::Known(2), rhs: Size::Known(3),
/// });
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Two paired axes whose sizes the rule does not accept.
    Sizes {
        /// The output axis.
        axis: usize,
        /// Its name, if any side names it.
        name: Option<Name>,
        /// The left operand's axis, if any.
        lhs_axis: Option<usize>,
        /// The right operand's axis, if any.
        rhs_axis: Option<usize>,
        /// The left size (1 for an inserted singleton).
        lhs: Size,
        /// The right size (1 for an inserted singleton).
        rhs: Size,
    },
    /// Two paired axes with different names (or, under the strict and compare rules, a name
    /// on one side only).
    Names {
        /// The output axis.
        axis: usize,
        /// The left operand's axis.
        lhs_axis: usize,
        /// The right operand's axis.
        rhs_axis: usize,
        /// The left name.
        lhs_name: Option<Name>,
        /// The right name.
        rhs_name: Option<Name>,
    },
    /// Named rule, step 3: named axes of the smaller operand without a namesake in the other
    /// and no unnamed axis free for them.
    NoNamesake {
        /// The operand that owns the names.
        side: Side,
        /// The names without a namesake.
        names: Vec<Name>,
        /// The output axis where a name met another name.
        axis: usize,
        /// The left operand's axis there.
        lhs_axis: usize,
        /// The right operand's axis there.
        rhs_axis: usize,
    },
    /// Embedding rule: an axis of the smaller operand with no compatible partner left of the
    /// axes matched after it.
    NoMatch {
        /// The smaller operand.
        side: Side,
        /// Its axis that finds no partner.
        axis: usize,
    },
    /// The right operand has more axes than the rule allows (assign, pdpd).
    RhsRank {
        /// The left rank.
        lhs: usize,
        /// The right rank.
        rhs: usize,
    },
    /// The ranks must be equal (strict, compare).
    Ranks {
        /// The left rank.
        lhs: usize,
        /// The right rank.
        rhs: usize,
    },
    /// PDPD: `axis + rank(B)` exceeds `rank(A)`.
    PdpdRange {
        /// The start axis in effect.
        axis: usize,
        /// The right rank after trailing 1s are dropped.
        rhs: usize,
        /// The left rank.
        lhs: usize,
    },
    /// The result would name two axes alike.
    RepeatedName {
        /// The name.
        name: Name,
        /// The first output axis.
        first: usize,
        /// The second output axis.
        second: usize,
    },
    /// Assign: broadcasting would change the destination's size.
    Grows {
        /// The output axis.
        axis: usize,
        /// The destination's size.
        lhs: Size,
        /// The size the broadcast gives.
        out: Size,
    },
}

fn where_(axis: usize, name: &Option<Name>) -> String {
    match name {
        Some(n) => format!("axis {axis} ({n})"),
        None => format!("axis {axis}"),
    }
}

/// One side of a size pair: `size 2`, `size 2 (its axis 1)` or `an inserted 1`; the right
/// side leaves out the word "size" (`2 on the left and 4 on the right`).
fn side_size(size: Size, own: Option<usize>, axis: usize, word: bool) -> String {
    let word = if word { "size " } else { "" };
    match own {
        None => "an inserted 1".to_string(),
        Some(k) if k == axis => format!("{word}{size}"),
        Some(k) => format!("{word}{size} (its axis {k})"),
    }
}

fn names(names: &[Name]) -> String {
    names
        .iter()
        .map(Name::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Sizes {
                axis,
                name,
                lhs_axis,
                rhs_axis,
                lhs,
                rhs,
            } => write!(
                f,
                "{} has {} on the left and {} on the right",
                where_(*axis, name),
                side_size(*lhs, *lhs_axis, *axis, true),
                side_size(*rhs, *rhs_axis, *axis, lhs_axis.is_none()),
            ),
            Reason::Names {
                axis,
                lhs_axis,
                rhs_axis,
                lhs_name,
                rhs_name,
            } => {
                let show = |n: &Option<Name>, k: usize| match n {
                    Some(n) => format!("named {n} (axis {k})"),
                    None => format!("unnamed (axis {k})"),
                };
                write!(
                    f,
                    "axis {axis} pairs an axis {} on the left with one {} on the right",
                    show(lhs_name, *lhs_axis),
                    show(rhs_name, *rhs_axis)
                )
            }
            Reason::NoNamesake {
                side,
                names: n,
                axis,
                ..
            } => write!(
                f,
                "{} on the {side} {} no namesake on the {} and no unnamed axis is free for {} \
                 (at axis {axis} two different names meet; use the outer rule)",
                names(n),
                if n.len() == 1 { "has" } else { "have" },
                side.other(),
                if n.len() == 1 { "it" } else { "them" },
            ),
            Reason::NoMatch { side, axis } => write!(
                f,
                "axis {axis} of the {side} has no compatible partner in order \
                 (no order-preserving matching exists)"
            ),
            Reason::RhsRank { lhs, rhs } => write!(
                f,
                "the right has rank {rhs}, more than the left's rank {lhs}"
            ),
            Reason::Ranks { lhs, rhs } => {
                write!(f, "the ranks differ: {lhs} on the left, {rhs} on the right")
            }
            Reason::PdpdRange { axis, rhs, lhs } => write!(
                f,
                "start axis {axis} plus the right's rank {rhs} exceeds the left's rank {lhs}"
            ),
            Reason::RepeatedName {
                name,
                first,
                second,
            } => write!(
                f,
                "the result would name both axis {first} and axis {second} {name}"
            ),
            Reason::Grows { axis, lhs, out } => write!(
                f,
                "axis {axis} would grow the destination's size {lhs} to {out}"
            ),
        }
    }
}
