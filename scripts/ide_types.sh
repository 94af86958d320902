#!/usr/bin/env bash
# What an editor sees: rust-analyzer's batch type inference over the IDE probe (`ide/`, every
# public type function, operator, reduction, contraction, surgery operation and view method
# bound to a `let`) and the examples (`ide/Cargo.toml` lists them as its own). Prints each
# function with a binding whose type rust-analyzer leaves unknown or partly unknown, then the
# totals, and fails if there is one.
#
#   scripts/ide_types.sh            # the check (.ci/run runs it)
#   scripts/ide_types.sh --types    # also print the type of every `let`, as a hover shows it
#
# rust-analyzer is the crates.io build `ra_ap_rust-analyzer` 0.0.349 (the newest that builds
# with the installed nightly), built once into $RA_HOME (default ~/.cache/shapecast-ra):
# 8-30 minutes on 2 cores. Its trait solver explores at most 50 nested goals
# (`recursion_limit` in hir-ty's next_solver/interner.rs), which is what the type level is
# written to stay within (docs/rules.md, "Shapes in the editor").
set -euo pipefail
cd "$(dirname "$0")/.."
RA_VERSION=0.0.349
RA_HOME=${RA_HOME:-$HOME/.cache/shapecast-ra}
ra="$RA_HOME/bin/rust-analyzer"
if [ ! -x "$ra" ]; then
    echo "building rust-analyzer $RA_VERSION into $RA_HOME (once; 8-30 minutes)..." >&2
    nice -n 10 cargo +nightly install ra_ap_rust-analyzer --version "$RA_VERSION" --locked \
        --root "$RA_HOME" -q >&2
fi
cd ide
# The probe and the examples compile (and their build scripts and macros are built).
cargo check -q --all-targets
stats=$("$ra" -v -v analysis-stats --skip-mir-stats --skip-data-layout --skip-const-eval . 2>&1 \
    | grep -E '^In .*: [0-9]+ pats, [0-9]+ unknown, [0-9]+ partial' || true)
if [ "${1:-}" = "--types" ]; then
    "$ra" lsif . 2>/dev/null | python3 ../scripts/ide_hovers.py
fi
# The library's own bodies are not the subject: only the probe's and the examples'.
echo "$stats" | awk '
    { name = $2; sub(/:$/, "", name); n = $3; u = $5; p = $7 }
    name ~ /^shapecast(_macros)?::/ || name ~ /::NAME$/ { next }
    { N += n; U += u; P += p; F += 1 }
    u + p > 0 { printf "fn %s: %d bindings, %d unknown, %d partly unknown\n", name, n, u, p }
    END {
        printf "ide probe and examples: %d functions, %d bindings, %d unknown, %d partly unknown\n", F, N, U, P
        if (F == 0) { print "no function analysed: did rust-analyzer load the crate?"; exit 1 }
        exit (U + P > 0)
    }'
