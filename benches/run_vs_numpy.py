"""sundial-run against NumPy on the same arrays, in one run (issue 11 "Measured").

Two kernels, each on 128 x 4096 fp32:

- elementwise.mlir: out = (a + b) * 0.125;
- rmsnorm.mlir: out = x / sqrt(mean(x^2 along a row) + 1e-6) * gamma.

For each, the inputs are made once with NumPy and saved as .npy; NumPy computes the same
result on the same arrays (NumPy is the engine of NKI's own simulator), and sundial-run (a
release build) runs the kernel on those files with --timing. Reported per kernel, best of
--repeat runs each:

- numpy: the computation alone (the arrays already in memory);
- sundial-run "execute the ops": the emulator executing the kernel body (the DMA staging
  through SBUF included, as the kernel is written), from the tool's --timing report;
- sundial-run "run the kernel": that plus setting up the machine and the arguments and
  reading them back;
- sundial-run process: the whole command (start, parse and verify, .npy files in and out),
  wall clock, and its CPU time (user + system; steadier than wall time on a busy machine).

Each time is also given per element, and the ratio numpy / sundial-run (above 1: sundial-run
is faster).

Like for like: every sundial-run is a fresh process, so its ops touch fresh memory (a page
fault per 4 KiB page, the SBUF tiles' first touch), while NumPy's best-of loop reuses memory
its allocator already holds. Comparing those two alone would count a cost on one side only,
so two pairs measure the same work on both sides:

- cold: NumPy's first call in a fresh Python process (the arrays loaded, the computation
  timed once; best of --repeat processes) against sundial-run's "execute the ops";
- warm: NumPy's best-of loop against the emulator running the same ops again on memory it
  used before (`sundial-emu-kernel-bench`, the kernel's op sequence through the emulator's
  API, fused as sundial-run runs it, best of --repeat), the computation alone on both
  sides.

Every other figure is reported too: nothing is left out of the totals. The outputs are checked against NumPy's: bit for bit for the elementwise kernel
(the same two fp32 roundings), to 1e-5 relative for rmsnorm (NumPy sums pairwise, the
emulator in row order).

    python3 benches/run_vs_numpy.py [--bin target/release/sundial-run]
        [--kernel-bench target/release/sundial-emu-kernel-bench] [--repeat 7]
"""

import argparse
import os
import resource
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = (128, 4096)
EPS = np.float32(1e-6)


def numpy_elementwise(a, b):
    return (a + b) * np.float32(0.125)


def numpy_rmsnorm(x, gamma):
    ss = np.sum(x * x, axis=1, keepdims=True, dtype=np.float32)
    rstd = np.float32(1.0) / np.sqrt(ss * np.float32(1.0 / 4096) + EPS)
    return x * rstd * gamma


def best_of(repeat, fn):
    """The smallest wall time of `repeat` calls of fn (after one warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


# The cold NumPy figure: a fresh interpreter loads the arrays and times the first call.
COLD = """
import sys, time
import numpy as np
EPS = np.float32(1e-6)
kind = sys.argv[1]
u = np.load(sys.argv[2])
v = np.load(sys.argv[3])
t0 = time.perf_counter()
if kind == "elementwise":
    r = (u + v) * np.float32(0.125)
else:
    ss = np.sum(u * u, axis=1, keepdims=True, dtype=np.float32)
    rstd = np.float32(1.0) / np.sqrt(ss * np.float32(1.0 / 4096) + EPS)
    r = u * rstd * v
print(time.perf_counter() - t0)
"""


def numpy_cold(kind, first, second, repeat):
    """The best first-call time of the computation over `repeat` fresh interpreters."""
    best = float("inf")
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", COLD, kind, first, second], capture_output=True, text=True
        )
        if done.returncode != 0:
            sys.exit(f"numpy cold run failed:\n{done.stderr}")
        best = min(best, float(done.stdout.strip()))
    return best


TOTAL = re.compile(r"^\s+total\s+([0-9.]+)\s+([0-9.]+)\s*$")


def kernel_bench(binary, repeat):
    """(cold, warm) ns per element of the two kernels from sundial-emu-kernel-bench."""
    done = subprocess.run([binary, "--repeat", str(repeat)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{binary} failed:\n{done.stderr}")
    totals = [tuple(float(x) for x in m.groups()) for m in map(TOTAL.match, done.stdout.splitlines()) if m]
    if len(totals) != 2:
        sys.exit(f"{binary}: expected two kernels' totals, got:\n{done.stdout}")
    return {"elementwise": totals[0], "rmsnorm": totals[1]}


PHASE = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*)$")


def run_tool(binary, kernel, args, repeat):
    """Best process, 'run the kernel' and 'execute the ops' times of `repeat` runs."""
    cmd = [binary, kernel, "--timing", "--color=never"] + args
    keys = ("process", "process cpu", "run the kernel", "execute the ops")
    best = {k: float("inf") for k in keys}
    for i in range(repeat + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
        phases = {}
        for line in done.stderr.splitlines():
            m = PHASE.match(line)
            if m:
                phases[m.group(2).strip()] = float(m.group(1))
        if i == 0:
            continue  # warm-up: page cache, lazy binding
        best["process"] = min(best["process"], wall)
        best["process cpu"] = min(best["process cpu"], cpu)
        for k in ("run the kernel", "execute the ops"):
            best[k] = min(best[k], phases[k])
    return best


def report(name, elements, numpy_s, tool, cold_s, emu):
    per = lambda s: s / elements * 1e9
    print(f"{name}: {elements} elements")
    print("  like for like (the same work on both sides):")
    warm = emu[1] * elements * 1e-9
    print(
        f"    {'warm: numpy best-of loop':44s} {numpy_s * 1e3:9.3f} ms  {per(numpy_s):7.3f} ns/elem"
    )
    print(
        f"    {'warm: emulator, memory used before':44s} {warm * 1e3:9.3f} ms  {emu[1]:7.3f} ns/elem"
        f"  numpy/sundial = {numpy_s / warm:.4f}x"
    )
    print(
        f"    {'cold: numpy first call, fresh process':44s} {cold_s * 1e3:9.3f} ms  {per(cold_s):7.3f} ns/elem"
    )
    ops = tool["execute the ops"]
    print(
        f"    {'cold: sundial-run execute the ops':44s} {ops * 1e3:9.3f} ms  {per(ops):7.3f} ns/elem"
        f"  numpy/sundial = {cold_s / ops:.4f}x"
    )
    cold_emu = emu[0] * elements * 1e-9
    print(
        f"    {'(cold: emulator API, fresh memory)':44s} {cold_emu * 1e3:9.3f} ms  {emu[0]:7.3f} ns/elem"
    )
    print("  every figure against numpy's best-of loop:")
    print(f"  {'numpy':36s} {numpy_s * 1e3:9.3f} ms  {per(numpy_s):7.3f} ns/elem")
    for label, key in (
        ("sundial-run execute the ops", "execute the ops"),
        ("sundial-run run the kernel", "run the kernel"),
        ("sundial-run process (wall)", "process"),
        ("sundial-run process (cpu, user+sys)", "process cpu"),
    ):
        s = tool[key]
        print(
            f"  {label:36s} {s * 1e3:9.3f} ms  {per(s):7.3f} ns/elem"
            f"  numpy/sundial = {numpy_s / s:.4f}x"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "sundial-run"))
    parser.add_argument(
        "--kernel-bench",
        default=os.path.join(HERE, "..", "target", "release", "sundial-emu-kernel-bench"),
    )
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    opts = parser.parse_args()
    rng = np.random.default_rng(opts.seed)
    elements = SHAPE[0] * SHAPE[1]
    print(f"numpy {np.__version__}; {opts.bin}; best of {opts.repeat}")
    emu = kernel_bench(opts.kernel_bench, opts.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        path = lambda n: os.path.join(tmp, n)

        a = rng.uniform(-1, 1, SHAPE).astype(np.float32)
        b = rng.uniform(-1, 1, SHAPE).astype(np.float32)
        np.save(path("a.npy"), a)
        np.save(path("b.npy"), b)
        want = numpy_elementwise(a, b)
        numpy_s = best_of(opts.repeat, lambda: numpy_elementwise(a, b))
        tool = run_tool(
            opts.bin,
            os.path.join(HERE, "elementwise.mlir"),
            ["--arg", f"0={path('a.npy')}", "--arg", f"1={path('b.npy')}", "--save", f"2={path('out.npy')}"],
            opts.repeat,
        )
        got = np.load(path("out.npy"))
        if not np.array_equal(got, want):
            sys.exit("elementwise: sundial-run and numpy differ")
        cold = numpy_cold("elementwise", path("a.npy"), path("b.npy"), opts.repeat)
        report("elementwise (a + b) * 0.125", elements, numpy_s, tool, cold, emu["elementwise"])

        x = rng.standard_normal(SHAPE).astype(np.float32)
        gamma = rng.uniform(0.5, 1.5, (1, SHAPE[1])).astype(np.float32)
        np.save(path("x.npy"), x)
        np.save(path("gamma.npy"), gamma)
        want = numpy_rmsnorm(x, gamma)
        numpy_s = best_of(opts.repeat, lambda: numpy_rmsnorm(x, gamma))
        tool = run_tool(
            opts.bin,
            os.path.join(HERE, "rmsnorm.mlir"),
            ["--arg", f"0={path('x.npy')}", "--arg", f"1={path('gamma.npy')}", "--save", f"2={path('y.npy')}"],
            opts.repeat,
        )
        got = np.load(path("y.npy"))
        if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            worst = np.max(np.abs(got - want))
            sys.exit(f"rmsnorm: sundial-run and numpy differ (max abs difference {worst})")
        cold = numpy_cold("rmsnorm", path("x.npy"), path("gamma.npy"), opts.repeat)
        report("rmsnorm", elements, numpy_s, tool, cold, emu["rmsnorm"])


if __name__ == "__main__":
    main()
