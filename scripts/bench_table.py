#!/usr/bin/env python3
"""Prints the public-API benchmark's medians (criterion's `target/criterion`) as markdown:
one row per case, one column per way of adding, for the one-thread run and the rayon run.

Run after `cargo bench --bench api` and `cargo bench --bench api --features rayon`:
    python3 scripts/bench_table.py
"""
import json
import pathlib

ROOT = pathlib.Path("target/criterion")
COLUMNS = ["&a + &b", "add_into", "DynTensor &a + &b", "DynTensor::zip_with",
           "hand loop in place", "hand loop allocating", "ndarray Zip", "ndarray &a + &b"]


def fmt(ns):
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


rows = {}
for bench in ROOT.glob("*/*/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    group, func = meta["group_id"], meta.get("function_id") or ""
    rows.setdefault(group, {})[func] = est["median"]["point_estimate"]

for threads in ("1 thread", "rayon"):
    groups = sorted(g for g in rows if g.endswith(f"[{threads}]"))
    if not groups:
        continue
    print(f"\n{threads}:\n")
    print("| case | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for g in groups:
        cells = [fmt(rows[g][c]) if c in rows[g] else "" for c in COLUMNS]
        print(f"| {g.rsplit(' [', 1)[0]} | " + " | ".join(cells) + " |")
for g in sorted(g for g in rows if g == "api"):
    print("\nA1–A3:\n")
    for func, ns in sorted(rows[g].items()):
        print(f"- {func}: {fmt(ns)}")
