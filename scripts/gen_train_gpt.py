#!/usr/bin/env python3
"""The reference run of examples/train_gpt.rs: a character-level GPT (2 blocks, 4 heads of 8,
embedding 32, MLP 128, context 32, tied embedding and classifier) built in PyTorch with
PyTorch's initialisation (seed 0; the embeddings N(0, 0.02) as GPT-2's), its initial weights written to
examples/data/train_gpt.safetensors in the layouts the example reads ([HEADS, DK, EMBED] for
the query, key and value projections, [EMBED, HEADS, DK] for the output one, nn.Linear's
[out, in] otherwise), then 20 AdamW steps (lr 3e-3, PyTorch's other defaults) on batches of 8
windows of the generated corpus, whose losses go to examples/data/train_gpt_losses.txt.

The corpus and the batches come from a 64-bit linear congruential generator that the
example implements too (`Lcg`), so both sides see the same text and the same windows.

Run: python3 scripts/gen_train_gpt.py  (needs torch and safetensors; the outputs are committed).
"""
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import save_file

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "examples", "data")
EMBED, HEADS, DK, HIDDEN, LAYERS, SEQ, BATCH, STEPS, LR = 32, 4, 8, 128, 2, 32, 8, 20, 3e-3


class Lcg:
    """Knuth's MMIX generator; `below(n)` takes the top 32 bits modulo n."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 32) % n


SUBJECTS = ["the cat", "a dog", "the old man", "my sister", "the river", "a small bird",
            "the king", "our teacher", "the baker", "a tired horse"]
VERBS = ["sees", "follows", "remembers", "paints", "carries", "finds", "hears", "builds",
         "loves", "forgets"]
OBJECTS = ["the moon", "a red house", "the green hill", "an old song", "the bright star",
           "a quiet road", "the long letter", "a wooden boat", "the cold sea", "a warm coat"]
ENDINGS = [".", "!", " today.", " at night.", " again.", " in the morning."]


def corpus(sentences=6000):
    rng = Lcg(2026)
    out = []
    for _ in range(sentences):
        s = (SUBJECTS[rng.below(len(SUBJECTS))] + " " + VERBS[rng.below(len(VERBS))] + " "
             + OBJECTS[rng.below(len(OBJECTS))] + ENDINGS[rng.below(len(ENDINGS))])
        out.append(s[0].upper() + s[1:])
    return "\n".join(out) + "\n"


def batches(text_len, steps):
    rng = Lcg(7)
    return [[rng.below(text_len - SEQ - 1) for _ in range(BATCH)] for _ in range(steps)]


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(EMBED)
        self.wq = nn.Linear(EMBED, HEADS * DK, bias=False)
        self.wk = nn.Linear(EMBED, HEADS * DK, bias=False)
        self.wv = nn.Linear(EMBED, HEADS * DK, bias=False)
        self.wo = nn.Linear(HEADS * DK, EMBED, bias=False)
        self.ln2 = nn.LayerNorm(EMBED)
        self.fc1 = nn.Linear(EMBED, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, EMBED)

    def forward(self, x, mask):
        b, t, _ = x.shape
        h = self.ln1(x)
        split = lambda y: y.view(b, t, HEADS, DK).transpose(1, 2)
        q, k, v = split(self.wq(h)), split(self.wk(h)), split(self.wv(h))
        att = torch.softmax(q @ k.transpose(-2, -1) * DK ** -0.5 + mask, dim=-1)
        x = x + self.wo((att @ v).transpose(1, 2).reshape(b, t, HEADS * DK))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


class Gpt(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.wte = nn.Embedding(vocab, EMBED)
        self.wpe = nn.Embedding(SEQ, EMBED)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.lnf = nn.LayerNorm(EMBED)
        # GPT-2's initialisation of the embeddings (PyTorch's N(0, 1) puts the tied
        # classifier's first logits far apart); the linear layers keep PyTorch's own.
        nn.init.normal_(self.wte.weight, std=0.02)
        nn.init.normal_(self.wpe.weight, std=0.02)

    def forward(self, tokens):
        t = tokens.shape[1]
        mask = torch.triu(torch.full((t, t), -1e9), diagonal=1)
        x = self.wte(tokens) + self.wpe.weight[:t]
        for block in self.blocks:
            x = block(x, mask)
        return self.lnf(x) @ self.wte.weight.T


def state_dict(model):
    """The weights by the example's names, in its layouts."""
    out = {"wte": model.wte.weight, "wpe": model.wpe.weight,
           "lnf.weight": model.lnf.weight, "lnf.bias": model.lnf.bias}
    for i, b in enumerate(model.blocks):
        p = f"blocks.{i}."
        out.update({
            p + "ln1.weight": b.ln1.weight, p + "ln1.bias": b.ln1.bias,
            p + "wq": b.wq.weight.view(HEADS, DK, EMBED), p + "wk": b.wk.weight.view(HEADS, DK, EMBED),
            p + "wv": b.wv.weight.view(HEADS, DK, EMBED), p + "wo": b.wo.weight.view(EMBED, HEADS, DK),
            p + "ln2.weight": b.ln2.weight, p + "ln2.bias": b.ln2.bias,
            p + "fc1.weight": b.fc1.weight, p + "fc1.bias": b.fc1.bias,
            p + "fc2.weight": b.fc2.weight, p + "fc2.bias": b.fc2.bias,
        })
    return {k: v.detach().contiguous().clone() for k, v in out.items()}


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    text = corpus()
    vocab = sorted(set(text))
    ids = torch.tensor([vocab.index(c) for c in text], dtype=torch.int64)
    model = Gpt(len(vocab))
    save_file(state_dict(model), os.path.join(DATA, "train_gpt.safetensors"))
    opt = torch.optim.AdamW(model.parameters(), lr=LR)
    losses = []
    for starts in batches(len(ids), STEPS):
        x = torch.stack([ids[s:s + SEQ] for s in starts])
        y = torch.stack([ids[s + 1:s + SEQ + 1] for s in starts])
        loss = F.cross_entropy(model(x).reshape(-1, len(vocab)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with open(os.path.join(DATA, "train_gpt_losses.txt"), "w") as f:
        f.write("".join(f"{l!r}\n" for l in losses))
    print(f"corpus {len(text)} characters, vocabulary {len(vocab)}; losses {losses[0]:.4f} -> {losses[-1]:.4f}")


if __name__ == "__main__":
    main()
