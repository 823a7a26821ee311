//! `sundial-middle-end` on a generated 100,000-op kernel against `mlir-opt` parsing and
//! printing the same file, measured in one run (release: `cargo bench --bench middle_end`).
//!
//! The kernel is [`sundial::workload::middle_end_kernel`] (every pass of the pipeline has work
//! in every block). Each round, interleaved:
//! - `mlir-opt --irdl-file=dialects/irdl/nisa.irdl.mlir kernel.mlir -o out.mlir`: parse (with
//!   MLIR's verifier, IRDL's constraints included) and print, in a process of its own;
//! - in this process, `Session`: parse (MLIR's verifier and Sundial's), then
//!   `sundial-middle-end{target=cayman}` (its 7 passes, 7 runs of the Sundial verifier and
//!   MLIR's verifier after each pass), then print.
//!
//! Printed: the medians over the rounds of mlir-opt's wall time, of the pipeline alone, and of
//! parse + pipeline + print, and the ratios pipeline / mlir-opt and end-to-end / mlir-opt
//! (the goal: the pipeline <= 2x mlir-opt). `SUNDIAL_BENCH_OPS` changes the size,
//! `SUNDIAL_BENCH_ROUNDS` the number of rounds, `MLIR_OPT` the mlir-opt binary (default:
//! `mlir-opt` on PATH, else LLVM 22's).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use sundial::{MiddleEndOptions, Session};
use sundial_dialects::{enums::Target, ffi::PrintOptions};

fn mlir_opt() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MLIR_OPT") {
        return Some(PathBuf::from(p));
    }
    let on_path = Command::new("mlir-opt").arg("--version").output().is_ok();
    if on_path {
        return Some(PathBuf::from("mlir-opt"));
    }
    let llvm = PathBuf::from("/usr/lib/llvm-22/bin/mlir-opt");
    llvm.is_file().then_some(llvm)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    let ops: usize = std::env::var("SUNDIAL_BENCH_OPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let rounds: usize = std::env::var("SUNDIAL_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let blocks = ops.div_ceil(sundial::workload::OPS_PER_BLOCK);
    let text = sundial::workload::middle_end_kernel(blocks);
    let dir = std::env::temp_dir().join(format!("sundial-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let input = dir.join("kernel.mlir");
    let output = dir.join("out.mlir");
    std::fs::write(&input, &text).expect("the kernel is written");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let irdl = root.join("dialects/irdl/nisa.irdl.mlir");
    let Some(mlir_opt) = mlir_opt() else {
        eprintln!("middle_end bench: no mlir-opt (set MLIR_OPT); skipped");
        return;
    };
    let options = MiddleEndOptions {
        target: Some(Target::Cayman),
        contract: false,
    };
    let session = Session::new().expect("a session");
    let (mut t_mlir, mut t_pipe, mut t_all) = (Vec::new(), Vec::new(), Vec::new());
    let mut out_bytes = 0usize;
    for _ in 0..rounds {
        let start = Instant::now();
        let status = Command::new(&mlir_opt)
            .arg(format!("--irdl-file={}", irdl.display()))
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .status()
            .expect("mlir-opt runs");
        t_mlir.push(start.elapsed());
        assert!(status.success(), "mlir-opt failed on the kernel");

        let start = Instant::now();
        let parsed = session.parse(text.as_bytes(), "kernel.mlir");
        let mut module = parsed.module.expect("the kernel parses");
        let pipe = Instant::now();
        session
            .run_middle_end(&mut module, &options, "kernel.mlir")
            .expect("the middle end runs");
        t_pipe.push(pipe.elapsed());
        let printed = session.print(&module, PrintOptions::default());
        t_all.push(start.elapsed());
        out_bytes = printed.len();
    }
    let (m, p, a) = (median(t_mlir), median(t_pipe), median(t_all));
    println!(
        "middle_end: {} NISA ops ({} blocks), {} bytes in, {out_bytes} bytes out, {rounds} rounds (medians)",
        blocks * sundial::workload::OPS_PER_BLOCK,
        blocks,
        text.len()
    );
    println!(
        "  mlir-opt parse+print:                 {:>9.1} ms",
        m.as_secs_f64() * 1e3
    );
    println!(
        "  sundial-middle-end (pipeline alone):  {:>9.1} ms",
        p.as_secs_f64() * 1e3
    );
    println!(
        "  parse + sundial-middle-end + print:   {:>9.1} ms",
        a.as_secs_f64() * 1e3
    );
    println!(
        "  ratio pipeline / mlir-opt = {:.2} (goal <= 2), end-to-end / mlir-opt = {:.2}",
        p.as_secs_f64() / m.as_secs_f64(),
        a.as_secs_f64() / m.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
