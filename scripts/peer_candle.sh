#!/usr/bin/env bash
# The peer of docs/performance.md's ResNet tables: candle's ResNet-18
# (`candle_transformers::models::resnet::resnet18`, torchvision's names and layouts) as a crate
# of its own, timed as `scripts/user_compile_time.sh` times shapecast's: a clean release
# build, dependencies included, then the crate after an edit; then its forward pass, batch 8
# at 224x224, on one thread and on two (`RAYON_NUM_THREADS`, which candle's CPU kernels read),
# on the weights `scripts/gen_resnet.py` writes (target/resnet/resnet18.safetensors).
#
# candle is pinned to the version docs/performance.md measured (0.11.1).
#
# Run: python3 scripts/gen_resnet.py && scripts/peer_candle.sh  (downloads candle from
# crates.io; the build takes several minutes)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
weights="$root/target/resnet/resnet18.safetensors"
[ -f "$weights" ] || { echo "no $weights: run python3 scripts/gen_resnet.py first"; exit 1; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
cp "$root/rust-toolchain.toml" "$scratch/"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "resnet-candle"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
candle-core = "=0.11.1"
candle-nn = "=0.11.1"
candle-transformers = "=0.11.1"
TOML
cat > "$scratch/src/main.rs" <<'RS'
use candle_core::{DType, Device, Module, Tensor};
use candle_nn::VarBuilder;
use std::time::Instant;

fn main() -> candle_core::Result<()> {
    let path = std::env::args().nth(1).expect("a .safetensors file");
    let dev = Device::Cpu;
    // SAFETY: the file is not modified while it is mapped.
    let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[path], DType::F32, &dev)? };
    let net = candle_transformers::models::resnet::resnet18(1000, vb)?;
    let x = Tensor::randn(0f32, 1., (8, 3, 224, 224), &dev)?;
    let mut times = vec![];
    for _ in 0..9 {
        let t = Instant::now();
        let y = net.forward(&x)?;
        std::hint::black_box(y.sum_all()?.to_scalar::<f32>()?);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    println!("candle resnet18 forward batch 8 at 224x224: median {:.1} ms", times[4]);
    Ok(())
}
RS
cd "$scratch"
cargo fetch --quiet
seconds() { local t0; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $t0" | bc; }
clean=$(seconds cargo build --release)
echo "// an edit" >> src/main.rs
again=$(seconds cargo build --release)
printf 'peer_candle: clean release build %.1f s; the crate alone after an edit %.1f s\n' "$clean" "$again"
for threads in 1 2; do
    printf '%s thread(s): ' "$threads"
    RAYON_NUM_THREADS=$threads target/release/resnet-candle "$weights"
done
