#!/usr/bin/env python3
"""torch.optim.lr_scheduler's rates step by step, written to tests/data/torch_schedules.jsonl
for tests/suite/train_tape.rs: StepLR, MultiStepLR, ExponentialLR, LinearLR (warm-up and
decay), CosineAnnealingLR (past its half period too), OneCycleLR (defaults, other pct_start
and divisors, short cycles) and SequentialLR (a warm-up then a cosine). Each case holds the
settings and the rate of every step: `optimizer.param_groups[0]['lr']` before each
`optimizer.step(); scheduler.step()`.

Run: python3 scripts/gen_schedule_cases.py  (needs torch; the file is committed).
"""
import json, os, warnings
import torch
from torch.optim import SGD
from torch.optim import lr_scheduler as L

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_schedules.jsonl")


def rates(make, n, lr):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = SGD([p], lr=lr)
    s = make(opt)
    out = []
    for _ in range(n):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        s.step()
    return out


CASES = [
    ({"kind": "step", "lr": 0.1, "step_size": 3, "gamma": 0.5}, lambda o, c: L.StepLR(o, c["step_size"], c["gamma"]), 12),
    ({"kind": "step", "lr": 2.0, "step_size": 1, "gamma": 0.9}, lambda o, c: L.StepLR(o, c["step_size"], c["gamma"]), 8),
    ({"kind": "multistep", "lr": 0.1, "milestones": [5, 2, 5], "gamma": 0.1},
     lambda o, c: L.MultiStepLR(o, c["milestones"], c["gamma"]), 8),
    ({"kind": "exponential", "lr": 0.5, "gamma": 0.7}, lambda o, c: L.ExponentialLR(o, c["gamma"]), 10),
    ({"kind": "linear", "lr": 0.1, "start": 0.25, "end": 1.0, "total": 4},
     lambda o, c: L.LinearLR(o, c["start"], c["end"], c["total"]), 8),
    ({"kind": "linear", "lr": 0.3, "start": 1.0, "end": 0.0, "total": 5},
     lambda o, c: L.LinearLR(o, c["start"], c["end"], c["total"]), 8),
    ({"kind": "cosine", "lr": 0.1, "t_max": 5, "eta_min": 0.01},
     lambda o, c: L.CosineAnnealingLR(o, c["t_max"], c["eta_min"]), 14),
    ({"kind": "cosine", "lr": 3e-4, "t_max": 50, "eta_min": 0.0},
     lambda o, c: L.CosineAnnealingLR(o, c["t_max"], c["eta_min"]), 51),
    ({"kind": "onecycle", "lr": 1.0, "total": 10, "pct": 0.3, "div": 25.0, "final_div": 1e4},
     lambda o, c: L.OneCycleLR(o, max_lr=c["lr"], total_steps=c["total"]), 10),
    ({"kind": "onecycle", "lr": 0.01, "total": 37, "pct": 0.45, "div": 10.0, "final_div": 100.0},
     lambda o, c: L.OneCycleLR(o, max_lr=c["lr"], total_steps=c["total"], pct_start=c["pct"],
                               div_factor=c["div"], final_div_factor=c["final_div"]), 37),
    ({"kind": "onecycle", "lr": 0.5, "total": 3, "pct": 0.3, "div": 25.0, "final_div": 1e4},
     lambda o, c: L.OneCycleLR(o, max_lr=c["lr"], total_steps=c["total"]), 3),
    ({"kind": "onecycle", "lr": 0.5, "total": 6, "pct": 0.0, "div": 25.0, "final_div": 1e4},
     lambda o, c: L.OneCycleLR(o, max_lr=c["lr"], total_steps=c["total"], pct_start=c["pct"]), 6),
    ({"kind": "warmup_cosine", "lr": 0.1, "start": 0.1, "warmup": 3, "t_max": 6, "eta_min": 0.0},
     lambda o, c: L.SequentialLR(o, [L.LinearLR(o, c["start"], 1.0, c["warmup"]),
                                     L.CosineAnnealingLR(o, c["t_max"], c["eta_min"])], [c["warmup"]]), 12),
    ({"kind": "warmup_cosine", "lr": 6e-4, "start": 0.01, "warmup": 10, "t_max": 30, "eta_min": 6e-5},
     lambda o, c: L.SequentialLR(o, [L.LinearLR(o, c["start"], 1.0, c["warmup"]),
                                     L.CosineAnnealingLR(o, c["t_max"], c["eta_min"])], [c["warmup"]]), 40),
]


def main():
    warnings.simplefilter("ignore")
    with open(OUT, "w") as f:
        for case, make, n in CASES:
            line = dict(case, rates=rates(lambda o: make(o, case), n, case["lr"]))
            f.write(json.dumps(line) + "\n")
    print(f"{len(CASES)} cases to {OUT} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
