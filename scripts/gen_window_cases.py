#!/usr/bin/env python3
"""PyTorch's answers for the window operations (rule book §20), written to
tests/data/torch_windows.jsonl for tests/suite/windows.rs:

- "size" lines: the output length of conv1d (stride, padding, dilation) and of max_pool1d /
  avg_pool1d (stride, padding, ceil_mode) for every combination on a grid, or null where
  PyTorch refuses;
- "conv", "max_pool", "avg_pool" lines: values on small 1-, 2- and 3-D inputs (with
  groups, dilation, ceil mode and count_include_pad), inputs `(i * 7 % 11) - 5` in row-major
  order, weights `(i * 5 % 7) - 3`.

Run: python3 scripts/gen_window_cases.py  (needs torch; the file is committed).
"""
import itertools, json, os, random, subprocess
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_windows.jsonl")


def ramp(shape, a, m, b):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([float((i * a) % m - b) for i in range(n)], dtype=torch.float64).reshape(shape)


def conv_size(n, k, s, p, d):
    """PyTorch's conv1d output length, or None where it refuses."""
    try:
        out = F.conv1d(torch.zeros(1, 1, n, dtype=torch.float64), torch.zeros(1, 1, k, dtype=torch.float64),
                       stride=s, padding=p, dilation=d).shape[-1]
    except RuntimeError:
        out = None
    return {"op": "conv_size", "n": n, "k": k, "s": s, "p": p, "d": d, "ceil": False, "out": out}


def pool_size(n, k, s, p, ceil):
    """PyTorch's max_pool1d output length, or None where it refuses."""
    try:
        out = F.max_pool1d(torch.zeros(1, 1, n), k, stride=s, padding=p, ceil_mode=ceil).shape[-1]
    except RuntimeError:
        out = None
    return {"op": "pool_size", "n": n, "k": k, "s": s, "p": p, "d": 1, "ceil": ceil, "out": out}


def main():
    lines = []
    for n, k, s, p, d in itertools.product(range(1, 9), range(1, 5), range(1, 4), range(0, 3), range(1, 3)):
        lines.append(conv_size(n, k, s, p, d))
    for n, k, s, p, ceil in itertools.product(range(1, 9), range(1, 5), range(1, 4), range(0, 3), [False, True]):
        if p <= k // 2:
            lines.append(pool_size(n, k, s, p, ceil))
    # Image sizes: several hex digits, borrows across them, every digit stride (2-15) and two
    # above (16, 17), sizes past the size table (a `?` at the type level). A fixed sample of
    # the grid, so the type-level file stays a few hundred assertions.
    rng = random.Random(44)
    big = [15, 16, 17, 31, 127, 128, 129, 224, 255, 256, 257, 383, 384, 512, 1023, 1024, 2047,
           2048, 2049, 2050, 4096, 4097, 65539]
    kernels, strides = [1, 2, 3, 7, 11, 16], [1, 2, 3, 4, 5, 7, 8, 15, 16, 17]
    grid = list(itertools.product(big, kernels, strides, range(0, 4), [1, 2]))
    lines += [conv_size(*g) for g in rng.sample(grid, 300)]
    grid = [g for g in itertools.product(big, kernels, strides, range(0, 4), [False, True]) if g[3] <= g[1] // 2]
    lines += [pool_size(*g) for g in rng.sample(grid, 300)]
    # Values: (input sizes N, C, *spatial), weight (OUT, C/groups, *kernel), stride, padding,
    # dilation, groups.
    convs = [
        ((1, 2, 7), (3, 2, 3), 1, 0, 1, 1),
        ((2, 4, 9), (4, 2, 2), 2, 1, 2, 2),
        ((1, 3, 5, 6), (2, 3, 3, 2), 1, 1, 1, 1),
        ((2, 4, 6, 5), (4, 1, 3, 3), 2, 1, 1, 4),
        ((1, 2, 4, 5, 4), (3, 2, 2, 3, 2), 1, 1, 2, 1),
    ]
    for xs, ws, s, p, d, g in convs:
        x = ramp(xs, 7, 11, 5)
        w = ramp(ws, 5, 7, 3)
        conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[len(xs) - 2]
        y = conv(x, w, stride=s, padding=p, dilation=d, groups=g)
        lines.append({"op": "conv", "x": list(xs), "w": list(ws), "s": s, "p": p, "d": d, "g": g,
                      "out": list(y.shape), "values": y.flatten().tolist()})
    pools = [
        ((1, 2, 7), 2, 2, 0, False, True),
        ((1, 2, 7), 2, 2, 0, True, True),
        ((1, 1, 6), 3, 2, 1, True, True),
        ((1, 1, 6), 3, 2, 1, True, False),
        ((2, 2, 5, 7), 3, 2, 1, False, True),
        ((2, 2, 5, 7), 3, 2, 1, True, False),
        ((1, 1, 4, 5, 6), 2, 1, 1, True, True),
    ]
    for xs, k, s, p, ceil, count_pad in pools:
        x = ramp(xs, 7, 11, 5)
        dims = len(xs) - 2
        mp = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[dims](x, k, stride=s, padding=p, ceil_mode=ceil)
        ap = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[dims](x, k, stride=s, padding=p, ceil_mode=ceil,
                                                                       count_include_pad=count_pad)
        for op, y in (("max_pool", mp), ("avg_pool", ap)):
            lines.append({"op": op, "x": list(xs), "k": k, "s": s, "p": p, "ceil": ceil, "count_pad": count_pad,
                          "out": list(y.shape), "values": y.flatten().tolist()})
    # F.pad with the same width on both sides of the last two (or three) axes.
    for xs, p, mode in [((1, 2, 4, 5), 1, "constant"), ((1, 2, 4, 5), 2, "reflect"), ((1, 2, 4, 5), 3, "replicate"),
                        ((2, 1, 3, 3, 4), 2, "reflect"), ((1, 1, 2, 2, 2), 1, "replicate")]:
        x = ramp(xs, 7, 11, 5)
        dims = len(xs) - 2
        kw = {"value": 1.5} if mode == "constant" else {}
        y = F.pad(x, (p,) * (2 * dims), mode=mode, **kw)
        lines.append({"op": "pad", "x": list(xs), "p": p, "mode": mode, "out": list(y.shape),
                      "values": y.flatten().tolist()})
    # F.pad with a (before, after) pair, the same pair on each of the last two (or three) axes:
    # causal (before only), after only, and two unequal widths in every mode.
    for xs, (b, a), mode in [((1, 2, 4, 5), (2, 0), "constant"), ((1, 2, 4, 5), (0, 3), "reflect"),
                             ((1, 2, 4, 5), (1, 3), "replicate"), ((2, 1, 3, 3, 4), (2, 1), "reflect"),
                             ((1, 1, 2, 2, 2), (0, 1), "replicate"), ((1, 1, 7), (4, 0), "constant")]:
        x = ramp(xs, 7, 11, 5)
        dims = len(xs) - 2
        kw = {"value": 1.5} if mode == "constant" else {}
        y = F.pad(x, (b, a) * dims, mode=mode, **kw)
        lines.append({"op": "pad_ends", "x": list(xs), "before": b, "after": a, "mode": mode,
                      "out": list(y.shape), "values": y.flatten().tolist()})
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    # The same sizes at the type level: every accepted combination as a type equality.
    types = ["// Generated by scripts/gen_window_cases.py from PyTorch's output sizes; do not edit.",
             "//! The type level's output sizes of `Convolve` and `Pooled` are PyTorch's for every",
             "//! stride, padding, dilation and ceil mode of the grid in `tests/data/torch_windows.jsonl`,",
             "//! small sizes in full and image sizes sampled (a size past the size table is `?`)",
             "//! PyTorch's refusals have no output shape (their messages: `ui-tests/conv/`, `ui-tests/pool/`).",
             "#![allow(dead_code)]",
             "use shapecast::{names, shape, Conv, ConvBy, Convolve, Pool, PoolOver, Pooled};",
             "use static_assertions::{assert_not_impl_any, assert_type_eq_all};",
             "names!(C, K, L);"]
    for l in lines:
        if l["op"] not in ("conv_size", "pool_size") or l["n"] < 1:
            continue
        if l["out"] is None:
            # Refused by PyTorch: no output shape at the type level either.
            if l["op"] == "conv_size":
                types.append(f"assert_not_impl_any!(shape![C: 1, L: {l['n']}]: ConvBy<shape![K: 1, C: 1, L: {l['k']}], C, Conv<{l['s']}, {l['p']}, {l['d']}>>);")
            else:
                ceil = "true" if l["ceil"] else "false"
                types.append(f"assert_not_impl_any!(shape![C: 1, L: {l['n']}]: PoolOver<L, Pool<{l['k']}, {l['s']}, {l['p']}, {ceil}>>);")
            continue
        # Past the size table a computed size is `?`.
        out = l["out"] if l["out"] <= 2048 else None
        want = f"L: {out}" if out is not None else "L"
        if l["op"] == "conv_size":
            types.append(f"assert_type_eq_all!(Convolve<shape![C: 1, L: {l['n']}], shape![K: 1, C: 1, L: {l['k']}], C, Conv<{l['s']}, {l['p']}, {l['d']}>>, shape![K: 1, {want}]);")
        else:
            ceil = "true" if l["ceil"] else "false"
            types.append(f"assert_type_eq_all!(Pooled<shape![C: 1, L: {l['n']}], L, Pool<{l['k']}, {l['s']}, {l['p']}, {ceil}>>, shape![C: 1, {want}]);")
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "types", "window_types.rs")
    with open(path, "w") as f:
        f.write("\n".join(types) + "\n")
    subprocess.run(["rustfmt", "--edition", "2021", path], check=True)
    print(f"{len(lines)} cases to {OUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
