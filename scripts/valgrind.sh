#!/usr/bin/env bash
# The kernel, tensor, math, contraction and reduction tests under valgrind's memcheck (run by
# hand; a few minutes). The crate's `unsafe` code is all in `src/engine/raw/` (the GEMM call and its split over threads, a product written into a new vector before its length is set,
# the half-precision tiles handed to threads, the half weights widened in registers, the prefetches of attention's few-rows kernels, setting an output's length once the kernel's count shows it written, the tiles of runs read across a stride moved into their slots (register blocks by `asm!`, non-temporal stores), writing a small result
# straight into its inline buffer, the huge-page advice, and the calls into the maps compiled
# for AVX2 or AVX-512); its own unit tests and the contraction tests drive it over strided,
# broadcast (stride 0) and offset layouts. valgrind's CPU has no AVX-512, so the maps run
# their AVX2 copies here, and bf16 products (gemmkit's, on AVX512-BF16) take the widening path. This also checks the unsafe code the crate relies on
# (the standard library's Vec, gemm) as the kernels drive it. Only definite leaks count:
# libtest's own thread bookkeeping shows up as "possibly lost".
set -euo pipefail
cd "$(dirname "$0")/.."
executables='import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])'
# The library's unit tests, whole; of the run-time suite (`tests/suite`), the modules that drive
# the kernels (libtest's filters match a test's path by substring, hence the skips of `vmath`
# and `half_math`, which `math::` also matches).
suite_filters="tensors:: numpy:: math:: contractions:: reductions:: half_products:: --skip vmath:: --skip half_math::"
run() {
    local bin=$1
    shift
    echo "valgrind: $bin $*"
    PROPTEST_CASES=64 valgrind -q --error-exitcode=1 --leak-check=full \
        --show-possibly-lost=no --errors-for-leak-kinds=definite "$bin" --test-threads=1 "$@" > /dev/null
}
for features in "" "--features rayon"; do
    # With `rayon`: the split products and batches of products, whose pieces write through one
    # shared pointer (the library's unit tests and the suite's `threads` on pools of 1 to 3
    # threads), and the half-precision products' runs of tiles, one per thread.
    # shellcheck disable=SC2086
    lib=$(cargo test --no-run $features --message-format=json --lib 2>/dev/null | python3 -c "$executables")
    # shellcheck disable=SC2086
    suite=$(cargo test --no-run $features --message-format=json --test suite 2>/dev/null | python3 -c "$executables")
    run "$lib"
    if [ -z "$features" ]; then
        # shellcheck disable=SC2086
        run "$suite" $suite_filters
    else
        run "$suite" threads:: contractions:: half_products::
    fi
done
echo "valgrind: no errors"
