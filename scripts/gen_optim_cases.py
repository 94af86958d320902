#!/usr/bin/env python3
"""torch.optim's updates step by step, written to tests/data/torch_optim.jsonl for
tests/suite/train.rs: SGD (momentum, dampening, Nesterov, weight decay), Adam (with coupled
weight decay, other betas and eps) and AdamW, each on a parameter of 6 elements for 6 steps
whose gradients are given (`cos(0.7 * step + 1.3 * i) * (1 + 0.5 * i)`), in float64 and
float32. Each case holds the settings, the start and the parameter after every step.

Run: python3 scripts/gen_optim_cases.py  (needs torch; the file is committed).
"""
import json, math, os
import torch

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_optim.jsonl")
START = [0.5, -1.25, 2.0, 0.0, -0.3, 1.1]
STEPS = 6


def grad(step, dtype):
    return torch.tensor([math.cos(0.7 * step + 1.3 * i) * (1 + 0.5 * i) for i in range(len(START))], dtype=dtype)


CASES = [
    ("sgd", {"lr": 0.1}),
    ("sgd", {"lr": 0.05, "momentum": 0.9}),
    ("sgd", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    ("sgd", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1}),
    ("adam", {"lr": 0.01}),
    ("adam", {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.05}),
    ("adamw", {"lr": 0.01}),
    ("adamw", {"lr": 0.03, "betas": (0.85, 0.95), "weight_decay": 0.2}),
]


def main():
    lines = []
    for dtype, name in ((torch.float64, "f64"), (torch.float32, "f32")):
        for kind, kw in CASES:
            p = torch.nn.Parameter(torch.tensor(START, dtype=dtype))
            opt = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[kind]([p], **kw)
            steps = []
            for s in range(STEPS):
                p.grad = grad(s, dtype)
                opt.step()
                steps.append(p.detach().tolist())
            settings = dict(kw)
            if "betas" in settings:
                settings["betas"] = list(settings["betas"])
            lines.append({"dtype": name, "kind": kind, "settings": settings, "start": START, "steps": steps})
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases -> {OUT}")


if __name__ == "__main__":
    main()
