#!/usr/bin/env bash
# Checks that this repository's tests and benchmarks build every dependency a user shares
# with it with the features a user gets. A scratch crate that depends on shapecast alone
# (default features, then `rayon`) is resolved with `cargo tree -e features`; every package
# of its graph must have the same features in the repository's own graph (dev-dependencies
# included), else a dev-dependency is switching on something a user never gets, as ndarray
# once switched on matrixmultiply's `std` and hid a 3x slower GEMM.
#
# Run: scripts/user_build.sh (from anywhere; exits 1 and names the package on a difference).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Packages whose features a dev-dependency may switch on without changing what is measured:
# the `std`/`default` features of utilities no kernel runs (proptest, tempfile and criterion
# turn them on). Anything else that differs fails the check.
benign='^(libc|bitflags|once_cell|either) '
features_of() { # manifest, extra cargo-tree args: "name version [features]" per package
    cargo tree --manifest-path "$1" --prefix none --format '{p} [{f}]' "${@:2}" 2>/dev/null |
        sed -E 's/ \(proc-macro\)//; s/ \(\/[^)]*\)//; s/ \(\*\)$//' | sort -u
}
status=0
for feat in "" "rayon"; do
    mkdir -p "$scratch/user/src"
    echo 'fn main() {}' > "$scratch/user/src/main.rs"
    features_line=""
    [ -n "$feat" ] && features_line=", features = [\"$feat\"]"
    cat > "$scratch/user/Cargo.toml" <<TOML
[package]
name = "shapecast-user"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
shapecast = { path = "$root"$features_line }
TOML
    cp "$root/Cargo.lock" "$scratch/user/Cargo.lock"
    user="$(features_of "$scratch/user/Cargo.toml" -e normal,build | grep -v '^shapecast-user ')"
    repo_args=(-p shapecast -e normal,build,dev)
    [ -n "$feat" ] && repo_args+=(--features "$feat")
    repo="$(features_of "$root/Cargo.toml" "${repo_args[@]}")"
    while IFS= read -r line; do
        pkg="${line%% \[*}"
        grep -qE "$benign" <<<"$line" && continue
        theirs="$(grep -F "$pkg [" <<<"$repo" || true)"
        if [ "$theirs" != "$line" ]; then
            echo "user_build: with features '${feat:-default}', $pkg is built as"
            echo "    $line   for a user of shapecast alone, but as"
            echo "    ${theirs:-<absent>}   in this repository's tests and benchmarks"
            status=1
        fi
    done <<<"$user"
done
[ "$status" = 0 ] && echo "user_build: the repository builds every shared dependency as a user does (default, rayon)"
exit "$status"
