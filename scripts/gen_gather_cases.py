#!/usr/bin/env python3
"""PyTorch's answers for the gather family (rule book §21), written to
tests/data/torch_gather.jsonl for tests/gather.rs: cross_entropy and nll_loss with
reduction='none' over a class axis at position 1 (PyTorch's layout) on 1-, 2- and 3-D inputs,
with class weights, label smoothing and ignore_index; logits `sin(i * 0.37) * 3` in row-major
order, targets `(i * 5 + 1) % C` with every 7th replaced by the ignored index where one is set.

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
                    if ignore is not None:
                        targets = [ignore if i % 7 == 3 else t for i, t in enumerate(targets)]
                    t = torch.tensor(targets).reshape(tshape)
                    w = torch.tensor(weight, dtype=torch.float64) if weight else None
                    kw = {"weight": w, "reduction": "none"}
                    if ignore is not None:
                        kw["ignore_index"] = ignore
                    ce = F.cross_entropy(logits, t, label_smoothing=smoothing, **kw)
                    lines.append({"op": "cross_entropy", "shape": list(shape), "weight": weight,
                                  "smoothing": smoothing, "ignore": ignore, "targets": targets,
                                  "values": ce.flatten().tolist()})
                    if smoothing == 0.0:
                        nll = F.nll_loss(F.log_softmax(logits, dim=1), t, **kw)
                        lines.append({"op": "nll_loss", "shape": list(shape), "weight": weight,
                                      "smoothing": 0.0, "ignore": ignore, "targets": targets,
                                      "values": nll.flatten().tolist()})
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases to {OUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
