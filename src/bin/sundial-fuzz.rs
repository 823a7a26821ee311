//! `sundial-fuzz`: structure-aware fuzzing of every Sundial tool, crash-proof (each input runs
//! in a worker process), with minimised reproducers. See [`sundial::fuzz`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use sundial::fuzz::{self, Config, FuzzTarget};

/// Command-line options.
#[derive(Parser, Debug)]
#[command(
    name = "sundial-fuzz",
    version,
    about = "Fuzz Sundial's tools: IR (parse, verify, passes, print), bundles (decode, validate, print, assemble, lift), assembler text, and the emulator",
    after_help = "Crashes (panic, abort, signal, or one input over the time limit) are minimised and written to --out as <target>-<hash>.<ext>; the exit status is 1 when any was found.\nExample: sundial-fuzz --target bundle --seconds 60 --seed 7"
)]
struct Args {
    /// What to fuzz.
    #[arg(long, value_enum)]
    target: FuzzTarget,
    /// Stop after this many inputs.
    #[arg(long)]
    iters: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// The run's seed (inputs are a function of the seed and the iteration).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where reproducers are written.
    #[arg(long, default_value = "fuzz/reproducers")]
    out: PathBuf,
    /// The project tree the seed corpora are read from (lit/, examples/).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Per-input time limit in seconds.
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,
    /// Inputs per worker process.
    #[arg(long, default_value_t = 50_000)]
    batch: u64,
    /// Candidate runs spent minimising one crash.
    #[arg(long, default_value_t = 400)]
    minimise_budget: usize,
    // Worker mode (started by the driver itself).
    #[arg(long, hide = true)]
    worker: bool,
    #[arg(long, hide = true, default_value_t = 0)]
    start: u64,
    #[arg(long, hide = true)]
    replay: Option<PathBuf>,
}

fn main() {
    // LLVM's single-dash spellings (`-target ir -seconds 60`) as in the other tools.
    let argv = sundial_codegen::cli::llvm_single_dash(
        std::env::args_os(),
        &<Args as clap::CommandFactory>::command(),
    );
    let args = match Args::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    if args.worker {
        let result = sundial::with_big_stack(move || {
            fuzz::worker(
                args.target,
                args.seed,
                &args.root,
                args.start,
                args.iters.unwrap_or(u64::MAX),
                args.seconds,
                args.replay.as_deref(),
            )
        });
        match result {
            Ok(Ok(())) => std::process::exit(0),
            Ok(Err(msg)) => {
                eprintln!("sundial-fuzz: error: {msg}");
                std::process::exit(2);
            }
            // The panic message is already on stderr; 101 is Rust's panic status.
            Err(_) => std::process::exit(101),
        }
    }
    if args.iters.is_none() && args.seconds.is_none() {
        eprintln!("sundial-fuzz: error: give --iters or --seconds (or both)");
        std::process::exit(2);
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) || args.batch == 0 {
        eprintln!("sundial-fuzz: error: --timeout must be positive and --batch at least 1");
        std::process::exit(2);
    }
    let exe = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sundial-fuzz: error: cannot find this executable: {e}");
            std::process::exit(2);
        }
    };
    let cfg = Config {
        target: args.target,
        seed: args.seed,
        iters: args.iters,
        seconds: args.seconds,
        root: args.root,
        out: args.out,
        timeout: Duration::from_secs_f64(args.timeout),
        exe,
        batch: args.batch,
        minimise_budget: args.minimise_budget,
    };
    let mut err = std::io::stderr();
    match fuzz::run(&cfg, &mut err) {
        Ok(report) => {
            let secs = report.elapsed.as_secs_f64();
            println!(
                "sundial-fuzz: target {} seed {}: {} executions in {:.1} s ({:.0}/s), {} crashes",
                cfg.target.name(),
                cfg.seed,
                report.executions,
                secs,
                report.executions as f64 / secs.max(1e-9),
                report.crashes.len()
            );
            for c in &report.crashes {
                println!(
                    "  iteration {}: {} -> {} ({} -> {} bytes)",
                    c.iteration,
                    c.kind,
                    c.reproducer.display(),
                    c.sizes.0,
                    c.sizes.1
                );
            }
            std::process::exit(if report.crashes.is_empty() { 0 } else { 1 });
        }
        Err(msg) => {
            eprintln!("sundial-fuzz: error: {msg}");
            std::process::exit(2);
        }
    }
}
