//! Contractions at run time (rule book §17): the twin of `typed::contract`. [`contract`] sums
//! over named axes present in both operands and combines the rest by the outer rule;
//! [`matmul`] is NumPy's matmul by position with the batch axes broadcast by the named rule.
//! Both give a [`Contracted`]: the output shape, which operand axis feeds each output axis,
//! and the contracted pairs, which the contraction kernel runs on.
//!
//! ```
//! use shapecast::dynamic::contract::{contract, matmul};
//!
//! let q = "[BATCH: 2, HEADS: 4, SEQ: 8, DK: 16]".parse()?;
//! let k = "[BATCH: 2, HEADS: 4, KSEQ: 8, DK: 16]".parse()?;
//! let scores = contract(&q, &k, &["DK".parse()?])?;
//! assert_eq!(scores.shape.to_string(), "[BATCH: 2, HEADS: 4, SEQ: 8, KSEQ: 8]");
//! assert_eq!(matmul(&"[16, 2, 3]".parse()?, &"[3, 4]".parse()?)?.shape.to_string(), "[16, 2, 4]");
//! assert!(matmul(&"[2, 3]".parse()?, &"[4, 5]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::dynamic::plan::{Plan, StaticPlan};
use crate::dynamic::reduce::apply;
use crate::dynamic::{named, outer};
use crate::values::error::Error;
use crate::values::selector::{selected, AxisSelector, StaticSelectors};
use crate::values::shape::same_str;
use crate::values::shape::{first_repeat, DynAxis, DynShape, Size, MAX_RANK, MAX_TYPED_RANK};

/// A contraction's shape and plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contracted {
    /// The left operand.
    pub lhs: DynShape,
    /// The right operand.
    pub rhs: DynShape,
    /// The output shape (`?` where a size is known only at run time).
    pub shape: DynShape,
    /// For each output axis, the axis of each operand that feeds it (`None`: the operand has
    /// no such axis, and is constant along it).
    pub plan: Plan,
    /// The contracted pairs: (axis of the left, axis of the right), summed over.
    pub contracted: Vec<(usize, usize)>,
    /// What the refusal is called: `contract … over X`, or `multiply … as matrices`.
    what: What,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum What {
    Contract(String),
    MatMul,
}

impl Contracted {
    /// The refusal of this contraction, for `reason`.
    fn refuse(&self, lhs: &DynShape, rhs: &DynShape, reason: String) -> Error {
        match &self.what {
            What::Contract(over) => Error::Contraction {
                lhs: lhs.clone(),
                rhs: rhs.clone(),
                over: over.clone(),
                reason,
            },
            What::MatMul => Error::MatMul {
                lhs: lhs.clone(),
                rhs: rhs.clone(),
                reason,
            },
        }
    }

    /// The output's sizes for operands of these sizes, after the checks that `?` sizes
    /// leave: contracted pairs equal, other pairs equal or one of them 1.
    ///
    /// ```
    /// use shapecast::dynamic::contract::contract;
    /// let c = contract(&"[I: 2, J]".parse()?, &"[J: 3, K]".parse()?, &["J".parse()?])?;
    /// assert_eq!(c.resolve(&[2, 3], &[3, 5])?, vec![2, 5]);
    /// assert!(c.resolve(&[2, 4], &[3, 5]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn resolve(&self, lhs: &[usize], rhs: &[usize]) -> Result<Vec<usize>, Error> {
        let l = self.lhs.resolve(lhs)?;
        let r = self.rhs.resolve(rhs)?;
        let mut out = vec![0; self.plan.rank()];
        let sources = (&self.plan.lhs[..], &self.plan.rhs[..]);
        output_sizes((lhs, rhs), sources, &self.contracted, &mut out).map_err(|fault| {
            let reason = match fault {
                Mismatch::Pair(i, j) => format!(
                    "{} has size {} on the left and {} on the right (contracted sizes never stretch)",
                    axis_label(&self.lhs, i),
                    lhs[i],
                    rhs[j]
                ),
                Mismatch::Axis(k, n, m) => {
                    format!("output axis {k} has size {n} on the left and {m} on the right")
                }
            };
            self.refuse(&l, &r, reason)
        })?;
        Ok(out)
    }
}

/// A contraction's plan as a constant, computed from the operands' types (the twin of a
/// [`Contracted`]'s `plan` and `contracted`): what a typed `dot` or `matmul` runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct StaticContraction {
    /// For each output axis, the source axis of each operand.
    pub plan: StaticPlan,
    /// The number of contracted pairs.
    pub pairs_len: usize,
    /// The contracted pairs (left axis, right axis), in the selector's order.
    pub pairs: [(usize, usize); MAX_TYPED_RANK],
}

impl StaticContraction {
    /// [`contract`] of two shapes with axis names `a` and `b` over `x`, for an accepted
    /// contraction (the type level has checked it): each selector's pair, then the outer
    /// rule's plan (§3, as in [`outer::broadcast`]) on what remains of both operands.
    pub const fn contract(
        a: &[Option<&'static str>],
        b: &[Option<&'static str>],
        x: &StaticSelectors,
    ) -> StaticContraction {
        let mut pairs = [(0, 0); MAX_TYPED_RANK];
        let (mut gone_a, mut gone_b) = ([false; MAX_TYPED_RANK], [false; MAX_TYPED_RANK]);
        let mut p = 0;
        while p < x.len {
            let (i, j) = match (x.position(p, a), x.position(p, b)) {
                (Some(i), Some(j)) => (i, j),
                _ => panic!("a contraction the type level accepted names axes of both operands"),
            };
            pairs[p] = (i, j);
            (gone_a[i], gone_b[j]) = (true, true);
            p += 1;
        }
        let (ra, na) = remaining(a, &gone_a);
        let (rb, nb) = remaining(b, &gone_b);
        // The unnamed ones among what remains of each operand (indices into `ra`, `rb`).
        let (mut ua, mut nua, mut ub, mut nub) = ([0; MAX_TYPED_RANK], 0, [0; MAX_TYPED_RANK], 0);
        let mut k = 0;
        while k < na {
            if a[ra[k]].is_none() {
                ua[nua] = k;
                nua += 1;
            }
            k += 1;
        }
        k = 0;
        while k < nb {
            if b[rb[k]].is_none() {
                ub[nub] = k;
                nub += 1;
            }
            k += 1;
        }
        let mut plan = StaticPlan::EMPTY;
        // The right's extra leading unnamed axes, then the left's axes (its k-th unnamed one
        // paired with the right's unnamed one at the same distance from the end), then the
        // right's named axes the left lacks.
        let extra = nub.saturating_sub(nua);
        k = 0;
        while k < extra {
            plan = plan.then(None, Some(rb[ub[k]]));
            k += 1;
        }
        let offset = nua.saturating_sub(nub);
        let mut seen = 0;
        k = 0;
        while k < na {
            let partner = match a[ra[k]] {
                Some(name) => match position_among(name, b, &rb, nb) {
                    Some(j) => Some(rb[j]),
                    None => None,
                },
                None => {
                    seen += 1;
                    if seen > offset {
                        Some(rb[ub[extra + seen - 1 - offset]])
                    } else {
                        None
                    }
                }
            };
            plan = plan.then(Some(ra[k]), partner);
            k += 1;
        }
        k = 0;
        while k < nb {
            if let Some(name) = b[rb[k]]
                && position_among(name, a, &ra, na).is_none()
            {
                plan = plan.then(None, Some(rb[k]));
            }
            k += 1;
        }
        StaticContraction {
            plan,
            pairs_len: x.len,
            pairs,
        }
    }

    /// `matmul` by position: the batch plan (the named rule on both prefixes, whose indices
    /// are the operands' own), then `M` from the left and `N` from the right when present; the
    /// one pair is `K`.
    pub const fn matmul(batch: StaticPlan, rank_a: usize, rank_b: usize) -> StaticContraction {
        let mut plan = batch;
        if rank_a >= 2 {
            plan = plan.then(Some(rank_a - 2), None);
        }
        if rank_b >= 2 {
            plan = plan.then(None, Some(rank_b - 1));
        }
        let kb = rank_b.saturating_sub(2);
        let mut pairs = [(0, 0); MAX_TYPED_RANK];
        pairs[0] = (rank_a.saturating_sub(1), kb);
        StaticContraction {
            plan,
            pairs_len: 1,
            pairs,
        }
    }

    /// The contracted pairs.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs[..self.pairs_len]
    }

    /// Whether this is the plan the run-time engine computes (`c`).
    pub fn agrees_with(&self, c: &Contracted) -> bool {
        self.plan.to_plan() == c.plan && self.pairs() == &c.contracted[..]
    }

    /// The output's sizes for operands of these sizes into `out` (its first `plan.len`
    /// entries), after the checks [`Contracted::resolve`] makes; `false` when one fails (the
    /// run-time engine then words the refusal).
    pub fn resolve(&self, lhs: &[usize], rhs: &[usize], out: &mut [usize]) -> bool {
        let len = self.plan.len;
        let sources = (&self.plan.lhs[..len], &self.plan.rhs[..len]);
        output_sizes((lhs, rhs), sources, self.pairs(), &mut out[..len]).is_ok()
    }
}

/// Which check of a contraction's sizes failed.
enum Mismatch {
    /// A contracted pair (left axis, right axis) of different sizes.
    Pair(usize, usize),
    /// Output axis `k` fed by sizes `n` and `m`, neither 1 and not equal.
    Axis(usize, usize, usize),
}

/// The output's sizes of a contraction into `out` (one per output axis), for operands of
/// sizes `lhs` and `rhs`: contracted pairs equal, other pairs equal or one of them 1 (rule
/// book §17). The one copy of the rule for both the run-time plan and the types' constant.
fn output_sizes(
    (lhs, rhs): (&[usize], &[usize]),
    (from_l, from_r): (&[Option<usize>], &[Option<usize>]),
    pairs: &[(usize, usize)],
    out: &mut [usize],
) -> Result<(), Mismatch> {
    if let Some(&(i, j)) = pairs.iter().find(|&&(i, j)| lhs[i] != rhs[j]) {
        return Err(Mismatch::Pair(i, j));
    }
    for (k, (size, (&a, &b))) in out.iter_mut().zip(from_l.iter().zip(from_r)).enumerate() {
        *size = match (a, b) {
            (Some(i), Some(j)) => match (lhs[i], rhs[j]) {
                (n, m) if n == m || m == 1 => n,
                (1, m) => m,
                (n, m) => return Err(Mismatch::Axis(k, n, m)),
            },
            (Some(i), None) => lhs[i],
            (None, Some(j)) => rhs[j],
            (None, None) => 1,
        };
    }
    Ok(())
}

/// The axes of a shape (by its names) that `gone` leaves, in order, and how many.
const fn remaining(
    names: &[Option<&str>],
    gone: &[bool; MAX_TYPED_RANK],
) -> ([usize; MAX_TYPED_RANK], usize) {
    let (mut kept, mut n) = ([0; MAX_TYPED_RANK], 0);
    let mut i = 0;
    while i < names.len() && i < MAX_TYPED_RANK {
        if !gone[i] {
            kept[n] = i;
            n += 1;
        }
        i += 1;
    }
    (kept, n)
}

/// Where the axis called `name` is among the first `n` axes `axes` of a shape (by its names).
const fn position_among(
    name: &str,
    names: &[Option<&str>],
    axes: &[usize; MAX_TYPED_RANK],
    n: usize,
) -> Option<usize> {
    let mut k = 0;
    while k < n {
        if let Some(other) = names[axes[k]]
            && same_str(name, other)
        {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// `axis 3 (DK)` or `axis 3`.
fn axis_label(shape: &DynShape, i: usize) -> String {
    match shape.axes()[i].name_str() {
        Some(name) => format!("axis {i} ({name})"),
        None => format!("axis {i}"),
    }
}

/// The selectors as they read in a message: `DK` or `(HEADS, DK)`.
fn selectors_text(names: &[AxisSelector]) -> String {
    let parts: Vec<String> = names
        .iter()
        .map(|s| match s {
            AxisSelector::Name(n) => n.to_string(),
            AxisSelector::Pos(k) => format!("position {k}"),
        })
        .collect();
    match parts.len() {
        1 => parts[0].clone(),
        _ => format!("({})", parts.join(", ")),
    }
}

/// Contracts `lhs` with `rhs` over the named axes `names` (rule book §17): each must be in
/// both, with equal sizes (a `?` is checked by [`Contracted::resolve`]); the other axes combine
/// by the outer rule.
///
/// ```
/// use shapecast::dynamic::contract::contract;
/// let c = contract(&"[I: 2, J: 3]".parse()?, &"[J: 3, K: 4]".parse()?, &["J".parse()?])?;
/// assert_eq!(c.shape.to_string(), "[I: 2, K: 4]");
/// assert_eq!(c.contracted, vec![(1, 0)]);
/// let err = contract(&"[I: 2, J: 3]".parse()?, &"[J: 4]".parse()?, &["J".parse()?]).unwrap_err();
/// assert_eq!(err.to_string(), "cannot contract [I: 2, J: 3] with [J: 4] over J: axis 1 (J) has size 3 on the left and 4 on the right (contracted sizes never stretch)");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn contract(
    lhs: &DynShape,
    rhs: &DynShape,
    names: &[AxisSelector],
) -> Result<Contracted, Error> {
    let over = selectors_text(names);
    let refuse = |reason: String| Error::Contraction {
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        over: over.clone(),
        reason,
    };
    let side_mask = |shape: &DynShape, side: &str| {
        selected(shape, names).map_err(|e| match e {
            Error::UnknownAxis { selector, .. } => {
                refuse(format!("the {side} has no axis {selector}"))
            }
            Error::RepeatedAxis { selector, .. } => refuse(format!("{selector} is selected twice")),
            other => other,
        })
    };
    let (ml, mr) = (side_mask(lhs, "left")?, side_mask(rhs, "right")?);
    let mut contracted = Vec::with_capacity(names.len());
    for sel in names {
        // `side_mask` found every selector on both sides (else it returned the refusal).
        let (i, j) = (
            sel.position(lhs).expect("found above"),
            sel.position(rhs).expect("found above"),
        );
        if let (Size::Known(n), Size::Known(m)) = (lhs.axes()[i].size, rhs.axes()[j].size)
            && n != m
        {
            return Err(refuse(format!(
                "{} has size {n} on the left and {m} on the right (contracted sizes never stretch)",
                axis_label(lhs, i)
            )));
        }
        contracted.push((i, j));
    }
    let kept = |mask: &[bool]| -> Vec<usize> { (0..mask.len()).filter(|&k| !mask[k]).collect() };
    let (kl, kr) = (kept(&ml), kept(&mr));
    let (rest_l, rest_r) = (apply(lhs, &ml, false), apply(rhs, &mr, false));
    let b = outer::broadcast(&rest_l, &rest_r)
        .map_err(|e| refuse(format!("the other axes do not broadcast: {e}")))?;
    let plan = Plan {
        lhs: b.plan.lhs.iter().map(|s| s.map(|k| kl[k])).collect(),
        rhs: b.plan.rhs.iter().map(|s| s.map(|k| kr[k])).collect(),
    };
    Ok(Contracted {
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        shape: b.shape,
        plan,
        contracted,
        what: What::Contract(over),
    })
}

/// NumPy's `matmul(lhs, rhs)` by position (rule book §17): `[..., M, K]` with `[..., K, N]`
/// gives `[..., M, N]`, the batch axes broadcast by the named rule; the `K` pair must be equal
/// in size (a `?` is checked by [`Contracted::resolve`]) and in name where both are named; a
/// rank-1 operand is promoted and its inserted axis removed again; rank 0 and an output that
/// would repeat a name are refused.
///
/// ```
/// use shapecast::dynamic::contract::matmul;
/// let c = matmul(&"[M: 2, K: 3]".parse()?, &"[K: 3, N: 4]".parse()?)?;
/// assert_eq!(c.shape.to_string(), "[M: 2, N: 4]");
/// assert_eq!(matmul(&"[3]".parse()?, &"[3]".parse()?)?.shape.to_string(), "[]");
/// let err = matmul(&"[M: 2, 3]".parse()?, &"[3, M: 4]".parse()?).unwrap_err();
/// assert!(err.to_string().contains("repeat"), "{err}");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn matmul(lhs: &DynShape, rhs: &DynShape) -> Result<Contracted, Error> {
    let refuse = |reason: String| Error::MatMul {
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        reason,
    };
    let (rl, rr) = (lhs.rank(), rhs.rank());
    if rl == 0 || rr == 0 {
        let side = if rl == 0 { "left" } else { "right" };
        return Err(refuse(format!(
            "the {side} is a scalar, which has no matrix axes"
        )));
    }
    // The left is [..., M, K] ([K] when rank 1); the right is [..., K, N] ([K] when rank 1).
    let (ka, m) = (rl - 1, (rl >= 2).then(|| rl - 2));
    let (kb, n) = if rr >= 2 {
        (rr - 2, Some(rr - 1))
    } else {
        (0, None)
    };
    let (batch_l, batch_r) = (rl.saturating_sub(2), rr.saturating_sub(2));
    let (a, b) = (&lhs.axes()[ka], &rhs.axes()[kb]);
    if let (Some(x), Some(y)) = (&a.name, &b.name)
        && x != y
    {
        return Err(refuse(format!(
            "K is axis {ka} ({x}) on the left and axis {kb} ({y}) on the right: two names"
        )));
    }
    if let (Size::Known(x), Size::Known(y)) = (a.size, b.size)
        && x != y
    {
        return Err(refuse(format!(
            "K is axis {ka} of size {x} on the left and axis {kb} of size {y} on the right"
        )));
    }
    let prefix = |s: &DynShape, k: usize| DynShape::from_axes_unchecked(s.axes()[..k].to_vec());
    let batch = named::broadcast(&prefix(lhs, batch_l), &prefix(rhs, batch_r))
        .map_err(|e| refuse(format!("the batch axes do not broadcast: {e}")))?;
    let mut axes: Vec<DynAxis> = batch.shape.axes().to_vec();
    let mut plan = batch.plan.clone();
    if let Some(m) = m {
        axes.push(lhs.axes()[m].clone());
        plan.lhs.push(Some(m));
        plan.rhs.push(None);
    }
    if let Some(n) = n {
        axes.push(rhs.axes()[n].clone());
        plan.lhs.push(None);
        plan.rhs.push(Some(n));
    }
    if let Some((first, second)) = first_repeat(&axes) {
        let name = axes[second].name_str().unwrap_or_default().to_string();
        return Err(refuse(format!(
            "the output would repeat {name} (output axes {first} and {second})"
        )));
    }
    if axes.len() > MAX_RANK {
        return Err(Error::RankTooLarge {
            rank: axes.len(),
            max: MAX_RANK,
        });
    }
    Ok(Contracted {
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        shape: DynShape::from_axes_unchecked(axes),
        plan,
        contracted: vec![(ka, kb)],
        what: What::MatMul,
    })
}

#[cfg(test)]
mod tests;
