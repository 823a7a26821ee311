#!/usr/bin/env bash
# Peak memory of the release sundial-opt on valid but enormous inputs, against the input size.
#
#   scripts/measure-rss.sh [CASE...]     (default: every case below)
#
# Cases (inputs are generated in a temporary directory, removed on exit):
#   size-10M size-100M size-1G   many functions of 20 ops each, full memref types (byte-heavy)
#   ops-1M ops-10M               one function with that many ops, types through an alias
#                                (op-heavy: ~45 bytes per op)
#   split-1M split-4M            --split-input-file, that many chunks of a one-op function
#   split-empty-10M              --split-input-file, ten million empty chunks
#
# For each case it prints the input size, the peak RSS (`/usr/bin/time`'s maximum resident
# set size), the ratio peak / input and the ratio over the baseline (the RSS of an empty
# input: the MLIR context with both dialects loaded). Every run must succeed (exit 0).
# SUNDIAL_OPT=path uses an already built binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${SUNDIAL_OPT:-}" ]]; then
    cargo build --quiet --release --bin sundial-opt
    SUNDIAL_OPT="${CARGO_TARGET_DIR:-target}/release/sundial-opt"
fi
[[ -x /usr/bin/time ]] || { echo "measure-rss.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gen KIND N FILE: writes the input of a case.
gen() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
T = 'memref<128x64xf32, "sbuf">'
with open(path, "w", buffering=1 << 20) as f:
    if kind == "size":
        # Functions of 20 ops until the file reaches n bytes.
        body = f'  "nisa.tensor_copy"(%a, %b) : ({T}, {T}) -> ()\n' * 20 + "  return\n}\n"
        written, k = 0, 0
        while written < n:
            head = f"func.func @k{k}(%a: {T}, %b: {T}) {{\n"
            f.write(head)
            f.write(body)
            written += len(head) + len(body)
            k += 1
    elif kind == "ops":
        # One function with n ops.
        f.write(f"!t = {T}\nfunc.func @k(%a: !t, %b: !t) {{\n")
        line = '  "nisa.tensor_copy"(%a, %b) : (!t, !t) -> ()\n'
        block = line * 10000
        for _ in range(n // 10000):
            f.write(block)
        f.write(line * (n % 10000))
        f.write("  return\n}\n")
    elif kind == "split":
        chunk = (f"func.func @k(%a: {T}) {{\n"
                 f'  "nisa.tensor_copy"(%a, %a) : ({T}, {T}) -> ()\n'
                 "  return\n}\n// -----\n")
        block = chunk * 10000
        for _ in range(n // 10000):
            f.write(block)
        f.write(chunk * (n % 10000))
    elif kind == "split-empty":
        block = "// -----\n" * 10000
        for _ in range(n // 10000):
            f.write(block)
        f.write("// -----\n" * (n % 10000))
EOF
}

# peak_kb FILE ARGS...: the maximum RSS in KiB of one successful run.
peak_kb() {
    local file=$1
    shift
    if ! /usr/bin/time -f '%M' -o "$tmp/rss" "$SUNDIAL_OPT" "$file" "$@" > /dev/null 2> "$tmp/err"; then
        echo "measure-rss.sh: sundial-opt failed on $file:" >&2
        head -5 "$tmp/err" >&2
        exit 1
    fi
    tail -1 "$tmp/rss"
}

cases=("$@")
if [[ ${#cases[@]} -eq 0 ]]; then
    cases=(size-10M size-100M size-1G ops-1M ops-10M split-1M split-4M split-empty-10M)
fi

printf '' > "$tmp/empty.mlir"
base=$(peak_kb "$tmp/empty.mlir")
echo "sundial-opt: $SUNDIAL_OPT"
echo "baseline (empty input): peak RSS $((base / 1024)) MiB"
printf '%-16s %12s %12s %10s %14s %8s\n' case input_MiB peak_MiB peak/input '(peak-base)/in' seconds
for c in "${cases[@]}"; do
    flags=()
    case $c in
        size-10M) gen size $((10 * 1000 * 1000)) "$tmp/in.mlir" ;;
        size-100M) gen size $((100 * 1000 * 1000)) "$tmp/in.mlir" ;;
        size-1G) gen size $((1000 * 1000 * 1000)) "$tmp/in.mlir" ;;
        ops-1M) gen ops 1000000 "$tmp/in.mlir" ;;
        ops-10M) gen ops 10000000 "$tmp/in.mlir" ;;
        split-1M) gen split 1000000 "$tmp/in.mlir"; flags=(--split-input-file) ;;
        split-4M) gen split 4000000 "$tmp/in.mlir"; flags=(--split-input-file) ;;
        split-empty-10M) gen split-empty 10000000 "$tmp/in.mlir"; flags=(--split-input-file) ;;
        *) echo "measure-rss.sh: unknown case '$c'" >&2; exit 2 ;;
    esac
    bytes=$(stat -c %s "$tmp/in.mlir")
    start=$(date +%s.%N)
    kb=$(peak_kb "$tmp/in.mlir" "${flags[@]}")
    end=$(date +%s.%N)
    python3 - "$c" "$bytes" "$kb" "$base" "$start" "$end" <<'EOF'
import sys
c, b, kb, base, s, e = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
peak = kb * 1024
print(f"{c:<16} {b / 2**20:12.1f} {peak / 2**20:12.1f} {peak / b:10.2f} {(kb - base) * 1024 / b:14.2f} {e - s:8.1f}")
EOF
    rm -f "$tmp/in.mlir"
done
