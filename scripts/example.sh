#!/usr/bin/env bash
# The main job on a shipped example: set up, build sundial-opt (release), and verify and print
# the example kernel. Extra arguments go to sundial-opt (e.g. --mlir-print-op-generic).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo run --quiet --release --bin sundial-opt -- examples/add_kernel.mlir \
    --pass-pipeline='builtin.module(sundial-verify)' "$@"
