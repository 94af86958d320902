#!/usr/bin/env bash
# The kernel and tensor tests under valgrind's memcheck (run by hand; about a minute).
# The crate forbids `unsafe`, so this checks the unsafe code it relies on (generic-array's
# inline storage, the standard library's Vec) as the kernels drive it. Only definite leaks
# count: libtest's own thread bookkeeping shows up as "possibly lost".
set -euo pipefail
cd "$(dirname "$0")/.."
bins=$(cargo test --no-run --message-format=json --lib --test tensors --test numpy 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])')
for bin in $bins; do
    echo "valgrind: $bin"
    PROPTEST_CASES=64 valgrind -q --error-exitcode=1 --leak-check=full \
        --show-possibly-lost=no --errors-for-leak-kinds=definite "$bin" --test-threads=1 > /dev/null
done
echo "valgrind: no errors"
