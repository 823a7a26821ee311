#!/usr/bin/env bash
# The main job on the shipped example kernels (examples/kernels/: elementwise, rmsnorm,
# moe_gather, paged_attention, and mx_matmul on mariana): set up, build sundial-translate
# (release), and compile every kernel to bundles: one <engine>.bin per engine queue and
# manifest.json under target/examples/<kernel>/, then print the listing and the manifest.
# Extra arguments go to sundial-translate (e.g. --pass-pipeline=...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --quiet --release --bin sundial-translate
for kernel in examples/kernels/*.mlir; do
    name="$(basename "$kernel" .mlir)"
    out="target/examples/$name"
    mkdir -p target/examples
    target/release/sundial-translate "$kernel" -o "$out" "$@"
    echo "== $kernel -> $out"
    target/release/sundial-translate "$kernel" --disassemble "$@"
    cat "$out/manifest.json"
done
