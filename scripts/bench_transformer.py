#!/usr/bin/env python3
"""The transformer block of `benches/common/block.rs` in NumPy and PyTorch CPU, with the same
weights (the same `wave` formula), timed as the Rust benchmark times it: one forward pass,
median of repeated runs, the two libraries alternating.

Run: `python3 scripts/bench_transformer.py --threads 1` and `--threads 2` (PyTorch from
`pip install torch`). Prints one markdown row per size and library, in milliseconds, and the
output's checksum (sum and first element), which `cargo bench --bench transformer` also
checks against ndarray.
"""
import argparse
import os
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--reps", type=int, default=0, help="runs per size (0: by size)")
args = ap.parse_args()
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402

try:
    import torch  # noqa: E402
    torch.set_num_threads(args.threads)
except ImportError:
    torch = None
    print("PyTorch is not installed: pip install torch", file=sys.stderr)

SIZES = [(1, 128, 256, 4, 64, 1024), (4, 256, 512, 8, 64, 2048)]


def wave(which, n, scale):
    i = np.arange(n, dtype=np.uint64)
    h = ((i * np.uint64(2654435761)) ^ np.uint64(which * 40503)) % np.uint64(1000)
    return ((h.astype(np.float32) / np.float32(500.0) - np.float32(1.0)) * np.float32(scale)).astype(np.float32)


def weights(b, t, e, h, d, f):
    hd = h * d
    se = 1.0 / np.sqrt(np.float32(e))
    w = dict(
        x=wave(0, b * t * e, 1.0).reshape(b, t, e),
        g1=1.0 + wave(1, e, 0.1), b1n=wave(2, e, 0.1),
        wq=wave(3, e * hd, se).reshape(e, hd), wk=wave(4, e * hd, se).reshape(e, hd),
        wv=wave(5, e * hd, se).reshape(e, hd),
        wo=wave(6, hd * e, 1.0 / np.sqrt(np.float32(hd))).reshape(hd, e),
        g2=1.0 + wave(7, e, 0.1), b2n=wave(8, e, 0.1),
        w1=wave(9, e * f, se).reshape(e, f), b1=wave(10, f, 0.1),
        w2=wave(11, f * e, 1.0 / np.sqrt(np.float32(f))).reshape(f, e), b2=wave(12, e, 0.1),
    )
    idx = np.arange(t)
    w["mask"] = np.where(idx[None, :] > idx[:, None], np.float32(-1e9), np.float32(0.0)).astype(np.float32)
    return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in w.items()}


def np_block(w, b, t, e, h, d, f):
    def ln(x, g, bb):
        m = x.mean(-1, keepdims=True)
        v = x.var(-1, keepdims=True)
        return (x - m) / np.sqrt(v + np.float32(1e-5)) * g + bb

    x = w["x"]
    hh = ln(x, w["g1"], w["b1n"])
    q = (hh @ w["wq"]).reshape(b, t, h, d).transpose(0, 2, 1, 3)
    k = (hh @ w["wk"]).reshape(b, t, h, d).transpose(0, 2, 1, 3)
    v = (hh @ w["wv"]).reshape(b, t, h, d).transpose(0, 2, 1, 3)
    s = q @ k.transpose(0, 1, 3, 2) * np.float32(1.0 / np.sqrt(d)) + w["mask"]
    s = np.exp(s - s.max(-1, keepdims=True))
    p = s / s.sum(-1, keepdims=True)
    ctx = (p @ v).transpose(0, 2, 1, 3).reshape(b, t, h * d)
    x1 = ctx @ w["wo"] + x
    u = ln(x1, w["g2"], w["b2n"]) @ w["w1"] + w["b1"]
    c = np.float32(np.sqrt(2.0 / np.pi))
    g = np.float32(0.5) * u * (np.float32(1.0) + np.tanh(c * (u + np.float32(0.044715) * u ** 3)))
    return g @ w["w2"] + w["b2"] + x1


def torch_block(w, b, t, e, h, d, f):
    F = torch.nn.functional
    x = w["x"]
    hh = F.layer_norm(x, (e,), w["g1"], w["b1n"], eps=1e-5)
    q = (hh @ w["wq"]).view(b, t, h, d).transpose(1, 2)
    k = (hh @ w["wk"]).view(b, t, h, d).transpose(1, 2)
    v = (hh @ w["wv"]).view(b, t, h, d).transpose(1, 2)
    s = q @ k.transpose(-1, -2) * (1.0 / d ** 0.5) + w["mask"]
    p = torch.softmax(s, dim=-1)
    ctx = (p @ v).transpose(1, 2).reshape(b, t, h * d)
    x1 = ctx @ w["wo"] + x
    u = F.layer_norm(x1, (e,), w["g2"], w["b2n"], eps=1e-5) @ w["w1"] + w["b1"]
    return F.gelu(u, approximate="tanh") @ w["w2"] + w["b2"] + x1


def timed(fn, reps):
    fn()
    out = []
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        out.append(time.perf_counter() - s)
    return float(np.median(out)) * 1e3


print("| size | threads | NumPy (ms) | PyTorch CPU (ms) | checksum NumPy | checksum PyTorch |")
print("|---|---|---|---|---|---|")
for dims in SIZES:
    w = weights(*dims)
    ref = np_block(w, *dims)
    row = [f"B{dims[0]} T{dims[1]} E{dims[2]} H{dims[3]} D{dims[4]} F{dims[5]}", str(args.threads)]
    reps = args.reps or (60 if dims[0] == 1 else 12)
    tn, tt = [], []
    if torch is not None:
        with torch.inference_mode():
            tw = {k: torch.from_numpy(v) for k, v in w.items()}
            got = torch_block(tw, *dims).numpy()
            err = float(np.abs(got - ref).max())
            assert err < 1e-3, f"NumPy and PyTorch disagree by {err}"
            for _ in range(3):  # alternate, so drift hits both
                tn.append(timed(lambda: np_block(w, *dims), reps // 3))
                tt.append(timed(lambda: torch_block(tw, *dims), reps // 3))
            cs_t = f"{float(got.sum()):.4f} / {float(got.flat[0]):.6f}"
    else:
        tn.append(timed(lambda: np_block(w, *dims), reps))
        tt, cs_t = [float("nan")], "-"
    row += [f"{np.median(tn):.2f}", f"{np.median(tt):.2f}", f"{float(ref.sum()):.4f} / {float(ref.flat[0]):.6f}", cs_t]
    print("| " + " | ".join(row) + " |")
