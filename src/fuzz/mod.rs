//! The fuzzing harness behind `sundial-fuzz`: structure-aware mutators ([`mutate`]), four
//! targets ([`targets`], [`emu`]) and a crash-proof driver.
//!
//! The driver never runs an input in its own process: it starts a worker process (this same
//! binary, in worker mode) that generates and runs a batch of inputs and reports its progress
//! on standard output. A worker that dies of a signal, aborts, panics or stops reporting for
//! longer than the per-input time limit has crashed; the driver then finds the exact input
//! (inputs are a pure function of the seed and the iteration number, so any one can be
//! regenerated), minimises it (delta debugging, each candidate in its own worker), and writes
//! it as a reproducer file `<target>-<hash>.<ext>` that the regression test replays. Workers
//! run under an address-space limit, so a runaway allocation is an abort (found), not a
//! machine out of memory.

pub mod emu;
pub mod mutate;
pub mod targets;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use targets::{FuzzTarget, Runner};

/// Address-space limit of a worker, in KiB (`ulimit -v`): the MLIR libraries, a 512 MiB tool
/// stack and the inputs fit far below it; a runaway allocation does not.
pub const WORKER_ADDRESS_SPACE_KIB: u64 = 16 * 1024 * 1024;

/// How a worker ended when it crashed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrashKind {
    /// Killed by a signal (SIGSEGV, SIGABRT from an abort or a failed allocation, ...).
    Signal(i32),
    /// A Rust panic (exit status 101), with its message.
    Panic(String),
    /// Another non-zero exit status.
    Exit(i32),
    /// One input ran longer than the time limit.
    Timeout,
}

impl CrashKind {
    /// Whether two crashes are the same kind (minimisation keeps the kind, not the message).
    pub fn same_kind(&self, other: &CrashKind) -> bool {
        match (self, other) {
            (CrashKind::Signal(a), CrashKind::Signal(b)) => a == b,
            (CrashKind::Exit(a), CrashKind::Exit(b)) => a == b,
            (CrashKind::Panic(_), CrashKind::Panic(_))
            | (CrashKind::Timeout, CrashKind::Timeout) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for CrashKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrashKind::Signal(s) => write!(f, "killed by signal {s}"),
            CrashKind::Panic(m) => write!(f, "panic: {m}"),
            CrashKind::Exit(c) => write!(f, "exit status {c}"),
            CrashKind::Timeout => f.write_str("timeout"),
        }
    }
}

/// One crash found by a run.
#[derive(Clone, Debug)]
pub struct Crash {
    /// Iteration whose input crashed.
    pub iteration: u64,
    /// How.
    pub kind: CrashKind,
    /// Size of the input before and after minimisation.
    pub sizes: (usize, usize),
    /// The reproducer written.
    pub reproducer: PathBuf,
}

/// What one run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// The target.
    pub target: FuzzTarget,
    /// The run's seed.
    pub seed: u64,
    /// Stop after this many inputs.
    pub iters: Option<u64>,
    /// Stop after this many seconds.
    pub seconds: Option<f64>,
    /// The project tree (seed corpora are read from it).
    pub root: PathBuf,
    /// Where reproducers are written.
    pub out: PathBuf,
    /// Per-input time limit.
    pub timeout: Duration,
    /// This executable (started again in worker mode).
    pub exe: PathBuf,
    /// Inputs per worker.
    pub batch: u64,
    /// Largest number of candidate runs spent minimising one crash.
    pub minimise_budget: usize,
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs executed.
    pub executions: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Crashes found (each minimised and written).
    pub crashes: Vec<Crash>,
}

/// How a worker run ended.
enum Outcome {
    /// Ran this many inputs (all it was given, or as many as its time allowed).
    Done(u64),
    /// Crashed; `last` is the last iteration it reported starting (if any).
    Crashed { kind: CrashKind, last: Option<u64> },
}

/// Starts a worker: `args` after the worker flag, under the address-space limit.
fn spawn_worker(exe: &Path, args: &[String]) -> std::io::Result<Child> {
    Command::new("/bin/sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {WORKER_ADDRESS_SPACE_KIB} 2>/dev/null; exec \"$0\" \"$@\""
        ))
        .arg(exe)
        .arg("--worker")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

/// Waits for a worker, reading its progress lines (`start I` before input I, `done`) and
/// killing it when no line arrives within `limit` (plus `slack` for the batch's start-up).
fn watch(mut child: Child, limit: Duration, slack: Duration) -> std::io::Result<Outcome> {
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| std::io::Error::other("no worker stdout"))?;
    let stderr = child
        .stderr
        .take()
        .ok_or_else(|| std::io::Error::other("no worker stderr"))?;
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let mut r = BufReader::new(stderr);
        let mut line = String::new();
        // Keep only the tail: a worker's stderr is its panic message, if anything.
        while r.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
            text.push_str(&line);
            if text.len() > 64 * 1024 {
                text.drain(..text.len() - 16 * 1024);
            }
            line.clear();
        }
        text
    });
    let mut last = None;
    let mut done = None;
    let mut wait = limit + slack;
    // CPU seconds the worker had used when its current silence was first noticed, and how
    // many more time limits it has been allowed since.
    let mut stall: Option<(f64, u32)> = None;
    loop {
        match rx.recv_timeout(wait) {
            Ok(line) => {
                wait = limit;
                stall = None;
                if let Some(i) = line.strip_prefix("start ").and_then(|s| s.parse().ok()) {
                    last = Some(i);
                } else if let Some(n) = line.strip_prefix("done ").and_then(|s| s.parse().ok()) {
                    done = Some(n);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // On a loaded machine a worker can be silent because it is not scheduled, not
                // because its input is slow: a runnable worker that has not yet spent the time
                // limit in CPU since the silence began is given more time (up to
                // MAX_STARVED_LIMITS more limits). A sleeping or blocked worker, or one that
                // spent the limit, is a timeout.
                let now = worker_cpu(child.id());
                match (stall, now) {
                    (None, Some((cpu, _))) => {
                        stall = Some((cpu, 0));
                        continue;
                    }
                    (Some((start, n)), Some((cpu, true)))
                        if cpu - start < limit.as_secs_f64() && n < MAX_STARVED_LIMITS =>
                    {
                        stall = Some((start, n + 1));
                        continue;
                    }
                    _ => {}
                }
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Outcome::Crashed {
                    kind: CrashKind::Timeout,
                    last,
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child.wait()?;
    let stderr = err_reader.join().unwrap_or_default();
    if let (Some(n), true) = (done, status.success()) {
        return Ok(Outcome::Done(n));
    }
    use std::os::unix::process::ExitStatusExt;
    let kind = match (status.signal(), status.code()) {
        (Some(s), _) => CrashKind::Signal(s),
        (None, Some(101)) => CrashKind::Panic(panic_message(&stderr)),
        (None, Some(c)) => CrashKind::Exit(c),
        (None, None) => CrashKind::Exit(-1),
    };
    Ok(Outcome::Crashed { kind, last })
}

/// How many extra time limits a runnable but starved worker gets before it is a timeout.
const MAX_STARVED_LIMITS: u32 = 30;

/// The CPU seconds process `pid` has used (user + system) and whether it is runnable, from
/// `/proc/PID/stat` (clock ticks are 1/100 s on Linux); `None` where that cannot be read.
fn worker_cpu(pid: u32) -> Option<(f64, bool)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is parenthesised and may contain spaces.
    let rest: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let runnable = rest.first()? == &"R";
    let utime: f64 = rest.get(11)?.parse().ok()?;
    let stime: f64 = rest.get(12)?.parse().ok()?;
    Some(((utime + stime) / 100.0, runnable))
}

/// The panic message in a worker's stderr (the line after "panicked at ...").
fn panic_message(stderr: &str) -> String {
    let mut lines = stderr.lines();
    while let Some(l) = lines.next() {
        if l.contains("panicked at") {
            return lines.next().unwrap_or(l).trim().to_string();
        }
    }
    stderr.lines().last().unwrap_or("").trim().to_string()
}

fn common_args(cfg: &Config) -> Vec<String> {
    vec![
        "--target".into(),
        cfg.target.name().into(),
        "--seed".into(),
        cfg.seed.to_string(),
        "--root".into(),
        cfg.root.display().to_string(),
    ]
}

/// Runs `input` once in a fresh worker; `None` when it does not crash.
fn replay_crash(cfg: &Config, input: &[u8], scratch: &Path) -> std::io::Result<Option<CrashKind>> {
    std::fs::write(scratch, input)?;
    let mut args = common_args(cfg);
    args.push("--replay".into());
    args.push(scratch.display().to_string());
    let child = spawn_worker(&cfg.exe, &args)?;
    Ok(match watch(child, cfg.timeout, Duration::from_secs(30))? {
        Outcome::Done(_) => None,
        Outcome::Crashed { kind, .. } => Some(kind),
    })
}

/// Delta debugging over bytes (halves down to single bytes), keeping the crash kind.
fn minimise(
    cfg: &Config,
    input: &[u8],
    kind: &CrashKind,
    scratch: &Path,
) -> std::io::Result<Vec<u8>> {
    let mut cur = input.to_vec();
    let mut parts = 2usize;
    let mut budget = cfg.minimise_budget;
    while cur.len() >= 2 && budget > 0 {
        let chunk = cur.len().div_ceil(parts);
        let mut reduced = None;
        for k in 0..parts {
            let (s, e) = (k * chunk, ((k + 1) * chunk).min(cur.len()));
            if s >= e || budget == 0 {
                continue;
            }
            budget -= 1;
            let mut cand = cur[..s].to_vec();
            cand.extend_from_slice(&cur[e..]);
            if replay_crash(cfg, &cand, scratch)?.is_some_and(|k2| k2.same_kind(kind)) {
                reduced = Some(cand);
                break;
            }
        }
        if let Some(cand) = reduced {
            cur = cand;
            parts = (parts - 1).max(2);
        } else {
            if parts >= cur.len() {
                break;
            }
            parts = (parts * 2).min(cur.len());
        }
    }
    Ok(cur)
}

/// Minimises `input`, a crash of kind `kind` of `cfg`'s target, running each candidate in a
/// fresh worker (at most `cfg.minimise_budget` of them): the smallest input found that still
/// crashes the same way.
pub fn minimise_input(cfg: &Config, input: &[u8], kind: &CrashKind) -> Result<Vec<u8>, String> {
    let scratch = std::env::temp_dir().join(format!(
        "sundial-fuzz-{}-{}-min.input",
        cfg.target.name(),
        std::process::id()
    ));
    let r = minimise(cfg, input, kind, &scratch).map_err(|e| format!("cannot run a worker: {e}"));
    let _ = std::fs::remove_file(&scratch);
    r
}

/// FNV-1a, for stable reproducer names.
fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Runs the fuzzer as `cfg` says; progress and crashes are reported on `log`.
pub fn run(cfg: &Config, log: &mut dyn Write) -> Result<Report, String> {
    let io = |e: std::io::Error| format!("cannot run a worker: {e}");
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| format!("cannot create '{}': {e}", cfg.out.display()))?;
    let corpus = targets::corpus(cfg.target, &cfg.root)?;
    let scratch = std::env::temp_dir().join(format!(
        "sundial-fuzz-{}-{}.input",
        cfg.target.name(),
        std::process::id()
    ));
    let start = Instant::now();
    let mut report = Report::default();
    let mut next = 0u64;
    let limit = cfg.iters.unwrap_or(u64::MAX);
    let out_of_time = |t: &Instant| cfg.seconds.is_some_and(|s| t.elapsed().as_secs_f64() >= s);
    while next < limit && !out_of_time(&start) {
        let count = cfg.batch.min(limit - next);
        let mut args = common_args(cfg);
        args.extend([
            "--start".into(),
            next.to_string(),
            "--iters".into(),
            count.to_string(),
        ]);
        if let Some(s) = cfg.seconds {
            let left = (s - start.elapsed().as_secs_f64()).max(0.0);
            args.extend(["--seconds".into(), format!("{left:.3}")]);
        }
        let child = spawn_worker(&cfg.exe, &args).map_err(io)?;
        match watch(child, cfg.timeout, Duration::from_secs(30)).map_err(io)? {
            Outcome::Done(n) => {
                next += n;
                report.executions += n;
                if n < count {
                    // The worker stopped at the time limit.
                    break;
                }
            }
            Outcome::Crashed { kind, last } => {
                let i = last.unwrap_or(next);
                report.executions += i - next + 1;
                let input = targets::input(cfg.target, &corpus, cfg.seed, i);
                let _ = writeln!(
                    log,
                    "sundial-fuzz: {} crashed on iteration {i} ({kind}); minimising {} bytes",
                    cfg.target.name(),
                    input.len()
                );
                // The crash must reproduce on its own before it is minimised.
                let alone = replay_crash(cfg, &input, &scratch).map_err(io)?;
                let small = match &alone {
                    Some(k) if k.same_kind(&kind) => {
                        minimise(cfg, &input, &kind, &scratch).map_err(io)?
                    }
                    _ => input.clone(),
                };
                let name = format!(
                    "{}-{:016x}.{}",
                    cfg.target.name(),
                    fnv64(&small),
                    cfg.target.extension()
                );
                let path = cfg.out.join(name);
                std::fs::write(&path, &small)
                    .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
                let _ = writeln!(
                    log,
                    "sundial-fuzz: reproducer {} ({} bytes{})",
                    path.display(),
                    small.len(),
                    if alone.is_none() {
                        "; it does not crash on its own: state from earlier inputs matters"
                    } else {
                        ""
                    }
                );
                report.crashes.push(Crash {
                    iteration: i,
                    kind,
                    sizes: (input.len(), small.len()),
                    reproducer: path,
                });
                next = i + 1;
            }
        }
    }
    let _ = std::fs::remove_file(&scratch);
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Worker mode: runs inputs `start..start + iters` of `target` with `seed` (or the single
/// input in `replay`), writing `start I` before each input and `done` at the end to stdout.
pub fn worker(
    target: FuzzTarget,
    seed: u64,
    root: &Path,
    start: u64,
    iters: u64,
    seconds: Option<f64>,
    replay: Option<&Path>,
) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut runner = Runner::new();
    if let Some(path) = replay {
        let input =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let _ = writeln!(out, "start 0");
        let _ = out.flush();
        runner.run(target, &input);
        let _ = writeln!(out, "done 1");
        return Ok(());
    }
    let corpus = targets::corpus(target, root)?;
    let t0 = Instant::now();
    let mut ran = 0u64;
    for i in start..start.saturating_add(iters) {
        if seconds.is_some_and(|s| t0.elapsed().as_secs_f64() >= s) {
            break;
        }
        ran += 1;
        let input = targets::input(target, &corpus, seed, i);
        // Every input announces itself, so a crash or a hang names its iteration; the pipe
        // write is cheap next to any target's work.
        let _ = writeln!(out, "start {i}");
        let _ = out.flush();
        runner.run(target, &input);
    }
    let _ = writeln!(out, "done {ran}");
    let _ = out.flush();
    Ok(())
}

/// Replays one reproducer file in this process (the regression test's entry point): the
/// target comes from the file name's prefix.
pub fn replay_file(path: &Path, runner: &mut Runner) -> Result<(), String> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("bad reproducer name '{}'", path.display()))?;
    let target = name
        .split('-')
        .next()
        .and_then(FuzzTarget::from_name)
        .ok_or_else(|| format!("'{name}' does not start with a target name"))?;
    let input =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    runner.run(target, &input);
    Ok(())
}
