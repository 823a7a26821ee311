#!/usr/bin/env bash
# Every test: set up, check formatting and lints, then the whole suite (Rust unit, property and
# integration tests, and the lit + FileCheck suite) in debug and in release.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace
cargo test --workspace --release
