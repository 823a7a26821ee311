#!/usr/bin/env bash
# Compile time of sundial-translate on a generated N-op kernel (default 100000: an elementwise
# chain on the Vector engine over eight SBUF tiles, one DMA in and one out) against
# `mlir-opt` parsing and printing the same file (the dialects loaded from their IRDL), in one
# run, release build. The two tools run alternately, ROUNDS times (default 5): prints the
# median wall and CPU time of each, the median of the per-round ratios (with their range), and
# the median per-phase times from the manifests. Usage: scripts/bench-translate.sh [N [ROUNDS]]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100000}"
rounds="${2:-5}"
for value in "$n" "$rounds"; do
    if ! [[ "$value" =~ ^[1-9][0-9]*$ ]]; then
        echo "bench-translate: N and ROUNDS must be positive integers (got '$value'); usage: scripts/bench-translate.sh [N [ROUNDS]]" >&2
        exit 2
    fi
done
mlir_opt="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
# Cargo's output directory: CARGO_TARGET_DIR when the caller sets one.
target_dir="${CARGO_TARGET_DIR:-target}"
work="$target_dir/bench-translate"
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
# Both tools run from one Python process, which reads each one's wall time and CPU time
# (user + system, from the children's resource usage): on a shared machine the CPU-time ratio
# is the steadier of the two.
python3 - "$mlir_opt" "$kernel" "$work" "$n" "$rounds" "$target_dir/release/sundial-translate" <<'PY'
import json, resource, statistics, subprocess, sys, time
mlir_opt, kernel, work, n, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), max(1, int(sys.argv[5]))
translate = sys.argv[6]
def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    status = subprocess.run(cmd).returncode
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, wall, cpu
out = f"{work}/out-{n}"
opt, tr, phases = [], [], {}
for _ in range(rounds):
    s0, opt_wall, opt_cpu = run([mlir_opt, "--irdl-file=dialects/irdl/nisa.irdl.mlir", kernel, "-o", f"{work}/printed.mlir"])
    if s0 != 0:
        sys.exit(f"mlir-opt failed (exit status {s0})")
    status, tr_wall, tr_cpu = run([translate, kernel, "-o", out])
    if status != 0:
        sys.exit(f"sundial-translate failed (exit status {status})")
    opt.append((opt_wall, opt_cpu))
    tr.append((tr_wall, tr_cpu))
    for p in json.load(open(f"{out}/manifest.json"))["phases"]:
        phases.setdefault(p["name"], []).append(p["ms"])
med = statistics.median
def col(rows, k):
    return [r[k] for r in rows]
wall_ratios = [t[0] / o[0] for t, o in zip(tr, opt)]
cpu_ratios = [t[1] / o[1] for t, o in zip(tr, opt)]
print(f"ops: {n}; {rounds} rounds, the two tools alternating; medians")
print(f"mlir-opt parse+print: {med(col(opt, 0)):.3f} s wall, {med(col(opt, 1)):.3f} s CPU")
print(f"sundial-translate:    {med(col(tr, 0)):.3f} s wall, {med(col(tr, 1)):.3f} s CPU")
print(f"ratio: {med(wall_ratios):.2f}x wall ({min(wall_ratios):.2f}-{max(wall_ratios):.2f}), "
      f"{med(cpu_ratios):.2f}x CPU ({min(cpu_ratios):.2f}-{max(cpu_ratios):.2f})")
for name, ms in phases.items():
    print(f"  {name:<10} {med(ms):10.1f} ms")
PY
