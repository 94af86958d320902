//! Every conformance case in `tests/data/*.cases`, through the library API.

use crate::common::{self, normalise_plan, Expected};
use shapecast::{broadcast, DynShape, Rule};

/// Runs one case; `Err` describes a disagreement.
fn check(case: &common::Case) -> Result<(), String> {
    let lhs: DynShape = case.lhs.parse().map_err(|e| format!("lhs: {e}"))?;
    match case.rule.as_str() {
        "pattern" => {
            let got = lhs.broadcastable();
            return match &case.expected {
                Expected::Pattern(p) if *p == got => Ok(()),
                e => Err(format!("expected {e:?}, got {got:?}")),
            };
        }
        "narrow" => {
            let got = lhs.narrow().shape.to_string();
            return match &case.expected {
                Expected::Shape(s) if *s == got => Ok(()),
                e => Err(format!("expected {e:?}, got {got}")),
            };
        }
        _ => {}
    }
    let rhs: DynShape = case.rhs.parse().map_err(|e| format!("rhs: {e}"))?;
    let mut rule: Rule = case.rule.parse().map_err(|e| format!("{e}"))?;
    if let (Rule::Pdpd { axis }, Some(a)) = (&mut rule, case.axis) {
        *axis = a;
    }
    match (&case.expected, broadcast(rule, &lhs, &rhs)) {
        (Expected::Error, Err(_)) => Ok(()),
        (Expected::Error, Ok(b)) => Err(format!("expected an error, got {}", b.shape)),
        (Expected::Shape(s), Ok(b)) => {
            let want: DynShape = s.parse().map_err(|e| format!("expected: {e}"))?;
            if b.shape != want || b.shape.to_string() != *s {
                return Err(format!("expected {s}, got {}", b.shape));
            }
            match &case.plan {
                Some(p) if *p != normalise_plan(&b.plan.to_string()) => {
                    Err(format!("expected plan {p}, got {}", b.plan))
                }
                _ => Ok(()),
            }
        }
        (e, got) => Err(format!("expected {e:?}, got {got:?}")),
    }
}

#[test]
fn every_case_passes_through_the_library() {
    let cases = common::load();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c)
                .err()
                .map(|e| format!("{} ({}): {e}", c.at, c.rule))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
