#!/usr/bin/env python3
"""PyTorch's answers for the fused model blocks (rule book §16 norms and rotations, §17
attention), written to tests/data/torch_blocks.jsonl for tests/suite/blocks.rs:

- "attention": F.scaled_dot_product_attention (float64, enable_gqa) on generated shapes:
  batch or not, query heads as KV heads x groups (grouped-query attention, groups 1-4), query
  and key lengths across the kernel's blocks (64 queries, 128 keys), head dimensions of
  values and keys that differ, no mask, causal with the queries at the end of the keys (a
  KV cache prefix) or at the start, an additive mask of named axes, and a scale. Every
  operand's axes are in a generated order; the output is stored in the canonical order
  [B, SEQ, KVH, GROUP, E] by name.
- "layer_norm", "rms_norm": F.layer_norm / F.rms_norm over one or two named axes (moved to
  the end for PyTorch and back), weights over the normalised axes, biases for layer norm.
- "rope": the two conventions (adjacent pairs as torchtune and llama2.c, halves as Hugging
  Face's rotate_half) with a position offset, on an input whose feature axis is not last.

Inputs are `((i * a) % m) / m - 0.5` over each operand's row-major order (given as a, m), so
the test rebuilds them exactly. Run: python3 scripts/gen_block_cases.py (needs torch; the
file is committed).
"""
import json, os, random
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_blocks.jsonl")


def ramp(sizes, a, m):
    n = 1
    for s in sizes:
        n *= s
    return torch.tensor([((i * a) % m) / m - 0.5 for i in range(n)], dtype=torch.float64).reshape(sizes)


def named(names, sizes):
    return "[" + ", ".join(f"{n}: {s}" for n, s in zip(names, sizes)) + "]"


def operand(rng, names, sizes, a, m):
    """An operand in a generated axis order: its shape string, its data's parameters, and
    the tensor in the canonical order `names`."""
    order = list(range(len(names)))
    rng.shuffle(order)
    stored = ramp([sizes[k] for k in order], a, m)
    canonical = stored.permute([order.index(k) for k in range(len(names))])
    return {"shape": named([names[k] for k in order], [sizes[k] for k in order]), "a": a, "m": m}, canonical


def attention_cases(rng):
    cases = []
    plans = [
        # batch, L, S, KVH, G, E, EV, mask, offset, scale
        (None, 5, 5, 1, 1, 8, 8, "none", 0, None),
        (2, 7, 7, 2, 3, 8, 8, "causal", 0, None),
        (None, 1, 40, 2, 4, 16, 16, "causal", 39, None),
        (None, 70, 200, 2, 2, 16, 8, "causal", 130, None),
        (1, 130, 130, 1, 2, 8, 8, "causal", 0, 0.3),
        (None, 33, 300, 3, 1, 4, 6, "none", 0, None),
        (2, 9, 12, 2, 2, 8, 8, "tensor", 0, None),
        (None, 66, 140, 1, 3, 8, 8, "tensor_kvh", 0, None),
        (None, 3, 9, 4, 1, 32, 32, "causal", 2, None),
    ]
    for n, (b, L, S, kvh, g, e, ev, mask, offset, scale) in enumerate(plans):
        qn, qs = ["SEQ", "KVH", "GROUP", "HD"], [L, kvh, g, e]
        kn, ks = ["KSEQ", "KVH", "HD"], [S, kvh, e]
        vn, vs = ["KSEQ", "KVH", "E"], [S, kvh, ev]
        if b is not None:
            qn, qs, kn, ks, vn, vs = ["B"] + qn, [b] + qs, ["B"] + kn, [b] + ks, ["B"] + vn, [b] + vs
        if g == 1 and n % 2 == 0:
            # Plain multi-head attention: no group axis at all.
            i = qn.index("GROUP")
            del qn[i], qs[i]
        qj, q = operand(rng, qn, qs, 7 + n, 29)
        kj, k = operand(rng, kn, ks, 5 + n, 31)
        vj, v = operand(rng, vn, vs, 3 + n, 37)
        # Canonical torch layout: [B, heads, L, E] with heads = (KVH, GROUP).
        B = b or 1
        qt = q.reshape(B, L, kvh * g, e) if "GROUP" in qn else q.reshape(B, L, kvh, e)
        qt = qt.permute(0, 2, 1, 3)
        kt = k.reshape(B, S, kvh, e).permute(0, 2, 1, 3)
        vt = v.reshape(B, S, kvh, ev).permute(0, 2, 1, 3)
        case = {"op": "attention", "q": qj, "k": kj, "v": vj, "offset": offset, "scale": scale, "mask": mask}
        attn_mask = None
        if mask == "causal":
            attn_mask = torch.tensor([[j <= i + offset for j in range(S)] for i in range(L)])
        elif mask == "tensor":
            # A bias over [SEQ, KSEQ] with some keys hidden (never a whole row).
            mn, ms = ["KSEQ", "SEQ"], [S, L]
            bias = ramp(ms, 11, 13) * 2.0
            hidden = torch.tensor([[(i * 3 + j) % 5 == 0 and i > 0 for i in range(S)] for j in range(L)])
            bias = bias.masked_fill(hidden.T, float("-inf"))
            case["m"] = {"shape": named(mn, ms), "a": 11, "m": 13, "hidden": "(i * 3 + j) % 5 == 0 and i > 0",
                         "times": 2.0}
            attn_mask = bias.T
        elif mask == "tensor_kvh":
            # A bias per KV head: [KVH, SEQ, KSEQ], broadcast over the groups by name.
            mn, ms = ["KVH", "SEQ", "KSEQ"], [kvh, L, S]
            bias = ramp(ms, 11, 13)
            case["m"] = {"shape": named(mn, ms), "a": 11, "m": 13, "hidden": None, "times": 1.0}
            attn_mask = bias.repeat_interleave(g, dim=0)
        out = F.scaled_dot_product_attention(qt, kt, vt, attn_mask=attn_mask, scale=scale,
                                             enable_gqa=(kvh * g != kvh))
        # Back to [B, SEQ, KVH, GROUP, E] by name.
        out = out.permute(0, 2, 1, 3).reshape(B, L, kvh, g, ev)
        names = (["B"] if b is not None else []) + ["SEQ", "KVH"] + (["GROUP"] if "GROUP" in qn else []) + ["E"]
        if b is None:
            out = out[0]
        if "GROUP" not in qn:
            out = out.squeeze(-2)
        case["out_names"] = names
        case["out"] = out.flatten().tolist()
        cases.append(case)
    return cases


def norm_cases(rng):
    cases = []
    plans = [
        ("layer_norm", ["SEQ", "DIM"], [6, 16], ["DIM"], 1e-5),
        ("rms_norm", ["SEQ", "DIM"], [5, 288], ["DIM"], 1e-5),
        ("layer_norm", ["B", "SEQ", "DIM"], [2, 3, 7], ["DIM"], 1e-6),
        ("rms_norm", ["SEQ", "HEADS", "HD"], [4, 3, 8], ["HD"], 1e-6),
        ("layer_norm", ["C", "H", "W"], [3, 4, 5], ["H", "W"], 1e-5),
        ("rms_norm", ["SEQ", "DIM", "X"], [3, 6, 2], ["DIM"], 1e-5),
        ("layer_norm", ["SEQ", "DIM"], [130, 24], ["DIM"], 1e-5),
    ]
    for n, (op, names, sizes, over, eps) in enumerate(plans):
        xj, x = operand(rng, names, sizes, 13 + n, 41)
        wn = list(over)
        ws = [sizes[names.index(a)] for a in wn]
        w = ramp(ws, 3, 7) + 1.0
        bias = ramp(ws, 5, 11)
        # PyTorch normalises trailing axes: move the normalised ones to the end.
        rest = [k for k in range(len(names)) if names[k] not in over]
        order = rest + [names.index(a) for a in over]
        xt = x.permute(order)
        if op == "layer_norm":
            y = F.layer_norm(xt, ws, weight=w, bias=bias, eps=eps)
        else:
            y = F.rms_norm(xt, ws, weight=w, eps=eps)
        y = y.permute([order.index(k) for k in range(len(names))])
        cases.append({"op": op, "x": xj, "over": over, "w": {"shape": named(wn, ws), "a": 3, "m": 7, "plus": 1.0},
                      "b": {"shape": named(wn, ws), "a": 5, "m": 11, "plus": 0.0}, "eps": eps,
                      "out_names": names, "out": y.flatten().tolist()})
    return cases


def rope_cases(rng):
    cases = []
    for n, (style, names, sizes, offset) in enumerate([
        ("adjacent", ["SEQ", "HEADS", "HD"], [5, 2, 8], 0),
        ("halves", ["SEQ", "HEADS", "HD"], [5, 2, 8], 3),
        ("adjacent", ["HD", "SEQ"], [6, 4], 7),
        ("halves", ["B", "HD", "SEQ", "HEADS"], [2, 4, 3, 2], 1),
    ]):
        xj, x = operand(rng, names, sizes, 17 + n, 43)
        hd, seq = sizes[names.index("HD")], sizes[names.index("SEQ")]
        # torch's own order: [..., SEQ, HD] last.
        rest = [k for k in range(len(names)) if names[k] not in ("SEQ", "HD")]
        order = rest + [names.index("SEQ"), names.index("HD")]
        xt = x.permute(order)
        freqs = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
        ang = torch.outer(torch.arange(offset, offset + seq, dtype=torch.float64), freqs)
        cos, sin = torch.cos(ang), torch.sin(ang)
        if style == "adjacent":
            re, im = xt[..., 0::2], xt[..., 1::2]
            y = torch.stack((re * cos - im * sin, re * sin + im * cos), dim=-1).flatten(-2)
        else:
            c2, s2 = torch.cat((cos, cos), -1), torch.cat((sin, sin), -1)
            half = hd // 2
            rot = torch.cat((-xt[..., half:], xt[..., :half]), -1)
            y = xt * c2 + rot * s2
        y = y.permute([order.index(k) for k in range(len(names))])
        cases.append({"op": "rope", "style": style, "x": xj, "offset": offset, "theta": 10000.0,
                      "out_names": names, "out": y.flatten().tolist()})
    return cases


def batch_norm_cases(rng):
    """PyTorch's `batch_norm(training=False)`: the channel anywhere in the input (by name),
    1-, 2- and 3-D inputs, a large one (the split over threads)."""
    cases = []
    plans = [
        (["N", "C", "T"], [2, 3, 5], 1e-5),
        (["N", "C", "H", "W"], [2, 4, 3, 5], 1e-5),
        (["N", "C", "D", "H", "W"], [1, 3, 2, 3, 4], 1e-3),
        (["N", "C", "H", "W"], [2, 64, 14, 14], 1e-5),
    ]
    for n, (names, sizes, eps) in enumerate(plans):
        xj, x = operand(rng, names, sizes, 17 + n, 43)
        c = [sizes[1]]
        stats = {"mean": (3, 7, 0.0), "var": (5, 11, 1.0), "weight": (7, 13, 1.0), "bias": (11, 17, 0.0)}
        t = {k: ramp(c, a, m) + plus for k, (a, m, plus) in stats.items()}
        y = F.batch_norm(x, t["mean"], t["var"], weight=t["weight"], bias=t["bias"], training=False, eps=eps)
        case = {"op": "batch_norm", "x": xj, "eps": eps, "out_names": names, "out": y.flatten().tolist()}
        for k, (a, m, plus) in stats.items():
            case[k] = {"shape": named(["C"], c), "a": a, "m": m, "plus": plus}
        cases.append(case)
    return cases


def main():
    rng = random.Random(46)
    lines = attention_cases(rng) + norm_cases(rng) + rope_cases(rng) + batch_norm_cases(rng)
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases -> {OUT}")


if __name__ == "__main__":
    main()
