#!/usr/bin/env python3
"""Writes NumPy's answers for a few thousand broadcasts into tests/data/, so the test suite
can hold both engines and the kernels to them. Run by hand (needs numpy), not by CI:

    python3 scripts/gen_numpy_cases.py

Outputs:
- tests/data/numpy.jsonl: one JSON object per line, {"a": sizes, "b": sizes, "out": sizes
  or null when NumPy refuses}, and for small accepted cases the operands' data (row-major
  int64 values in -9..9) with NumPy's a + b, a * b and a < b (flattened, row-major).
- tests/types/numpy_typed.rs: the first accepted and refused cases as typed-tensor tests (static
  shapes; the answer checked at compile time where it is a refusal).
- tests/data/numpy_reduce.jsonl: reductions (rule book §16): a shape, its data (float64,
  some NaN), the reduced axes, and NumPy's sum, prod, mean, var, std, max, min (null where
  NumPy refuses an empty axis), argmax and argmin (one axis), logsumexp and softmax, with
  the output shapes with keepdims both ways.
- tests/data/numpy_surgery.jsonl: shape surgery (rule book §18) on unnamed int64 arrays
  (axes selected by position): `np.take` (select), slicing, `reshape` (split and merge of
  adjacent axes), `np.concatenate` and `np.stack`, each optionally after a transpose
  (`perm`), with NumPy's output shape and data; out-of-range indices and windows as null.
- tests/data/numpy_contract.jsonl: contractions (rule book §17): `np.einsum` over named
  axes (operands with names, the contracted names, the output) and `np.matmul` on unnamed
  shapes (refusals as null), with int64 data.
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
    print(f"{write_contractions()} contraction cases")
    print(f"{write_surgery()} surgery cases")


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
        # An empty list is written with its type: a bare `&[][..]` is ambiguous once a crate
        # with `PartialEq<i64>` impls of its own (serde_json, under the io features) is linked.
        add = c['add'] if c['add'] else "[0i64; 0]"
        mul = c['mul'] if c['mul'] else "[0i64; 0]"
        lt = str(c['lt']).lower() if c['lt'] else "[false; 0]"
        out.append(f"        assert_eq!(sum.data(), &{add}[..]);")
        out.append(f"        assert_eq!((&a * &b).data(), &{mul}[..]);")
        out.append(f"        assert_eq!(a.zip_with_rule::<Numpy, _, _, _>(&b, |x, y| x < y).unwrap().data(), &{lt}[..]);")
        out.append("    }")
    out.append("}")
    out.append("")
    out.append("#[test]")
    out.append("fn typed_shapes_refuse_what_numpy_refuses() {")
    for c in bad:
        out.append(f"    const {{ assert!(!<{ty(c['a'])} as Accepts<Numpy, {ty(c['b'])}>>::VALUE) }};")
    out.append("}")
    path = os.path.join(ROOT, "tests", "types", "numpy_typed.rs")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    subprocess.run(["rustfmt", "--edition", "2021", path], check=True)


CONTRACTIONS = 300
LETTERS = "ijkl"


def write_contractions():
    """einsum cases by name: both operands named (letters i..l as names I..L), some names
    shared and contracted; and matmul cases on unnamed shapes."""
    rng = random.Random(SEED + 2)
    nrng = np.random.default_rng(SEED + 2)
    lines = []
    for _ in range(CONTRACTIONS):
        names = rng.sample(LETTERS, rng.randint(1, 4))
        size = {n: rng.choice([0, 1, 2, 3]) for n in names}
        a = [n for n in names if rng.random() < 0.8] or names[:1]
        b = [n for n in names if rng.random() < 0.6 or n == a[-1]]
        rng.shuffle(b)
        shared = [n for n in a if n in b]
        x = rng.sample(shared, rng.randint(1, len(shared)))
        out = [n for n in a if n not in x] + [n for n in b if n not in x and n not in a]
        xa = nrng.integers(-5, 6, size=[size[n] for n in a], dtype=np.int64)
        xb = nrng.integers(-5, 6, size=[size[n] for n in b], dtype=np.int64)
        r = np.einsum(f"{''.join(a)},{''.join(b)}->{''.join(out)}", xa, xb)
        shape = lambda axes: "[" + ", ".join(f"{n.upper()}: {size[n]}" for n in axes) + "]"
        lines.append(json.dumps({
            "kind": "dot", "a": shape(a), "b": shape(b), "over": [n.upper() for n in x],
            "a_data": xa.reshape(-1).tolist(), "b_data": xb.reshape(-1).tolist(),
            "out": shape(out), "data": r.reshape(-1).tolist(),
        }, separators=(",", ":")))
    for _ in range(CONTRACTIONS):
        batch = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 2))]
        m, k, n = rng.choice([0, 1, 2, 3]), rng.choice([0, 1, 2, 3]), rng.choice([0, 1, 2, 3])
        sa = [rng.choice([1, s]) for s in batch[rng.randint(0, len(batch)):]] + [m, k]
        sb = [rng.choice([1, s]) for s in batch[rng.randint(0, len(batch)):]] + [k if rng.random() < 0.85 else k + 1, n]
        if rng.random() < 0.2:
            sa = [k]
        if rng.random() < 0.2:
            sb = [sb[-2]]
        xa = nrng.integers(-5, 6, size=sa, dtype=np.int64)
        xb = nrng.integers(-5, 6, size=sb, dtype=np.int64)
        try:
            r = np.matmul(xa, xb)
            res = {"out": list(r.shape), "data": np.asarray(r).reshape(-1).tolist()}
        except ValueError:
            res = {"out": None}
        lines.append(json.dumps({"kind": "matmul", "a": sa, "b": sb, "a_data": xa.reshape(-1).tolist(),
                                 "b_data": xb.reshape(-1).tolist(), **res}, separators=(",", ":")))
    with open(os.path.join(ROOT, "tests", "data", "numpy_contract.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


SURGERY = 500


def write_surgery():
    """Surgery cases on unnamed arrays: one operation, optionally after a transpose."""
    rng = random.Random(SEED + 3)
    nrng = np.random.default_rng(SEED + 3)
    lines = []
    for n in range(SURGERY):
        op = ["select", "slice", "split", "merge", "concat", "stack"][n % 6]
        rank = rng.randint(1, 4)
        sizes = [rng.choice([0, 1, 2, 3, 4, 6]) for _ in range(rank)]
        perm = list(range(rank))
        if rng.random() < 0.4:
            rng.shuffle(perm)
        x = nrng.integers(-50, 50, size=sizes, dtype=np.int64)
        v = x.transpose(perm)  # what the operation sees
        k = rng.randrange(rank)
        case = {"op": op, "sizes": sizes, "data": x.reshape(-1).tolist(), "perm": perm, "axis": k}
        if op == "select":
            i = rng.randrange(v.shape[k] + 2)
            case["index"] = i
            r = np.take(v, i, axis=k) if i < v.shape[k] else None
        elif op == "slice":
            a = rng.randrange(v.shape[k] + 2)
            b = rng.randrange(a, v.shape[k] + 3)
            case["range"] = [a, b]
            r = v[(slice(None),) * k + (slice(a, b),)] if b <= v.shape[k] else None
        elif op == "split":
            m = v.shape[k]
            d = rng.choice([d for d in range(1, m + 1) if m % d == 0]) if m else rng.choice([0, 1, 2])
            parts = [d, m // d] if d else [0, rng.choice([1, 2])]
            case["parts"] = parts
            r = v.reshape(v.shape[:k] + tuple(parts) + v.shape[k + 1:])
        elif op == "merge":
            c = rng.randint(1, rank - k)
            case["count"] = c
            merged = int(np.prod(v.shape[k:k + c]))
            r = v.reshape(v.shape[:k] + (merged,) + v.shape[k + c:])
        elif op == "concat":
            other = list(v.shape)
            other[k] = rng.choice([0, 1, 2, 3])
            y = nrng.integers(-50, 50, size=other, dtype=np.int64)
            case["other"] = other
            case["other_data"] = y.reshape(-1).tolist()
            r = np.concatenate([v, y], axis=k)
        else:
            count = rng.randint(1, 3)
            ys = [nrng.integers(-50, 50, size=v.shape, dtype=np.int64) for _ in range(count)]
            case["others"] = [y.reshape(-1).tolist() for y in ys]
            r = np.stack([v] + ys, axis=0)
        case["out"] = None if r is None else list(np.shape(r))
        case["out_data"] = None if r is None else np.asarray(r).reshape(-1).tolist()
        lines.append(json.dumps(case, separators=(",", ":")))
    with open(os.path.join(ROOT, "tests", "data", "numpy_surgery.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


if __name__ == "__main__":
    main()
