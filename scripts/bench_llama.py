#!/usr/bin/env python3
"""A Llama-style decoder (llama2.c's architecture: token embedding, RMSNorm, rotary
embeddings over adjacent feature pairs, grouped-query attention, SwiGLU, a KV cache, greedy
generation) in PyTorch CPU, on the weights `benches/llama.rs` reads.

Writes `target/llama-bench/<config>.safetensors` for each configuration: the weights in the
layouts the typed model declares (`wq` as [KV_HEADS, GROUP, HEAD_DIM, DIM], files' [out, in]
order with the output split by head), the prompt, and what PyTorch computes from them (the
prompt's last logits, the 32 greedy tokens) for the Rust benchmark to check against, and
`<config>.bf16.safetensors`, the same weights in bfloat16 with PyTorch's results on them (and
its bf16 model's prompt logits, `expected.bf16_logits`). Then
times the prompt (128 tokens) and generation (tokens per second, 32 tokens after the prompt)
at `--threads` threads, the median of `--runs` runs: in f32, and in bfloat16 as
`model.to(torch.bfloat16)` runs it (weights and activations in bf16), the PyTorch counterpart
of the benchmark's decoder on bf16 weights.

Run: `python3 scripts/bench_llama.py --threads 1` and `--threads 2`, then
`cargo bench --bench llama --features safetensors,rayon`.
"""
import argparse
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.numpy import save_file
from safetensors import safe_open
from safetensors.torch import save_file as save_torch_file

CONFIGS = {
    # llama2.c's stories15M and stories42M sizes, with half as many KV heads as heads.
    "dim288": dict(dim=288, layers=6, heads=6, kv_heads=3, hidden=768, vocab=32000, max_seq=256),
    "dim512": dict(dim=512, layers=8, heads=8, kv_heads=4, hidden=1376, vocab=32000, max_seq=256),
}
PROMPT_LEN = 128
GENERATE = 32
OUT = os.path.join(os.path.dirname(__file__), "..", "target", "llama-bench")


def prompt(vocab):
    return [(i * 7919 + 13) % vocab for i in range(PROMPT_LEN)]


def weights(c, seed=0):
    """Random weights, scaled so activations stay near 1, in the typed model's layouts."""
    rng = np.random.default_rng(seed)
    d, h, kv, hid, v = c["dim"], c["heads"], c["kv_heads"], c["hidden"], c["vocab"]
    hd, g = d // h, h // kv

    def normal(*shape, fan_in):
        return (rng.standard_normal(shape, dtype=np.float32) / math.sqrt(fan_in)).astype(np.float32)

    def norm():
        return (1.0 + 0.1 * rng.standard_normal(d, dtype=np.float32)).astype(np.float32)

    w = {"tok_embeddings": normal(v, d, fan_in=1), "norm": norm(), "output": normal(v, d, fan_in=d)}
    for l in range(c["layers"]):
        p = f"layers.{l}."
        w[p + "attention_norm"] = norm()
        w[p + "wq"] = normal(kv, g, hd, d, fan_in=d)
        w[p + "wk"] = normal(kv, hd, d, fan_in=d)
        w[p + "wv"] = normal(kv, hd, d, fan_in=d)
        w[p + "wo"] = normal(d, kv, g, hd, fan_in=d)
        w[p + "ffn_norm"] = norm()
        w[p + "w1"] = normal(hid, d, fan_in=d)
        w[p + "w2"] = normal(d, hid, fan_in=hid)
        w[p + "w3"] = normal(hid, d, fan_in=d)
    return w


class Llama:
    """The decoder, written as PyTorch users write it (F.linear on [out, in] weights,
    scaled_dot_product_attention with grouped-query attention, a preallocated KV cache)."""

    def __init__(self, c, w, dtype=torch.float32):
        self.c, self.dtype = c, dtype
        t = {k: torch.from_numpy(a).to(dtype) for k, a in w.items()}
        d, h, kv = c["dim"], c["heads"], c["kv_heads"]
        self.hd = d // h
        self.emb, self.norm, self.out = t["tok_embeddings"], t["norm"], t["output"]
        self.layers = []
        for l in range(c["layers"]):
            p = f"layers.{l}."
            self.layers.append(dict(
                an=t[p + "attention_norm"], fn=t[p + "ffn_norm"],
                wq=t[p + "wq"].reshape(h * self.hd, d), wk=t[p + "wk"].reshape(kv * self.hd, d),
                wv=t[p + "wv"].reshape(kv * self.hd, d), wo=t[p + "wo"].reshape(d, h * self.hd),
                w1=t[p + "w1"], w2=t[p + "w2"], w3=t[p + "w3"]))
        freqs = 1.0 / (10000.0 ** (torch.arange(0, self.hd, 2)[: self.hd // 2].float() / self.hd))
        angles = torch.outer(torch.arange(c["max_seq"]).float(), freqs)
        self.cos, self.sin = torch.cos(angles).to(dtype), torch.sin(angles).to(dtype)
        self.reset()

    def reset(self):
        c = self.c
        shape = (len(self.layers), 1, c["kv_heads"], c["max_seq"], self.hd)
        self.k_cache = torch.zeros(shape, dtype=self.dtype)
        self.v_cache = torch.zeros(shape, dtype=self.dtype)

    @staticmethod
    def rms_norm(x, g):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * g

    def rope(self, x, pos):
        # x: [1, T, heads, hd]; adjacent pairs (2i, 2i+1) rotate by position * freq_i.
        t = x.shape[1]
        cos, sin = self.cos[pos:pos + t, None, :], self.sin[pos:pos + t, None, :]
        re, im = x.reshape(*x.shape[:-1], -1, 2).unbind(-1)
        return torch.stack((re * cos - im * sin, re * sin + im * cos), dim=-1).flatten(3)

    def forward(self, tokens, pos):
        c, hd = self.c, self.hd
        x = self.emb[tokens][None]  # [1, T, dim]
        t = x.shape[1]
        for i, L in enumerate(self.layers):
            h = self.rms_norm(x, L["an"])
            q = F.linear(h, L["wq"]).view(1, t, c["heads"], hd)
            k = F.linear(h, L["wk"]).view(1, t, c["kv_heads"], hd)
            v = F.linear(h, L["wv"]).view(1, t, c["kv_heads"], hd)
            q, k = self.rope(q, pos), self.rope(k, pos)
            self.k_cache[i, :, :, pos:pos + t] = k.transpose(1, 2)
            self.v_cache[i, :, :, pos:pos + t] = v.transpose(1, 2)
            keys, values = self.k_cache[i, :, :, :pos + t], self.v_cache[i, :, :, :pos + t]
            a = F.scaled_dot_product_attention(
                q.transpose(1, 2), keys, values, is_causal=t > 1, enable_gqa=True)
            x = x + F.linear(a.transpose(1, 2).reshape(1, t, -1), L["wo"])
            h = self.rms_norm(x, L["fn"])
            x = x + F.linear(F.silu(F.linear(h, L["w1"])) * F.linear(h, L["w3"]), L["w2"])
        x = self.rms_norm(x, self.norm)
        return F.linear(x[0, -1], self.out)

    def decode(self, logits, pos):
        """`GENERATE` greedy tokens after logits at position `pos`, one forward pass each."""
        out = []
        for _ in range(GENERATE):
            nxt = int(torch.argmax(logits))
            out.append(nxt)
            logits = self.forward(torch.tensor([nxt]), pos)
            pos += 1
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    os.makedirs(OUT, exist_ok=True)
    print("| config | threads | PyTorch prompt (ms) | PyTorch generation (tokens/s) "
          "| bf16 prompt (ms) | bf16 generation (tokens/s) | checksum |")
    print("|---|---|---|---|---|---|---|")
    for name, c in CONFIGS.items():
        w = weights(c)
        model = Llama(c, w)
        toks = prompt(c["vocab"])
        with torch.inference_mode():
            model.reset()
            logits = model.forward(torch.tensor(toks), 0)
            generated = model.decode(logits, len(toks))
            path = os.path.join(OUT, f"{name}.safetensors")
            if not os.path.exists(path):
                extra = {
                    "prompt": np.array(toks, dtype=np.int64),
                    "expected.logits": logits.numpy().astype(np.float32),
                    "expected.tokens": np.array(generated, dtype=np.int64),
                }
                save_file({**w, **extra}, path)
            # The same weights published in bfloat16, and what PyTorch computes on them (the
            # bf16 weights widened to f32, as `model.float()` does): `<config>.bf16.safetensors`.
            half_path = os.path.join(OUT, f"{name}.bf16.safetensors")
            bf16 = Llama(c, w, torch.bfloat16)
            if not has(half_path, "expected.bf16_logits"):
                wb = {k: torch.from_numpy(a).to(torch.bfloat16) for k, a in w.items()}
                half = Llama(c, {k: t.float().numpy() for k, t in wb.items()})
                half_logits = half.forward(torch.tensor(toks), 0)
                half_tokens = half.decode(half_logits, len(toks))
                # PyTorch's bf16 model on them (weights and activations in bf16): what a
                # model whose products round the activations to bf16 is checked against.
                bf16.reset()
                bf16_logits = bf16.forward(torch.tensor(toks), 0)
                save_torch_file({
                    **wb,
                    "prompt": torch.tensor(toks, dtype=torch.int64),
                    "expected.logits": half_logits.float().contiguous(),
                    "expected.tokens": torch.tensor(half_tokens, dtype=torch.int64),
                    "expected.bf16_logits": bf16_logits.float().contiguous(),
                }, half_path)
            (p, g), (bp, bg) = timed(model, toks, args.runs), timed(bf16, toks, args.runs)
        print(f"| {name} | {args.threads} | {p:.2f} | {g:.1f} | {bp:.2f} | {bg:.1f} "
              f"| {float(logits.sum()):.4f} |")


def has(path, key):
    """Whether the file at `path` exists and holds the tensor `key` (a file written before
    the key was added is written again)."""
    if not os.path.exists(path):
        return False
    with safe_open(path, framework="pt") as f:
        return key in f.keys()


def timed(model, toks, runs):
    """The median prompt time (ms) and generation speed (tokens/s) of `runs` runs."""
    prompts, gens = [], []
    for _ in range(runs):
        model.reset()
        t0 = time.perf_counter()
        first = model.forward(torch.tensor(toks), 0)
        prompts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        model.decode(first, len(toks))
        gens.append(time.perf_counter() - t0)
    return sorted(prompts)[runs // 2] * 1e3, GENERATE / sorted(gens)[runs // 2]


if __name__ == "__main__":
    main()
