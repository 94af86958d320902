#!/usr/bin/env python3
"""Compile-time cost of type-level broadcasting: generates a crate with N distinct broadcast
expressions at rank R, and times `cargo check` of that crate alone (dependencies are
checked once beforehand). Prints a table. Not a test; run by hand:

    python3 benches/compile_time.py            # the standard table
    python3 benches/compile_time.py --n 100    # fewer expressions
"""
import argparse, os, random, shutil, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = ["N", "C", "H", "W", "D", "T", "K", "L", "M", "P", "Q", "R", "U", "V", "X", "Y"]


def expr(rng, kind, rank, rule):
    """One accepted broadcast of two shapes of rank `rank` (the right one shorter by one)."""
    sizes = [rng.choice([2, 3, 4, 5, 7, 8, 16, 32, 64, 128]) for _ in range(rank)]
    if kind == "baseline":
        dims = ", ".join(map(str, sizes))
        return f"Same<[{dims}], [{dims}]>"
    if kind == "sample-over":
        # `sample`'s bound (rule book §16): one name, the last axis of a rank-`rank` shape.
        names = NAMES[:rank]
        dims = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        return f"BOUND sample_ok::<shape![{dims}], {names[-1]}>()"
    if kind.startswith("reduce"):
        # Reductions (rule book §16): two selected axes of a rank-`rank` shape.
        a, b = rng.sample(range(rank), 2)
        if kind == "reduce-pos":
            dims = ", ".join(map(str, sizes))
            return f"Reduce<shape![{dims}], (Pos<{a}>, Pos<{b}>)>"
        names = NAMES[:rank]
        dims = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        alias = "ReduceKeep" if kind == "reduce-keep" else "Reduce"
        return f"{alias}<shape![{dims}], ({names[a]}, {names[b]})>"
    if kind.startswith("contract"):
        # Contractions (rule book §17): the right shares six names (batch axes) and the
        # contracted one, and brings one of its own.
        names = NAMES[:rank]
        lhs = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        x = rng.choice(names)
        rhs_axes = [f"{n}: {s}" for n, s in zip(names, sizes) if n != x][: rank - 2] + [f"{x}: {sizes[names.index(x)]}", f"{NAMES[rank]}: 5"]
        rng.shuffle(rhs_axes)
        if kind in ("contract-call", "contract-call-bf16"):
            # A typed `dot` call, compiled to machine code (`cargo build`); `-bf16`: the right
            # operand in bf16 (`DotOperand`, the half-precision GEMM instantiated).
            right = "shapecast::bf16" if kind.endswith("bf16") else "f32"
            return (f"CALL pub fn f{{i}}(a: &Tensor<f32, shape![{lhs}]>, b: &Tensor<{right}, shape![{', '.join(rhs_axes)}]>) -> usize "
                    f"{{{{ a.dot::<{x}>(b).sizes().len() }}}}")
        if kind == "contract-plan":
            # The plan constant a typed `dot` runs on, evaluated by the compiler.
            return f"PLAN StaticContraction::contract(<shape![{lhs}] as Shape>::NAMES, <shape![{', '.join(rhs_axes)}] as Shape>::NAMES, &<{x} as Selector>::STATIC)"
        return f"Contract<shape![{lhs}], shape![{', '.join(rhs_axes)}], {x}>"
    if kind.startswith("matmul"):
        # matmul by position: six batch axes (some 1 on the right), [M, K] @ [K, N].
        lhs = ", ".join(map(str, sizes))
        rhs = ", ".join(["1" if rng.random() < 0.3 else str(s) for s in sizes[:-2]] + [str(sizes[-1]), "9"])
        if kind == "matmul-call":
            return (f"CALL pub fn f{{i}}(a: &Tensor<f32, shape![{lhs}]>, b: &Tensor<f32, shape![{rhs}]>) -> usize "
                    f"{{{{ a.matmul(b).sizes().len() }}}}")
        if kind == "matmul-plan":
            return f"PLAN <shape![{lhs}] as MatMulWith<shape![{rhs}]>>::PLAN"
        return f"MatMul<shape![{lhs}], shape![{rhs}]>"
    if kind in ("attend", "var-attend"):
        # Attention (rule book §17): queries with six batch axes, a sequence and the head
        # dimension; keys and values with the batch axes in another order, their own
        # sequence and the head dimension.
        names = NAMES[:rank - 2]
        batch = [f"{n}: {s}" for n, s in zip(names, sizes)]
        q = batch + [f"L: {sizes[-2]}", f"P: {sizes[-1]}"]
        k = batch[:]
        rng.shuffle(k)
        k = k + [f"M: 9", f"P: {sizes[-1]}"]
        rng.shuffle(k)
        q, k = ", ".join(q), ", ".join(k)
        if kind == "var-attend":
            # The same shapes through the trait a tracked value's `attention` is bounded by.
            return f"<Var<f32, shape![{q}]> as VarAttendBy<shape![{k}], shape![{k}], P, M>>::Output"
        return f"Attend<shape![{q}], shape![{k}], shape![{k}], P, M>"
    if kind in ("norm", "rotate"):
        # A norm over two names with a weight over them (rule book §16), and a rotation's
        # two axes: bounds, checked in a function's where clause.
        names = NAMES[:rank]
        dims = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        a, b = sorted(rng.sample(range(rank), 2))
        if kind == "norm":
            w = f"{names[a]}: {sizes[a]}, {names[b]}: {sizes[b]}"
            return f"BOUND norm_ok::<shape![{dims}], ({names[a]}, {names[b]}), shape![{w}]>()"
        return f"BOUND rotate_ok::<shape![{dims}], {names[a]}, {names[b]}>()"
    if kind == "conv3":
        # A 3-D convolution (PyTorch's widest) at rank 8: four batch axes, the channel, three
        # spatial axes; stride, padding at random.
        names = NAMES[:rank]
        spatial = list(zip(names[5:], sizes[5:]))
        ks = [rng.choice([1, 2, 3]) for _ in spatial]
        geo = f"Conv<{rng.choice([1, 2])}, {rng.choice([0, 1])}, 1>"
        lhs = ", ".join([f"{n}: {s}" for n, s in zip(names[:5], sizes[:5])] + [f"{n}: {max(s, 4)}" for n, s in spatial])
        w = [f"{NAMES[rank]}: 8", f"{names[4]}: {sizes[4]}"] + [f"{n}: {k}" for (n, _), k in zip(spatial, ks)]
        rng.shuffle(w)
        return f"Convolve<shape![{lhs}], shape![{', '.join(w)}], {names[4]}, {geo}>"
    if kind in ("conv-image", "pool-image"):
        # ResNet's windows at image sizes (rule book §20): a batch, the channel and two spatial
        # axes of 56-512 pixels, kernels 1, 3 and 7, strides 1 and 2 (rank 4: what an image
        # network writes).
        hw = [rng.choice([56, 112, 224, 256, 384, 512]) for _ in range(2)]
        if kind == "pool-image":
            return f"Pooled<shape![N, C: 64, H: {hw[0]}, W: {hw[1]}], (H, W), Pool<{rng.choice([2, 3])}, 2, {rng.choice([0, 1])}, {rng.choice(['false', 'true'])}>>"
        k, c = rng.choice([1, 3, 7]), rng.choice([3, 64, 128, 512])
        geo = f"Conv<{rng.choice([1, 2])}, {k // 2}>"
        return f"Convolve<shape![N, C: {c}, H: {hw[0]}, W: {hw[1]}], shape![K: 64, C: {c}, H: {k}, W: {k}], C, {geo}>"
    if kind in ("pool", "pad", "pad-ends", "upsample", "resize", "take", "gather"):
        # Pooling and padding over two named axes of a rank-8 shape; an embedding lookup by
        # rank-2 indices; a gather along one name by indices of another size there.
        names = NAMES[:rank]
        dims = ", ".join(f"{n}: {max(s, 4)}" for n, s in zip(names, sizes))
        a, b = rng.sample(range(rank), 2)
        if kind == "pool":
            k = rng.choice([2, 3])
            return f"Pooled<shape![{dims}], ({names[a]}, {names[b]}), Pool<{k}, {rng.choice([1, 2])}, {rng.choice([0, 1])}, {rng.choice(['false', 'true'])}>>"
        if kind == "pad":
            return f"Padded<shape![{dims}], ({names[a]}, {names[b]}), Pad<{rng.choice([1, 2, 3])}>>"
        if kind == "pad-ends":
            return f"Padded<shape![{dims}], ({names[a]}, {names[b]}), Pad<{rng.choice([0, 1, 2])}, {rng.choice([1, 3, 5])}>>"
        if kind == "upsample":
            return f"Upsampled<shape![{dims}], ({names[a]}, {names[b]}), Scale<{rng.choice([2, 3, 4, 8])}>>"
        if kind == "resize":
            return f"Resized<shape![{dims}], ({names[a]}, {names[b]}), S<{rng.choice([7, 224, 256, 341])}>>"
        if kind == "gather":
            idims = ", ".join(f"{n}: {7 if k == a else max(s, 4)}" for k, (n, s) in enumerate(zip(names, sizes)))
            return f"Gather<shape![{dims}], {names[a]}, shape![{idims}]>"
        return f"Take<shape![{dims}], {names[a]}, shape![{NAMES[rank]}, {NAMES[rank + 1]}: 7]>"
    if kind in ("conv", "conv-unit", "conv-dyn"):
        # Convolution (rule book §20): a rank-`rank` input (a batch, the channel, the rest
        # spatial) and a weight naming the channel, an output channel and the spatial axes
        # (kernels 1 to 3), stride, padding and dilation at random: the output sizes computed.
        names = NAMES[:rank]
        spatial = list(zip(names[2:], sizes[2:]))
        ks = [rng.choice([1, 2, 3]) for _ in spatial]
        geo = "Conv" if kind == "conv-unit" else f"Conv<{rng.choice([1, 2])}, {rng.choice([0, 1])}, 1>"
        lhs = ", ".join([f"{names[0]}: {sizes[0]}", f"{names[1]}: {sizes[1]}"] + [(n if kind == "conv-dyn" else f"{n}: {max(s, 4)}") for n, s in spatial])
        w = [f"{NAMES[rank]}: 8", f"{names[1]}: {sizes[1]}"] + [f"{n}: {k}" for (n, _), k in zip(spatial, ks)]
        rng.shuffle(w)
        return f"Convolve<shape![{lhs}], shape![{', '.join(w)}], {names[1]}, {geo}>"
    if kind.startswith("surgery-"):
        # Shape surgery (rule book §18) on a named rank-`rank` shape.
        names = NAMES[:rank]
        dims = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        k = rng.randrange(rank)
        op = kind[len("surgery-"):]
        if op == "rename":
            return f"Rename<shape![{dims}], {names[k]}, {NAMES[rank]}>"
        if op == "insert":
            return f"InsertAxis<shape![{dims}], {rng.randint(0, rank)}, {NAMES[rank]}>"
        if op == "stack-at":
            return f"StackAt<shape![{dims}], {rng.randint(0, rank)}, {NAMES[rank]}>"
        if op == "stack-at-static":
            return f"StackAtStatic<shape![{dims}], {rng.randint(0, rank)}, {NAMES[rank]}, {rng.randint(1, 4)}>"
        if op == "select":
            return f"Select<shape![{dims}], {names[k]}>"
        if op == "slice":
            return f"SliceTo<shape![{dims}], {names[k]}, S<{sizes[k] // 2}>>"
        if op == "split":
            a, b = (2, sizes[k] // 2) if sizes[k] % 2 == 0 else (1, sizes[k])
            return f"SplitAxis<shape![{dims}], {names[k]}, ({NAMES[rank]}<S<{a}>>, {NAMES[rank + 1]}<S<{b}>>)>"
        if op in ("merge", "merge-computed"):
            k = rng.randrange(rank - 1)
            # Written with its size (checked), or bare (the product computed and read back).
            new = NAMES[rank] if op == "merge-computed" else f"{NAMES[rank]}<S<{sizes[k] * sizes[k + 1]}>>"
            return f"MergeAxes<shape![{dims}], ({names[k]}, {names[k + 1]}), {new}>"
        if op in ("concat", "concat-computed"):
            other = list(zip(names, sizes))
            other[k] = (names[k], 3)
            rng.shuffle(other)
            rhs = ", ".join(f"{n}: {s}" for n, s in other)
            along = names[k] if op == "concat-computed" else f"{names[k]}<S<{sizes[k] + 3}>>"
            return f"Concat<{along}, shape![{dims}], shape![{rhs}]>"
        if op == "stack":
            return f"Stack<{NAMES[rank]}, shape![{dims}]>"
    if kind == "same":
        lhs = ", ".join(map(str, sizes))
        rhs = lhs
    elif kind in ("unnamed", "pdpd"):
        lhs = ", ".join(map(str, sizes))
        rhs_sizes = ["1" if rng.random() < 0.3 else str(s) for s in sizes[1:]]
        if kind == "pdpd":
            rhs_sizes[-1] = str(sizes[-1])  # no trailing 1: PDPD would drop it
        rhs = ", ".join(rhs_sizes)
    else:
        names = NAMES[:rank]
        lhs = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        rhs_axes = [f"{n}: {1 if rng.random() < 0.3 else s}" for n, s in zip(names[1:], sizes[1:])]
        rng.shuffle(rhs_axes)
        rhs = ", ".join(rhs_axes)
    if kind == "broadcasts-into":
        # The assignment rule as `assign`'s bound: the source broadcasts into the destination.
        return f"BOUND into_ok::<shape![{rhs}], shape![{lhs}]>()"
    if kind == "named-plan":
        # The plan constant the operators run on, evaluated by the compiler.
        return f"PLAN <shape![{lhs}] as BroadcastsUnder<{rule}, shape![{rhs}]>>::STATIC_PLAN"
    return f"BroadcastBy<{rule}, shape![{lhs}], shape![{rhs}]>"


def crate(dir, kind, rank, n, rule, seed=1):
    rng = random.Random(seed)
    os.makedirs(os.path.join(dir, "src"), exist_ok=True)
    with open(os.path.join(dir, "Cargo.toml"), "w") as f:
        f.write(f"""[package]
name = "ctbench"
version = "0.0.0"
edition = "2021"
[dependencies]
shapecast = {{ path = "{ROOT}" }}
[workspace]
""")
    lines = ["#![allow(dead_code, unused_imports)]", "use shapecast::{names, shape, Conv, Convolve, Gather, Pad, Padded, Pool, Pooled, Scale, Upsampled, Resized, Take, BroadcastBy, BroadcastsUnder, Concat, Contract, ContractWith, InsertAxis, MatMul, MatMulWith, MergeAxes, Pos, Reduce, ReduceKeep, Rename, Select, Selector, Shape, SliceTo, SplitAxis, Stack, StackAt, StackAtStatic, S, Tensor, Dot, rule::*, dynamic::contract::StaticContraction, Attend, NormOver, RotateOver, BroadcastsInto, SampleOver, train::{Var, VarAttendBy}};",
             f"names!({', '.join(NAMES)});",
             "struct Same<A, B>(A, B);",
             "trait Rank { const RANK: usize; }",
             "impl<const N: usize> Rank for Same<[usize; N], [usize; N]> { const RANK: usize = N; }",
             "fn norm_ok<S: NormOver<A, W>, A, W>() -> usize { S::RANK }",
             "fn rotate_ok<S: RotateOver<P, F>, P, F>() -> usize { S::RANK }",
             "fn into_ok<X: BroadcastsInto<T>, T: Shape>() -> usize { T::RANK }",
             "fn sample_ok<S: SampleOver<A>, A>() -> usize { S::RANK }"]
    if kind == "baseline":
        lines = lines[:1] + lines[3:]
        lines.append("struct Z;")
    for i in range(n):
        e = expr(rng, kind, rank, rule)
        if kind == "baseline":
            # A const-generic shape that only accepts equal shapes: arrays stand in for shapes.
            dims = e[len("Same<["):e.index("]")]
            lines.append(f"fn f{i}() -> usize {{ <Same<[usize; {rank}], [usize; {rank}]> as Rank>::RANK + {dims.count(',')} }}")
        elif e.startswith("CALL "):
            lines.append(e[len("CALL "):].format(i=i))
        elif e.startswith("BOUND "):
            lines.append(f"fn f{i}() -> usize {{ {e[len('BOUND '):]} }}")
        elif e.startswith("PLAN "):
            # A top-level constant: `cargo check` evaluates it.
            field = "len" if kind == "named-plan" else "plan.len"
            lines.append(f"const P{i}: usize = {e[len('PLAN '):]}.{field};")
        else:
            lines.append(f"fn f{i}() -> usize {{ <{e} as Shape>::RANK }}")
    with open(os.path.join(dir, "src", "lib.rs"), "w") as f:
        f.write("\n".join(lines) + "\n")


def check_time(dir, runs, build=False):
    # No incremental reuse: every run type-checks every expression afresh. One target
    # directory for all rows, so the dependencies are checked once.
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(ROOT, "target", "ctbench"),
               CARGO_INCREMENTAL="0")
    cmd = ["cargo", "build" if build else "check", "-q"]
    subprocess.run(cmd, cwd=dir, env=env, check=True)  # dependencies
    best = None
    for _ in range(runs):
        os.utime(os.path.join(dir, "src", "lib.rs"))
        t = time.perf_counter()
        subprocess.run(cmd, cwd=dir, env=env, check=True)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", help="run only the rows whose label contains this text")
    args = ap.parse_args()
    rows = [
        ("const-generic baseline (equal shapes only)", "baseline", 16, "Numpy", None),
        ("unnamed, numpy rule", "unnamed", 16, "Numpy", 2.0),
        ("unnamed, named rule", "unnamed", 16, "Named", 2.0),
        ("named, named rule", "named", 4, "Named", 3.0),
        ("named, named rule", "named", 8, "Named", 8.0),
        ("named, named rule", "named", 16, "Named", None),
    ]
    # One row per rule at rank 8 (target: within 2x of the named rule at rank 8).
    rows += [
        ("unnamed, numpy rule", "unnamed", 8, "Numpy", None),
        ("named, outer rule", "named", 8, "Outer", None),
        ("unnamed, embed rule", "unnamed", 8, "Embed", None),
        ("identical, strict rule", "same", 8, "Strict", None),
        ("identical, compare rule", "same", 8, "Compare", None),
        ("named, static rule", "named", 8, "Static", None),
        ("unnamed, pdpd rule (auto axis)", "pdpd", 8, "Pdpd", None),
        ("named, bidirectional rule", "named", 8, "Bidirectional", None),
        ("named, assign rule", "named", 8, "Assign", None),
        ("named, BroadcastsInto (assign's bound)", "broadcasts-into", 8, "Assign", None),
        # Reductions: two axes selected by name, by position, and kept.
        ("named, Reduce over two names", "reduce-named", 8, "-", None),
        ("named, ReduceKeep over two names", "reduce-keep", 8, "-", None),
        ("unnamed, Reduce over two positions", "reduce-pos", 8, "-", None),
        ("named, SampleOver the last name", "sample-over", 8, "-", None),
        # Contractions: one name by name, and matmul by position.
        ("named, Contract over one name", "contract", 8, "-", None),
        ("unnamed, MatMul with six batch axes", "matmul", 8, "-", None),
        # Convolution: a batch, the channel and six spatial axes, output sizes computed.
        ("named, Convolve over six spatial axes", "conv", 8, "-", None),
        ("named, Convolve over six spatial axes, stride 1, no padding", "conv-unit", 8, "-", None),
        ("named, Convolve over six spatial axes of run-time size", "conv-dyn", 8, "-", None),
        ("named, Convolve over three spatial axes (conv3d), four batch axes", "conv3", 8, "-", None),
        # Pooling, padding, upsampling and gathering (rule book §20-§23).
        ("named, Pooled over two names", "pool", 8, "-", None),
        # The same at image sizes (56-512 pixels), as ResNet writes them.
        ("named, Convolve over two spatial axes at image sizes", "conv-image", 4, "-", None),
        ("named, Pooled over two names at image sizes", "pool-image", 4, "-", None),
        ("named, Padded over two names", "pad", 8, "-", None),
        ("named, Padded over two names by a (before, after) pair", "pad-ends", 8, "-", None),
        ("named, Upsampled over two names by 2, 3, 4 or 8", "upsample", 8, "-", None),
        ("named, Resized over two names to 7, 224, 256 or 341", "resize", 8, "-", None),
        ("named, Take by rank-2 indices", "take", 8, "-", None),
        ("named, Gather along one name", "gather", 8, "-", None),
        # The fused blocks (rule book §16, §17): attention's shape, a norm's and a rotation's
        # bounds.
        ("named, Attend with six batch axes", "attend", 8, "-", None),
        ("named, VarAttendBy (tracked attention) with six batch axes", "var-attend", 8, "-", None),
        ("named, NormOver two names with a weight over them", "norm", 8, "-", None),
        ("named, RotateOver two names", "rotate", 8, "-", None),
        # The plans the operators, typed `dot` and `matmul` run on: constants, which the
        # compiler evaluates after proving the shapes again (the broadcast plan is the
        # reference for this mode).
        ("named, named rule's plan constant", "named-plan", 8, "Named", None),
        ("named, Contract's plan constant", "contract-plan", 8, "-", None),
        ("unnamed, MatMul's plan constant", "matmul-plan", 8, "-", None),
        # Typed `dot` and `matmul` calls compiled to machine code (`cargo build`, not check).
        ("named, dot calls (build)", "contract-call", 8, "-", None),
        ("named, dot calls on bf16 weights (build)", "contract-call-bf16", 8, "-", None),
        ("unnamed, matmul calls (build)", "matmul-call", 8, "-", None),
        # Shape surgery, each on a named rank-8 shape.
        ("named, Rename", "surgery-rename", 8, "-", None),
        ("named, InsertAxis", "surgery-insert", 8, "-", None),
        ("named, Select", "surgery-select", 8, "-", None),
        ("named, SliceTo (static window)", "surgery-slice", 8, "-", None),
        ("named, SplitAxis into two", "surgery-split", 8, "-", None),
        ("named, MergeAxes of two", "surgery-merge", 8, "-", None),
        ("named, MergeAxes of two, size computed", "surgery-merge-computed", 8, "-", None),
        ("named, Concat (permuted names)", "surgery-concat", 8, "-", None),
        ("named, Concat (permuted names), size computed", "surgery-concat-computed", 8, "-", None),
        ("named, Stack", "surgery-stack", 8, "-", None),
        ("named, StackAt (a new axis anywhere)", "surgery-stack-at", 8, "-", None),
        ("named, StackAtStatic (a new axis anywhere, static count)", "surgery-stack-at-static", 8, "-", None),
    ]
    if args.only:
        rows = [r for r in rows if args.only in f"{r[0]} {r[2]}"]
    print(f"| expressions | rank | kind | cargo check (s) | target (s) |")
    print(f"|---|---|---|---|---|")
    for label, kind, rank, rule, target in rows:
        d = os.path.join(ROOT, "target", "ctbench-crate")
        shutil.rmtree(os.path.join(d, "src"), ignore_errors=True)
        crate(d, kind, rank, args.n, rule)
        t = check_time(d, args.runs, build=kind.endswith("-call"))
        tgt = f"{target:.1f}" if target else "-"
        print(f"| {args.n} | {rank} | {label} | {t:.2f} | {tgt} |", flush=True)


if __name__ == "__main__":
    main()
