//! What a rule computes: the output shape, the *plan* (which axis of each operand feeds each
//! output axis) and the run-time checks that `?` sizes leave (rule book §14).
//!
//! Every rule first decides a pairing of axes, then `combine` turns the pairing into sizes
//! and names under the rule's size and name policies. Keeping that second step in one place is
//! what makes the rules agree with each other where the spec says they must.
//!
//! ```
//! use shapecast::{broadcast, DynShape, Rule};
//!
//! let b = broadcast(Rule::Named, &"[?, CHANNEL: 3, H, W]".parse()?, &"[?, H, W]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[?, CHANNEL: 3, H, W]");
//! assert_eq!(b.plan.rhs[..], [Some(0), None, Some(1), Some(2)]);
//! assert_eq!(b.checks.len(), 3); // the ? pairs on axes 0, 2 and 3
//! assert_eq!(b.resolve(&[8, 3, 32, 32], &[1, 32, 32])?, vec![8, 3, 32, 32]);
//! assert!(b.resolve(&[8, 3, 32, 32], &[2, 32, 32]).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use smallvec::SmallVec;

use core::fmt;

use crate::values::error::{Error, Reason, Refusal};
use crate::values::rule::Rule;
use crate::values::rule::SizePolicy;
use crate::values::shape::{DynShape, Size, MAX_TYPED_RANK};

/// For every output axis, the axis of the left and of the right operand that feeds it, or
/// `None` for an inserted singleton.
///
/// ```
/// use shapecast::{broadcast, Rule};
/// let b = broadcast(Rule::Named, &"[H: 2, W: 3]".parse()?, &"[W: 3, H: 2]".parse()?)?;
/// assert_eq!(b.plan.lhs[..], [Some(0), Some(1)]);
/// assert_eq!(b.plan.rhs[..], [Some(1), Some(0)]); // the right operand is transposed
/// assert_eq!(b.plan.to_string(), "0,1 ; 1,0");
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Plan {
    /// The left operand's source axis for each output axis.
    pub lhs: Sources,
    /// The right operand's source axis for each output axis.
    pub rhs: Sources,
}

/// One side of a [`Plan`]: for each output axis, the operand's source axis (`None`: a
/// singleton inserted there). Stored inline up to rank 4, so computing a plan does not
/// allocate for the common ranks (a larger inline size measured slower: plans are moved by
/// value through the rules); it dereferences to a slice, and collects from an iterator.
///
/// ```
/// use shapecast::{Plan, Sources};
/// let side: Sources = [Some(0), None].into_iter().collect();
/// assert_eq!(side[..], [Some(0), None]);
/// assert_eq!(Plan { lhs: side.clone(), rhs: side }.rank(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Sources(SmallVec<[Option<usize>; 4]>);

impl Sources {
    /// The side with these source axes.
    ///
    /// ```
    /// use shapecast::Sources;
    /// assert_eq!(Sources::from_slice(&[None, Some(0)]).len(), 2);
    /// ```
    pub fn from_slice(sources: &[Option<usize>]) -> Sources {
        Sources(SmallVec::from_slice(sources))
    }

    /// `n` copies of `source`.
    ///
    /// ```
    /// use shapecast::Sources;
    /// assert_eq!(Sources::from_elem(None, 3)[..], [None, None, None]);
    /// ```
    pub fn from_elem(source: Option<usize>, n: usize) -> Sources {
        Sources(SmallVec::from_elem(source, n))
    }

    /// Appends the source of one more output axis.
    ///
    /// ```
    /// use shapecast::Sources;
    /// let mut side = Sources::default();
    /// side.push(Some(2));
    /// assert_eq!(side[..], [Some(2)]);
    /// ```
    pub fn push(&mut self, source: Option<usize>) {
        self.0.push(source);
    }
}

impl core::ops::Deref for Sources {
    type Target = [Option<usize>];
    fn deref(&self) -> &[Option<usize>] {
        &self.0
    }
}

impl core::ops::DerefMut for Sources {
    fn deref_mut(&mut self) -> &mut [Option<usize>] {
        &mut self.0
    }
}

impl FromIterator<Option<usize>> for Sources {
    fn from_iter<I: IntoIterator<Item = Option<usize>>>(iter: I) -> Sources {
        Sources(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Sources {
    type Item = &'a Option<usize>;
    type IntoIter = core::slice::Iter<'a, Option<usize>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Sizes, inline up to rank 8 (a `DynTensor`'s, and the run-time engine's resolved sizes).
pub(crate) type SizeList = SmallVec<[usize; 8]>;

impl Plan {
    /// The plan of an embedding, where the operand of higher rank (`frame`, every axis kept
    /// in place) takes the other's axes where `partner` says: `swapped` when that operand is
    /// the right one.
    pub(crate) fn framed(swapped: bool, frame: Sources, partner: Sources) -> Plan {
        let (lhs, rhs) = if swapped {
            (partner, frame)
        } else {
            (frame, partner)
        };
        Plan { lhs, rhs }
    }

    /// The number of output axes.
    ///
    /// ```
    /// use shapecast::{Plan, Sources};
    /// assert_eq!(Plan { lhs: Sources::from_slice(&[Some(0)]), rhs: Sources::from_slice(&[None]) }.rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        self.lhs.len()
    }

    fn side(&self, f: &mut fmt::Formatter<'_>, side: &[Option<usize>]) -> fmt::Result {
        for (i, s) in side.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match s {
                Some(k) => write!(f, "{k}")?,
                None => f.write_str("-")?,
            }
        }
        Ok(())
    }
}

/// The notation of the conformance cases: `0,1,2,3 ; 0,-,1,2`.
impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.side(f, &self.lhs)?;
        f.write_str(" ; ")?;
        self.side(f, &self.rhs)
    }
}

/// The relation a run-time check requires between the two sizes of a pair.
///
/// ```
/// use shapecast::Condition;
/// assert!(Condition::Broadcastable.holds(1, 5));
/// assert!(!Condition::Equal.holds(1, 5));
/// assert!(Condition::RhsFits.holds(5, 1) && !Condition::RhsFits.holds(1, 5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// Equal, or one of them is 1 (NumPy's compatibility).
    Broadcastable,
    /// Exactly equal (strict, compare, and the static rule's `?` axes).
    Equal,
    /// The right is 1 or equal to the left (assign, pdpd: only the right stretches).
    RhsFits,
}

impl Condition {
    /// Whether the sizes `lhs` and `rhs` satisfy the condition.
    ///
    /// ```
    /// use shapecast::Condition;
    /// assert!(Condition::Equal.holds(3, 3));
    /// ```
    pub fn holds(self, lhs: usize, rhs: usize) -> bool {
        match self {
            Condition::Broadcastable => lhs == rhs || lhs == 1 || rhs == 1,
            Condition::Equal => lhs == rhs,
            Condition::RhsFits => rhs == lhs || rhs == 1,
        }
    }

    /// A short name, as in the CLI's JSON (`equal_or_one`, `equal`, `rhs_one_or_equal`).
    ///
    /// ```
    /// use shapecast::Condition;
    /// assert_eq!(Condition::Equal.as_str(), "equal");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Broadcastable => "equal_or_one",
            Condition::Equal => "equal",
            Condition::RhsFits => "rhs_one_or_equal",
        }
    }
}

/// A check that only run time can do: two paired sizes, at least one of them `?`.
///
/// ```
/// use shapecast::{broadcast, Condition, Rule, Size};
/// let b = broadcast(Rule::Numpy, &"[3]".parse()?, &"[?]".parse()?)?;
/// let c = &b.checks[0];
/// assert_eq!((c.axis, c.lhs, c.rhs, c.condition), (0, Size::Known(3), Size::Unknown, Condition::Broadcastable));
/// assert_eq!(c.to_string(), "axis 0: the left's 3 and the right's ? must be equal or one of them 1");
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Check {
    /// The output axis.
    pub axis: usize,
    /// The left operand's axis.
    pub lhs_axis: Option<usize>,
    /// The right operand's axis.
    pub rhs_axis: Option<usize>,
    /// The left size as known now.
    pub lhs: Size,
    /// The right size as known now.
    pub rhs: Size,
    /// What must hold.
    pub condition: Condition,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, r) = (self.lhs, self.rhs);
        write!(f, "axis {}: ", self.axis)?;
        match self.condition {
            Condition::Broadcastable => write!(
                f,
                "the left's {l} and the right's {r} must be equal or one of them 1"
            ),
            Condition::Equal => write!(f, "the left's {l} and the right's {r} must be equal"),
            Condition::RhsFits => write!(f, "the right's {r} must be 1 or equal the left's {l}"),
        }
    }
}

/// The result of a rule on two shapes: output shape, plan and remaining run-time checks.
///
/// ```
/// use shapecast::{broadcast, Rule};
/// let b = broadcast(Rule::Numpy, &"[5, 1, 4, 1]".parse()?, &"[3, 1, 2]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[5, 3, 4, 2]");
/// assert_eq!(b.plan.to_string(), "0,1,2,3 ; -,0,1,2");
/// assert!(b.checks.is_empty());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broadcasted {
    /// The rule applied.
    pub rule: Rule,
    /// The left operand.
    pub lhs: DynShape,
    /// The right operand.
    pub rhs: DynShape,
    /// The output shape.
    pub shape: DynShape,
    /// Which axis of each operand feeds each output axis.
    pub plan: Plan,
    /// What remains to check once the `?` sizes are known.
    pub checks: Vec<Check>,
}

impl Broadcasted {
    /// Runs the remaining checks on the operands' actual sizes and gives the output's sizes.
    ///
    /// Fails if a size contradicts a known size of its shape, or a check does not hold; the
    /// error names both (resolved) shapes as the rule would have.
    ///
    /// ```
    /// use shapecast::{broadcast, Rule};
    /// let b = broadcast(Rule::Named, &"[?, 3]".parse()?, &"[?]".parse()?)?;
    /// assert_eq!(b.resolve(&[4, 3], &[1])?, vec![4, 3]);
    /// assert!(b.resolve(&[4, 3], &[2]).is_err());
    /// assert!(b.resolve(&[4, 5], &[1]).is_err()); // 5 contradicts the known 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn resolve(&self, lhs: &[usize], rhs: &[usize]) -> Result<Vec<usize>, Error> {
        self.resolve_sizes(lhs, rhs).map(SizeList::into_vec)
    }

    /// [`resolve`](Self::resolve) into inline storage (no allocation up to rank 8).
    pub(crate) fn resolve_sizes(&self, lhs: &[usize], rhs: &[usize]) -> Result<SizeList, Error> {
        // The resolved shapes are built only to word a refusal.
        if !(self.lhs.fits(lhs) && self.rhs.fits(rhs)) {
            self.lhs.resolve(lhs)?;
            self.rhs.resolve(rhs)?;
        }
        for check in &self.checks {
            let l = check.lhs_axis.map_or(1, |k| lhs[k]);
            let r = check.rhs_axis.map_or(1, |k| rhs[k]);
            if !check.condition.holds(l, r) {
                return Err(Refusal {
                    rule: self.rule,
                    lhs: self.lhs.resolve(lhs)?,
                    rhs: self.rhs.resolve(rhs)?,
                    reason: Reason::Sizes {
                        axis: check.axis,
                        name: self.shape.axes()[check.axis].name.clone(),
                        lhs_axis: check.lhs_axis,
                        rhs_axis: check.rhs_axis,
                        lhs: Size::Known(l),
                        rhs: Size::Known(r),
                    },
                }
                .into());
            }
        }
        let axes = self.shape.axes();
        let mut out = SizeList::from_elem(1, axes.len());
        for (i, (size, axis)) in out.iter_mut().zip(axes).enumerate() {
            *size = match axis.size {
                Size::Known(n) => n,
                Size::Unknown => {
                    let l = self.plan.lhs[i].map_or(1, |k| lhs[k]);
                    let r = self.plan.rhs[i].map_or(1, |k| rhs[k]);
                    match self.rule.size_policy() {
                        // Rules that broadcast into the left keep its sizes.
                        SizePolicy::IntoLhs => l,
                        _ if l == 1 => r,
                        _ => l,
                    }
                }
            };
        }
        Ok(out)
    }
}

/// A plan as a constant: for each output axis (up to [`MAX_TYPED_RANK`]), the source axis of each operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct StaticPlan {
    /// The number of output axes.
    pub len: usize,
    /// The left operand's source axes.
    pub lhs: [Option<usize>; MAX_TYPED_RANK],
    /// The right operand's source axes.
    pub rhs: [Option<usize>; MAX_TYPED_RANK],
}

impl StaticPlan {
    /// No axes.
    pub const EMPTY: StaticPlan = StaticPlan {
        len: 0,
        lhs: [None; MAX_TYPED_RANK],
        rhs: [None; MAX_TYPED_RANK],
    };

    /// The plan as a run-time value.
    pub fn to_plan(&self) -> Plan {
        Plan {
            lhs: Sources::from_slice(&self.lhs[..self.len]),
            rhs: Sources::from_slice(&self.rhs[..self.len]),
        }
    }

    /// This plan with one more output axis at the end.
    pub const fn then(mut self, lhs: Option<usize>, rhs: Option<usize>) -> StaticPlan {
        if self.len < MAX_TYPED_RANK {
            self.lhs[self.len] = lhs;
            self.rhs[self.len] = rhs;
            self.len += 1;
        }
        self
    }
}
