#!/usr/bin/env bash
# Installs what Sundial needs on a Debian 12 machine, idempotently and quietly:
# LLVM/MLIR 22 (Debian's own archive), the static libraries melior links, lit and FileCheck.
# Prints nothing when everything is already installed.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools libclang-22-dev libpolly-22-dev
          libzstd-dev zlib1g-dev g++ python3)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust (https://rustup.rs) and re-run" >&2
    exit 1
fi
for tool in /usr/lib/llvm-22/bin/lit /usr/lib/llvm-22/bin/FileCheck; do
    if [ ! -x "$tool" ]; then
        echo "setup: $tool is missing after installing llvm-22-dev" >&2
        exit 1
    fi
done
