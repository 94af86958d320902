//! Reading the conformance cases in `tests/data/*.cases`:
//! `rule | lhs | rhs | expected [| plan or axis=N]`, `#` starts a comment line.
#![allow(dead_code)]

use std::path::Path;

/// What a case expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The rule refuses.
    Error,
    /// The output shape, in the notation.
    Shape(String),
    /// Theano's pattern (rule `pattern`).
    Pattern(Vec<bool>),
}

/// One conformance case.
#[derive(Clone, Debug)]
pub struct Case {
    /// `file:line`, for messages.
    pub at: String,
    pub rule: String,
    pub lhs: String,
    pub rhs: String,
    pub expected: Expected,
    /// The plan, normalised to `0,1 ; -,0`.
    pub plan: Option<String>,
    /// The pdpd axis.
    pub axis: Option<isize>,
}

/// Every case of every `.cases` file under `tests/data/`.
pub fn load() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cases"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            cases.push(parse_case(&format!("{name}:{}", n + 1), line));
        }
    }
    assert!(!cases.is_empty(), "no conformance cases found in {dir:?}");
    cases
}

fn parse_case(at: &str, line: &str) -> Case {
    let cols: Vec<&str> = line.split('|').map(str::trim).collect();
    assert!(
        (4..=5).contains(&cols.len()),
        "{at}: expected 4 or 5 columns: {line}"
    );
    let expected = match (cols[0], cols[3]) {
        (_, "ERROR") => Expected::Error,
        ("pattern", p) => Expected::Pattern(
            p.split(',')
                .map(|b| b.trim().parse().expect("true or false"))
                .collect(),
        ),
        (_, s) => Expected::Shape(s.to_string()),
    };
    let (mut plan, mut axis) = (None, None);
    if let Some(extra) = cols.get(4) {
        if let Some(a) = extra.strip_prefix("axis=") {
            axis = Some(a.trim().parse().expect("axis=N"));
        } else {
            plan = Some(normalise_plan(extra));
        }
    }
    Case {
        at: at.to_string(),
        rule: cols[0].to_string(),
        lhs: cols[1].to_string(),
        rhs: cols[2].to_string(),
        expected,
        plan,
        axis,
    }
}

/// A plan without white space: `0,1;-,0`.
pub fn normalise_plan(p: &str) -> String {
    p.chars().filter(|c| !c.is_whitespace()).collect()
}
