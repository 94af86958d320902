//! The commands: each parses its arguments into shapes and selectors, runs the rule or the
//! operation on them, and words the answer for a person or as JSON.

use serde_json::{json, Value};
use shapecast::AxisSelector;
use shapecast::{broadcast, Broadcasted, DynShape, Error, Name, Rule};

use crate::Failure;

pub(crate) fn parse(s: &str) -> Result<DynShape, Failure> {
    s.parse::<DynShape>().map_err(Failure::from)
}

pub(crate) fn run_broadcast(
    rule: &str,
    axis: Option<isize>,
    lhs: &str,
    rhs: &str,
    json: bool,
) -> Result<String, Failure> {
    let mut rule: Rule = rule
        .parse()
        .map_err(|e| Failure::BadInput(format!("{e}")))?;
    match (&mut rule, axis) {
        (Rule::Pdpd { axis: a }, Some(axis)) => *a = axis,
        (_, Some(_)) => {
            return Err(Failure::BadInput(format!(
                "--axis applies only to the pdpd rule, not to {rule}"
            )))
        }
        _ => {}
    }
    let (lhs, rhs) = (parse(lhs)?, parse(rhs)?);
    let b = broadcast(rule, &lhs, &rhs)?;
    Ok(if json {
        let checks: Vec<Value> = b
            .checks
            .iter()
            .map(|c| {
                json!({
                    "axis": c.axis,
                    "lhs_axis": c.lhs_axis,
                    "rhs_axis": c.rhs_axis,
                    "lhs": c.lhs.to_string(),
                    "rhs": c.rhs.to_string(),
                    "condition": c.condition.as_str(),
                    "text": c.to_string(),
                })
            })
            .collect();
        json!({
            "ok": true,
            "shape": b.shape.to_string(),
            "plan": { "lhs": &b.plan.lhs[..], "rhs": &b.plan.rhs[..] },
            "checks": checks,
        })
        .to_string()
    } else {
        explain(&b)
    })
}

/// One shape-surgery command: its output shape as a sentence or as JSON.
pub(crate) fn surgery(
    json: bool,
    what: &str,
    run: impl FnOnce() -> Result<DynShape, Failure>,
) -> Result<String, Failure> {
    let out = run()?;
    Ok(if json {
        json!({ "ok": true, "shape": out.to_string() }).to_string()
    } else {
        format!("{what} gives {out}")
    })
}

/// An axis selector: a name or a position.
pub(crate) fn selector(s: &str) -> Result<AxisSelector, Failure> {
    s.parse::<AxisSelector>()
        .map_err(|e| Failure::BadInput(format!("bad axis {s:?}: {e}")))
}

/// A new axis name, `_` for none.
pub(crate) fn new_name(s: &str) -> Result<Option<Name>, Failure> {
    if s == "_" {
        return Ok(None);
    }
    s.parse::<Name>().map(Some).map_err(Failure::from)
}

pub(crate) fn run_narrow(shape: &str, json: bool) -> Result<String, Failure> {
    let shape = parse(shape)?;
    let n = shape.narrow();
    Ok(if json {
        json!({
            "ok": true,
            "shape": n.shape.to_string(),
            "plan": { "lhs": n.kept, "rhs": [] },
            "checks": [],
            "scalar": n.scalar,
        })
        .to_string()
    } else {
        let what = if n.scalar {
            "the element itself (a scalar)".to_string()
        } else if n.kept.len() == shape.rank() {
            "unchanged: no axis has size 1".to_string()
        } else {
            let kept: Vec<String> = n.kept.iter().map(|k| k.to_string()).collect();
            format!("keeps axes {}", kept.join(", "))
        };
        format!("narrow {shape} gives {}: {what}", n.shape)
    })
}

pub(crate) fn run_reduce(
    shape: &str,
    axes: &str,
    keep: bool,
    json: bool,
) -> Result<String, Failure> {
    let shape = parse(shape)?;
    let selectors = axes
        .split(',')
        .map(|a| a.parse::<AxisSelector>())
        .collect::<Result<Vec<_>, Error>>()
        .map_err(|e| Failure::BadInput(format!("bad axis list {axes:?}: {e}")))?;
    let out = shapecast::dynamic::reduce(&shape, &selectors, keep)?;
    Ok(if json {
        json!({ "ok": true, "shape": out.to_string() }).to_string()
    } else {
        let what = if keep {
            "keeping them as size 1"
        } else {
            "removing them"
        };
        format!("reduce {shape} over {axes} ({what}) gives {out}")
    })
}

pub(crate) fn run_contract(
    lhs: &str,
    rhs: &str,
    names: Option<&str>,
    json: bool,
) -> Result<String, Failure> {
    let (a, b) = (parse(lhs)?, parse(rhs)?);
    let c = match names {
        Some(names) => {
            let selectors = names
                .split(',')
                .map(|n| n.parse::<AxisSelector>())
                .collect::<Result<Vec<_>, Error>>()
                .map_err(|e| Failure::BadInput(format!("bad name list {names:?}: {e}")))?;
            shapecast::dynamic::contract(&a, &b, &selectors)?
        }
        None => shapecast::dynamic::matmul(&a, &b)?,
    };
    let contracted: Vec<[usize; 2]> = c.contracted.iter().map(|&(i, j)| [i, j]).collect();
    Ok(if json {
        json!({
            "ok": true,
            "shape": c.shape.to_string(),
            "plan": { "lhs": &c.plan.lhs[..], "rhs": &c.plan.rhs[..] },
            "contracted": contracted,
        })
        .to_string()
    } else {
        let over = match names {
            Some(names) => format!("contract {a} with {b} over {names}"),
            None => format!("matmul {a} by {b}"),
        };
        let pairs: Vec<String> = c
            .contracted
            .iter()
            .map(|(i, j)| format!("left axis {i} with right axis {j}"))
            .collect();
        format!(
            "{over} gives {} (plan {}; summing {})",
            c.shape,
            c.plan,
            pairs.join(", ")
        )
    })
}

pub(crate) fn run_pattern(shape: &str, json: bool) -> Result<String, Failure> {
    let shape = parse(shape)?;
    let pattern = shape.broadcastable();
    Ok(if json {
        json!({ "ok": true, "pattern": pattern }).to_string()
    } else {
        let shown: Vec<&str> = pattern
            .iter()
            .map(|&b| if b { "True" } else { "False" })
            .collect();
        format!(
            "{shape} is broadcastable ({}) (True: statically 1, may stretch)",
            shown.join(", ")
        )
    })
}

/// The explanation for a person: the result, an aligned picture of which axis of each
/// operand lands where, and the run-time checks.
pub(crate) fn explain(b: &Broadcasted) -> String {
    let (l, r) = (&b.lhs, &b.rhs);
    let mut out = format!("{} rule: {l} with {r}\ngives {}\n\n", b.rule, b.shape);
    if b.shape.rank() == 0 {
        out.push_str("  both operands are scalars: nothing to align\n");
    } else {
        out.push_str(&picture(b));
    }
    if b.checks.is_empty() {
        out.push_str("  nothing left to check at run time\n");
    } else {
        out.push_str("  run-time checks:\n");
        for c in &b.checks {
            out.push_str(&format!("    {c}\n"));
        }
    }
    out.trim_end().to_string()
}

/// One column per output axis; a row per operand and one for the result.
pub(crate) fn picture(b: &Broadcasted) -> String {
    let (l, r) = (&b.lhs, &b.rhs);
    let cell = |shape: &DynShape, src: Option<usize>| match src {
        Some(k) => format!("#{k} {}", shape.axes()[k]),
        None => "+ 1".to_string(),
    };
    let mut out = String::new();
    let rows: Vec<(&str, Vec<String>)> = vec![
        ("axis", (0..b.shape.rank()).map(|i| i.to_string()).collect()),
        ("left", b.plan.lhs.iter().map(|&s| cell(l, s)).collect()),
        ("right", b.plan.rhs.iter().map(|&s| cell(r, s)).collect()),
        (
            "result",
            b.shape.axes().iter().map(|a| a.to_string()).collect(),
        ),
    ];
    let widths: Vec<usize> = (0..b.shape.rank())
        .map(|i| rows.iter().map(|(_, c)| c[i].len()).max().unwrap_or(0))
        .collect();
    for (label, cells) in &rows {
        let mut line = format!("  {label:<8}");
        for (c, w) in cells.iter().zip(&widths) {
            line.push_str(&format!("{c:<w$}   "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("\n  #k: the operand's axis k feeds this axis; + 1: a singleton inserted there\n");
    out
}
