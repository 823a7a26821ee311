#!/usr/bin/env bash
# Compile time of sundial-translate on a generated N-op kernel (default 100000: an elementwise
# chain on the Vector engine over eight SBUF tiles, one DMA in and one out) against
# `mlir-opt` parsing and printing the same file (the dialects loaded from their IRDL), in one
# run, release build. Prints both wall times, their ratio, and the per-phase times from the
# manifest. Usage: scripts/bench-translate.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100000}"
mlir_opt="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
work="target/bench-translate"
mkdir -p "$work"
kernel="$work/kernel-$n.mlir"
python3 - "$n" "$kernel" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
tiles = 8
t = 'memref<128x64xf32, "sbuf">'
lines = ['module attributes {sundial.target = "cayman"} {',
         '  func.func @bench(%in: memref<128x64xf32, "hbm">, %out: memref<128x64xf32, "hbm">) {']
for i in range(tiles):
    lines.append(f'    %t{i} = "nisa.alloc"() : () -> {t}')
lines.append(f'    "nisa.dma_copy"(%t0, %in) : ({t}, memref<128x64xf32, "hbm">) -> ()')
for k in range(n - 2):
    a, b, c = k % tiles, (k + 1) % tiles, (k + 3) % tiles
    if k % 3 == 0:
        lines.append(f'    "nisa.tensor_tensor_arith"(%t{b}, %t{a}, %t{c}) {{op = "add", engine = "vector"}} : ({t}, {t}, {t}) -> ()')
    elif k % 3 == 1:
        lines.append(f'    "nisa.tensor_scalar_arith"(%t{b}, %t{a}) {{op0 = "mult", imm0 = 0.5 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}} : ({t}, {t}) -> ()')
    else:
        lines.append(f'    "nisa.tensor_tensor_arith"(%t{b}, %t{a}, %t{c}) {{op = "max", engine = "vector"}} : ({t}, {t}, {t}) -> ()')
lines.append(f'    "nisa.dma_copy"(%out, %t{(n - 2) % tiles}) : (memref<128x64xf32, "hbm">, {t}) -> ()')
lines += ['    return', '  }', '}']
open(path, 'w').write('\n'.join(lines) + '\n')
PY
cargo build --quiet --release --bin sundial-translate
irdl=(--irdl-file=dialects/irdl/nisa.irdl.mlir)
now() { date +%s.%N; }
t0=$(now)
"$mlir_opt" "${irdl[@]}" "$kernel" -o "$work/printed.mlir"
t1=$(now)
status=0
target/release/sundial-translate "$kernel" -o "$work/out-$n" || status=$?
t2=$(now)
python3 - "$t0" "$t1" "$t2" "$n" "$status" "$work/out-$n/manifest.json" <<'PY'
import json, sys
t0, t1, t2 = map(float, sys.argv[1:4])
n, status, manifest = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
opt, translate = t1 - t0, t2 - t1
print(f"ops: {n}")
print(f"mlir-opt parse+print: {opt:.3f} s")
print(f"sundial-translate:    {translate:.3f} s (exit status {status})")
print(f"ratio: {translate / opt:.2f}x")
if status == 0:
    for p in json.load(open(manifest))["phases"]:
        print(f"  {p['name']:<10} {p['ms']:10.1f} ms")
PY
