//! Outer rule (rule book §3): both sides may bring axes the other lacks (xarray, plus size-1
//! stretching). Names pair by name, unnamed axes by the NumPy rule among themselves. Output:
//! the right's extra leading unnamed axes, then the left's axes in order, then the right's
//! named axes the left lacks.
//!
//! ```
//! use shapecast::dynamic::outer;
//!
//! let b = outer::broadcast(&"[2, H: 3]".parse()?, &"[W: 4, 5, 1]".parse()?)?;
//! assert_eq!(b.shape.to_string(), "[5, 2, H: 3, W: 4]");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::dynamic::pair::combine;
use crate::dynamic::plan::{Broadcasted, Plan};
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// Broadcasts `lhs` with `rhs` by the outer rule.
///
/// ```
/// use shapecast::dynamic::outer;
/// let b = outer::broadcast(&"[H: 2]".parse()?, &"[W: 3]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[H: 2, W: 3]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    let unnamed = |s: &DynShape| -> Vec<usize> {
        (0..s.rank())
            .filter(|&i| s.axes()[i].name.is_none())
            .collect()
    };
    let (ul, ur) = (unnamed(lhs), unnamed(rhs));
    let extra = ur.len().saturating_sub(ul.len());
    let mut plan = Plan::default();
    let mut push = |l: Option<usize>, r: Option<usize>| {
        plan.lhs.push(l);
        plan.rhs.push(r);
    };
    for &j in &ur[..extra] {
        push(None, Some(j));
    }
    // The left's k-th unnamed axis pairs with the right's unnamed axis at the same distance
    // from the end.
    let offset = ul.len().saturating_sub(ur.len());
    let mut k = 0;
    for (i, axis) in lhs.axes().iter().enumerate() {
        let partner = match axis.name_str() {
            Some(name) => rhs.position(name),
            None => {
                k += 1;
                (k > offset).then(|| ur[extra + k - 1 - offset])
            }
        };
        push(Some(i), partner);
    }
    for (j, axis) in rhs.axes().iter().enumerate() {
        if axis.name_str().is_some_and(|n| lhs.position(n).is_none()) {
            push(None, Some(j));
        }
    }
    combine(Rule::Outer, lhs, rhs, plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> Result<String, Error> {
        let b = broadcast(&a.parse()?, &b.parse()?)?;
        Ok(format!("{} | {}", b.shape, b.plan))
    }

    #[test]
    fn seed_label_case() {
        assert_eq!(
            run(
                "[20, CLASS: 3, H: 512, W: 512]",
                "[20, SCALE1: 1, SCALE2: 17, SCALE3: 15, H: 512, W: 512]"
            )
            .unwrap(),
            "[20, CLASS: 3, H: 512, W: 512, SCALE1: 1, SCALE2: 17, SCALE3: 15] \
             | 0,1,2,3,-,-,- ; 0,-,4,5,1,2,3"
        );
    }

    #[test]
    fn unnamed_axes_pair_as_numpy() {
        assert_eq!(run("[3]", "[2, 3]").unwrap(), "[2, 3] | -,0 ; 0,1");
        assert_eq!(run("[2, 3]", "[3]").unwrap(), "[2, 3] | 0,1 ; -,0");
        assert_eq!(
            run("[2, H: 1, 3]", "[H: 4, 1]").unwrap(),
            "[2, H: 4, 3] | 0,1,2 ; -,0,1"
        );
        assert!(run("[3]", "[2]").is_err());
        assert!(run("[H: 3]", "[H: 2]").is_err());
    }
}
