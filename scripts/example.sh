#!/usr/bin/env bash
# The main job on the shipped example kernels (examples/kernels/: elementwise, rmsnorm,
# moe_gather, paged_attention, and mx_matmul on mariana): set up, build sundial-translate
# (release), and compile every kernel to bundles: one <engine>.bin per engine queue and
# manifest.json under target/examples/<kernel>/ (under $CARGO_TARGET_DIR when set), then
# print the listing and the manifest.
# Extra arguments go to sundial-translate (e.g. --pass-pipeline=...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --quiet --release --bin sundial-translate
# Cargo's output directory: CARGO_TARGET_DIR when the caller sets one.
target_dir="${CARGO_TARGET_DIR:-target}"
for kernel in examples/kernels/*.mlir; do
    name="$(basename "$kernel" .mlir)"
    out="$target_dir/examples/$name"
    mkdir -p "$target_dir/examples"
    "$target_dir/release/sundial-translate" "$kernel" -o "$out" "$@"
    echo "== $kernel -> $out"
    "$target_dir/release/sundial-translate" "$kernel" --disassemble "$@"
    cat "$out/manifest.json"
done
