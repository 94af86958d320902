//! The `shapecast` command: every conformance case through `--json`, exit statuses, the
//! explanation for a person, and bad input of every kind.

mod common;

use std::process::Command;

use common::Expected;
use serde_json::Value;

/// Runs the command; gives the exit status, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecast"))
        .args(args)
        .output()
        .expect("the shapecast binary runs");
    (
        out.status.code().expect("exited normally, not by a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs with `--json`; the output must be exactly one JSON object.
fn run_json(args: &[&str]) -> (i32, Value) {
    let (code, stdout, _) = run(args);
    let value: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}): {stdout:?}"));
    assert!(value.is_object(), "{value}");
    assert_eq!(stdout.trim().lines().count(), 1, "{stdout}");
    (code, value)
}

fn plan_string(plan: &Value) -> String {
    let side = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().map_or("-".to_string(), |k| k.to_string()))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{};{}", side(&plan["lhs"]), side(&plan["rhs"]))
}

#[test]
fn every_case_passes_through_the_cli() {
    let mut failures = Vec::new();
    let cases = common::load();
    for case in &cases {
        let axis = case.axis.map(|a| a.to_string());
        let args: Vec<&str> = match case.rule.as_str() {
            "narrow" | "pattern" => vec![&case.rule, "--json", &case.lhs],
            _ => {
                let mut a = vec!["broadcast", "--json", "--rule", &case.rule];
                if let Some(axis) = &axis {
                    a.extend(["--axis", axis]);
                }
                a.extend([case.lhs.as_str(), case.rhs.as_str()]);
                a
            }
        };
        let (code, v) = run_json(&args);
        let ok = match &case.expected {
            Expected::Error => code == 1 && v["ok"] == false && v["error"].is_string(),
            Expected::Shape(s) => {
                code == 0
                    && v["ok"] == true
                    && v["shape"] == s.as_str()
                    && case
                        .plan
                        .as_ref()
                        .is_none_or(|p| *p == plan_string(&v["plan"]))
            }
            Expected::Pattern(p) => code == 0 && v["pattern"] == serde_json::json!(p),
        };
        if !ok {
            failures.push(format!("{}: exit {code}, {v}", case.at));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_success_carries_plan_and_checks() {
    let (code, v) = run_json(&["broadcast", "--json", "[?, CHANNEL: 3, H, W]", "[?, H, W]"]);
    assert_eq!(code, 0);
    assert_eq!(v["shape"], "[?, CHANNEL: 3, H, W]");
    assert_eq!(plan_string(&v["plan"]), "0,1,2,3;0,-,1,2");
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3);
    assert_eq!(checks[0]["axis"], 0);
    assert_eq!(checks[0]["condition"], "equal_or_one");
}

#[test]
fn narrow_reports_scalars() {
    let (_, v) = run_json(&["narrow", "--json", "[1, 1, 1]"]);
    assert_eq!(
        (v["shape"].as_str(), v["scalar"].as_bool()),
        (Some("[]"), Some(true))
    );
    let (_, v) = run_json(&["narrow", "--json", "[1, 5, 1]"]);
    assert_eq!(
        (v["shape"].as_str(), v["scalar"].as_bool()),
        (Some("[5]"), Some(false))
    );
    assert_eq!(v["plan"]["lhs"], serde_json::json!([1]));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let bad: &[&[&str]] = &[
        &["broadcast", "--json", "[3", "[3]"],
        &["broadcast", "--json", "3]", "[3]"],
        &["broadcast", "--json", "[3,,4]", "[3]"],
        &["broadcast", "--json", "[-1]", "[3]"],
        &["broadcast", "--json", "[3]", "[99999999999999999999999999]"],
        &["broadcast", "--json", "[3-x]", "[3]"],
        &["broadcast", "--json", "[H, H]", "[3]"],
        &["broadcast", "--json", "[2.5]", "[3]"],
        &["broadcast", "--json", "--rule", "cubist", "[3]", "[3]"],
        &[
            "broadcast",
            "--json",
            "--rule",
            "pdpd",
            "--axis",
            "-2",
            "[3]",
            "[3]",
        ],
        &[
            "broadcast",
            "--json",
            "--rule",
            "pdpd",
            "--axis",
            "x",
            "[3]",
            "[3]",
        ],
        &[
            "broadcast",
            "--json",
            "--rule",
            "numpy",
            "--axis",
            "1",
            "[3]",
            "[3]",
        ],
        &["broadcast", "--json", "[3]"],
        &["narrow", "--json", "[1 1]"],
        &["pattern", "--json", "[?"],
        &["transpose", "--json", "[3]"],
    ];
    for args in bad {
        let (code, v) = run_json(args);
        assert_eq!(code, 2, "{args:?}: {v}");
        assert_eq!(v["ok"], false, "{args:?}");
        assert!(!v["error"].as_str().unwrap().is_empty(), "{args:?}");
    }
}

#[test]
fn bad_input_without_json_explains_on_stderr() {
    let (code, stdout, stderr) = run(&["broadcast", "[H: -1]", "[3]"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("negative size -1"), "{stderr}");
}

#[test]
fn refusal_explains_the_axis_at_fault() {
    let (code, stdout, _) = run(&["broadcast", "--rule", "numpy", "[2, 3]", "[4, 3]"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("cannot broadcast [2, 3] with [4, 3] (numpy rule): axis 0 has size 2 on the left and 4 on the right"),
        "{stdout}"
    );
}

#[test]
fn explanation_shows_inserted_and_permuted_axes() {
    let (code, stdout, _) = run(&[
        "broadcast",
        "[10, CHANNEL: 3, H: 256, W: 384]",
        "[10, H: 256, W: 384]",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("gives [10, CHANNEL: 3, H: 256, W: 384]"),
        "{stdout}"
    );
    let right = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("right"))
        .unwrap();
    assert!(
        right.contains("#0 10") && right.contains("+ 1") && right.contains("#1 H: 256"),
        "{right}"
    );
    let (_, stdout, _) = run(&["broadcast", "[H: 2, W: 3]", "[W: 3, H: 2]"]);
    let right = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("right"))
        .unwrap();
    assert!(
        right.find("#1 H: 2").unwrap() < right.find("#0 W: 3").unwrap(),
        "{right}"
    );
}

#[test]
fn explanation_lists_run_time_checks() {
    let (code, stdout, _) = run(&["broadcast", "--rule", "assign", "[?, 3]", "[4, 1]"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("axis 0: the right's 4 must be 1 or equal the left's ?"),
        "{stdout}"
    );
}

#[test]
fn help_exits_0() {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("broadcast"));
}

#[test]
fn reduce_gives_the_shape_or_refuses() {
    let shape = "[N: 2, CLASS: 3, H, W]";
    for (axes, keep, out) in [
        ("CLASS", false, "[N: 2, H, W]"),
        ("1", false, "[N: 2, H, W]"),
        ("H,W", false, "[N: 2, CLASS: 3]"),
        ("H,W", true, "[N: 2, CLASS: 3, H: 1, W: 1]"),
        ("0, 1, 2, 3", false, "[]"),
        ("W,0", true, "[N: 1, CLASS: 3, H, W: 1]"),
    ] {
        let mut args = vec!["reduce", "--json", shape, axes];
        if keep {
            args.insert(1, "--keep");
        }
        let (code, v) = run_json(&args);
        assert_eq!(code, 0, "{axes}: {v}");
        assert_eq!(v["ok"], true);
        assert_eq!(v["shape"], out, "{axes}");
    }
    for axes in ["Q", "4", "H,H", "CLASS,1"] {
        let (code, v) = run_json(&["reduce", "--json", shape, axes]);
        assert_eq!(code, 1, "{axes}: {v}");
        assert_eq!(v["ok"], false);
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("cannot reduce [N: 2, CLASS: 3, H, W]"),
            "{v}"
        );
    }
    for (shape, axes) in [
        ("[N: 2", "N"),
        ("[N: 2]", ""),
        ("[N: 2]", "N,"),
        ("[N: 2]", "9x"),
    ] {
        let (code, v) = run_json(&["reduce", "--json", shape, axes]);
        assert_eq!(code, 2, "{shape} {axes}: {v}");
        assert_eq!(v["ok"], false);
    }
    let (code, out, _) = run(&["reduce", "[?, CLASS: 10]", "CLASS"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "reduce [?, CLASS: 10] over CLASS (removing them) gives [?]"
    );
}

#[test]
fn contract_and_matmul_give_the_shape_or_refuse() {
    let (code, v) = run_json(&[
        "contract",
        "--json",
        "[B, HEADS, SEQ, DK: 16]",
        "[B, HEADS, KSEQ, DK: 16]",
        "DK",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["shape"], "[B, HEADS, SEQ, KSEQ]");
    assert_eq!(v["contracted"], serde_json::json!([[3, 3]]));
    assert_eq!(plan_string(&v["plan"]), "0,1,2,-;0,1,-,2");
    let (code, v) = run_json(&[
        "contract",
        "--json",
        "[B, HEADS, SEQ, DK: 16]",
        "[B, HEADS, KSEQ, DK: 16]",
        "HEADS,DK",
    ]);
    assert_eq!((code, v["shape"].as_str()), (0, Some("[B, SEQ, KSEQ]")));
    for (lhs, rhs, names) in [
        ("[I: 2, J: 3]", "[K: 3]", "J"),
        ("[I: 2, J: 3]", "[J: 4]", "J"),
        ("[5, J: 3]", "[4, J: 3]", "J"),
    ] {
        let (code, v) = run_json(&["contract", "--json", lhs, rhs, names]);
        assert_eq!(code, 1, "{v}");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with(&format!("cannot contract {lhs} with {rhs} over {names}: ")),
            "{v}"
        );
    }
    for args in [
        ["[I: 2", "[I: 2]", "I"],
        ["[I: 2]", "[I: 2]", ""],
        ["[I: 2]", "[I: 2]", "I,"],
    ] {
        let (code, v) = run_json(&["contract", "--json", args[0], args[1], args[2]]);
        assert_eq!(code, 2, "{v}");
    }
    let (code, v) = run_json(&["matmul", "--json", "[16, 256, 256]", "[256, 256]"]);
    assert_eq!((code, v["shape"].as_str()), (0, Some("[16, 256, 256]")));
    for (lhs, rhs) in [
        ("[2, 3]", "[4, 5]"),
        ("[]", "[3]"),
        ("[2, 2, 3]", "[5, 3, 4]"),
        ("[M: 2, 3]", "[3, M: 4]"),
    ] {
        let (code, v) = run_json(&["matmul", "--json", lhs, rhs]);
        assert_eq!(code, 1, "{lhs} {rhs}: {v}");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with(&format!("cannot multiply {lhs} by {rhs} as matrices: ")),
            "{v}"
        );
    }
    let (code, _) = run_json(&["matmul", "--json", "[2, 3", "[3]"]);
    assert_eq!(code, 2);
    let (code, out, _) = run(&["matmul", "[3]", "[3, 4]"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "matmul [3] by [3, 4] gives [4] (plan - ; 1; summing left axis 0 with right axis 0)"
    );
}

#[test]
fn surgery_commands_give_the_shape_or_refuse() {
    let ok: &[(&[&str], &str)] = &[
        (&["rename", "[N: 2, C: 3]", "C", "K"], "[N: 2, K: 3]"),
        (&["rename", "[N: 2, C: 3]", "1", "_"], "[N: 2, 3]"),
        (&["insert", "[H, W]", "2", "N"], "[H, W, N: 1]"),
        (&["insert", "[H, W]", "0"], "[1, H, W]"),
        (&["select", "[?, C: 3, H, W]", "C"], "[?, H, W]"),
        (&["slice", "[T: 100, F]", "T"], "[T, F]"),
        (&["slice", "--len", "10", "[T: 100, F]", "T"], "[T: 10, F]"),
        (&["split", "[B, HW: 12]", "HW", "H: 3, W"], "[B, H: 3, W]"),
        (&["merge", "[B, H: 3, W: 4]", "H,W", "HW"], "[B, HW: 12]"),
        (&["merge", "[B, H: 3, W]", "H,W"], "[B, ?]"),
        (
            &["concat", "T", "[T: 3, F: 8]", "[F: 8, T: 5]", "[T: 1, F]"],
            "[T: 9, F: 8]",
        ),
        (
            &["stack", "N", "[H: 2]", "[H: 2]", "[H: 2]"],
            "[N: 3, H: 2]",
        ),
    ];
    for (args, shape) in ok {
        let mut with_json = args.to_vec();
        with_json.insert(1, "--json");
        let (code, v) = run_json(&with_json);
        assert_eq!((code, v["shape"].as_str()), (0, Some(*shape)), "{args:?}");
    }
    let refused: &[&[&str]] = &[
        &["rename", "[N: 2, C: 3]", "C", "N"],
        &["insert", "[H, W]", "3"],
        &["select", "[H, W]", "C"],
        &["slice", "--len", "101", "[T: 100, F]", "T"],
        &["split", "[B, HW: 12]", "HW", "H: 5, W"],
        &["merge", "[A, B, C]", "A,C"],
        &["concat", "T", "[T: 3, F: 8]", "[T: 5, F: 4]"],
        &["stack", "N", "[H: 2]", "[H: 3]"],
    ];
    for args in refused {
        let mut with_json = args.to_vec();
        with_json.insert(1, "--json");
        let (code, v) = run_json(&with_json);
        assert_eq!((code, v["ok"].as_bool()), (1, Some(false)), "{args:?}");
        assert!(
            v["error"].as_str().unwrap().starts_with("cannot "),
            "{args:?}: {v}"
        );
    }
    for args in [
        &["rename", "[N: 2]", "N", "2D"][..],
        &["split", "[HW: 12]", "HW", "H: 3, W: ,"],
        &["insert", "[H]", "x"],
    ] {
        let mut with_json = args.to_vec();
        with_json.insert(1, "--json");
        assert_eq!(run_json(&with_json).0, 2, "{args:?}");
    }
    let (code, out, _) = run(&["merge", "[B, H: 3, W: 4]", "H,W", "HW"]);
    assert_eq!((code, out.trim()), (0, "merge gives [B, HW: 12]"));
}

/// An argument that is not UTF-8 is bad input (exit 2), not a panic.
#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_bad_input() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"[\xff]");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecast"))
        .args([
            std::ffi::OsStr::new("broadcast"),
            arg,
            std::ffi::OsStr::new("[2]"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid UTF-8") && !err.contains("panicked"),
        "{err}"
    );
}

/// A stdout that fails (a full device; a closed pipe behaves the same) ends the command
/// quietly with 141, the status a shell gives a process `SIGPIPE` ended.
#[cfg(target_os = "linux")]
#[test]
fn a_failing_stdout_ends_quietly() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shapecast"))
        .args(["broadcast", "[2, 3]", "[3]"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
