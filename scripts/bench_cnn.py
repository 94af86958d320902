#!/usr/bin/env python3
"""The CNN of `benches/cnn.rs` in PyTorch CPU, with the same inputs and weights (the same
`wave` formula), timed as the Rust benchmark times it: the whole network and each stage,
median of repeated runs.

Run: `python3 scripts/bench_cnn.py --threads 1` and `--threads 2` (PyTorch from
`pip install torch`). Prints one markdown row per stage, in milliseconds, and the loss, which
`cargo bench --bench cnn` prints too.
"""
import argparse
import os
import time

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--reps", type=int, default=20)
ap.add_argument("--fusion", action="store_true", help="time the outer-rule fusion (group `fusion`)")
ap.add_argument("--upsample", action="store_true", help="time F.interpolate (group `upsample`)")
ap.add_argument("--resize", action="store_true", help="time antialiased and bicubic F.interpolate (group `resize`)")
args = ap.parse_args()
for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(args.threads)


def wave(which, n, scale):
    i = torch.arange(n, dtype=torch.int64)
    h = ((i * 2654435761) ^ (which * 40503)) % 1000
    return (h.to(torch.float32) / 500.0 - 1.0) * scale


x = wave(7, 8 * 3 * 128 * 192, 2.0).reshape(8, 3, 128, 192)
labels = torch.tensor([(i * 3) % 10 for i in range(8)])
w1, b1 = wave(1, 432, 0.3).reshape(16, 3, 3, 3), wave(2, 16, 0.1)
w2, b2 = wave(3, 4608, 0.1).reshape(32, 16, 3, 3), wave(4, 32, 0.1)
fc, fc_b = wave(5, 320, 0.3).reshape(10, 32), wave(6, 10, 0.1)


def normalise(x):
    mean = x.mean(dim=(0, 2, 3), keepdim=True)
    std = x.std(dim=(0, 2, 3), keepdim=True, unbiased=False)
    return (x - mean) / std


def conv1(z):
    return F.relu(F.conv2d(z, w1, b1, padding=1))


def conv2(p):
    return F.relu(F.conv2d(p, w2, b2, padding=1))


def head(p2):
    pooled = p2.mean(dim=(2, 3))
    return F.cross_entropy(F.linear(pooled, fc, fc_b), labels)


def network(x):
    p1 = F.max_pool2d(conv1(normalise(x)), 2)
    p2 = F.max_pool2d(conv2(p1), 2)
    return head(p2)


def timed(f, *a):
    f(*a)
    times = []
    for _ in range(args.reps):
        t = time.perf_counter()
        f(*a)
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2] * 1e3


def weigh(probs, preds):
    # [N, CLASS, H, W] against [N, S1, S2, S3, H, W] by the outer rule: [N, CLASS, H, W, S1, S2, S3].
    return probs[:, :, :, :, None, None, None] * preds.permute(0, 4, 5, 1, 2, 3)[:, None]


def over_scales(weighted):
    return weighted.mean(dim=(4, 5, 6))


if args.upsample:
    logits = wave(15, 8 * 21 * 32 * 48, 1.0).reshape(8, 21, 32, 48)
    features = wave(16, 8 * 64 * 64 * 96, 1.0).reshape(8, 64, 64, 96)
    with torch.no_grad():
        full = F.interpolate(logits, scale_factor=4, mode="bilinear", align_corners=False)
        print(f"upsample: sum {full.double().sum().item():.4f} (torch {torch.__version__}, {args.threads} thread(s))")
        for name, f, a in [
            ("bilinear x4, 8x21x32x48", lambda t: F.interpolate(t, scale_factor=4, mode="bilinear", align_corners=False), logits),
            ("nearest x4, 8x21x32x48", lambda t: F.interpolate(t, scale_factor=4, mode="nearest"), logits),
            ("bilinear x2, 8x64x64x96", lambda t: F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False), features),
            ("nearest x2, 8x64x64x96", lambda t: F.interpolate(t, scale_factor=2, mode="nearest"), features),
        ]:
            print(f"| {name} | {timed(f, a):.2f} ms |")
    raise SystemExit


if args.resize:
    photos = wave(17, 8 * 3 * 480 * 640, 1.0).reshape(8, 3, 480, 640)
    features = wave(16, 8 * 64 * 64 * 96, 1.0).reshape(8, 64, 64, 96)
    smooth = lambda mode: lambda t: F.interpolate(t, size=(256, 341), mode=mode, align_corners=False, antialias=True)
    cubic = lambda t: F.interpolate(t, scale_factor=2, mode="bicubic", align_corners=False)
    with torch.no_grad():
        sums = [f(a).double().sum().item() for f, a in
                [(smooth("bilinear"), photos), (smooth("bicubic"), photos), (cubic, features)]]
        print(f"resize: sums {sums[0]:.4f} {sums[1]:.4f} {sums[2]:.4f} (torch {torch.__version__}, {args.threads} thread(s))")
        for name, f, a in [
            ("antialiased bilinear, 8x3x480x640 to 256x341", smooth("bilinear"), photos),
            ("antialiased bicubic, 8x3x480x640 to 256x341", smooth("bicubic"), photos),
            ("bicubic x2, 8x64x64x96", cubic, features),
        ]:
            print(f"| {name} | {timed(f, a):.2f} ms |")
    raise SystemExit


if args.fusion:
    probs = wave(13, 8 * 3 * 128 * 192, 1.0).reshape(8, 3, 128, 192)
    preds = wave(14, 8 * 15 * 128 * 192, 1.0).reshape(8, 1, 5, 3, 128, 192)
    with torch.no_grad():
        weighted = weigh(probs, preds)
        print(f"fusion: sum {over_scales(weighted).double().sum().item():.4f} (torch {torch.__version__}, {args.threads} thread(s))")
        for name, f, a in [("outer product and mean", lambda p, q: over_scales(weigh(p, q)), (probs, preds)),
                           ("outer product", weigh, (probs, preds)),
                           ("mean over the scales", over_scales, (weighted,))]:
            print(f"| {name} | {timed(f, *a):.2f} ms |")
    raise SystemExit


with torch.no_grad():
    print(f"loss {network(x).item():.6f} (torch {torch.__version__}, {args.threads} thread(s))")
    z = normalise(x)
    h1 = conv1(z)
    p1 = F.max_pool2d(h1, 2)
    h2 = conv2(p1)
    p2 = F.max_pool2d(h2, 2)
    for name, f, a in [("network", network, x), ("normalise", normalise, x), ("conv1 + bias + relu", conv1, z),
                       ("pool1", lambda t: F.max_pool2d(t, 2), h1), ("conv2 + bias + relu", conv2, p1),
                       ("pool2", lambda t: F.max_pool2d(t, 2), h2), ("gap + linear + cross-entropy", head, p2)]:
        print(f"| {name} | {timed(f, a):.2f} ms |")
