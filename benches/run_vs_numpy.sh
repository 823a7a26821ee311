#!/usr/bin/env bash
# Builds sundial-run and sundial-emu-kernel-bench in release mode and runs benches/run_vs_numpy.py (sundial-run against
# NumPy on the same arrays). When no Python on PATH has NumPy, installs python3-numpy from the
# distribution's archive, idempotently and quietly as scripts/setup.sh does for the build's
# packages, and uses the distribution's interpreter it installs into.
# Arguments are passed to the script (e.g. --repeat 11).
set -euo pipefail
cd "$(dirname "$0")/.."

# The first interpreter that imports numpy, if any.
with_numpy() {
    for py in python3 /usr/bin/python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import numpy' 2>/dev/null; then
            echo "$py"
            return 0
        fi
    done
    return 1
}

if ! py=$(with_numpy); then
    echo "run_vs_numpy: installing python3-numpy" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq python3-numpy >/dev/null
    py=$(with_numpy) || { echo "run_vs_numpy: numpy still missing after installing python3-numpy" >&2; exit 1; }
fi

cargo build --release --quiet --bin sundial-run --bin sundial-emu-kernel-bench
# Cargo's output directory: CARGO_TARGET_DIR when the caller sets one.
target_dir="${CARGO_TARGET_DIR:-target}"
exec "$py" benches/run_vs_numpy.py --bin "$target_dir/release/sundial-run" \
    --kernel-bench "$target_dir/release/sundial-emu-kernel-bench" "$@"
