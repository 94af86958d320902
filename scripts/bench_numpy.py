#!/usr/bin/env python3
"""NumPy on the shapes of `cargo bench --bench reductions` (R1-R5) and `--bench
contractions` (M1-M3), for the tables of `shapecast::guide::performance`. Float32, the median of repeated timings.
NumPy's reductions and exp run on one thread; `matmul` and `einsum(optimize=True)` call the
BLAS NumPy links (OpenBLAS), which uses every core (two here) unless told otherwise.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python3 scripts/bench_numpy.py

OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE may be set on this machine for older OpenBLAS
builds and slow a current one down; unset both for this measurement only.
"""
import timeit

import numpy as np


def data(shape):
    n = int(np.prod(shape))
    return (((np.arange(n) * 7919) % 1000).astype(np.float32) / 250.0 - 2.0).reshape(shape)


def softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)


def median_time(f, number):
    times = timeit.repeat(f, number=number, repeat=15)
    return sorted(times)[len(times) // 2] / number


def main():
    a = data((1024, 1024))
    img = data((8, 64, 128, 128))
    rows = data((4096, 1000))
    cols = data((1000, 4096))
    cases = [
        ("R1 sum axis 0 of (1024, 1024)", lambda: a.sum(axis=0), 200),
        ("R2 sum axis 1 of (1024, 1024)", lambda: a.sum(axis=1), 200),
        ("R3 mean over (H, W) of (8, 64, 128, 128)", lambda: img.mean(axis=(2, 3)), 20),
        ("R4 softmax last axis of (4096, 1000)", lambda: softmax(rows, 1), 5),
        ("R5 softmax axis 0 of (1000, 4096)", lambda: softmax(cols, 0), 5),
    ]
    x = data((512, 512))
    y = data((512, 512)) * 0.5
    q = data((8, 8, 256, 64))
    k = data((8, 8, 256, 64)) * 0.5
    batch = data((16, 256, 256))
    w = data((256, 256)) * 0.5
    cases += [
        ("M1 matmul 512x512x512", lambda: np.matmul(x, y), 20),
        ("M2 attention scores, einsum", lambda: np.einsum("bhsd,bhtd->bhst", q, k, optimize=True), 5),
        ("M2 attention scores, matmul", lambda: np.matmul(q, k.swapaxes(-1, -2)), 5),
        ("M3 batch-broadcast matmul [16,256,256]@[256,256]", lambda: np.matmul(batch, w), 10),
    ]
    print(f"numpy {np.__version__}")
    for name, f, number in cases:
        t = median_time(f, number)
        unit, scale = ("ms", 1e3) if t > 1e-3 else ("µs", 1e6)
        print(f"{name}: {t * scale:.3g} {unit}")


if __name__ == "__main__":
    main()
