#!/usr/bin/env bash
# The kernel, tensor, math, contraction and reduction tests under valgrind's memcheck (run by
# hand; a few minutes). The crate's `unsafe` code is all in `src/engine/raw/` (the GEMM call and its split over threads,
# the half-precision tiles handed to threads, setting an output's length once the kernel's count shows it written, writing a small result
# straight into its inline buffer, the huge-page advice, and the calls into the maps compiled
# for AVX2 or AVX-512); its own unit tests and the contraction tests drive it over strided,
# broadcast (stride 0) and offset layouts. valgrind's CPU has no AVX-512, so the maps run
# their AVX2 copies here. This also checks the unsafe code the crate relies on
# (the standard library's Vec, gemm) as the kernels drive it. Only definite leaks count:
# libtest's own thread bookkeeping shows up as "possibly lost".
set -euo pipefail
cd "$(dirname "$0")/.."
executables='import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])'
bins=$(cargo test --no-run --message-format=json --lib --test tensors --test numpy --test math --test contractions --test reductions --test half_products 2>/dev/null |
    python3 -c "$executables")
# With `rayon`: the split products and batches of products, whose pieces write through one
# shared pointer (the library's unit tests and tests/threads.rs on pools of 1 to 3 threads), and
# the half-precision products' runs of tiles, one per thread.
bins="$bins $(cargo test --no-run --features rayon --message-format=json --lib --test threads --test contractions --test half_products 2>/dev/null |
    python3 -c "$executables")"
for bin in $bins; do
    echo "valgrind: $bin"
    PROPTEST_CASES=64 valgrind -q --error-exitcode=1 --leak-check=full \
        --show-possibly-lost=no --errors-for-leak-kinds=definite "$bin" --test-threads=1 > /dev/null
done
echo "valgrind: no errors"
