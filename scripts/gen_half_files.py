#!/usr/bin/env python3
"""Writes tests/data/io/half.safetensors and tests/data/io/f16_2x3.npy: half-precision tensors
as PyTorch and NumPy write them, with PyTorch's own conversions from f32 beside them, for
tests/suite/half.rs. Needs `pip install torch numpy safetensors`.

    python3 scripts/gen_half_files.py
"""
import os

import numpy as np
import torch
from safetensors.torch import save_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "io")
os.makedirs(OUT, exist_ok=True)

gen = torch.Generator().manual_seed(45)
# Ordinary values at several scales, and the edges: ties that round to even in both formats,
# f16's largest finite value and what overflows it, subnormals of both, signed zero, inf, NaN.
edges = [
    0.0, -0.0, 1.0, -1.0, 0.1, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -8,
    1.0 + 3 * 2.0 ** -8, 65504.0, 65520.0, 1e5, -1e5, 2.0 ** -24, 2.0 ** -25, 6e-8,
    1e-40, 3.0e38, float("inf"), float("-inf"), float("nan"),
]
src = torch.cat([
    torch.tensor(edges, dtype=torch.float32),
    torch.randn(64, generator=gen) * torch.logspace(-6, 6, 64),
]).reshape(5, 17)
save_file(
    {
        "src": src,
        "src_bf16": src.to(torch.bfloat16),
        "src_f16": src.to(torch.float16),
        # PyTorch's widening of its own conversions, for `get_widened`.
        "bf16_as_f32": src.to(torch.bfloat16).to(torch.float32),
        "f16_as_f64": src.to(torch.float16).to(torch.float64),
        "labels": torch.tensor([0, 2, -100], dtype=torch.int32),
    },
    os.path.join(OUT, "half.safetensors"),
)
np.save(os.path.join(OUT, "f16_2x3.npy"), (np.arange(6, dtype=np.float32).reshape(2, 3) / 3).astype(np.float16))
print("wrote half.safetensors and f16_2x3.npy")
