//! One pair of axes under a rule's policies (rule book §2 step 4, §14): the broadcast size
//! with the run-time check a `?` leaves, and the name of either side, or the refusal that
//! names both axes (a name conflict before a size conflict). `combine` turns a rule's
//! pairing into the output shape, the plan and the checks. The twin of
//! [`typed::pair`](crate::typed::pair).

use crate::alloc_prelude::*;

use crate::dynamic::plan::{Broadcasted, Check, Condition, Plan};
use crate::values::error::{Error, Reason, Refusal};
use crate::values::rule::{NamePolicy, Rule, SizePolicy};
use crate::values::shape::{first_repeat, DynAxis, DynShape, Name, Size, MAX_RANK};
use smallvec::SmallVec;

/// Sizes of a pair under a policy: the output size and the run-time check it leaves, or
/// `None` when the rule refuses them.
pub(crate) fn pair_size(policy: SizePolicy, l: Size, r: Size) -> Option<(Size, Option<Condition>)> {
    use Size::{Known, Unknown};
    let cond = match policy {
        SizePolicy::Broadcast => Condition::Broadcastable,
        SizePolicy::StaticOnly | SizePolicy::Exact => Condition::Equal,
        SizePolicy::IntoLhs => Condition::RhsFits,
    };
    match (policy, l, r) {
        (_, Known(n), Known(m)) => {
            let ok = match policy {
                SizePolicy::Broadcast | SizePolicy::StaticOnly => {
                    Condition::Broadcastable.holds(n, m)
                }
                SizePolicy::Exact => n == m,
                SizePolicy::IntoLhs => m == n || m == 1,
            };
            let out = if policy == SizePolicy::IntoLhs || m == 1 {
                n
            } else {
                m
            };
            ok.then_some((Known(out), None))
        }
        // A static 1 stretches to the unknown size, with nothing to check.
        (SizePolicy::Broadcast | SizePolicy::StaticOnly, Known(1), Unknown) => {
            Some((Unknown, None))
        }
        (SizePolicy::Broadcast | SizePolicy::StaticOnly, Unknown, Known(1)) => {
            Some((Unknown, None))
        }
        (SizePolicy::IntoLhs, Unknown, Known(1)) => Some((Unknown, None)),
        (SizePolicy::IntoLhs, _, _) => Some((l, Some(cond))),
        (_, Known(n), Unknown) | (_, Unknown, Known(n)) => Some((Known(n), Some(cond))),
        (_, Unknown, Unknown) => Some((Unknown, Some(cond))),
    }
}

/// Names of a pair under a policy: the output name, or `None` when they conflict.
fn pair_name(policy: NamePolicy, l: Option<&Name>, r: Option<&Name>) -> Option<Option<Name>> {
    match (policy, l, r) {
        (NamePolicy::Identical, l, r) => (l == r).then(|| l.cloned()),
        (_, Some(a), Some(b)) if a != b => None,
        (NamePolicy::Merge, l, r) => Some(l.or(r).cloned()),
        (NamePolicy::Destination, None, Some(_)) => None,
        (NamePolicy::Lhs | NamePolicy::Destination, l, _) => Some(l.cloned()),
    }
}

/// A refusal of `lhs` and `rhs` by `rule` for `reason`.
pub(crate) fn refuse(rule: Rule, lhs: &DynShape, rhs: &DynShape, reason: Reason) -> Error {
    Error::from(Refusal {
        rule,
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        reason,
    })
}

/// Turns a pairing into the output shape under the rule's policies: the leftmost output axis
/// whose pair fails is refused, its names judged before its sizes (rule book §19); then the
/// output is checked for a repeated name.
pub(crate) fn combine(
    rule: Rule,
    lhs: &DynShape,
    rhs: &DynShape,
    plan: Plan,
) -> Result<Broadcasted, Error> {
    let (sizes, names) = (rule.size_policy(), rule.name_policy());
    fn get(shape: &DynShape, k: Option<usize>) -> Option<&DynAxis> {
        k.map(|k| &shape.axes()[k])
    }
    let mut axes = SmallVec::<[DynAxis; 8]>::new();
    let mut checks = Vec::new();
    // Output axes left to right, each pair's names before its sizes: the first failure is
    // the pair a refusal names (rule book §19).
    for (i, (&l, &r)) in plan.lhs.iter().zip(&plan.rhs).enumerate() {
        let (a, b) = (get(lhs, l), get(rhs, r));
        let name = match (a, b) {
            (Some(a), Some(b)) => pair_name(names, a.name.as_ref(), b.name.as_ref()),
            (a, b) => Some(a.or(b).and_then(|x| x.name.clone())),
        };
        let Some(name) = name else {
            // Unreachable unwraps: only the first arm, with both axes present (so `l` and
            // `r` are `Some`, as `get` found them), can give `None`.
            let (a, b, l, r) = (a.unwrap(), b.unwrap(), l.unwrap(), r.unwrap());
            let reason = Reason::Names {
                axis: i,
                lhs_axis: l,
                rhs_axis: r,
                lhs_name: a.name.clone(),
                rhs_name: b.name.clone(),
            };
            return Err(refuse(rule, lhs, rhs, reason));
        };
        let size_of = |a: Option<&DynAxis>| a.map_or(Size::Known(1), |a| a.size);
        let (ls, rs) = (size_of(a), size_of(b));
        // An inserted singleton stretches under every policy (there is nothing to compare).
        let paired = match (l, r) {
            (Some(_), Some(_)) => pair_size(sizes, ls, rs),
            (Some(_), None) => Some((ls, None)),
            _ => Some((rs, None)),
        };
        let Some((size, check)) = paired else {
            let reason = Reason::Sizes {
                axis: i,
                name,
                lhs_axis: l,
                rhs_axis: r,
                lhs: ls,
                rhs: rs,
            };
            return Err(refuse(rule, lhs, rhs, reason));
        };
        if let Some(condition) = check {
            checks.push(Check {
                axis: i,
                lhs_axis: l,
                rhs_axis: r,
                lhs: ls,
                rhs: rs,
                condition,
            });
        }
        axes.push(DynAxis { size, name });
    }
    // The outer rule can give rank(lhs) + rank(rhs) axes (found by fuzzing).
    if axes.len() > MAX_RANK {
        return Err(Error::RankTooLarge {
            rank: axes.len(),
            max: MAX_RANK,
        });
    }
    if let Some((first, second)) = first_repeat(&axes) {
        // `first_repeat` compares names only: an unnamed axis is never a repeat.
        let name = axes[second].name.clone().expect("a repeat is named");
        let reason = Reason::RepeatedName {
            name,
            first,
            second,
        };
        return Err(refuse(rule, lhs, rhs, reason));
    }
    // The output is often one of the operands (an image plus its labels): share its axes.
    let shape = if axes[..] == *lhs.axes() {
        lhs.clone()
    } else if axes[..] == *rhs.axes() {
        rhs.clone()
    } else {
        DynShape::from_slice_unchecked(&axes)
    };
    Ok(Broadcasted {
        rule,
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        shape,
        plan,
        checks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Size::{Known, Unknown};

    #[test]
    fn broadcast_sizes_follow_spec_14() {
        let p = SizePolicy::Broadcast;
        assert_eq!(pair_size(p, Known(1), Known(0)), Some((Known(0), None)));
        assert_eq!(pair_size(p, Known(0), Known(5)), None);
        assert_eq!(
            pair_size(p, Known(3), Unknown),
            Some((Known(3), Some(Condition::Broadcastable)))
        );
        assert_eq!(pair_size(p, Known(1), Unknown), Some((Unknown, None)));
        assert_eq!(
            pair_size(p, Unknown, Unknown),
            Some((Unknown, Some(Condition::Broadcastable)))
        );
    }

    #[test]
    fn static_policy_never_stretches_an_unknown() {
        let p = SizePolicy::StaticOnly;
        assert_eq!(pair_size(p, Known(1), Unknown), Some((Unknown, None)));
        assert_eq!(
            pair_size(p, Unknown, Known(3)),
            Some((Known(3), Some(Condition::Equal)))
        );
        assert_eq!(pair_size(p, Known(1), Known(3)), Some((Known(3), None)));
    }

    #[test]
    fn into_policy_keeps_the_left() {
        let p = SizePolicy::IntoLhs;
        assert_eq!(pair_size(p, Known(3), Known(1)), Some((Known(3), None)));
        assert_eq!(pair_size(p, Known(1), Known(3)), None);
        assert_eq!(
            pair_size(p, Unknown, Known(3)),
            Some((Unknown, Some(Condition::RhsFits)))
        );
        assert_eq!(pair_size(p, Unknown, Known(1)), Some((Unknown, None)));
    }

    #[test]
    fn exact_policy_wants_equal_sizes() {
        let p = SizePolicy::Exact;
        assert_eq!(pair_size(p, Known(3), Known(3)), Some((Known(3), None)));
        assert_eq!(pair_size(p, Known(1), Known(3)), None);
    }

    #[test]
    fn name_policies() {
        let h = Name::new("H").unwrap();
        let w = Name::new("W").unwrap();
        assert_eq!(pair_name(NamePolicy::Merge, Some(&h), Some(&w)), None);
        assert_eq!(
            pair_name(NamePolicy::Merge, None, Some(&w)),
            Some(Some(w.clone()))
        );
        assert_eq!(pair_name(NamePolicy::Identical, None, Some(&w)), None);
        assert_eq!(pair_name(NamePolicy::Lhs, None, Some(&w)), Some(None));
        // Assignment never drops a name (rule book §10).
        assert_eq!(pair_name(NamePolicy::Destination, None, Some(&w)), None);
        assert_eq!(
            pair_name(NamePolicy::Destination, Some(&h), None),
            Some(Some(h.clone()))
        );
    }
}
