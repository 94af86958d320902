#!/usr/bin/env python3
"""PyTorch's answers for interpolation (rule book §23), written to
tests/data/torch_upsample.jsonl for tests/suite/upsample.rs.

Each line is one `F.interpolate` call on a float64 input `[N, C, *spatial]` (1, 2 or 3 spatial
axes) holding `(i * 7 % 11) - 5` in row-major order (a few lines in float32): by an integer `scale_factor` ("upsample")
or to a `size` ("resize"), in the modes `nearest`, `nearest-exact`, `linear`/`bilinear`/
`trilinear` and `cubic` (PyTorch's `bicubic`, 2-D only) with and without `align_corners`, the
last two also with `antialias` (2-D only; the key is written only when true), and `area`. A
line holds the output's sizes and values and the input's gradient of `sum(y * w)` for `w`
holding `(i * 5 % 13) - 6`.

Run: python3 scripts/gen_upsample_cases.py  (needs torch; the file is committed).
"""
import json, os
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_upsample.jsonl")


def ramp(shape, a, m, b):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([float((i * a) % m - b) for i in range(n)], dtype=torch.float64).reshape(shape)


LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}


def case(xs, mode, align, factor=None, size=None, dtype=torch.float64, antialias=False):
    dims = len(xs) - 2
    x = ramp(xs, 7, 11, 5).to(dtype).requires_grad_(True)
    torch_mode = {"linear": LINEAR[dims], "cubic": "bicubic"}.get(mode, mode)
    kw = {"align_corners": align} if mode in ("linear", "cubic") else {}
    if antialias:
        kw["antialias"] = True
    if factor is not None:
        y = F.interpolate(x, scale_factor=factor, mode=torch_mode, **kw)
    else:
        y = F.interpolate(x, size=size, mode=torch_mode, **kw)
    w = ramp(list(y.shape), 5, 13, 6).to(dtype)
    (y * w).sum().backward()
    line = {"op": "upsample" if factor is not None else "resize", "x": list(xs), "mode": mode,
            "align_corners": align, "dtype": str(dtype).removeprefix("torch."), "out": list(y.shape),
            "values": [round(v, 12) for v in y.detach().flatten().tolist()],
            "grad": [round(v, 12) for v in x.grad.flatten().tolist()]}
    if factor is not None:
        line["factor"] = factor
    else:
        line["size"] = list(size)
    if antialias:
        line["antialias"] = True
    return line


def main():
    lines = []
    modes = [("nearest", False), ("nearest-exact", False), ("linear", False), ("linear", True)]
    # An integer factor on 1-, 2- and 3-D inputs.
    for xs in ([2, 3, 5], [1, 2, 3, 4], [1, 1, 2, 3, 2]):
        for factor in (1, 2, 3, 4):
            for mode, align in modes:
                lines.append(case(xs, mode, align, factor=factor))
    # To a size, larger and smaller, including PyTorch's float rounding of `n / m` for
    # nearest (14 to 20) and a length of 1 on either side.
    for xs, size in (([1, 2, 7], [5]), ([1, 2, 5], [7]), ([1, 1, 26], [22]), ([1, 1, 4], [1]),
                     ([1, 1, 1], [3]), ([1, 2, 6, 5], [4, 9]), ([2, 1, 3, 8], [7, 3]),
                     ([1, 1, 2, 3, 4], [3, 5, 2])):
        for mode, align in modes:
            lines.append(case(xs, mode, align, size=size))
    # Single precision, where PyTorch computes nearest's source positions in `f32` (26 to 22
    # reads 12 for position 11; nearest-exact from 14 to 23 reads 6 for position 11, where
    # 11.5 * 14 / 23 = 7) and linear weights in `f32`.
    for xs, size in (([1, 1, 26], [22]), ([1, 1, 39], [33]), ([1, 1, 14], [23]), ([1, 2, 6, 5], [4, 9])):
        for mode, align in modes:
            lines.append(case(xs, mode, align, size=size, dtype=torch.float32))
    for mode, align in modes:
        lines.append(case([1, 2, 3, 4], mode, align, factor=3, dtype=torch.float32))
    # Cubic, antialiased and area, after the lines above (which stay as they were).
    cubic = [("cubic", False), ("cubic", True)]
    for factor in (1, 2, 3, 4):
        for mode, align in cubic:
            lines.append(case([1, 2, 3, 4], mode, align, factor=factor))
    for xs, size in (([1, 2, 6, 5], [4, 9]), ([2, 1, 3, 8], [7, 3]), ([1, 1, 9, 12], [4, 5])):
        for mode, align in cubic:
            lines.append(case(xs, mode, align, size=size))
    # Antialiased (torchvision's `Resize`): shrinking both axes, one axis kept, shrinking one
    # and growing the other, and growing by a factor (where cubic's filter still differs).
    smooth = [("linear", False), ("linear", True), ("cubic", False), ("cubic", True)]
    for xs, size in (([1, 2, 17, 23], [5, 7]), ([1, 1, 12, 9], [12, 4]), ([1, 2, 6, 5], [4, 9])):
        for mode, align in smooth:
            lines.append(case(xs, mode, align, size=size, antialias=True))
    for mode, align in smooth:
        lines.append(case([1, 2, 3, 4], mode, align, factor=2, antialias=True))
    # Area (adaptive average pooling) on 1-, 2- and 3-D inputs, shrinking and growing.
    for xs, size in (([1, 2, 7], [3]), ([1, 2, 5], [7]), ([1, 2, 6, 5], [4, 9]), ([1, 1, 2, 3, 4], [3, 5, 2])):
        lines.append(case(xs, "area", False, size=size))
    for xs in ([2, 3, 5], [1, 2, 3, 4], [1, 1, 2, 3, 2]):
        lines.append(case(xs, "area", False, factor=2))
    # Single precision: PyTorch computes these weights in `f32`.
    for mode, align, aa in (("cubic", False, False), ("cubic", True, False), ("linear", False, True),
                            ("cubic", False, True), ("area", False, False)):
        lines.append(case([1, 2, 17, 23], mode, align, size=[5, 7], dtype=torch.float32, antialias=aa))
        lines.append(case([1, 2, 6, 5], mode, align, size=[4, 9], dtype=torch.float32, antialias=aa))
    # nearest-exact in single precision at exact ties, where PyTorch's `f32` source
    # `(j + 1/2) * s - 1/2` is rounded once (a fused multiply-add): from 2 to 41 position 20
    # reads 1, from 4 to 94 position 23 reads 1.
    for xs, size in (([1, 1, 2], [41]), ([1, 1, 4], [94])):
        lines.append(case(xs, "nearest-exact", False, size=size, dtype=torch.float32))
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases in {OUT}")


if __name__ == "__main__":
    main()
