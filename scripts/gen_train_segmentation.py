#!/usr/bin/env python3
"""The reference run of examples/train_segmentation.rs: the seed's segmentation network (per-
channel normalisation, void pixels masked, two 3x3 convolutions with ReLU and a 2x2 max pool
between them, a linear class head per pixel) built in PyTorch with its default initialisation
(seed 0), its initial weights written to examples/data/train_segmentation.safetensors, then 20
AdamW steps (lr 1e-2) of cross-entropy against the labels at the pooled resolution (void,
255, ignored), whose losses go to examples/data/train_segmentation_losses.txt.

The synthetic scenes (a disc of class 1 with a void rim, a band of class 2, background 0; each
channel brighter where its class is, plus an integer pattern and a per-channel offset) come
from the 64-bit generator the example implements too, so both sides see the same pixels.

Run: python3 scripts/gen_train_segmentation.py  (needs torch and safetensors; outputs committed).
"""
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import save_file

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "examples", "data")
BATCH, HEIGHT, WIDTH, STEPS, LR, VOID = 8, 32, 48, 20, 1e-2, 255


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 32) % n


def scene(rng, i, s):
    """One image [3, H, W] and its labels [H, W]."""
    cy, cx, r, by = rng.below(HEIGHT), rng.below(WIDTH), 4 + rng.below(8), rng.below(HEIGHT)
    img = torch.zeros(3, HEIGHT, WIDTH)
    lbl = torch.zeros(HEIGHT, WIDTH, dtype=torch.int64)
    for h in range(HEIGHT):
        for w in range(WIDTH):
            d2 = (h - cy) ** 2 + (w - cx) ** 2
            lab = 2 if abs(h - by) <= 2 else 0
            if d2 < r * r:
                lab = 1
            elif d2 < (r + 1) * (r + 1):
                lab = VOID
            lbl[h, w] = lab
            for c in range(3):
                noise = ((h * 7 + w * 13 + c * 5 + i * 3 + s) % 11) / 11 - 0.5
                img[c, h, w] = 50.0 * c + (3.0 if lab == c else 0.0) + noise
    return img, lbl


def batch(rng, s):
    scenes = [scene(rng, i, s) for i in range(BATCH)]
    img = torch.stack([x for x, _ in scenes])
    lbl = torch.stack([y for _, y in scenes])
    return img, lbl


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv1(x)), 2)
        h = F.relu(self.conv2(h))
        return self.head(h.permute(0, 2, 3, 1))  # [N, H, W, CLASS]


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = Net()
    save_file({k: v.detach().contiguous().clone() for k, v in net.state_dict().items()},
              os.path.join(DATA, "train_segmentation.safetensors"))
    opt = torch.optim.AdamW(net.parameters(), lr=LR)
    rng = Lcg(11)
    losses = []
    for s in range(STEPS):
        img, lbl = batch(rng, s)
        mean = img.mean(dim=(0, 2, 3), keepdim=True)
        std = img.std(dim=(0, 2, 3), keepdim=True, unbiased=False)
        x = (img - mean) / std * (lbl != VOID).unsqueeze(1)
        target = lbl[:, ::2, ::2]
        logits = net(x)
        loss = F.cross_entropy(logits.permute(0, 3, 1, 2), target, ignore_index=VOID)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with open(os.path.join(DATA, "train_segmentation_losses.txt"), "w") as f:
        f.write("".join(f"{l!r}\n" for l in losses))
    print(f"losses {losses[0]:.4f} -> {losses[-1]:.4f}")


if __name__ == "__main__":
    main()
