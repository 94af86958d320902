#!/usr/bin/env python3
"""Writes tests/types/surgery_agreement.rs: shape surgery at the type level against the run-time
engine (rule book §18). Random shapes (names, `?`, static sizes) and operations (rename,
insert, select, slice, split, merge, concat, stack), with missing names, names taken,
positions past the rank, wrong products and sums, axes out of order, fixed seed. The
expectation comes from the `shapecast` command's surgery subcommands, so build it first:

    cargo build --release --features cli --bin shapecast
    python3 scripts/gen_surgery_cases.py

Each case records the command line, the command's verdict and shape, and the type-level
form. The test checks, for each case, that the type level accepts exactly when the command
does and computes the same shape, and runs `dynamic::surgery` again on the command line.
Where the two levels differ by design the case says so:
- a stacked axis' size (the count) is `?` at the type level (a concatenated or merged axis
  written without its size takes the static sum or product, as the command does);
- a `?` part of a static axis is found only at run time, so a split that the command refuses
  for it (two `?` parts, or static parts that do not divide) compiles (`deferred`);
- a merged axis written with a wrong size is refused by the type level only (the command
  takes no size).
"""
import json, os, random, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "target", "release", "shapecast")
SEED = 20261124
CASES = 400
NAMES = ["A", "B", "C", "H", "W", "T"]
SIZES = ["0", "1", "2", "3", "4", "6", "?"]


def cli(args):
    out = subprocess.run([CLI, args[0], "--json", *args[1:]], capture_output=True, text=True)
    if out.returncode == 2:
        raise SystemExit(f"bad input: {args}: {out.stdout}")
    return out.returncode, json.loads(out.stdout)


def random_shape(rng, lo=0, hi=4):
    axes, used = [], set()
    for _ in range(rng.randint(lo, hi)):
        size = rng.choice(SIZES)
        name = rng.choice(NAMES) if rng.random() < 0.6 else None
        if name in used:
            name = None
        if name:
            used.add(name)
        axes.append((name, size))
    return axes


def text(axes):
    def one(a):
        name, size = a
        if name:
            return name if size == "?" else f"{name}: {size}"
        return size
    return "[" + ", ".join(one(a) for a in axes) + "]"


def ty(axes):
    return "shape!" + text(axes)


def axis_ty(name, size):
    """An axis type: `H<S<3>>`, `H`, `S<3>`, `Dyn`."""
    if name:
        return name if size == "?" else f"{name}<S<{size}>>"
    return "Dyn" if size == "?" else f"S<{size}>"


def sel_ty(sel):
    return sel if sel[0].isalpha() else f"Pos<{sel}>"


def new_ty(name):
    return "Unnamed" if name == "_" else name


def random_sel(rng, axes):
    names = [n for n, _ in axes if n]
    r = rng.random()
    if r < 0.55 and names:
        return rng.choice(names)
    if r < 0.9 or not names:
        return str(rng.randrange(len(axes) + (1 if rng.random() < 0.1 else 0)))
    return rng.choice(NAMES)


def position(axes, sel):
    if sel[0].isdigit():
        k = int(sel)
        return k if k < len(axes) else None
    for k, (n, _) in enumerate(axes):
        if n == sel:
            return k
    return None


def product(sizes):
    p = 1
    for s in sizes:
        if s == "?":
            return None
        p *= int(s)
    return p


def with_size_unknown(shape_text, k):
    """The printed shape with axis k's size replaced by `?` (a bare name at the type level)."""
    inner = shape_text[1:-1]
    axes = [a.strip() for a in inner.split(",")] if inner else []
    a = axes[k]
    axes[k] = a.split(":")[0] if ":" in a else ("?" if a[0].isdigit() else a)
    return "[" + ", ".join(axes) + "]"


def case(rng, op):
    """One case: (kind, args, type expression, probe, type-level expectation or None)."""
    s = random_shape(rng, 1 if op in ("select", "slice", "split", "merge", "concat") else 0)
    if op == "rename" and not s:
        s = random_shape(rng, 1)
    if op == "rename":
        sel, new = random_sel(rng, s), rng.choice(NAMES + ["_"])
        args = ["rename", text(s), sel, new]
        probe = f"RenameAxis<{sel_ty(sel)}, {new_ty(new)}>"
        expr = f"Rename<{ty(s)}, {sel_ty(sel)}, {new_ty(new)}>"
        return args, probe, expr, None
    if op == "insert":
        k = rng.randint(0, len(s) + (1 if rng.random() < 0.15 else 0))
        new = rng.choice(NAMES + ["_"])
        args = ["insert", text(s), str(k)] + ([] if new == "_" else [new])
        return args, f"InsertAxisAt<{k}, {new_ty(new)}>", f"InsertAxis<{ty(s)}, {k}, {new_ty(new)}>", None
    if op == "select":
        sel = random_sel(rng, s)
        return ["select", text(s), sel], f"SelectAxis<{sel_ty(sel)}>", f"Select<{ty(s)}, {sel_ty(sel)}>", None
    if op == "slice":
        sel = random_sel(rng, s)
        if rng.random() < 0.5:
            return ["slice", text(s), sel], f"SliceAxis<{sel_ty(sel)}, Dyn>", f"Slice<{ty(s)}, {sel_ty(sel)}>", None
        n = rng.randint(0, 7)
        return (["slice", "--len", str(n), text(s), sel], f"SliceAxis<{sel_ty(sel)}, S<{n}>>",
                f"SliceTo<{ty(s)}, {sel_ty(sel)}, S<{n}>>", None)
    if op == "split":
        sel = random_sel(rng, s)
        k = position(s, sel)
        whole = s[k][1] if k is not None else rng.choice(SIZES)
        count = rng.randint(1, 3)
        if whole not in ("?", "0") and rng.random() < 0.8:
            n, parts = int(whole), []
            for _ in range(count - 1):
                d = rng.choice([d for d in range(1, n + 1) if n % d == 0])
                parts.append(str(d))
                n //= d
            parts.append(str(n))
        else:
            parts = [rng.choice(SIZES[1:]) for _ in range(count)]
        if rng.random() < 0.3:
            parts[rng.randrange(count)] = "?"
        if rng.random() < 0.15:
            parts[rng.randrange(count)] = "?"
        names = [rng.choice(NAMES) if rng.random() < 0.6 else None for _ in parts]
        part_axes = list(zip(names, parts))
        ptext = text(part_axes)[1:-1]
        ptype = "(" + ", ".join(axis_ty(n, z) for n, z in part_axes) + ",)"
        if len(set(n for n in names if n)) < len([n for n in names if n]):
            return None
        return (["split", text(s), sel, ptext], f"SplitAxisInto<{sel_ty(sel)}, {ptype}>",
                f"SplitAxis<{ty(s)}, {sel_ty(sel)}, {ptype}>", None)
    if op == "merge":
        count = rng.randint(2, 3)
        if len(s) >= count and rng.random() < 0.75:
            start = rng.randrange(len(s) - count + 1)
            ks = list(range(start, start + count))
        else:
            ks = [rng.randrange(len(s) + 1) for _ in range(count)]
        sels = []
        for k in ks:
            if k < len(s) and s[k][0] and rng.random() < 0.6:
                sels.append(s[k][0])
            else:
                sels.append(str(k))
        new = rng.choice(NAMES + ["_"])
        merged = [s[k][1] for k in ks if k < len(s)]
        p = product(merged) if len(merged) == count else None
        wrong = p is not None and rng.random() < 0.15
        # Without a size the type level computes the product, as the command does.
        bare = p is not None and not wrong and rng.random() < 0.4
        size = "?" if p is None or bare else str(p + 1 if wrong else p)
        nty = axis_ty(None if new == "_" else new, size)
        args = ["merge", text(s), ",".join(sels)] + ([] if new == "_" else [new])
        lt = "(" + ", ".join(sel_ty(x) for x in sels) + ",)"
        return args, f"MergeAxesInto<{lt}, {nty}>", f"MergeAxes<{ty(s)}, {lt}, {nty}>", "wrong" if wrong else None
    if op == "concat":
        sel = random_sel(rng, s)
        k = position(s, sel)
        other = list(s)
        if k is not None:
            other[k] = (other[k][0], rng.choice(SIZES))
        r = rng.random()
        if r < 0.15 and len(s) > 1:
            j = rng.choice([j for j in range(len(s)) if j != k])
            other[j] = (other[j][0], rng.choice(SIZES))
        elif r < 0.25:
            j = rng.randrange(len(s))
            other[j] = (rng.choice(NAMES), other[j][1]) if other[j][0] is None else (None, other[j][1])
            if len(set(n for n, _ in other if n)) < len([n for n, _ in other if n]):
                return None
        named = [j for j in range(len(other)) if other[j][0]]
        perm = named[:]
        rng.shuffle(perm)
        shuffled = list(other)
        for a, b in zip(named, perm):
            shuffled[a] = other[b]
        a_ty = sel_ty(sel)
        if sel[0].isalpha() and k is not None:
            z = product([s[k][1], other[k][1]]) is not None
            # Written with its size half the time; without it the type level adds.
            if z and rng.random() < 0.5:
                a_ty = f"{sel}<S<{int(s[k][1]) + int(other[k][1])}>>"
        args = ["concat", sel, text(s), text(shuffled)]
        return (args, f"ConcatWith<{a_ty}, {ty(shuffled)}>", f"Concat<{a_ty}, {ty(s)}, {ty(shuffled)}>", None)
    if op == "stack":
        new = rng.choice(NAMES + ["_"])
        args = ["stack", new, text(s), text(s)]
        return args, f"StackUnder<{new_ty(new)}>", f"Stack<{new_ty(new)}, {ty(s)}>", ("pos", 0)
    raise ValueError(op)


def main():
    rng = random.Random(SEED)
    ops = ["rename", "insert", "select", "slice", "split", "merge", "concat", "stack"]
    lines, counts = [], {"accepted": 0, "refused": 0, "deferred": 0, "type_only": 0}
    done = 0
    while done < CASES:
        op = ops[done % len(ops)]
        c = case(rng, op)
        if c is None:
            continue
        args, probe, expr, note = c
        code, out = cli(args)
        shape_expr = expr.split("<", 1)[1]
        first_shape = shape_expr  # for messages only
        probe_shape = None
        # The shape the probe runs on: the first shape in the expression's arguments.
        for a in args[1:]:
            if a.startswith("["):
                probe_shape = "shape!" + a
                break
        if op == "concat":
            probe_shape = "shape!" + args[2]
        rs = ", ".join(json.dumps(a) for a in args)
        if code == 0 and note == "wrong":
            lines.append(f"    type_only_refused(&[{rs}], accepts!({probe_shape}: {probe}));")
            counts["type_only"] += 1
        elif code == 0:
            want = out["shape"]
            if isinstance(note, tuple) and note[1] is not None:
                want = with_size_unknown(want, note[1])
            lines.append(f"    accepted(&[{rs}], accepts!({probe_shape}: {probe}), <{expr} as Shape>::to_dyn(), {json.dumps(out['shape'])}, {json.dumps(want)});")
            counts["accepted"] += 1
        elif op == "split" and ("do not divide" in out["error"] or "two parts" in out["error"]):
            lines.append(f"    deferred(&[{rs}], accepts!({probe_shape}: {probe}));")
            counts["deferred"] += 1
        else:
            lines.append(f"    refused(&[{rs}], accepts!({probe_shape}: {probe}));")
            counts["refused"] += 1
        done += 1
    header = '''//! Shape surgery at the type level against the run-time engine (rule book §18).
//! Generated by `scripts/gen_surgery_cases.py`; do not edit by hand.
// `shape![...]` writes tuple types, which clippy scores as complex.
#![allow(clippy::type_complexity)]

use shapecast::dynamic::reduce::AxisSelector;
use shapecast::dynamic::surgery;
use shapecast::{
    names, shape, Concat, ConcatWith, Dyn, DynShape, Error, InsertAxis, InsertAxisAt, MergeAxes,
    MergeAxesInto, Name, Pos, Rename, RenameAxis, Select, SelectAxis, Shape, Slice, SliceAxis,
    SliceTo, SplitAxis, SplitAxisInto, Stack, StackUnder, Unnamed, S,
};

names!(A, B, C, H, W, T);

/// Whether the type level accepts: `accepts!(Shape: Trait<..>)` is true when the shape
/// implements the trait (autoref specialisation: the by-value candidate needs the impl, the
/// by-reference one is the fallback).
macro_rules! accepts {
    ($s:ty: $($tr:tt)+) => {{
        struct Probe<X>(core::marker::PhantomData<X>);
        // One of the two traits answers; the other is unused by design.
        #[allow(dead_code)]
        trait Yes {
            fn get(&self) -> bool {
                true
            }
        }
        impl<X: $($tr)+> Yes for Probe<X> {}
        #[allow(dead_code)]
        trait No {
            fn get(&self) -> bool {
                false
            }
        }
        impl<X> No for &Probe<X> {}
        (&Probe::<$s>(core::marker::PhantomData)).get()
    }};
}

/// The run-time engine on a command line of the `shapecast` command's surgery subcommands.
fn run_time(args: &[&str]) -> Result<DynShape, Error> {
    let shape = |s: &str| s.parse::<DynShape>().unwrap();
    let sel = |s: &str| s.parse::<AxisSelector>().unwrap();
    let name = |s: &str| (s != "_").then(|| s.parse::<Name>().unwrap());
    match args {
        ["rename", s, a, b] => surgery::rename(&shape(s), &sel(a), name(b).as_ref()),
        ["insert", s, k] => surgery::insert_axis(&shape(s), k.parse().unwrap(), None),
        ["insert", s, k, n] => surgery::insert_axis(&shape(s), k.parse().unwrap(), name(n).as_ref()),
        ["select", s, a] => surgery::select(&shape(s), &sel(a)),
        ["slice", s, a] => surgery::slice(&shape(s), &sel(a), None),
        ["slice", "--len", n, s, a] => surgery::slice(&shape(s), &sel(a), Some(n.parse().unwrap())),
        ["split", s, a, p] => surgery::split_axis(&shape(s), &sel(a), &shape(&format!("[{p}]"))),
        ["merge", s, l] | ["merge", s, l, _] => {
            let into = if let ["merge", _, _, n] = args { name(n) } else { None };
            let l: Vec<AxisSelector> = l.split(',').map(sel).collect();
            surgery::merge_axes(&shape(s), &l, into.as_ref())
        }
        ["concat", a, s @ ..] => surgery::concat(&sel(a), &s.iter().map(|x| shape(x)).collect::<Vec<_>>()),
        ["stack", n, s @ ..] => surgery::stack(name(n).as_ref(), &s.iter().map(|x| shape(x)).collect::<Vec<_>>()),
        _ => panic!("not a surgery command line: {args:?}"),
    }
}

/// Both levels accept: the type level's shape is `typed` (the command's `run`, with a count
/// or a sum left to run time shown as `?`), the run-time engine's is `run`.
fn accepted(args: &[&str], accepts: bool, type_level: DynShape, run: &str, typed: &str) {
    assert!(accepts, "the probe refuses {args:?}");
    assert_eq!(type_level.to_string(), typed, "{args:?}");
    assert_eq!(run_time(args).unwrap().to_string(), run, "{args:?}");
}

/// Both levels refuse.
fn refused(args: &[&str], type_level: bool) {
    assert!(!type_level, "the type level accepts {args:?}");
    assert!(run_time(args).unwrap_err().is_refusal(), "{args:?}");
}

/// The shape level refuses a split that depends on a `?` part; the type level defers it to
/// the sizes at run time.
fn deferred(args: &[&str], type_level: bool) {
    assert!(type_level, "the type level refuses {args:?}");
    assert!(run_time(args).unwrap_err().is_refusal(), "{args:?}");
}

/// A merged axis written with the wrong size: only the type level sees the size.
fn type_only_refused(args: &[&str], type_level: bool) {
    assert!(!type_level, "the type level accepts {args:?} with a wrong size");
    assert!(run_time(args).is_ok(), "{args:?}");
}
'''
    body = (f"\n/// {counts['accepted']} accepted, {counts['refused']} refused, {counts['deferred']} deferred to run time,\n"
            f"/// {counts['type_only']} refused by the type level only.\n"
            "#[test]\nfn type_level_surgery_agrees_with_the_run_time_engine() {\n" + "\n".join(lines) + "\n}\n")
    path = os.path.join(ROOT, "tests", "types", "surgery_agreement.rs")
    open(path, "w").write(header + body)
    subprocess.run(["rustfmt", "--edition", "2021", path], check=True)
    print(counts)


main()
