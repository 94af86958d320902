#!/usr/bin/env python3
"""The training steps of benches/train.rs in PyTorch CPU, on the same values: the seed's
segmentation network (batch 8, 3x128x192) and a GPT-2 block (B4 T256 E512, 8 heads of 64, MLP
2048, F.layer_norm and the attention written with matmul and softmax, then with
F.scaled_dot_product_attention), each one step of
forward, backward and AdamW; medians of 10 runs after 2, and the first losses (to compare with
the benchmark's), and the peak resident memory.

With --convs: ResNet-18's distinct convolutions (batch 8) on an input and weight that need
gradients, the forward pass and the backward of the sum, as the benchmark's `train
convolutions` group.

Run: python3 scripts/bench_train.py --threads 1   (and --threads 2; --convs)
"""
import argparse, resource, statistics, time
import torch
import torch.nn.functional as F


def wave(which, n, scale):
    i = torch.arange(n, dtype=torch.int64)
    h = ((i * 2654435761) ^ (which * 40503)) % 1000
    return (h.to(torch.float32) / 500.0 - 1.0) * scale


def param(which, shape, scale):
    n = 1
    for s in shape:
        n *= s
    return wave(which, n, scale).reshape(shape).requires_grad_(True)


def timed(step, runs=10, warm=2):
    for _ in range(warm):
        step()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        step()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def segmentation():
    img = wave(7, 8 * 3 * 128 * 192, 1.0).reshape(8, 3, 128, 192)
    z = (img - img.mean((0, 2, 3), keepdim=True)) / img.std((0, 2, 3), keepdim=True, unbiased=False)
    n, h, w = torch.meshgrid(torch.arange(8), torch.arange(64), torch.arange(96), indexing="ij")
    lbl = torch.where((h + w) % 17 == 0, torch.tensor(255), (n + h // 8 + w // 12) % 3)
    ps = [param(1, (8, 3, 3, 3), 0.3), param(2, (8,), 0.1), param(3, (8, 8, 3, 3), 0.2),
          param(4, (8,), 0.1), param(5, (3, 8), 0.3), param(6, (3,), 0.1)]
    w1, b1, w2, b2, head, hb = ps
    opt = torch.optim.AdamW(ps, lr=1e-3)

    def loss():
        h1 = F.max_pool2d(F.relu(F.conv2d(z, w1, b1, padding=1)), 2)
        h2 = F.relu(F.conv2d(h1, w2, b2, padding=1))
        logits = h2.permute(0, 2, 3, 1) @ head.T + hb
        return F.cross_entropy(logits.permute(0, 3, 1, 2), lbl, ignore_index=255)

    print(f"segmentation: first loss {loss().item():.6f}")

    def step():
        opt.zero_grad()
        loss().backward()
        opt.step()

    return timed(step)


def block(fused=False):
    x = wave(19, 4 * 256 * 512, 1.0).reshape(4, 256, 512)
    mask = torch.triu(torch.full((256, 256), -1e9), diagonal=1)
    g1, b1, g2, b2 = (torch.ones(512, requires_grad=True), torch.zeros(512, requires_grad=True),
                      torch.ones(512, requires_grad=True), torch.zeros(512, requires_grad=True))
    wq, wk, wv = (param(11, (512, 512), 0.05), param(12, (512, 512), 0.05), param(13, (512, 512), 0.05))
    wo = param(14, (512, 512), 0.05)
    fc1, fc1b = param(15, (2048, 512), 0.05), param(16, (2048,), 0.02)
    fc2, fc2b = param(17, (512, 2048), 0.03), param(18, (512,), 0.02)
    ps = [g1, b1, wq, wk, wv, wo, g2, b2, fc1, fc1b, fc2, fc2b]
    opt = torch.optim.AdamW(ps, lr=1e-4)

    def loss():
        h = F.layer_norm(x, (512,), g1, b1)
        split = lambda y: y.view(4, 256, 8, 64).transpose(1, 2)
        q, k, v = split(h @ wq.T), split(h @ wk.T), split(h @ wv.T)
        if fused:
            ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            ctx = torch.softmax(q @ k.transpose(-2, -1) * 0.125 + mask, dim=-1) @ v
        y = x + ctx.transpose(1, 2).reshape(4, 256, 512) @ wo.T
        h = F.layer_norm(y, (512,), g2, b2)
        y = y + F.gelu(h @ fc1.T + fc1b, approximate="tanh") @ fc2.T + fc2b
        return (y * y).mean()

    print(f"block{' (fused)' if fused else ''}: first loss {loss().item():.6f}")

    def step():
        opt.zero_grad()
        loss().backward()
        opt.step()

    return timed(step)


CONVS = [  # (in, out, size, kernel, stride, padding)
    (3, 64, 224, 7, 2, 3), (64, 64, 56, 3, 1, 1), (64, 128, 56, 3, 2, 1), (64, 128, 56, 1, 2, 0),
    (128, 128, 28, 3, 1, 1), (128, 256, 28, 3, 2, 1), (256, 256, 14, 3, 1, 1),
    (256, 512, 14, 3, 2, 1), (512, 512, 7, 3, 1, 1),
]


def convolutions(threads):
    for ci, co, n, k, s, p in CONVS:
        x = param(1, (8, ci, n, n), 1.0)
        w = param(2, (co, ci, k, k), 0.05)

        def step():
            x.grad, w.grad = None, None
            F.conv2d(x, w, stride=s, padding=p).sum().backward()

        print(f"{ci}->{co} at {n}, {k}x{k}/{s}: {timed(step):.2f} ms ({threads} thread(s))")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--convs", action="store_true", help="ResNet-18's convolutions instead")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.convs:
        return convolutions(args.threads)
    print(f"segmentation step: {segmentation():.2f} ms ({args.threads} thread(s))")
    print(f"block step: {block():.2f} ms")
    print(f"block step, fused attention: {block(fused=True):.2f} ms")
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
