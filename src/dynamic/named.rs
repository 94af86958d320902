//! Named rule (rule book §2), the default: namesakes pair; the rest is right-aligned against the
//! larger operand's unnamed axes when there are enough of them, else against all its
//! remaining axes; the output is in the larger operand's frame. Without names it is NumPy's
//! rule.
//!
//! ```
//! use shapecast::dynamic::named;
//!
//! let img = "[10, CHANNEL: 3, H: 256, W: 384]".parse()?;
//! let lbl = "[10, H: 256, W: 384]".parse()?;
//! let b = named::broadcast(&img, &lbl)?;
//! assert_eq!(b.shape.to_string(), "[10, CHANNEL: 3, H: 256, W: 384]");
//! assert_eq!(b.plan.to_string(), "0,1,2,3 ; 0,-,1,2");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use smallvec::SmallVec;

use crate::dynamic::pair::combine;
use crate::dynamic::plan::{Broadcasted, Plan, Sources};
use crate::values::error::{Error, Reason, Side};
use crate::values::rule::Rule;
use crate::values::shape::{DynShape, Name};

/// Broadcasts `lhs` with `rhs` by the named rule.
///
/// ```
/// use shapecast::dynamic::named;
/// let b = named::broadcast(&"[3, 4]".parse()?, &"[W: 4]".parse()?)?;
/// assert_eq!(b.shape.to_string(), "[3, W: 4]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn broadcast(lhs: &DynShape, rhs: &DynShape) -> Result<Broadcasted, Error> {
    let pairing = pairing(lhs, rhs);
    finish(Rule::Named, lhs, rhs, pairing)
}

/// Axis positions, inline up to rank 8.
type Axes = SmallVec<[usize; 8]>;

/// How the named rule paired two shapes.
pub(crate) struct Pairing {
    pub(crate) plan: Plan,
    /// When step 3 (positional pairing) was needed: the smaller operand's side and its names
    /// without a namesake, which a name conflict is then blamed on.
    pub(crate) orphans: Option<(Side, Vec<Name>)>,
}

/// Steps 1–3 and 5–6 of the named rule: the frame F is the operand of higher rank (the left
/// on ties); the other, E, is embedded into it.
pub(crate) fn pairing(lhs: &DynShape, rhs: &DynShape) -> Pairing {
    let swapped = rhs.rank() > lhs.rank();
    let (f, e) = if swapped { (rhs, lhs) } else { (lhs, rhs) };
    // Step 1: namesakes.
    let mut partner = Sources::from_elem(None, f.rank());
    for (p, a) in partner.iter_mut().zip(f.axes()) {
        *p = a.name_str().and_then(|n| e.position(n));
    }
    // The axes left without a namesake (inline up to rank 8).
    let (mut e_rest, mut f_rest, mut f_unnamed) = (Axes::new(), Axes::new(), Axes::new());
    for j in 0..e.rank() {
        if !partner.contains(&Some(j)) {
            e_rest.push(j);
        }
    }
    for (i, p) in partner.iter().enumerate() {
        if p.is_none() {
            f_rest.push(i);
            if f.axes()[i].name.is_none() {
                f_unnamed.push(i);
            }
        }
    }
    // Step 2 when F has enough free unnamed axes, else step 3.
    let positional = f_unnamed.len() < e_rest.len();
    let targets = if positional { &f_rest } else { &f_unnamed };
    for (&i, &j) in targets.iter().rev().zip(e_rest.iter().rev()) {
        partner[i] = Some(j);
    }
    let orphans = positional.then(|| {
        let names = e_rest
            .iter()
            .filter_map(|&j| e.axes()[j].name.clone())
            .collect();
        (if swapped { Side::Left } else { Side::Right }, names)
    });
    let mut frame = Sources::from_elem(None, f.rank());
    for (i, p) in frame.iter_mut().enumerate() {
        *p = Some(i);
    }
    let plan = Plan::framed(swapped, frame, partner);
    Pairing { plan, orphans }
}

/// Step 4 under the given policies; a name conflict after step 3 is blamed on the names that
/// had no namesake.
pub(crate) fn finish(
    rule: Rule,
    lhs: &DynShape,
    rhs: &DynShape,
    pairing: Pairing,
) -> Result<Broadcasted, Error> {
    combine(rule, lhs, rhs, pairing.plan).map_err(|err| match (err, pairing.orphans) {
        (Error::Refused(mut r), Some((side, names))) => {
            if let Reason::Names {
                axis,
                lhs_axis,
                rhs_axis,
                ..
            } = r.reason
            {
                r.reason = Reason::NoNamesake {
                    side,
                    names,
                    axis,
                    lhs_axis,
                    rhs_axis,
                };
            }
            Error::Refused(r)
        }
        (err, _) => err,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &str, b: &str) -> Result<Broadcasted, Error> {
        broadcast(&a.parse()?, &b.parse()?)
    }

    #[test]
    fn seed_label_cases() {
        let b = run("[20, H: 512, W: 512]", "[20, CLASS: 3, H: 512, W: 512]").unwrap();
        assert_eq!(b.shape.to_string(), "[20, CLASS: 3, H: 512, W: 512]");
        assert_eq!(b.plan.to_string(), "0,-,1,2 ; 0,1,2,3");
        let err = run(
            "[20, CLASS: 3, H: 512, W: 512]",
            "[20, SCALE1: 1, SCALE2: 17, SCALE3: 15, H: 512, W: 512]",
        )
        .unwrap_err()
        .to_string();
        // The leftmost failing pair is named (rule book §19): SCALE2 took the unnamed 20.
        assert!(
            err.contains(
                "axis 2 is unnamed on the left (size 20) and SCALE2 on the right (size 17)"
            ),
            "{err}"
        );
    }

    #[test]
    fn positional_fallback_lets_unnamed_meet_named() {
        let b = run("[N: 10, C: 3, H: 4, W: 5]", "[3, 1, 1]").unwrap();
        assert_eq!(b.shape.to_string(), "[N: 10, C: 3, H: 4, W: 5]");
        assert_eq!(b.plan.rhs[..], [None, Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn equal_ranks_keep_the_left_frame() {
        let b = run("[W: 3, H: 2]", "[H: 2, W: 3]").unwrap();
        assert_eq!(b.shape.to_string(), "[W: 3, H: 2]");
        assert_eq!(b.plan.rhs[..], [Some(1), Some(0)]);
    }

    #[test]
    fn unnamed_is_numpy() {
        assert!(run("[64, 32, 8, 5]", "[64, 32, 8]").is_err());
        let b = run("[8, 1, 6, 1]", "[7, 1, 5]").unwrap();
        assert_eq!(b.shape.to_string(), "[8, 7, 6, 5]");
    }
}
