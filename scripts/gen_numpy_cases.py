#!/usr/bin/env python3
"""Writes NumPy's answers for a few thousand broadcasts into tests/data/, so the test suite
can hold both engines and the kernels to them. Run by hand (needs numpy), not by CI:

    python3 scripts/gen_numpy_cases.py

Outputs:
- tests/data/numpy.jsonl: one JSON object per line, {"a": sizes, "b": sizes, "out": sizes
  or null when NumPy refuses}, and for small accepted cases the operands' data (row-major
  int64 values in -9..9) with NumPy's a + b, a * b and a < b (flattened, row-major).
- tests/numpy_typed.rs: the first accepted and refused cases as typed-tensor tests (static
  shapes; the answer checked at compile time where it is a refusal).
- tests/data/numpy_reduce.jsonl: reductions (rule book §16): a shape, its data (float64,
  some NaN), the reduced axes, and NumPy's sum, prod, mean, var, std, max, min (null where
  NumPy refuses an empty axis), argmax and argmin (one axis), logsumexp and softmax, with
  the output shapes with keepdims both ways.
"""
import json, os, random, subprocess

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20261122
CASES = 3000
TYPED = 150  # accepted typed cases; as many refused ones go to a compile-time check


def shapes(rng):
    """A pair of shapes: mostly derived from one output shape (so most broadcast), some free."""
    rank = rng.randint(0, 4)
    out = [rng.choice([0, 1, 1, 2, 3, 4, 5]) for _ in range(rank)]
    if rng.random() < 0.25:
        free = lambda: [rng.choice([0, 1, 2, 3, 4]) for _ in range(rng.randint(0, 4))]
        return free(), free()

    def operand():
        keep = rng.randint(0, rank)
        return [1 if rng.random() < 0.35 else n for n in out[rank - keep:]]

    return operand(), operand()


def main():
    rng = random.Random(SEED)
    nrng = np.random.default_rng(SEED)
    lines, typed_ok, typed_bad = [], [], []
    for _ in range(CASES):
        a, b = shapes(rng)
        try:
            out = list(np.broadcast_shapes(tuple(a), tuple(b)))
        except ValueError:
            out = None
        case = {"a": a, "b": b, "out": out}
        if out is not None and int(np.prod(out)) <= 64:
            x = nrng.integers(-9, 10, size=a, dtype=np.int64)
            y = nrng.integers(-9, 10, size=b, dtype=np.int64)
            case.update(
                a_data=x.reshape(-1).tolist(),
                b_data=y.reshape(-1).tolist(),
                add=(x + y).reshape(-1).tolist(),
                mul=(x * y).reshape(-1).tolist(),
                lt=(x < y).reshape(-1).tolist(),
            )
            if len(typed_ok) < TYPED:
                typed_ok.append(case)
        elif out is None and len(typed_bad) < TYPED:
            typed_bad.append(case)
        lines.append(json.dumps(case, separators=(",", ":")))
    with open(os.path.join(ROOT, "tests", "data", "numpy.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    write_typed(typed_ok, typed_bad)
    print(f"{len(lines)} cases, {len(typed_ok)} typed accepted, {len(typed_bad)} typed refused")
    print(f"{write_reductions()} reduction cases")


REDUCTIONS = 600


def nan_or(f):
    """NumPy's answer as a list, or None where NumPy raises (an empty axis)."""
    try:
        with np.errstate(all="ignore"):
            return f()
    except ValueError:
        return None


def flat(x):
    """A float array as a JSON list, NaN and infinities as strings."""
    return [v if np.isfinite(v) else str(v) for v in np.asarray(x, dtype=np.float64).reshape(-1).tolist()]


def write_reductions():
    rng = random.Random(SEED + 1)
    nrng = np.random.default_rng(SEED + 1)
    lines = []
    for _ in range(REDUCTIONS):
        rank = rng.randint(0, 4)
        sizes = [rng.choice([0, 1, 2, 3, 4, 5]) for _ in range(rank)]
        x = np.round(nrng.normal(0, 3, size=sizes), 2)
        if x.size and rng.random() < 0.15:
            x.reshape(-1)[rng.randrange(x.size)] = np.nan
        axes = sorted(rng.sample(range(rank), rng.randint(0, rank))) if rank else []
        ax = tuple(axes)
        case = {"sizes": sizes, "data": flat(x), "axes": axes}
        with np.errstate(all="ignore"):
            case["shape"] = list(np.sum(x, axis=ax).shape)
            case["shape_keep"] = list(np.sum(x, axis=ax, keepdims=True).shape)
            case["sum"] = flat(np.sum(x, axis=ax))
            case["prod"] = flat(np.prod(x, axis=ax))
            case["mean"] = flat(np.mean(x, axis=ax))
            case["var"] = flat(np.var(x, axis=ax))
            case["std"] = flat(np.std(x, axis=ax))
            m = nan_or(lambda: np.max(x, axis=ax, keepdims=True))
            case["max"] = None if m is None else flat(m)
            case["min"] = nan_or(lambda: flat(np.min(x, axis=ax)))
            if m is not None:
                shift = np.where(np.isfinite(m), m, 0.0)
                e = np.exp(x - shift)
                s = np.sum(e, axis=ax, keepdims=True)
                case["logsumexp"] = flat(shift + np.log(s))
                case["softmax"] = flat(e / s)
            if len(axes) == 1:
                case["argmax"] = nan_or(lambda: np.argmax(x, axis=axes[0]).reshape(-1).tolist())
                case["argmin"] = nan_or(lambda: np.argmin(x, axis=axes[0]).reshape(-1).tolist())
        lines.append(json.dumps(case, separators=(",", ":")))
    with open(os.path.join(ROOT, "tests", "data", "numpy_reduce.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def ty(sizes):
    return "shape![" + ", ".join(map(str, sizes)) + "]"


def write_typed(ok, bad):
    out = [
        "//! Typed tensors against NumPy: static shapes, values computed by NumPy.",
        "//! Generated by `scripts/gen_numpy_cases.py`; do not edit by hand.",
        "",
        "use shapecast::{rule::Numpy, shape, Accepts, Tensor};",
        "",
        "#[test]",
        "fn typed_tensors_compute_numpys_values() {",
    ]
    for c in ok:
        out.append("    {")
        out.append(f"        let a = Tensor::<i64, {ty(c['a'])}>::from_vec(vec!{c['a_data']}).unwrap();")
        out.append(f"        let b = Tensor::<i64, {ty(c['b'])}>::from_vec(vec!{c['b_data']}).unwrap();")
        out.append(f"        let sum: Tensor<i64, {ty(c['out'])}> = &a + &b;")
        out.append(f"        assert_eq!(sum.data(), &{c['add']}[..]);")
        out.append(f"        assert_eq!((&a * &b).data(), &{c['mul']}[..]);")
        out.append(f"        assert_eq!(a.zip_with_rule::<Numpy, _, _, _>(&b, |x, y| x < y).unwrap().data(), &{str(c['lt']).lower()}[..]);")
        out.append("    }")
    out.append("}")
    out.append("")
    out.append("#[test]")
    out.append("fn typed_shapes_refuse_what_numpy_refuses() {")
    for c in bad:
        out.append(f"    const {{ assert!(!<{ty(c['a'])} as Accepts<Numpy, {ty(c['b'])}>>::VALUE) }};")
    out.append("}")
    path = os.path.join(ROOT, "tests", "numpy_typed.rs")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    subprocess.run(["rustfmt", "--edition", "2021", path], check=True)


if __name__ == "__main__":
    main()
