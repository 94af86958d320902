#!/usr/bin/env python3
"""PyTorch's F.scaled_dot_product_attention at the sizes of benches/attention.rs: one head
group of a Llama-7B-like layer with grouped-query heads (32 query heads over 8 KV heads, head
dimension 128) at sequence 2048 and 512, causal, float32, in the layout the benchmark's
tensors have ([SEQ, KVH, GROUP, HD] queries, [KSEQ, KVH, HD] keys and values, so the
transposes are part of the work as they are for a model that projects positions); and
generation's step (one query against a cache of 2048 keys). Medians of `--rounds` runs.

Run: python3 scripts/bench_attention.py --threads 1   (and --threads 2)
"""
import argparse, statistics, time
import torch
import torch.nn.functional as F


def timed(f, rounds):
    f()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=10)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    kvh, g, hd = 8, 4, 128
    for seq, queries in [(2048, 2048), (512, 512), (2048, 1)]:
        q = torch.randn(queries, kvh, g, hd)
        k = torch.randn(seq, kvh, hd)
        v = torch.randn(seq, kvh, hd)

        def run():
            qt = q.reshape(1, queries, kvh * g, hd).transpose(1, 2)
            kt = k.reshape(1, seq, kvh, hd).transpose(1, 2)
            vt = v.reshape(1, seq, kvh, hd).transpose(1, 2)
            if queries == seq:
                out = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True, enable_gqa=True)
            else:
                out = F.scaled_dot_product_attention(qt, kt, vt, enable_gqa=True)
            return out.transpose(1, 2).contiguous()

        with torch.no_grad():
            t = timed(run, a.rounds)
        print(f"sdpa queries {queries} keys {seq} [{a.threads} thread(s)]: {t * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
