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
//! Printed: the medians over the rounds of mlir-opt's time, of the pipeline alone, and of
//! parse + pipeline + print, and the ratios pipeline / mlir-opt and end-to-end / mlir-opt
//! (the goal: the pipeline <= 2x mlir-opt), in CPU time (user + system, `getrusage`: mlir-opt's
//! from its process, ours from this one) and in wall time. CPU time is the figure to quote on a
//! shared machine, where wall time also measures the neighbours. `SUNDIAL_BENCH_OPS` changes the size,
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

/// CPU time (user + system) of this process (`who = RUSAGE_SELF`) or of its waited-for
/// children (`RUSAGE_CHILDREN`).
fn cpu(who: libc::c_int) -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct it is given; `who` is one of the two valid values.
    let rc = unsafe { libc::getrusage(who, &mut usage) };
    assert_eq!(rc, 0, "getrusage failed");
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
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
    let (mut c_mlir, mut c_pipe, mut c_all) = (Vec::new(), Vec::new(), Vec::new());
    let mut out_bytes = 0usize;
    for _ in 0..rounds {
        let (start, children) = (Instant::now(), cpu(libc::RUSAGE_CHILDREN));
        let status = Command::new(&mlir_opt)
            .arg(format!("--irdl-file={}", irdl.display()))
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .status()
            .expect("mlir-opt runs");
        t_mlir.push(start.elapsed());
        c_mlir.push(cpu(libc::RUSAGE_CHILDREN) - children);
        assert!(status.success(), "mlir-opt failed on the kernel");

        let (start, own) = (Instant::now(), cpu(libc::RUSAGE_SELF));
        let parsed = session.parse(text.as_bytes(), "kernel.mlir");
        let mut module = parsed.module.expect("the kernel parses");
        let (pipe, pipe_cpu) = (Instant::now(), cpu(libc::RUSAGE_SELF));
        session
            .run_middle_end(&mut module, &options, "kernel.mlir")
            .expect("the middle end runs");
        t_pipe.push(pipe.elapsed());
        c_pipe.push(cpu(libc::RUSAGE_SELF) - pipe_cpu);
        let printed = session.print(&module, PrintOptions::default());
        t_all.push(start.elapsed());
        c_all.push(cpu(libc::RUSAGE_SELF) - own);
        out_bytes = printed.len();
        drop(module);
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "middle_end: {} NISA ops ({} blocks), {} bytes in, {out_bytes} bytes out, {rounds} rounds (medians)",
        blocks * sundial::workload::OPS_PER_BLOCK,
        blocks,
        text.len()
    );
    println!("                                            cpu ms    wall ms");
    for (name, c, t) in [
        ("mlir-opt parse+print", &c_mlir, &t_mlir),
        ("sundial-middle-end (pipeline alone)", &c_pipe, &t_pipe),
        ("parse + sundial-middle-end + print", &c_all, &t_all),
    ] {
        println!(
            "  {name:<38} {:>9.1} {:>10.1}",
            ms(median(c.clone())),
            ms(median(t.clone()))
        );
    }
    let (cm, cp, ca) = (median(c_mlir), median(c_pipe), median(c_all));
    let (tm, tp, ta) = (median(t_mlir), median(t_pipe), median(t_all));
    println!(
        "  ratio pipeline / mlir-opt: cpu {:.2}, wall {:.2} (goal <= 2); end-to-end / mlir-opt: cpu {:.2}, wall {:.2}",
        ratio(cp, cm),
        ratio(tp, tm),
        ratio(ca, cm),
        ratio(ta, tm)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
