#!/usr/bin/env python3
"""PyTorch's answers for the gather family (rule book §21), written to
tests/data/torch_gather.jsonl for tests/suite/gather.rs: cross_entropy and nll_loss with
reduction='none' over a class axis at position 1 (PyTorch's layout) on 1-, 2- and 3-D inputs,
with class weights, label smoothing and ignore_index (255, or PyTorch's default -100, "ignore":
null), each with its sum and mean; logits `sin(i * 0.37) * 3` in row-major order, targets
`(i * 5 + 1) % C` (int64) with every 7th replaced by the ignored index. Then `gather` along
every axis of 1- to 4-D sources (`(i * 7) % 11 - 5`, exact), indices (int64) of any size along the axis.

Run: python3 scripts/gen_gather_cases.py  (needs torch; the file is committed).
"""
import json, math, os
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_gather.jsonl")


def main():
    lines = []
    shapes = [(4, 3), (2, 5, 3), (2, 3, 4, 5), (1, 4, 2, 3, 2)]
    for shape in shapes:
        n = 1
        for s in shape:
            n *= s
        c = shape[1]
        logits = torch.tensor([math.sin(i * 0.37) * 3 for i in range(n)], dtype=torch.float64).reshape(shape)
        tshape = shape[:1] + shape[2:]
        tn = n // c
        for weight in (None, [0.5 + 0.25 * k for k in range(c)]):
            for smoothing in (0.0, 0.1):
                for ignore in (None, 255):
                    targets = [(i * 5 + 1) % c for i in range(tn)]
                    void = -100 if ignore is None else ignore
                    targets = [void if i % 7 == 3 else t for i, t in enumerate(targets)]
                    t = torch.tensor(targets, dtype=torch.int64).reshape(tshape)
                    w = torch.tensor(weight, dtype=torch.float64) if weight else None
                    kw = {"weight": w}
                    if ignore is not None:
                        kw["ignore_index"] = ignore
                    case = {"shape": list(shape), "weight": weight, "ignore": ignore, "targets": targets}
                    ce = lambda r: F.cross_entropy(logits, t, label_smoothing=smoothing, reduction=r, **kw)
                    lines.append({"op": "cross_entropy", **case, "smoothing": smoothing,
                                  "values": ce("none").flatten().tolist(),
                                  "sum": ce("sum").item(), "mean": ce("mean").item()})
                    if smoothing == 0.0:
                        nll = lambda r: F.nll_loss(F.log_softmax(logits, dim=1), t, reduction=r, **kw)
                        lines.append({"op": "nll_loss", **case, "smoothing": 0.0,
                                      "values": nll("none").flatten().tolist(),
                                      "sum": nll("sum").item(), "mean": nll("mean").item()})
    for shape in [(5,), (3, 4), (2, 3, 4), (2, 1, 3, 2)]:
        n = 1
        for s in shape:
            n *= s
        source = torch.tensor([float((i * 7) % 11 - 5) for i in range(n)], dtype=torch.float64).reshape(shape)
        for axis in range(len(shape)):
            for m in (1, 3, 6):
                ishape = list(shape)
                ishape[axis] = m
                count = 1
                for s in ishape:
                    count *= s
                indices = [(k * 7 + 3) % shape[axis] for k in range(count)]
                index = torch.tensor(indices, dtype=torch.int64).reshape(ishape)
                out = torch.gather(source, axis, index)
                lines.append({"op": "gather", "shape": list(shape), "axis": axis,
                              "index_shape": ishape, "indices": indices,
                              "values": out.flatten().tolist()})
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases to {OUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
