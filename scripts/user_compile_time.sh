#!/usr/bin/env bash
# Times what a user waits for: a clean release build of the ResNet-18 example as a crate of
# its own that depends on shapecast alone (`safetensors` feature), so none of the
# repository's dev-dependencies (criterion, proptest, trybuild) are built, then the crate
# alone after a touch. Prints both times and the largest generic functions of the crate's
# code when `cargo llvm-lines` is installed.
#
# Run: scripts/user_compile_time.sh (a minute or two; uses a scratch directory).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/data"
cp "$root"/examples/resnet/{main.rs,common.rs,resnet18.rs} "$scratch/src/"
cp "$root"/examples/data/resnet18_logits.txt "$scratch/data/"
cp "$root/rust-toolchain.toml" "$root/Cargo.lock" "$scratch/"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "resnet-user"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
shapecast = { path = "$root", features = ["safetensors"] }
TOML
cd "$scratch"
seconds() { local t0; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $t0" | bc; }
clean=$(seconds cargo build --release)
touch src/main.rs
again=$(seconds cargo build --release)
printf 'user_compile_time: clean release build %.1f s; the crate alone after a touch %.1f s\n' "$clean" "$again"
if cargo llvm-lines --version > /dev/null 2>&1; then
    cargo llvm-lines --release 2> /dev/null | head -12
fi
