//! The rules, by name: the run-time twin of the type-level markers in `shapecast::rule`, and
//! how each treats a pair of axes (its size and name policies, read by both levels).
//!
//! ```
//! use shapecast::Rule;
//!
//! assert_eq!("numpy".parse::<Rule>()?, Rule::Numpy);
//! assert_eq!("pdpd".parse::<Rule>()?, Rule::Pdpd { axis: -1 });
//! assert_eq!(Rule::default(), Rule::Named);
//! assert!("cubist".parse::<Rule>().is_err());
//! # Ok::<(), shapecast::UnknownRule>(())
//! ```

use crate::alloc_prelude::*;

use core::fmt;
use core::str::FromStr;

/// A broadcasting rule of rule book §1–§10.
///
/// ```
/// use shapecast::{broadcast, Rule};
/// let b = broadcast(Rule::Embed, &"[64, 32, 8, 5]".parse()?, &"[64, 32, 8]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[64, 32, 8, 5]");
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// §1: right-align, prepend 1s, pair position by position (`numpy.broadcast_shapes`).
    Numpy,
    /// §2: pair namesakes, then the rest as NumPy, in the larger operand's frame (the default).
    #[default]
    Named,
    /// §3: every axis of both sides, paired by name, unnamed ones by NumPy (xarray).
    Outer,
    /// §4: the smaller shape is matched to the rightmost order-preserving subsequence.
    Embed,
    /// §5: identical shapes only (OpenVINO `NONE`).
    Strict,
    /// §6: one scalar operand, or identical shapes (comparisons and logic, TML).
    Compare,
    /// §7: as named, but only statically-1 axes stretch (Theano).
    Static,
    /// §8: the right operand onto the left, starting at `axis` (-1: aligned to the end).
    Pdpd {
        /// The start axis, -1 for the default.
        axis: isize,
    },
    /// §9: the input (left) broadcast with the target (right) (ONNX Expand).
    Bidirectional,
    /// §10: the right operand into the left, whose shape never changes (`a += b`).
    Assign,
}

impl Rule {
    /// Every rule, in the order of the rule book (PDPD with its default axis).
    ///
    /// ```
    /// assert_eq!(shapecast::Rule::ALL.len(), shapecast::Rule::NAMES.len());
    /// ```
    pub const ALL: [Rule; 10] = [
        Rule::Numpy,
        Rule::Named,
        Rule::Outer,
        Rule::Embed,
        Rule::Strict,
        Rule::Compare,
        Rule::Static,
        Rule::Pdpd { axis: -1 },
        Rule::Bidirectional,
        Rule::Assign,
    ];

    /// The rules' names, as the CLI and the conformance cases spell them.
    ///
    /// ```
    /// assert_eq!(shapecast::Rule::NAMES.len(), 10);
    /// ```
    pub const NAMES: [&'static str; 10] = {
        let mut names = [""; 10];
        let mut i = 0;
        while i < names.len() {
            names[i] = Rule::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The rule's name: the one place a rule's spelling is written.
    ///
    /// ```
    /// use shapecast::Rule;
    /// assert_eq!(Rule::Pdpd { axis: 1 }.name(), "pdpd");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Numpy => "numpy",
            Rule::Named => "named",
            Rule::Outer => "outer",
            Rule::Embed => "embed",
            Rule::Strict => "strict",
            Rule::Compare => "compare",
            Rule::Static => "static",
            Rule::Pdpd { .. } => "pdpd",
            Rule::Bidirectional => "bidirectional",
            Rule::Assign => "assign",
        }
    }
}

impl Rule {
    /// How this rule treats the names of a pair.
    pub(crate) fn name_policy(self) -> NamePolicy {
        match self {
            Rule::Numpy
            | Rule::Named
            | Rule::Outer
            | Rule::Embed
            | Rule::Bidirectional
            | Rule::Static => NamePolicy::Merge,
            Rule::Strict | Rule::Compare => NamePolicy::Identical,
            Rule::Pdpd { .. } => NamePolicy::Lhs,
            Rule::Assign => NamePolicy::Destination,
        }
    }

    /// How this rule treats the sizes of a pair (shared by both levels for run-time checks).
    pub(crate) fn size_policy(self) -> SizePolicy {
        match self {
            Rule::Numpy | Rule::Named | Rule::Outer | Rule::Embed | Rule::Bidirectional => {
                SizePolicy::Broadcast
            }
            Rule::Static => SizePolicy::StaticOnly,
            Rule::Strict | Rule::Compare => SizePolicy::Exact,
            Rule::Pdpd { .. } | Rule::Assign => SizePolicy::IntoLhs,
        }
    }
}

/// How a rule treats the sizes of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SizePolicy {
    /// Equal, or one is 1; the output takes the other (NumPy).
    Broadcast,
    /// As `Broadcast`, but only a statically-1 size stretches (Theano).
    StaticOnly,
    /// Equal sizes only (strict, compare).
    Exact,
    /// The right must be 1 or equal the left; the output is the left (assign, pdpd).
    IntoLhs,
}

/// How a rule treats the names of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NamePolicy {
    /// Two different names conflict; the output takes either name.
    Merge,
    /// The names must be identical, absence included; the output takes it.
    Identical,
    /// Two different names conflict; the output keeps the left's name (or none).
    Lhs,
    /// As `Lhs`, and a right name facing an unnamed left axis conflicts too: the output is the
    /// destination's shape, so the name would be lost (rule book §10).
    Destination,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not one of [`Rule::NAMES`].
///
/// ```
/// let err = "cubist".parse::<shapecast::Rule>().unwrap_err();
/// assert!(err.to_string().starts_with("unknown rule \"cubist\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?} (one of: {names})", names = Rule::NAMES.join(" "))]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name() == s)
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}
