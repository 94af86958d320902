//! Embedding rule (rule book §4): the smaller operand's axes are matched to the rightmost
//! order-preserving subsequence of the larger's axes such that every pair is compatible; the
//! larger's other axes face singletons. It accepts everything NumPy accepts, with the same
//! answer, and more.
//!
//! Rightmost means: the last axis is matched as far right as possible, then the one before
//! it, and so on. Matching greedily from the right finds a matching whenever one exists (each
//! greedy choice is at least as far right as that of any valid matching).
//!
//! ```
//! use shapecast::dynamic::embed;
//!
//! let b = embed::broadcast(&"[64, 32, 8, 5]".parse()?, &"[64, 32, 8]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[64, 32, 8, 5]");
//! assert_eq!(b.plan.to_string(), "0,1,2,3 ; 0,1,2,-");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::dynamic::pair::combine;
use crate::dynamic::plan::{Broadcasted, Plan, Sources};
use crate::values::error::{Error, Reason, Refusal, Side};
use crate::values::rule::Rule;
use crate::values::shape::{DynAxis, DynShape, Size};

/// Broadcasts `lhs` with `rhs` by the embedding rule.
///
/// ```
/// use shapecast::dynamic::embed;
/// let b = embed::broadcast(&"[5, 3]".parse()?, &"[5]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[5, 3]");
/// assert!(embed::broadcast(&"[5, 3]".parse()?, &"[4]".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    let swapped = rhs.rank() > lhs.rank();
    let (f, e) = if swapped { (rhs, lhs) } else { (lhs, rhs) };
    let mut partner = Sources::from_elem(None, f.rank());
    let mut bound = f.rank();
    for j in (0..e.rank()).rev() {
        let found = (0..bound)
            .rev()
            .find(|&i| may_pair(f, &f.axes()[i], e, &e.axes()[j]));
        let Some(i) = found else {
            let side = if swapped { Side::Left } else { Side::Right };
            return Err(Error::from(Refusal {
                rule: Rule::Embed,
                lhs: lhs.clone(),
                rhs: rhs.clone(),
                reason: Reason::NoMatch { side, axis: j },
            }));
        };
        partner[i] = Some(j);
        bound = i;
    }
    let frame = (0..f.rank()).map(Some).collect();
    let plan = Plan::framed(swapped, frame, partner);
    combine(Rule::Embed, lhs, rhs, plan)
}

/// Whether axis `a` of `f` and axis `b` of `e` may be a pair: sizes possibly compatible, and
/// names that neither differ nor leave a name to occur twice in the output.
fn may_pair(f: &DynShape, a: &DynAxis, e: &DynShape, b: &DynAxis) -> bool {
    let sizes = match (a.size, b.size) {
        (Size::Known(n), Size::Known(m)) => n == m || n == 1 || m == 1,
        _ => true,
    };
    let names = match (a.name_str(), b.name_str()) {
        (Some(x), Some(y)) => x == y,
        (Some(x), None) => e.position(x).is_none(),
        (None, Some(y)) => f.position(y).is_none(),
        (None, None) => true,
    };
    sizes && names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> Result<String, Error> {
        let b = broadcast(&a.parse()?, &b.parse()?)?;
        Ok(format!("{} | {}", b.shape, b.plan))
    }

    #[test]
    fn rightmost_matching() {
        assert_eq!(
            run("[3, 3, 3]", "[3]").unwrap(),
            "[3, 3, 3] | 0,1,2 ; -,-,0"
        );
        assert_eq!(
            run("[2, 3, 4]", "[2, 4]").unwrap(),
            "[2, 3, 4] | 0,1,2 ; 0,-,1"
        );
        assert_eq!(
            run("[4]", "[2, 3, 4]").unwrap(),
            "[2, 3, 4] | -,-,0 ; 0,1,2"
        );
        assert!(run("[2, 3]", "[3, 2]").is_err());
    }

    #[test]
    fn names_never_conflict_or_repeat() {
        assert_eq!(run("[H: 3, 3]", "[H: 3]").unwrap(), "[H: 3, 3] | 0,1 ; 0,-");
        assert_eq!(
            run("[H: 3, 3]", "[W: 3]").unwrap(),
            "[H: 3, W: 3] | 0,1 ; -,0"
        );
        let err = run("[H: 3, W: 3]", "[C: 3]").unwrap_err().to_string();
        assert!(err.contains("axis 0 of the right"), "{err}");
    }
}
