//! `shapecast`: explains any broadcast to a person, or to a program with `--json`.
//!
//! ```text
//! shapecast broadcast [--rule RULE] [--axis N] [--json] LHS RHS
//! shapecast narrow [--json] SHAPE
//! shapecast pattern [--json] SHAPE
//! shapecast reduce [--keep] [--json] SHAPE AXES
//! shapecast contract [--json] LHS RHS NAMES
//! shapecast matmul [--json] LHS RHS
//! shapecast rename [--json] SHAPE AXIS NAME        (NAME `_`: no name)
//! shapecast insert [--json] SHAPE POSITION [NAME]
//! shapecast select [--json] SHAPE AXIS
//! shapecast slice [--json] [--len N] SHAPE AXIS
//! shapecast split [--json] SHAPE AXIS PARTS        (PARTS: "A1: 2, A2: 3")
//! shapecast merge [--json] SHAPE AXES [NAME]       (AXES: A1,A2)
//! shapecast concat [--json] AXIS SHAPE...
//! shapecast stack [--json] NAME SHAPE...           (NAME `_`: no name)
//! ```
//!
//! Exit status: 0 success, 1 the rule refuses the shapes, 2 bad input.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;
use shapecast::dynamic::surgery;
use shapecast::Error;

use commands::{
    new_name, parse, run_broadcast, run_contract, run_narrow, run_pattern, run_reduce, selector,
    surgery,
};

/// Explains tensor broadcasting: which axis of each operand lands where, the run-time checks
/// that `?` sizes leave, or why the rule refuses.
#[derive(Parser, Debug)]
#[command(name = "shapecast", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Broadcast two shapes, e.g. `shapecast broadcast "[?, CHANNEL: 3, H, W]" "[?, H, W]"`.
    Broadcast {
        /// numpy, named, outer, embed, strict, compare, static, pdpd, bidirectional or assign.
        #[arg(long, default_value = "named")]
        rule: String,
        /// The start axis of the pdpd rule (-1: aligned to the end).
        #[arg(long, allow_negative_numbers = true)]
        axis: Option<isize>,
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The left operand (the destination for assign, the input for bidirectional).
        lhs: String,
        /// The right operand (the target for bidirectional).
        rhs: String,
    },
    /// Remove every axis of size 1 (narrowcasting).
    Narrow {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
    },
    /// The shape a reduction leaves, e.g. `shapecast reduce "[N: 2, C: 3, H, W]" H,W`.
    Reduce {
        /// Keep the reduced axes as size-1 axes with their names (NumPy's keepdims).
        #[arg(long)]
        keep: bool,
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axes: names and/or positions, comma-separated (`CLASS`, `1`, `H,W`).
        axes: String,
    },
    /// The shape of a contraction over named axes, e.g.
    /// `shapecast contract "[B, SEQ, DK: 16]" "[B, KSEQ, DK: 16]" DK`.
    Contract {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The left operand.
        lhs: String,
        /// The right operand.
        rhs: String,
        /// The contracted names, comma-separated (`DK`, `HEADS,DK`).
        names: String,
    },
    /// The shape of NumPy's matmul by position, e.g. `shapecast matmul "[16, 2, 3]" "[3, 4]"`.
    Matmul {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The left operand `[..., M, K]`.
        lhs: String,
        /// The right operand `[..., K, N]`.
        rhs: String,
    },
    /// Rename an axis, e.g. `shapecast rename "[N: 2, C: 3]" C K` (`_`: remove the name).
    Rename {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axis: a name or a position.
        axis: String,
        /// The new name, or `_` for none.
        name: String,
    },
    /// Insert a size-1 axis, e.g. `shapecast insert "[H, W]" 0 N`.
    Insert {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// Where the new axis goes (0 to the rank).
        position: usize,
        /// Its name (none if left out).
        name: Option<String>,
    },
    /// The shape left by taking one index of an axis, e.g. `shapecast select "[?, C: 3, H, W]" C`.
    Select {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axis: a name or a position.
        axis: String,
    },
    /// The shape left by slicing an axis, e.g. `shapecast slice --len 10 "[T: 100, F]" T`.
    Slice {
        /// The window's length, if static (else the size becomes `?`).
        #[arg(long)]
        len: Option<usize>,
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axis: a name or a position.
        axis: String,
    },
    /// Split an axis, e.g. `shapecast split "[B, HW: 12]" HW "H: 3, W: 4"`.
    Split {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axis: a name or a position.
        axis: String,
        /// The parts, in the shape notation without brackets (`H: 3, W`).
        parts: String,
    },
    /// Merge adjacent axes, e.g. `shapecast merge "[B, H: 3, W: 4]" H,W HW`.
    Merge {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
        /// The axes, in order, comma-separated.
        axes: String,
        /// The merged axis' name (none if left out).
        name: Option<String>,
    },
    /// Concatenate shapes along an axis, e.g. `shapecast concat T "[T: 3, F: 8]" "[F: 8, T: 5]"`.
    Concat {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The axis: a name or a position (in the first shape).
        axis: String,
        /// The shapes.
        #[arg(required = true)]
        shapes: Vec<String>,
    },
    /// Stack identical shapes under a new leading axis, e.g. `shapecast stack N "[H: 2]" "[H: 2]"`.
    Stack {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The new axis' name, or `_` for none.
        name: String,
        /// The shapes.
        #[arg(required = true)]
        shapes: Vec<String>,
    },
    /// Theano's broadcastable pattern: true where an axis is statically 1.
    Pattern {
        /// Print one JSON object instead of an explanation.
        #[arg(long)]
        json: bool,
        /// The shape.
        shape: String,
    },
}

/// What went wrong, and the exit status it maps to.
enum Failure {
    /// The rule refuses the shapes (exit 1).
    Refused(String),
    /// Malformed shape, bad axis, unknown rule (exit 2).
    BadInput(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        if e.is_refusal() {
            Failure::Refused(e.to_string())
        } else {
            Failure::BadInput(e.to_string())
        }
    }
}

fn main() -> ExitCode {
    // Arguments as the OS gives them: one that is not UTF-8 is bad input (clap says so), not
    // a panic.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = args.iter().any(|a| a == "--json");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            return finish(
                json,
                Err(Failure::BadInput(e.kind().to_string())),
                Some(e.render().to_string()),
            )
        }
    };
    let result = match &cli.command {
        Command::Broadcast {
            rule,
            axis,
            lhs,
            rhs,
            json,
        } => run_broadcast(rule, *axis, lhs, rhs, *json),
        Command::Narrow { shape, json } => run_narrow(shape, *json),
        Command::Pattern { shape, json } => run_pattern(shape, *json),
        Command::Reduce {
            keep,
            json,
            shape,
            axes,
        } => run_reduce(shape, axes, *keep, *json),
        Command::Contract {
            json,
            lhs,
            rhs,
            names,
        } => run_contract(lhs, rhs, Some(names), *json),
        Command::Matmul { json, lhs, rhs } => run_contract(lhs, rhs, None, *json),
        Command::Rename {
            json,
            shape,
            axis,
            name,
        } => surgery(*json, "rename", || {
            Ok(surgery::rename(
                &parse(shape)?,
                &selector(axis)?,
                new_name(name)?.as_ref(),
            )?)
        }),
        Command::Insert {
            json,
            shape,
            position,
            name,
        } => surgery(*json, "insert", || {
            let name = name.as_deref().map(new_name).transpose()?.flatten();
            Ok(surgery::insert_axis(
                &parse(shape)?,
                *position,
                name.as_ref(),
            )?)
        }),
        Command::Select { json, shape, axis } => surgery(*json, "select", || {
            Ok(surgery::select(&parse(shape)?, &selector(axis)?)?)
        }),
        Command::Slice {
            json,
            len,
            shape,
            axis,
        } => surgery(*json, "slice", || {
            Ok(surgery::slice(&parse(shape)?, &selector(axis)?, *len)?)
        }),
        Command::Split {
            json,
            shape,
            axis,
            parts,
        } => surgery(*json, "split", || {
            let parts = parse(&format!("[{parts}]"))?;
            Ok(surgery::split_axis(
                &parse(shape)?,
                &selector(axis)?,
                &parts,
            )?)
        }),
        Command::Merge {
            json,
            shape,
            axes,
            name,
        } => surgery(*json, "merge", || {
            let axes = axes
                .split(',')
                .map(selector)
                .collect::<Result<Vec<_>, _>>()?;
            let name = name.as_deref().map(new_name).transpose()?.flatten();
            Ok(surgery::merge_axes(&parse(shape)?, &axes, name.as_ref())?)
        }),
        Command::Concat { json, axis, shapes } => surgery(*json, "concat", || {
            let shapes = shapes
                .iter()
                .map(|s| parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(surgery::concat(&selector(axis)?, &shapes)?)
        }),
        Command::Stack { json, name, shapes } => surgery(*json, "stack", || {
            let shapes = shapes
                .iter()
                .map(|s| parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(surgery::stack(new_name(name)?.as_ref(), &shapes)?)
        }),
    };
    let json = match cli.command {
        Command::Broadcast { json, .. }
        | Command::Narrow { json, .. }
        | Command::Pattern { json, .. }
        | Command::Reduce { json, .. }
        | Command::Contract { json, .. }
        | Command::Matmul { json, .. }
        | Command::Rename { json, .. }
        | Command::Insert { json, .. }
        | Command::Select { json, .. }
        | Command::Slice { json, .. }
        | Command::Split { json, .. }
        | Command::Merge { json, .. }
        | Command::Concat { json, .. }
        | Command::Stack { json, .. } => json,
    };
    finish(json, result, None)
}

/// The exit status when stdout is closed or fails (a reader that went away, as with
/// `shapecast … | head -0`): 141, as a shell reports a process ended by `SIGPIPE`, which
/// other Unix tools die of there; no message.
const CLOSED_STDOUT: u8 = 141;

/// Writes a line to stdout; `false` when stdout is closed or fails.
fn say(line: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

/// Prints the outcome and gives the exit status.
fn finish(json: bool, result: Result<String, Failure>, usage: Option<String>) -> ExitCode {
    match result {
        Ok(out) => {
            if !say(&out) {
                return ExitCode::from(CLOSED_STDOUT);
            }
            ExitCode::SUCCESS
        }
        Err(failure) => {
            let (code, message) = match failure {
                Failure::Refused(m) => (1, m),
                Failure::BadInput(m) => (2, m),
            };
            let said = if json {
                say(&json!({ "ok": false, "error": message }).to_string())
            } else if let Some(usage) = usage {
                eprint!("{usage}");
                true
            } else if code == 1 {
                say(&format!("refused: {message}"))
            } else {
                eprintln!("error: {message}");
                true
            };
            if !said {
                return ExitCode::from(CLOSED_STDOUT);
            }
            ExitCode::from(code)
        }
    }
}
