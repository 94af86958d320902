#!/usr/bin/env python3
"""PyTorch CPU on `benches/resnet.rs`'s networks and input: torchvision's ResNet-18 (or
ResNet-50 with --depth 50; `scripts/gen_resnet.py`'s model and formula weights), batch 8 at
224x224, float32, no gradients; the median of 10 forward passes after 3 warm-up ones.

With --convs: each distinct convolution of the network alone (`benches/resnet.rs`'s `CONVS`,
or `CONVS50` with --depth 50), F.conv2d without bias, median of 10 after 3 warm-up calls.

Run: python3 scripts/bench_resnet.py --threads 1   (and --threads 2; --depth 50; --convs
for the convolutions)
"""
import argparse, os, sys, time
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import gen_resnet as g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--convs", action="store_true")
    ap.add_argument("--depth", type=int, choices=(18, 50), default=18)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.convs:
        convs(args)
        return
    weights = {name: g.value(k, name, shape) for k, (name, shape) in enumerate(g.names_and_shapes(args.depth))}
    model = g.ResNet(args.depth).eval()
    model.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()}, strict=False)
    n = args.batch * 3 * g.SIZE * g.SIZE
    x = torch.from_numpy(g.wave(1000, n).astype(np.float32).reshape(args.batch, 3, g.SIZE, g.SIZE))
    with torch.no_grad():
        for _ in range(3):
            model(x)
        times = []
        for _ in range(10):
            t = time.perf_counter()
            model(x)
            times.append(time.perf_counter() - t)
    print(f"PyTorch {torch.__version__}, {args.threads} thread(s): resnet{args.depth} forward batch {args.batch} at 224x224: median {sorted(times)[5] * 1e3:.1f} ms")


CONVS = [(3, 64, 224, 7, 2, 3), (64, 64, 56, 3, 1, 1), (64, 128, 56, 3, 2, 1), (64, 128, 56, 1, 2, 0),
         (128, 128, 28, 3, 1, 1), (128, 256, 28, 3, 2, 1), (128, 256, 28, 1, 2, 0), (256, 256, 14, 3, 1, 1),
         (256, 512, 14, 3, 2, 1), (256, 512, 14, 1, 2, 0), (512, 512, 7, 3, 1, 1)]
CONVS50 = [(64, 64, 56, 1, 1, 0), (64, 64, 56, 3, 1, 1), (64, 256, 56, 1, 1, 0), (256, 64, 56, 1, 1, 0),
           (256, 128, 56, 1, 1, 0), (128, 128, 56, 3, 2, 1), (128, 512, 28, 1, 1, 0), (256, 512, 56, 1, 2, 0),
           (512, 128, 28, 1, 1, 0), (128, 128, 28, 3, 1, 1), (512, 256, 28, 1, 1, 0), (256, 256, 28, 3, 2, 1),
           (256, 1024, 14, 1, 1, 0), (512, 1024, 28, 1, 2, 0), (1024, 256, 14, 1, 1, 0), (256, 256, 14, 3, 1, 1),
           (1024, 512, 14, 1, 1, 0), (512, 512, 14, 3, 2, 1), (512, 2048, 7, 1, 1, 0), (1024, 2048, 14, 1, 2, 0),
           (2048, 512, 7, 1, 1, 0), (512, 512, 7, 3, 1, 1)]


def convs(args):
    import torch.nn.functional as F
    for ci, co, n, k, stride, padding in (CONVS if args.depth == 18 else CONVS50):
        x = torch.randn(args.batch, ci, n, n)
        w = torch.randn(co, ci, k, k) * 0.05
        with torch.no_grad():
            for _ in range(3):
                F.conv2d(x, w, stride=stride, padding=padding)
            times = []
            for _ in range(10):
                t = time.perf_counter()
                F.conv2d(x, w, stride=stride, padding=padding)
                times.append(time.perf_counter() - t)
        print(f"{ci}->{co} at {n}, {k}x{k}/{stride}: median {sorted(times)[5] * 1e3:.2f} ms ({args.threads} thread(s))")


if __name__ == "__main__":
    main()
