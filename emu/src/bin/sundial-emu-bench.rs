//! `sundial-emu-bench`: times the emulator's indirect load on the seven workloads of
//! indirect-emulation.md at full size, in release mode.
//!
//! Per workload, in one run (median of `--repeat` samples each; very short calls are
//! repeated inside a sample so a sample lasts at least a couple of milliseconds):
//!
//! - `T_indirect_load`: the whole `indirect_load` op (validation, offsets by the
//!   gate's path, data movement into the destination tile);
//! - `T_offsets`: offsets alone (validation and the gate's path);
//! - `T_load`: the data primitive alone, on precomputed offsets (timed in samples
//!   alternating with `T_indirect_load`'s, so both see the same machine);
//! - `T_general`: the whole op forced onto the general path, into a second tile; the
//!   two tiles are compared byte for byte (`paths_agree`) and against a plain-slicing
//!   reference (`matches_reference`);
//! - `T_checked`: the whole op again with the uninitialised-read check on
//!   (`Memory::set_check_uninit`), and `check_ratio = T_checked / T_indirect_load`, the
//!   check's cost (its cost when off is the `T_indirect_load` figure itself: one flag test
//!   per read);
//! - fixed cost: `T_indirect_load - T_load`, what the op spends beyond moving its bytes
//!   (validation, planning, offsets, the destination's offsets), as the median of the
//!   per-round differences of the alternating samples; shown as 0 when that median is
//!   negative (the big workloads, whose copy dominates and whose difference is noise);
//! - `T_memcpy`: a plain copy of the same number of bytes between two preallocated,
//!   pre-touched buffers (the smaller of the medians measured before and after the
//!   others), and `memcpy_ratio = T_indirect_load / T_memcpy`.
//!
//! The general path's time per point is compared with the seed's Python general path
//! on the same workload (same number of points, so the ratio of totals is the ratio
//! per point). The machine may be shared and noisy: only ratios within one run mean
//! anything.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use serde::Serialize;
use sundial_emu::workloads::{self, Workload};
use sundial_emu::{OobMode, PathChoice, Plan, Result, data, indirect_load, offsets};

#[derive(Parser, Debug)]
#[command(
    name = "sundial-emu-bench",
    about = "Time the emulator's indirect load (blocked and general paths) against memcpy on the seven workloads"
)]
struct Args {
    /// Print one JSON array (one object per workload) instead of the table.
    #[arg(long)]
    json: bool,
    /// Run only the named workload (e.g. moe-1M).
    #[arg(long)]
    workload: Option<String>,
    /// Timed samples per measurement; the median is reported.
    #[arg(long, default_value_t = 7)]
    repeat: usize,
}

#[derive(Serialize, Debug)]
struct Report {
    workload: String,
    access: String,
    model: String,
    source_shape: Vec<usize>,
    result_shape: Vec<usize>,
    points: usize,
    path: String,
    run_len: usize,
    index_reads_blocked: usize,
    index_reads_general: usize,
    t_indirect_load_ms: f64,
    t_offsets_ms: f64,
    t_load_ms: f64,
    t_general_ms: f64,
    t_checked_ms: f64,
    check_ratio: f64,
    t_memcpy_ms: f64,
    fixed_us: f64,
    bytes: usize,
    gbps: f64,
    memcpy_ratio: f64,
    general_ns_per_point: f64,
    seed_general_ms: f64,
    seed_general_ns_per_point: f64,
    general_speedup_vs_seed: f64,
    peer_indirect_load_ms: f64,
    speedup_vs_peer: f64,
    paths_agree: bool,
    matches_reference: bool,
}

/// Median seconds per call of `f`.
fn measure(repeat: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let t = Instant::now();
    f()?;
    let first = t.elapsed().as_secs_f64();
    let inner = ((2e-3 / first.max(1e-9)).ceil() as usize).clamp(1, 100_000);
    let mut samples = Vec::with_capacity(repeat.max(1));
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        for _ in 0..inner {
            f()?;
        }
        samples.push(t.elapsed().as_secs_f64() / inner as f64);
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}

/// Two workloads timed in alternating samples (`f(0)`, then `f(1)`, `repeat` times), so both
/// see the same machine: the medians of each, and the median of the per-round differences
/// `f(0) - f(1)` (steadier on a loaded machine than the difference of two medians measured
/// at different moments).
fn measure_pair(repeat: usize, mut f: impl FnMut(usize) -> Result<()>) -> Result<(f64, f64, f64)> {
    let mut inner = [1usize; 2];
    for (k, n) in inner.iter_mut().enumerate() {
        let t = Instant::now();
        f(k)?;
        let first = t.elapsed().as_secs_f64();
        *n = ((2e-3 / first.max(1e-9)).ceil() as usize).clamp(1, 100_000);
    }
    let rounds = repeat.max(1);
    let mut samples = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    let mut diffs = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let mut round = [0.0; 2];
        for k in 0..2 {
            let t = Instant::now();
            for _ in 0..inner[k] {
                f(k)?;
            }
            round[k] = t.elapsed().as_secs_f64() / inner[k] as f64;
            samples[k].push(round[k]);
        }
        diffs.push(round[0] - round[1]);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [mut a, mut b] = samples;
    Ok((median(&mut a), median(&mut b), median(&mut diffs)))
}

fn memcpy_time(bytes: usize, repeat: usize) -> Result<f64> {
    let a: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
    let mut b = vec![0u8; bytes];
    measure(repeat, || {
        b.copy_from_slice(black_box(&a));
        black_box(&mut b);
        Ok(())
    })
}

fn run(w: &Workload, seed: u64, repeat: usize) -> Result<Report> {
    let mut inst = w.build(seed)?;
    let bytes = w.bytes();
    let n = w.num_points();
    let dst = inst.dst.clone();
    let dst_general = inst
        .mem
        .alloc_hbm("out_general", dst.dtype(), dst.shape())?;
    let plan = Plan::new(&inst.mem, &inst.access, "bench")?;
    let path = plan.gate();

    let t_memcpy_before = memcpy_time(bytes, repeat)?;

    inst.mem.set_path_choice(PathChoice::Auto);
    // The whole op and the data primitive alone (on the op's own precomputed offsets), in
    // alternating samples: the fixed cost is the median of their per-round differences.
    let offs = offsets::compute(&inst.mem, &inst.access, OobMode::Error, "bench")?;
    let mut out = vec![0u8; bytes];
    let source = inst.source.alloc();
    let (t_indirect_load, t_load, t_fixed) = measure_pair(repeat, |k| {
        if k == 0 {
            indirect_load(&mut inst.mem, &dst, &inst.access, OobMode::Error)
        } else {
            data::read(inst.mem.bytes(source)?, 2, offs.as_list(), &mut out)?;
            black_box(&mut out);
            Ok(())
        }
    })?;
    drop(offs);

    let t_offsets = measure(repeat, || {
        black_box(offsets::compute(
            &inst.mem,
            &inst.access,
            OobMode::Error,
            "bench",
        )?);
        Ok(())
    })?;

    inst.mem.set_path_choice(PathChoice::General);
    // The general path is slow on the big workloads: fewer samples keep the run short.
    let t_general = measure(repeat.min(3), || {
        indirect_load(&mut inst.mem, &dst_general, &inst.access, OobMode::Error)
    })?;
    inst.mem.set_path_choice(PathChoice::Auto);

    // The check on: the bytes that exist now count as written, and every read of the op
    // (index values and source runs) consults the shadow.
    inst.mem.set_check_uninit(true)?;
    let t_checked = measure(repeat, || {
        indirect_load(&mut inst.mem, &dst, &inst.access, OobMode::Error)
    })?;
    inst.mem.set_check_uninit(false)?;

    let t_memcpy = t_memcpy_before.min(memcpy_time(bytes, repeat)?);

    let blocked = inst.mem.read_bytes(&dst)?;
    let general = inst.mem.read_bytes(&dst_general)?;
    let paths_agree = blocked == general;
    let matches_reference = inst.matches_reference(&blocked)?;
    let n_ind = w.picks.len();

    Ok(Report {
        workload: w.name.to_string(),
        access: w.access_expr.to_string(),
        model: w.model.to_string(),
        source_shape: w.source_shape.clone(),
        result_shape: w.result_shape(),
        points: n,
        path: format!("{path:?}"),
        run_len: plan.blocked_run_len(),
        index_reads_blocked: plan.blocked_index_reads(),
        index_reads_general: n * n_ind,
        t_indirect_load_ms: t_indirect_load * 1e3,
        t_offsets_ms: t_offsets * 1e3,
        t_load_ms: t_load * 1e3,
        t_general_ms: t_general * 1e3,
        t_checked_ms: t_checked * 1e3,
        check_ratio: t_checked / t_indirect_load,
        t_memcpy_ms: t_memcpy * 1e3,
        fixed_us: t_fixed.max(0.0) * 1e6,
        bytes,
        gbps: bytes as f64 / t_indirect_load / 1e9,
        memcpy_ratio: t_indirect_load / t_memcpy,
        general_ns_per_point: t_general * 1e9 / n as f64,
        seed_general_ms: w.seed_general_ms,
        seed_general_ns_per_point: w.seed_general_ms * 1e6 / n as f64,
        general_speedup_vs_seed: w.seed_general_ms / (t_general * 1e3),
        peer_indirect_load_ms: w.peer_indirect_load_ms,
        speedup_vs_peer: w.peer_indirect_load_ms / (t_indirect_load * 1e3),
        paths_agree,
        matches_reference,
    })
}

fn shape(s: &[usize]) -> String {
    format!("{s:?}")
}

/// The human-readable report (written to stdout in one piece by `main`).
fn table(reports: &[Report], repeat: usize) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "sundial-emu-bench: indirect load, release build, median of {repeat} samples per figure"
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<16} | {:<25} | {:<20} | {:<18} | {:>15} | {:>9} | {:>9} | {:>8} | {:>9} | {:>8} | {:>6} | {:>8} | {:>5}",
        "Workload",
        "Access expr",
        "Source shape",
        "Result shape",
        "T_indirect_load",
        "T_load",
        "T_offsets",
        "fixed",
        "T_memcpy",
        "x memcpy",
        "GB/s",
        "MB moved",
        "agree"
    );
    let _ = writeln!(out, "{}", "-".repeat(189));
    for r in reports {
        let _ = writeln!(
            out,
            "{:<16} | {:<25} | {:<20} | {:<18} | {:>12.3} ms | {:>6.3} ms | {:>6.3} ms | {:>5.2} us | {:>6.3} ms | {:>7.2}x | {:>6.1} | {:>8.2} | {:>5}",
            r.workload,
            r.access,
            shape(&r.source_shape),
            shape(&r.result_shape),
            r.t_indirect_load_ms,
            r.t_load_ms,
            r.t_offsets_ms,
            r.fixed_us,
            r.t_memcpy_ms,
            r.memcpy_ratio,
            r.gbps,
            r.bytes as f64 / (1 << 20) as f64,
            if r.paths_agree && r.matches_reference {
                "yes"
            } else {
                "NO"
            },
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<16} | {:>9} | {:>8} | {:>12} | {:>11} | {:>12} | {:>14} | {:>16} | {:>13} | {:>10} | {:>12} | {:>7}",
        "Workload",
        "points",
        "run len",
        "index reads",
        "(general)",
        "T_general",
        "general ns/pt",
        "seed Python ms",
        "vs seed (/pt)",
        "vs peer",
        "T_checked",
        "checked"
    );
    let _ = writeln!(out, "{}", "-".repeat(177));
    for r in reports {
        let _ = writeln!(
            out,
            "{:<16} | {:>9} | {:>8} | {:>12} | {:>11} | {:>9.3} ms | {:>14.2} | {:>16.0} | {:>12.0}x | {:>9.1}x | {:>9.3} ms | {:>6.2}x",
            r.workload,
            r.points,
            r.run_len,
            r.index_reads_blocked,
            r.index_reads_general,
            r.t_general_ms,
            r.general_ns_per_point,
            r.seed_general_ms,
            r.general_speedup_vs_seed,
            r.speedup_vs_peer,
            r.t_checked_ms,
            r.check_ratio,
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "fixed = T_indirect_load - T_load; x memcpy = T_indirect_load / T_memcpy of the same bytes; vs seed = the seed's Python general path"
    );
    let _ = writeln!(
        out,
        "time / T_general (same points); vs peer = the Python peer's indirect_load median / T_indirect_load."
    );
    let _ = writeln!(
        out,
        "checked = T_checked / T_indirect_load: the op with the uninitialised-read check on."
    );
    out
}

fn main() -> ExitCode {
    let args = Args::parse();
    let all = workloads::all();
    let selected: Vec<(usize, &Workload)> = match &args.workload {
        None => all.iter().enumerate().collect(),
        Some(name) => {
            let found: Vec<(usize, &Workload)> = all
                .iter()
                .enumerate()
                .filter(|(_, w)| w.name == name)
                .collect();
            if found.is_empty() {
                let names: Vec<&str> = all.iter().map(|w| w.name).collect();
                eprintln!("unknown workload {name:?}; known: {}", names.join(", "));
                return ExitCode::from(2);
            }
            found
        }
    };
    let mut reports = Vec::new();
    for (i, w) in selected {
        match run(w, 0x5EED_0000 + i as u64, args.repeat) {
            Ok(r) => reports.push(r),
            Err(e) => {
                eprintln!("{}: {e}", w.name);
                return ExitCode::FAILURE;
            }
        }
    }
    let text = if args.json {
        match serde_json::to_string_pretty(&reports) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("cannot serialise the report: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        table(&reports, args.repeat)
    };
    // One write; a closed pipe (`| head`) is a failure exit, not a panic.
    let mut stdout = std::io::stdout().lock();
    if std::io::Write::write_all(&mut stdout, text.as_bytes())
        .and_then(|_| std::io::Write::flush(&mut stdout))
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    if reports.iter().all(|r| r.paths_agree && r.matches_reference) {
        ExitCode::SUCCESS
    } else {
        eprintln!("a workload's paths disagree or miss the reference");
        ExitCode::FAILURE
    }
}
