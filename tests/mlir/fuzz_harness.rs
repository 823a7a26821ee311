//! Tests of the `sundial-fuzz` harness: every reproducer replays without crashing, each target
//! runs clean for a few seconds (the CI run), and the driver finds, locates and minimises
//! crashes and hangs of a worker (a stand-in worker script that crashes on purpose).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use sundial::fuzz::{self, Config, CrashKind, FuzzTarget, Runner};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sundial-fuzz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every reproducer in `fuzz/reproducers/` (crashes found and fixed) runs to completion in
/// process: a regression would panic or kill this test binary.
#[test]
fn every_reproducer_replays_without_crashing() {
    let dir = root().join("fuzz/reproducers");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 7,
        "reproducers missing from {}",
        dir.display()
    );
    let mut runner = Runner::new();
    for f in &files {
        fuzz::replay_file(f, &mut runner).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    let bad = dir.join("nope.bin");
    assert!(fuzz::replay_file(&bad, &mut runner).is_err());
}

/// The CI run: each target a few seconds through the real binary, no crash. The per-input
/// time limit is raised from its default (2 s) to 20 s: in a debug build on a loaded machine
/// the largest operation an input may ask for (`MAX_ELEMENTS` emulator points) takes over a
/// second; the release runs keep the default.
#[test]
fn each_target_runs_clean_for_a_few_seconds() {
    let out = scratch("ci");
    for t in FuzzTarget::ALL {
        let o = Command::new(env!("CARGO_BIN_EXE_sundial-fuzz"))
            .args(["--target", t.name(), "--seconds", "2", "--seed", "11"])
            .args(["--timeout", "20"])
            .arg("--out")
            .arg(&out)
            .arg("--root")
            .arg(root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{}: {stdout}{}",
            t.name(),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(stdout.contains(", 0 crashes"), "{stdout}");
        let n: u64 = stdout
            .split(": ")
            .nth(2)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        assert!(n > 0, "{}: no executions: {stdout}", t.name());
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    // LLVM's single-dash spellings work too.
    let o = Command::new(env!("CARGO_BIN_EXE_sundial-fuzz"))
        .args(["-target", "asm", "-iters", "100", "-seed=3"])
        .arg("-out")
        .arg(&out)
        .arg("-root")
        .arg(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("100 executions"));
}

#[test]
fn usage_errors_exit_2() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sundial-fuzz"))
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        &["--target", "ir"][..],
        &["--target", "nope", "--iters", "1"],
        &["--target", "ir", "--iters", "1", "--timeout", "0"],
        &["--target", "ir", "--iters", "1", "--batch", "0"],
        // A tree with no lit corpus.
        &["--target", "ir", "--iters", "1", "--root", "/nonexistent"],
        // A worker asked to replay a file that does not exist.
        &[
            "--worker",
            "--target",
            "ir",
            "--replay",
            "/nonexistent/input.mlir",
        ],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

/// A stand-in worker: runs "inputs" by printing the worker protocol; in a batch it dies of
/// SIGSEGV at iteration `crash_at` (or hangs there); replaying a file crashes while the file
/// holds the byte `X` (so the minimiser can shrink it to that byte).
fn fake_worker(dir: &Path, crash_at: u64, hang: bool) -> PathBuf {
    fake_worker_doing(
        dir,
        crash_at,
        if hang { "sleep 30" } else { "kill -SEGV $$" },
    )
}

/// [`fake_worker`] running `die` at iteration `crash_at`.
fn fake_worker_doing(dir: &Path, crash_at: u64, die: &str) -> PathBuf {
    let script = dir.join("worker.sh");
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/sh
start=0; iters=1; replay=""
while [ $# -gt 0 ]; do
  case "$1" in
    --start) start=$2; shift ;;
    --iters) iters=$2; shift ;;
    --replay) replay=$2; shift ;;
  esac
  shift
done
if [ -n "$replay" ]; then
  echo "start 0"
  if grep -q X "$replay"; then kill -SEGV $$; fi
  echo "done 1"; exit 0
fi
i=$start; end=$((start + iters))
while [ $i -lt $end ]; do
  echo "start $i"
  if [ $i -eq {crash_at} ]; then {die}; fi
  i=$((i + 1))
done
echo "done $iters"
"#
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    script
}

fn config(exe: PathBuf, out: PathBuf, iters: u64, timeout: Duration) -> Config {
    Config {
        target: FuzzTarget::Asm,
        seed: 3,
        iters: Some(iters),
        seconds: None,
        root: root(),
        out,
        timeout,
        exe,
        batch: 8,
        minimise_budget: 64,
    }
}

#[test]
fn a_crashing_worker_is_located_and_the_run_goes_on() {
    let dir = scratch("crash");
    let exe = fake_worker(&dir, 13, false);
    let cfg = config(exe, dir.join("out"), 20, Duration::from_secs(5));
    let mut log = Vec::new();
    let report = fuzz::run(&cfg, &mut log).unwrap();
    let log = String::from_utf8_lossy(&log);
    assert_eq!(report.crashes.len(), 1, "{log}");
    let c = &report.crashes[0];
    assert_eq!(c.iteration, 13);
    assert_eq!(c.kind, CrashKind::Signal(11));
    assert!(c.reproducer.starts_with(dir.join("out")));
    assert!(c.reproducer.to_string_lossy().contains("/asm-"));
    assert!(c.reproducer.exists());
    // The run went on past the crash to its end.
    assert_eq!(report.executions, 20);
    assert!(log.contains("crashed on iteration 13"), "{log}");
}

#[test]
fn a_crash_is_minimised_to_what_triggers_it() {
    let dir = scratch("min");
    let exe = fake_worker(&dir, u64::MAX, false);
    let cfg = config(exe, dir.join("out"), 1, Duration::from_secs(5));
    let input = b"aaaaXbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb".to_vec();
    let kind = CrashKind::Signal(11);
    let small = fuzz::minimise_input(&cfg, &input, &kind).unwrap();
    assert_eq!(small, b"X");
}

#[test]
fn a_hanging_input_is_a_timeout() {
    let dir = scratch("hang");
    let exe = fake_worker(&dir, 2, true);
    let cfg = config(exe, dir.join("out"), 4, Duration::from_millis(500));
    let report = fuzz::run(&cfg, &mut Vec::new()).unwrap();
    assert_eq!(report.crashes.len(), 1);
    assert_eq!(report.crashes[0].iteration, 2);
    assert_eq!(report.crashes[0].kind, CrashKind::Timeout);
}

/// A worker spinning on the CPU is a timeout too (a starved one is not: it is given more time
/// while it is runnable and has not yet used the limit in CPU).
#[test]
fn a_spinning_input_is_a_timeout() {
    let dir = scratch("spin");
    let exe = fake_worker_doing(&dir, 1, "while :; do :; done");
    let cfg = config(exe, dir.join("out"), 3, Duration::from_millis(300));
    let report = fuzz::run(&cfg, &mut Vec::new()).unwrap();
    assert_eq!(report.crashes.len(), 1);
    assert_eq!(report.crashes[0].iteration, 1);
    assert_eq!(report.crashes[0].kind, CrashKind::Timeout);
}
