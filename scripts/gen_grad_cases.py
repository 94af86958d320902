#!/usr/bin/env python3
"""PyTorch autograd's gradients for the operations of shapecast::train, written to
tests/data/torch_grads.jsonl for tests/suite/train.rs.

Each case names an operation, a pattern of named shapes (the Rust test has one typed
function per pattern), the operands' sizes and data (uniform in [-2, 2), seeded; positive
where the operation needs it), and PyTorch's values: `loss`, the sum of the output times a
seed, and the gradient of every operand in its own axis order. The seed is a function of
the output's indices by name, `sin(0.3 + sum(c[name] * index))`, so that both sides build it
whatever order their output's axes come in. Sizes are drawn at random (1 to 5, size-1 axes
included, so run-time broadcasts are exercised); operands aligned by name are permuted and
unsqueezed in PyTorch to the output's order before the operation.

Run: python3 scripts/gen_grad_cases.py  (needs torch; the file is committed).
"""
import json, math, os, random
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "torch_grads.jsonl")
C = {"A": 0.7, "B": 1.3, "C": 0.45, "K": 0.9, "N": 1.7, "M": 0.55, "H": 1.1, "T": 0.35,
     "S": 0.8, "L": 1.9, "CLASS": 0.6, "W": 0.33}
rng = random.Random(20261202)


def seed(names, sizes):
    """The seed over an output with these axis names and sizes."""
    grids = torch.meshgrid(*[torch.arange(n, dtype=torch.float64) for n in sizes], indexing="ij")
    total = torch.full(sizes, 0.3, dtype=torch.float64)
    for name, g in zip(names, grids):
        total = total + C[name] * g
    return torch.sin(total)


def data(sizes, positive=False):
    n = math.prod(sizes)
    v = [rng.uniform(0.5, 2.5) if positive else rng.uniform(-2, 2) for _ in range(n)]
    return v


def leaf(v, sizes):
    return torch.tensor(v, dtype=torch.float64).reshape(sizes).requires_grad_(True)


def align(t, names, out):
    """t (axes `names`) permuted and unsqueezed to the axes `out`."""
    present = [n for n in out if n in names]
    t = t.permute([names.index(n) for n in present])
    shape = [t.shape[present.index(n)] if n in present else 1 for n in out]
    return t.reshape(shape)


def emit(lines, op, pattern, operands, out, out_names):
    s = seed(out_names, list(out.shape))
    loss = (out * s).sum()
    loss.backward()
    lines.append({"op": op, "pattern": pattern,
                  "sizes": [list(t.shape) for t, _ in operands],
                  "data": [v for _, v in operands],
                  "loss": loss.item(),
                  "grads": [t.grad.flatten().tolist() for t, _ in operands]})


BINARY = {
    # pattern: (lhs names, rhs names, output names)
    "same": (["A", "B", "C"], ["A", "B", "C"], ["A", "B", "C"]),
    "trailing": (["A", "B", "C"], ["C"], ["A", "B", "C"]),
    "transposed": (["A", "B", "C"], ["C", "B"], ["A", "B", "C"]),
    "ones": (["A", "B", "C"], ["A", "B", "C"], ["A", "B", "C"]),
    "left_smaller": (["B"], ["A", "B"], ["A", "B"]),
}


def binary(lines):
    ops = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
    for op, f in ops.items():
        for pattern, (ln, rn, on) in BINARY.items():
            for _ in range(3):
                size = {n: rng.randint(1, 5) for n in "ABC"}
                ls = [size[n] for n in ln]
                rs = [size[n] for n in rn]
                if pattern == "ones":
                    # a size-1 axis against a larger one, on either side, decided at run time
                    size["B"] = max(size["B"], 2)
                    ls = [size["A"], 1, size["C"]]
                    rs = [size["A"], size["B"], size["C"]]
                    if rng.random() < 0.5:
                        ls, rs = rs, ls
                lv, rv = data(ls), data(rs, positive=(op == "div"))
                a, b = leaf(lv, ls), leaf(rv, rs)
                out = f(align(a, ln, on), align(b, rn, on))
                emit(lines, op, pattern, [(a, lv), (b, rv)], out, on)


def unary(lines):
    ops = {
        "exp": torch.exp, "ln": torch.log, "sqrt": torch.sqrt, "tanh": torch.tanh,
        "sigmoid": torch.sigmoid, "relu": torch.relu, "silu": F.silu,
        "gelu": lambda x: F.gelu(x, approximate="tanh"), "gelu_erf": F.gelu,
        "powi3": lambda x: x ** 3, "square": torch.square, "abs": torch.abs,
        "recip": torch.reciprocal,
    }
    for op, f in ops.items():
        for _ in range(2):
            sizes = [rng.randint(1, 5), rng.randint(1, 5)]
            v = data(sizes, positive=op in ("ln", "sqrt", "recip"))
            a = leaf(v, sizes)
            emit(lines, op, "ab", [(a, v)], f(a), ["A", "B"])


def reductions(lines):
    names = ["A", "B", "C"]
    ops = {
        "sum_b": (lambda x: x.sum(1), ["A", "C"]),
        "sum_ac": (lambda x: x.sum((0, 2)), ["B"]),
        "mean_b": (lambda x: x.mean(1), ["A", "C"]),
        "mean_ac": (lambda x: x.mean((0, 2)), ["B"]),
        "logsumexp_c": (lambda x: torch.logsumexp(x, 2), ["A", "B"]),
        "softmax_b": (lambda x: torch.softmax(x, 1), names),
        "softmax_c": (lambda x: torch.softmax(x, 2), names),
        "log_softmax_b": (lambda x: torch.log_softmax(x, 1), names),
        "log_softmax_c": (lambda x: torch.log_softmax(x, 2), names),
        "max_b": (lambda x: x.amax(1), ["A", "C"]),
        "min_ac": (lambda x: x.amin((0, 2)), ["B"]),
        "var_c": (lambda x: x.var(2, correction=0), ["A", "B"]),
        "var1_b": (lambda x: x.var(1, correction=1), ["A", "C"]),
        "std_ac": (lambda x: x.std((0, 2), correction=0), ["B"]),
    }
    for op, (f, on) in ops.items():
        for _ in range(3):
            sizes = [rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 5)]
            if op in ("var1_b", "std_ac", "var_c"):
                sizes = [rng.randint(2, 4), rng.randint(2, 5), rng.randint(2, 5)]
            v = data(sizes)
            a = leaf(v, sizes)
            emit(lines, op, "abc", [(a, v)], f(a), on)


DOT = {
    # pattern: (lhs names, rhs names, einsum, output names)
    "ak_kn": (["A", "K"], ["K", "N"], "ak,kn->an", ["A", "N"]),
    "ak_nk": (["A", "K"], ["N", "K"], "ak,nk->an", ["A", "N"]),
    "bmk_bkn": (["B", "M", "K"], ["B", "K", "N"], "bmk,bkn->bmn", ["B", "M", "N"]),
    "bmk_kn": (["B", "M", "K"], ["K", "N"], "bmk,kn->bmn", ["B", "M", "N"]),
    "htd_hsd": (["H", "T", "C"], ["H", "S", "C"], "htc,hsc->hts", ["H", "T", "S"]),
    "akl_kln": (["A", "K", "L"], ["K", "L", "N"], "akl,kln->an", ["A", "N"]),
}


def dots(lines):
    for pattern, (ln, rn, eq, on) in DOT.items():
        for _ in range(3):
            size = {n: rng.randint(1, 5) for n in sorted(set(ln + rn))}
            ls, rs = [size[n] for n in ln], [size[n] for n in rn]
            lv, rv = data(ls), data(rs)
            a, b = leaf(lv, ls), leaf(rv, rs)
            emit(lines, "dot", pattern, [(a, lv), (b, rv)], torch.einsum(eq, a, b), on)
    for _ in range(3):
        m, k, n, b = (rng.randint(1, 5) for _ in range(4))
        lv, rv = data([b, m, k]), data([k, n])
        a, w = leaf(lv, [b, m, k]), leaf(rv, [k, n])
        emit(lines, "matmul", "bmk_kn", [(a, lv), (w, rv)], a @ w, ["B", "M", "N"])


def losses(lines):
    for shape in ([4, 3], [2, 3, 5]):
        for weight in (None, True):
            for smoothing in (0.0, 0.15):
                for ignore in (None, 2):
                    for reduction in ("mean", "sum"):
                        c = shape[1]
                        v = data(shape)
                        x = leaf(v, shape)
                        tshape = shape[:1] + shape[2:]
                        targets = [rng.randrange(c) for _ in range(math.prod(tshape))]
                        if ignore is not None:
                            targets[0] = ignore
                        w = [rng.uniform(0.5, 2.0) for _ in range(c)] if weight else None
                        kw = {"weight": torch.tensor(w, dtype=torch.float64) if w else None,
                              "label_smoothing": smoothing, "reduction": reduction}
                        if ignore is not None:
                            kw["ignore_index"] = ignore
                        t = torch.tensor(targets).reshape(tshape)
                        loss = F.cross_entropy(x, t, **kw)
                        loss.backward()
                        lines.append({"op": "cross_entropy", "pattern": f"rank{len(shape)}",
                                      "sizes": [shape], "data": [v], "targets": targets,
                                      "weight": w, "smoothing": smoothing, "ignore": ignore,
                                      "reduction": reduction, "loss": loss.item(),
                                      "grads": [x.grad.flatten().tolist()]})


def surgery(lines):
    for _ in range(3):
        # an embedding lookup with repeated rows, and a take along a middle axis
        a, c, n = rng.randint(2, 5), rng.randint(1, 4), rng.randint(3, 7)
        idx = [rng.randrange(a) for _ in range(n)]
        idx[-1] = idx[0]
        v = data([a, c])
        x = leaf(v, [a, c])
        emit(lines, "take", "rows", [(x, v)], x[torch.tensor(idx)], ["N", "C"])
        lines[-1]["indices"] = idx
        b = rng.randint(2, 5)
        v = data([2, b, c])
        x = leaf(v, [2, b, c])
        idx = [rng.randrange(b) for _ in range(n)]
        emit(lines, "take", "middle", [(x, v)], x[:, torch.tensor(idx), :], ["A", "N", "C"])
        lines[-1]["indices"] = idx
        v = data([2, b + 2, c])
        x = leaf(v, [2, b + 2, c])
        emit(lines, "slice", "abc", [(x, v)], x[:, 1:3, :], ["A", "B", "C"])


CONV = {
    # pattern: (stride, padding, dilation, groups, kernel, spatial dims)
    "s1p1": (1, 1, 1, 1, 3, 2),
    "s2p1": (2, 1, 1, 1, 3, 2),
    "d2p2": (1, 2, 2, 1, 3, 2),
    "g2": (1, 1, 1, 2, 3, 2),
    "t_s2": (2, 0, 1, 1, 2, 1),
}


def convs(lines):
    for pattern, (stride, pad, dil, groups, k, d) in CONV.items():
        for _ in range(2):
            n, c, o = rng.randint(1, 2), 2 * rng.randint(1, 2), 2 * rng.randint(1, 2)
            spatial = [rng.randint(5, 8) for _ in range(d)]
            xs, ws = [n, c] + spatial, [o, c // groups] + [k] * d
            xv, wv = data(xs), data(ws)
            x, w = leaf(xv, xs), leaf(wv, ws)
            f = F.conv2d if d == 2 else F.conv1d
            out = f(x, w, stride=stride, padding=pad, dilation=dil, groups=groups)
            names = ["N", "K", "H", "W"] if d == 2 else ["N", "K", "T"]
            emit(lines, "conv", pattern, [(x, xv), (w, wv)], out, names)


POOL = {
    # pattern: (max, kernel, stride, padding, ceil)
    "max2": (True, 2, 2, 0, False),
    "max3s2p1": (True, 3, 2, 1, False),
    "max2ceil": (True, 2, 2, 0, True),
    "avg3s2p1": (False, 3, 2, 1, False),
    "avg2ceil": (False, 2, 2, 0, True),
}


def pools(lines):
    for pattern, (is_max, k, s, p, ceil) in POOL.items():
        for _ in range(2):
            xs = [rng.randint(1, 2), rng.randint(1, 3), rng.randint(4, 7), rng.randint(4, 7)]
            v = data(xs)
            x = leaf(v, xs)
            f = F.max_pool2d if is_max else F.avg_pool2d
            out = f(x, k, stride=s, padding=p, ceil_mode=ceil)
            emit(lines, "pool", pattern, [(x, v)], out, ["N", "C", "H", "W"])
    # One axis, not the last (the separable path): a max over H alone, and over (C, H).
    for _ in range(2):
        xs = [rng.randint(1, 2), rng.randint(3, 5), rng.randint(4, 7), rng.randint(2, 4)]
        v = data(xs)
        x = leaf(v, xs)
        out = F.max_pool2d(x.transpose(2, 3), (1, 3), stride=(1, 2), padding=(0, 1)).transpose(2, 3)
        emit(lines, "pool", "max_h3s2p1", [(x, v)], out, ["N", "C", "H", "W"])
        x = leaf(v, xs)
        out = F.max_pool3d(x.unsqueeze(0), (2, 2, 1), stride=(2, 2, 1)).squeeze(0)
        emit(lines, "pool", "max_ch2", [(x, v)], out, ["N", "C", "H", "W"])


def padded_pools(lines):
    """Average pools whose padding makes a stage larger than its input (stride 1): the
    backward of the second axis pooled must not read the input at the first stage's sizes.
    Last, so that the cases above keep their random draws."""
    for _ in range(3):
        xs = [rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4)]
        v = data(xs)
        x = leaf(v, xs)
        out = F.avg_pool2d(x, 2, stride=1, padding=1)
        emit(lines, "pool", "avg2s1p1", [(x, v)], out, ["N", "C", "H", "W"])


def norms(lines):
    for _ in range(3):
        xs = [rng.randint(1, 3), rng.randint(2, 4), rng.randint(2, 6)]
        v = data(xs)
        wv, bv = data(xs[2:]), data(xs[2:])
        x, w, b = leaf(v, xs), leaf(wv, xs[2:]), leaf(bv, xs[2:])
        out = F.layer_norm(x, xs[2:], w, b, eps=1e-5)
        emit(lines, "layer_norm", "c", [(x, v), (w, wv), (b, bv)], out, ["A", "B", "C"])
        wv, bv = data(xs[1:]), data(xs[1:])
        x, w, b = leaf(v, xs), leaf(wv, xs[1:]), leaf(bv, xs[1:])
        out = F.layer_norm(x, xs[1:], w, b, eps=1e-5)
        emit(lines, "layer_norm", "bc", [(x, v), (w, wv), (b, bv)], out, ["A", "B", "C"])
        wv = data(xs[2:])
        x, w = leaf(v, xs), leaf(wv, xs[2:])
        out = F.rms_norm(x, xs[2:], w, eps=1e-5)
        emit(lines, "rms_norm", "c", [(x, v), (w, wv)], out, ["A", "B", "C"])


def views(lines):
    for _ in range(2):
        xs = [rng.randint(1, 3), rng.randint(2, 4), rng.randint(1, 4)]
        v = data(xs)
        x = leaf(v, xs)
        emit(lines, "select", "b1", [(x, v)], x[:, 1, :], ["A", "C"])
        x = leaf(v, xs)
        emit(lines, "align_to", "cab", [(x, v)], x.permute(2, 0, 1), ["C", "A", "B"])
        ys = [xs[0], rng.randint(1, 3), xs[2]]
        w = data(ys)
        x, y = leaf(v, xs), leaf(w, ys)
        emit(lines, "concat", "b", [(x, v), (y, w)], torch.cat([x, y], 1), ["A", "B", "C"])
        x = leaf(v, xs)
        emit(lines, "step", "b2", [(x, v)], x[:, ::2, :], ["A", "B", "C"])
        x = leaf(v, xs)
        emit(lines, "merge_axes", "bc", [(x, v)], x.reshape(xs[0], xs[1] * xs[2]), ["A", "K"])
        ys = [xs[0], 2 * xs[2]]
        w = data(ys)
        y = leaf(w, ys)
        emit(lines, "split_axis", "k", [(y, w)], y.reshape(xs[0], 2, xs[2]), ["A", "B", "C"])
    for mode in ("constant", "reflect", "replicate"):
        xs = [rng.randint(1, 2), rng.randint(3, 5), rng.randint(3, 5)]
        v = data(xs)
        x = leaf(v, xs)
        kw = {"value": 0.5} if mode == "constant" else {}
        out = F.pad(x.unsqueeze(0), (2, 2, 2, 2), mode=mode, **kw).squeeze(0)
        emit(lines, "pad", mode, [(x, v)], out, ["A", "B", "C"])


def attention_torch(q, k, v, scale, mask=None, causal=None):
    """Attention over the last two axes of q, k, v (keys along -2), PyTorch's definition."""
    s = q @ k.transpose(-1, -2) * scale
    if mask is not None:
        s = s + mask
    if causal is not None:
        t, n = s.shape[-2], s.shape[-1]
        seen = torch.arange(n)[None, :] <= torch.arange(t)[:, None] + causal
        s = s.masked_fill(~seen, float("-inf"))
    return torch.softmax(s, -1) @ v


def rope_torch(x, positions, adjacent, theta=10000.0):
    """x [T, H, D] turned by the angles of positions (one per T)."""
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=torch.float64)
    angle = positions[:, None].double() * (1.0 / theta ** (2 * i / d))[None, :]
    cos, sin = torch.cos(angle)[:, None, :], torch.sin(angle)[:, None, :]
    if adjacent:
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).reshape(x.shape)
    a, b = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)


def blocks(lines):
    """The fused blocks: attention (causal, grouped heads, an additive mask, a KV cache),
    rotary embeddings, gather along an axis, stack, and batch norm in training mode."""
    for rows in (rng.randint(2, 9), rng.randint(2, 9), 70):
        # causal self-attention [T, H, C] by keys [S, H, C], T = S; 70 rows cross a block
        t, h, c = rows, rng.randint(1, 3), rng.randint(1, 5)
        qs, ks = [t, h, c], [t, h, c]
        qv, kv, vv = data(qs), data(ks), data(ks)
        q, k, v = leaf(qv, qs), leaf(kv, ks), leaf(vv, ks)
        out = attention_torch(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1),
                              c ** -0.5, causal=0).transpose(0, 1)
        emit(lines, "attention", "causal", [(q, qv), (k, kv), (v, vv)], out, ["T", "H", "C"])
    for _ in range(2):
        # grouped-query attention: queries [T, H, M, C], keys and values [S, H, C], no mask
        t, s_, h, m, c = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 3),
                          rng.randint(1, 3), rng.randint(1, 4))
        qs, ks = [t, h, m, c], [s_, h, c]
        qv, kv, vv = data(qs), data(ks), data(ks)
        q, k, v = leaf(qv, qs), leaf(kv, ks), leaf(vv, ks)
        qq = q.permute(1, 2, 0, 3)  # [H, M, T, C]
        kk, vv_ = k.permute(1, 0, 2)[:, None], v.permute(1, 0, 2)[:, None]
        out = attention_torch(qq, kk, vv_, c ** -0.5).permute(2, 0, 1, 3)
        emit(lines, "attention", "grouped", [(q, qv), (k, kv), (v, vv)], out,
             ["T", "H", "M", "C"])
    for _ in range(2):
        # an additive mask [T, S] and scale 0.5; then a KV cache: T new queries after S - T
        t, s_, c = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 4)
        qs, ks = [t, c], [s_, c]
        qv, kv, vv = data(qs), data(ks), data(ks)
        mv = data([t, s_])
        q, k, v = leaf(qv, qs), leaf(kv, ks), leaf(vv, ks)
        mask = torch.tensor(mv, dtype=torch.float64).reshape(t, s_)
        out = attention_torch(q, k, v, 0.5, mask=mask)
        emit(lines, "attention", "mask", [(q, qv), (k, kv), (v, vv)], out, ["T", "C"])
        lines[-1]["mask"] = mv
        t = rng.randint(1, s_)
        qs = [t, c]
        qv = data(qs)
        q, k, v = leaf(qv, qs), leaf(kv, ks), leaf(vv, ks)
        out = attention_torch(q, k, v, c ** -0.5, causal=s_ - t)
        emit(lines, "attention", "cache", [(q, qv), (k, kv), (v, vv)], out, ["T", "C"])
    for style in ("adjacent", "halves"):
        for _ in range(2):
            t, h, d = rng.randint(1, 5), rng.randint(1, 3), 2 * rng.randint(1, 3)
            xs = [t, h, d]
            xv = data(xs)
            x = leaf(xv, xs)
            out = rope_torch(x, torch.arange(2, 2 + t), style == "adjacent")
            emit(lines, "rope", style, [(x, xv)], out, ["T", "H", "C"])
    for _ in range(3):
        # gather along the last axis (repeated picks), and along a middle one
        b, c, n = rng.randint(1, 4), rng.randint(2, 5), rng.randint(1, 6)
        idx = [rng.randrange(c) for _ in range(b * n)]
        xv = data([b, c])
        x = leaf(xv, [b, c])
        out = torch.gather(x, 1, torch.tensor(idx).reshape(b, n))
        emit(lines, "gather", "last", [(x, xv)], out, ["B", "C"])
        lines[-1]["indices"] = idx
        a, m = rng.randint(1, 3), rng.randint(1, 4)
        idx = [rng.randrange(c) for _ in range(a * m * b)]
        xv = data([a, c, b])
        x = leaf(xv, [a, c, b])
        out = torch.gather(x, 1, torch.tensor(idx).reshape(a, m, b))
        emit(lines, "gather", "middle", [(x, xv)], out, ["A", "C", "B"])
        lines[-1]["indices"] = idx
    for at in (0, 1):
        xs = [rng.randint(1, 4), rng.randint(1, 4)]
        xv, yv = data(xs), data(xs)
        x, y = leaf(xv, xs), leaf(yv, xs)
        out = torch.stack([x, y], at)
        names = ["N", "A", "C"] if at == 0 else ["A", "N", "C"]
        emit(lines, "stack", f"at{at}", [(x, xv), (y, yv)], out, names)
    for pattern, xs in (("nchw", [rng.randint(2, 3), 3, rng.randint(1, 3), rng.randint(1, 3)]),
                        ("nc", [rng.randint(2, 5), 3]), ("nchw", [1, 3, 2, 2])):
        xv, wv, bv = data(xs), data([3]), data([3])
        x, w, b = leaf(xv, xs), leaf(wv, [3]), leaf(bv, [3])
        rm = torch.tensor(data([3]), dtype=torch.float64)
        rv = torch.tensor(data([3], positive=True), dtype=torch.float64)
        start = (rm.tolist(), rv.tolist())
        out = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.1, eps=1e-5)
        names = ["N", "C", "H", "W"] if pattern == "nchw" else ["N", "C"]
        emit(lines, "batch_norm", pattern, [(x, xv), (w, wv), (b, bv)], out, names)
        lines[-1]["running"] = [start[0], start[1], rm.tolist(), rv.tolist()]


def rules(lines):
    """The operators under other rules than the named one: NumPy's alignment from the right
    (unnamed axes, size-1 axes stretched on both sides) and PaddlePaddle's with the right
    operand placed from axis 1; the output's axes are seeded as A, B, C."""
    ops = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
    for op, f in ops.items():
        a, b, c = rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 4)
        ls, rs = [a, 1, c], [b, 1]
        lv, rv = data(ls), data(rs, positive=op == "div")
        x, y = leaf(lv, ls), leaf(rv, rs)
        emit(lines, op, "numpy", [(x, lv), (y, rv)], f(x, y), ["A", "B", "C"])
        ls, rs = [a, b, c], [b, 1]
        lv, rv = data(ls), data(rs, positive=op == "div")
        x, y = leaf(lv, ls), leaf(rv, rs)
        emit(lines, op, "pdpd1", [(x, lv), (y, rv)], f(x, y.unsqueeze(0)), ["A", "B", "C"])


def main():
    torch.manual_seed(0)
    lines = []
    binary(lines)
    unary(lines)
    reductions(lines)
    dots(lines)
    losses(lines)
    surgery(lines)
    convs(lines)
    pools(lines)
    norms(lines)
    views(lines)
    blocks(lines)
    rules(lines)
    padded_pools(lines)
    with open(OUT, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} cases -> {OUT}")


if __name__ == "__main__":
    main()
