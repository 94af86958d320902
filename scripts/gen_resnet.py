#!/usr/bin/env python3
"""PyTorch's logits for `examples/resnet/`: a ResNet-18 (`--depth 18`, the default) or a
ResNet-50 (`--depth 50`) in torchvision's layout and names (`conv1`, `bn1`, `layer1.0.conv1`,
`layer2.0.downsample.0` ...; batch norm in `eval()` mode), every parameter and running
statistic, and the input, filled by the formula the examples use (no download, no random
generator to match), run in float32 on batch 2 at 224x224.

Writes examples/data/resnet{18,50}_logits.txt (committed: the examples check their logits
against them, so CI needs no Python) and, for a run on a file PyTorch wrote,
target/resnet/resnet{18,50}.safetensors (`cargo run --release --example resnet --features
safetensors -- target/resnet/resnet18.safetensors`; the example `resnet50` for the other).

Run: python3 scripts/gen_resnet.py [--depth 50]  (needs torch, numpy, safetensors)
"""
import argparse, math, os
import numpy as np
import torch
import torch.nn as nn

ROOT = os.path.join(os.path.dirname(__file__), "..")
BATCH, SIZE = 2, 224


def wave(k, n):
    """Element i of tensor k: ((i * 7919 + k * 104729) % 2003) / 1001.5 - 1, in [-1, 1)."""
    i = np.arange(n, dtype=np.int64)
    return ((i * 7919 + k * 104729) % 2003).astype(np.float64) / 1001.5 - 1.0


def conv_bn(conv, bn, o, i, k):
    """A convolution's weight under `conv` and its batch norm's four tensors under `bn`."""
    return [(f"{conv}.weight", (o, i, k, k))] + [(f"{bn}.{s}", (o,)) for s in ("weight", "bias", "running_mean", "running_var")]


# Per depth: the stages' (width, blocks), the expansion, and a block's convolutions
# (out, in, kernel) from its width and input channels (`examples/resnet/common.rs`'s
# `state_dict` takes the same).
CONFIGS = {
    18: ([(64, 2), (128, 2), (256, 2), (512, 2)], 1, lambda w, cin: [(w, cin, 3), (w, w, 3)]),
    50: ([(64, 3), (128, 4), (256, 6), (512, 3)], 4, lambda w, cin: [(w, cin, 1), (w, w, 3), (4 * w, w, 1)]),
}


def names_and_shapes(depth=18):
    """torchvision's resnet18 or resnet50 state dict order (without `num_batches_tracked`)."""
    stages, expansion, convs = CONFIGS[depth]
    out = conv_bn("conv1", "bn1", 64, 3, 7)
    cin = 64
    for layer, (width, blocks) in enumerate(stages, start=1):
        cout = expansion * width
        for b in range(blocks):
            p = f"layer{layer}.{b}"
            first_in = cin if b == 0 else cout
            for k, (o, i, kernel) in enumerate(convs(width, first_in), start=1):
                out += conv_bn(f"{p}.conv{k}", f"{p}.bn{k}", o, i, kernel)
            if b == 0 and cout != cin:
                out += conv_bn(f"{p}.downsample.0", f"{p}.downsample.1", cout, cin, 1)
        cin = cout
    return out + [("fc.weight", (1000, cin)), ("fc.bias", (1000,))]


def value(k, name, shape):
    n = math.prod(shape)
    w = wave(k, n)
    if name.endswith("running_var"):
        w = 1.0 + 0.5 * w
    elif ".bn" in name or name.startswith("bn") or "downsample.1" in name:
        w = 1.0 + 0.2 * w if name.endswith(".weight") else 0.1 * w
    elif name == "fc.bias":
        w = 0.1 * w
    else:
        fan_in = n // shape[0]
        w = w * math.sqrt(3.0 / fan_in)
    return w.astype(np.float32).reshape(shape)


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        short = x if self.downsample is None else self.downsample(x)
        return torch.relu(out + short)


class Bottleneck(nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = 4 * width
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = torch.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        short = x if self.downsample is None else self.downsample(x)
        return torch.relu(out + short)


class ResNet(nn.Module):
    """torchvision's ResNet-18 (BasicBlock, 2-2-2-2) or ResNet-50 (Bottleneck, 3-4-6-3)."""

    def __init__(self, depth=18):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        cin = 64
        if depth == 18:
            for layer, cout in enumerate([64, 128, 256, 512], start=1):
                stride = 1 if layer == 1 else 2
                setattr(self, f"layer{layer}", nn.Sequential(Block(cin, cout, stride), Block(cout, cout, 1)))
                cin = cout
        else:
            for layer, (width, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)], start=1):
                stride = 1 if layer == 1 else 2
                mods = [Bottleneck(cin, width, stride)] + [Bottleneck(4 * width, width, 1) for _ in range(blocks - 1)]
                setattr(self, f"layer{layer}", nn.Sequential(*mods))
                cin = 4 * width
        self.fc = nn.Linear(cin, 1000)

    def forward(self, x):
        x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
        for layer in range(1, 5):
            x = getattr(self, f"layer{layer}")(x)
        return self.fc(x.mean(dim=(2, 3)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, choices=(18, 50), default=18)
    depth = ap.parse_args().depth
    torch.set_num_threads(1)
    weights = {name: value(k, name, shape) for k, (name, shape) in enumerate(names_and_shapes(depth))}
    model = ResNet(depth).eval()
    state = {k: torch.from_numpy(v) for k, v in weights.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and all(m.endswith("num_batches_tracked") for m in missing), (missing, unexpected)
    x = torch.from_numpy(wave(1000, BATCH * 3 * SIZE * SIZE).astype(np.float32).reshape(BATCH, 3, SIZE, SIZE))
    with torch.no_grad():
        logits = model(x)
    out = os.path.join(ROOT, "examples", "data", f"resnet{depth}_logits.txt")
    with open(out, "w") as f:
        flag = "" if depth == 18 else " --depth 50"
        f.write(f"# PyTorch's logits of examples/resnet/'s ResNet-{depth} on its input, [2, 1000] row-major; written by scripts/gen_resnet.py{flag}\n")
        for v in logits.flatten().tolist():
            f.write(f"{v!r}\n")
    from safetensors.torch import save_file
    os.makedirs(os.path.join(ROOT, "target", "resnet"), exist_ok=True)
    save_file(state, os.path.join(ROOT, "target", "resnet", f"resnet{depth}.safetensors"))
    print(f"logits {tuple(logits.shape)}, |max| {logits.abs().max().item():.3f}, to {out}")


if __name__ == "__main__":
    main()
