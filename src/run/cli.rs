//! The `sundial-run` command line: `mlir-opt`'s conventions (the kernel is the positional
//! input, `-` or nothing is stdin, long options also take LLVM's single dash) and the order in
//! which a run checks its inputs.
//!
//! A run parses and verifies the kernel (diagnostics as `sundial-opt` renders them, with
//! `file:line:col`), checks `--target` against it, picks the function, checks that every op
//! of its body has emulator semantics, checks every `--arg` / `--save` against the function's
//! arguments, reads the `--arg` files, runs, and only then writes the `--save` files: each to
//! a temporary file beside it, renamed into place once all of them are written, so a failed
//! run or a failed write leaves no output file (only a rename failing after every file was
//! written could leave the earlier ones in place). Exit status: 0 success; 1 an error in the
//! kernel, its inputs or the run, or a difference under `--compare-pipeline`; 2 a malformed
//! command line.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Parser;
use melior::ir::{Module, attribute::AttributeLike, operation::OperationLike};
use sundial_dialects::{
    diag::{Diagnostic, Severity},
    enums::Target,
    ffi::string_attr_value,
};

use super::{
    ArgInfo, ArgKind, Program, RunConfig, RunError, compare, emu_target, find_function,
    function_name, npy, random,
};
use crate::render::{self, DiagnosticArgs, DiagnosticsFormat, RenderOptions};
use crate::session::{RunOptions, Session};

/// `I=FILE` or `I=VALUE`: an argument index and a file (or, for an index, integer or register
/// argument, a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The argument index.
    pub index: usize,
    /// The file.
    pub path: PathBuf,
    /// What followed `=`, as written.
    pub text: String,
}

impl std::fmt::Display for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.index, self.text)
    }
}

fn parse_binding(text: &str) -> Result<Binding, String> {
    let (index, path) = text.split_once('=').ok_or_else(|| {
        format!("expected I=FILE.npy (an argument index and a file) or I=VALUE (a number, for an index, integer or !nisa.reg argument), got '{text}'")
    })?;
    let index = index
        .trim()
        .parse()
        .map_err(|_| format!("'{index}' is not an argument index (0, 1, ...)"))?;
    if path.is_empty() {
        return Err(format!("no file or value after '{index}='"));
    }
    Ok(Binding {
        index,
        path: PathBuf::from(path),
        text: path.to_string(),
    })
}

/// An integer as a command line writes it: decimal with an optional sign, or `0x` hex.
fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    let v = if neg { -magnitude } else { magnitude };
    i64::try_from(v).ok()
}

/// The range of values a scalar argument of `kind` takes from the command line.
fn scalar_range(kind: &ArgKind) -> (i128, i128) {
    match kind {
        ArgKind::Reg => (
            i128::from(sundial_emu::ops::registers::REGISTER_MIN),
            i128::from(sundial_emu::ops::registers::REGISTER_MAX),
        ),
        // index: any i64; an integer of w bits: its signed or unsigned reading.
        ArgKind::Index { width: 64 } | ArgKind::Tile(_) => {
            (i128::from(i64::MIN), i128::from(i64::MAX))
        }
        ArgKind::Index { width } => (-(1i128 << (width - 1)), (1i128 << width) - 1),
    }
}

/// The contents of argument `arg` given by `--arg b`: `copies` copies (one per rank, or per
/// program of the launch grid: `stacked` says which). A tile reads a `.npy` file of its
/// shape (or stacked); an index, integer or register argument takes a number or a `.npy`
/// file of shape `()` (or `(copies,)`).
fn read_arg(b: &Binding, arg: &ArgInfo, copies: usize, stacked: &str) -> Result<Vec<u8>, String> {
    let scalar = arg.tile().is_none();
    if scalar && let Some(v) = parse_int(&b.text) {
        let (lo, hi) = scalar_range(&arg.kind);
        if !(lo..=hi).contains(&i128::from(v)) {
            return Err(format!("{v} does not fit: the argument takes {lo}..={hi}"));
        }
        let bytes = v.to_le_bytes()[..arg.format.size()].to_vec();
        return Ok(bytes.repeat(copies));
    }
    if !scalar && !b.path.exists() && parse_int(&b.text).is_some() {
        return Err(
            "a tile takes a .npy file, not a number (a number initialises an index, integer or !nisa.reg argument)"
                .to_string(),
        );
    }
    let mut shapes = vec![arg.shape.clone()];
    if copies > 1 || stacked == "program" {
        shapes.push(
            std::iter::once(copies)
                .chain(arg.shape.iter().copied())
                .collect(),
        );
    }
    let read = npy::read_any(&b.path, arg.format, &shapes, stacked);
    match read {
        // The argument's own shape: the same contents in every copy.
        Ok((bytes, 0)) if copies > 1 => Ok(bytes.repeat(copies)),
        Ok((bytes, _)) => Ok(bytes),
        Err(msg) if scalar => Err(format!(
            "expected an integer (--arg {}=5) or a .npy file of shape (): {msg}",
            arg.index
        )),
        Err(msg) => Err(msg),
    }
}

/// Command-line options.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "sundial-run",
    version,
    about = "Run a NISA kernel on Sundial's reference emulator, with .npy files as its arguments",
    after_help = "Arguments not given by --arg start zero-filled (or random with --random-inputs). Tiles (memref) are .npy files; index and integer arguments (loop bounds, offsets) and registers (!nisa.reg) are numbers. On a launch grid (sundial.grid) of several programs, each program has its own copy of every on-chip, private_hbm and register argument: --arg gives one for all or a stack of one per program (a leading dimension of the program count), --save writes the stack. Example:\n  sundial-run kernel.mlir --arg 0=a.npy --arg 1=b.npy --save 2=out.npy\n  sundial-run loop.mlir --arg 0=x.npy --arg 1=5 --save 2=out.npy   (argument 1: index)\n  sundial-run kernel.mlir --random-inputs 7 --compare-pipeline='builtin.module(canonicalize,cse)'\n  sundial-run allreduce.mlir --ranks 4 --arg 0=per_rank.npy --save 0=out.npy\nbfloat16 and the fp8 / MX types, which numpy lacks, are read from and saved as their raw bits (bf16: '<u2'; also read from '|V2', as np.save writes an ml_dtypes.bfloat16 array).\nOps that cannot run (no public semantics, not in the emulator, or not expressible in an SPMD run) are refused by name with the reason. Collectives need --ranks N. Reads of bytes nothing wrote are errors naming the op and the tile (arguments count as written); --no-uninit-check turns that off. nisa.device_print writes to stdout."
)]
pub struct RunArgs {
    /// The kernel (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: String,
    /// The function to run (default: the first func.func of the module).
    #[arg(long = "func", value_name = "NAME")]
    pub func: Option<String>,
    /// The target whose rules are checked and whose geometry is emulated (default: the
    /// module's sundial.target, else mariana).
    #[arg(long = "target", value_name = "T", value_parser = clap::builder::PossibleValuesParser::new(Target::NAMES))]
    pub target: Option<String>,
    /// Initialise function argument I: a tile from FILE.npy (dtype and shape must be the
    /// argument's); an index, integer or !nisa.reg argument from a number (--arg 2=5) or a
    /// .npy file of shape ().
    #[arg(long = "arg", value_name = "I=FILE.npy|I=VALUE", value_parser = parse_binding)]
    pub args: Vec<Binding>,
    /// After the run, write function argument I (a tile or a register) to FILE.npy.
    #[arg(long = "save", value_name = "I=FILE.npy", value_parser = parse_binding)]
    pub saves: Vec<Binding>,
    /// Fill the arguments no --arg gives with deterministic random values from SEED.
    #[arg(long = "random-inputs", value_name = "SEED")]
    pub random_inputs: Option<u64>,
    /// Run the kernel before and after PIPELINE on the same inputs and report the first
    /// element that differs (exit status 1).
    #[arg(long = "compare-pipeline", value_name = "PIPELINE")]
    pub compare_pipeline: Option<String>,
    /// Run the kernel on N ranks (SPMD: every rank runs every op; collectives run over the
    /// N). An --arg file holds either the argument (every rank gets it) or one per rank
    /// stacked on a new leading dimension of N; --save writes the stacked form. Without
    /// --ranks a kernel with a collective is refused.
    #[arg(long = "ranks", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub ranks: Option<u16>,
    /// Turn off the uninitialised-read check (on by default: a read of bytes nothing wrote
    /// is an error naming the op and the tile).
    #[arg(long = "no-uninit-check")]
    pub no_uninit_check: bool,
    /// The loop iterations (every scf.for, over all programs of a launch grid) the run may
    /// execute: a loop that would take the run past it is an error before its first
    /// iteration. Bounds the time a kernel can make the run take.
    #[arg(
        long = "max-loop-iterations",
        value_name = "N",
        default_value_t = crate::run::exec::MAX_LOOP_ITERATIONS,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub max_loop_iterations: u64,
    /// How quantize_mx picks a block scale: `golden-emax` (default: the public golden code and
    /// simulator, s = e - Emax) or `twice-ocp` (the SDK 2.32 docstring's scale "two times
    /// larger", s = e - Emax + 1).
    #[arg(
        long = "mx-scale-rule",
        value_enum,
        default_value = "golden-emax",
        value_name = "RULE"
    )]
    pub mx_scale_rule: MxRule,
    /// Print the time each phase took to stderr (as mlir-opt's --mlir-timing does).
    #[arg(long = "timing")]
    pub timing: bool,
    /// Diagnostics: `--color`, `--diagnostics-format`.
    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

/// `--mx-scale-rule` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MxRule {
    /// `s = e - Emax` (the public golden code, the nki 0.3.0 simulator).
    GoldenEmax,
    /// `s = e - Emax + 1` (the SDK 2.32 docstring).
    TwiceOcp,
}

impl MxRule {
    /// The emulator's rule.
    pub fn rule(self) -> sundial_emu::MxScaleRule {
        match self {
            MxRule::GoldenEmax => sundial_emu::MxScaleRule::GoldenEmax,
            MxRule::TwiceOcp => sundial_emu::MxScaleRule::TwiceOcp,
        }
    }
}

/// The phases `--timing` reports, in order, with how long each took.
#[derive(Debug, Default)]
struct Phases {
    start: Option<std::time::Instant>,
    done: Vec<(&'static str, std::time::Duration)>,
}

impl Phases {
    fn begin() -> Phases {
        Phases {
            start: Some(std::time::Instant::now()),
            done: Vec::new(),
        }
    }

    /// Ends phase `name` now (it began when the previous one ended).
    fn end(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        if let Some(start) = self.start.replace(now) {
            self.done.push((name, now - start));
        }
    }

    /// Records a phase measured elsewhere, inside the one that is running.
    fn split(&mut self, name: &'static str, took: std::time::Duration) {
        self.done.push((name, took));
    }

    /// The report, in the layout of MLIR's `--mlir-timing` (wall time only).
    fn report(&self) -> String {
        let total: std::time::Duration = self
            .done
            .iter()
            .filter(|(n, _)| !n.starts_with("  "))
            .map(|(_, d)| *d)
            .sum();
        let t = total.as_secs_f64();
        let pct = |d: f64| if t > 0.0 { 100.0 * d / t } else { 0.0 };
        let rule =
            "===-------------------------------------------------------------------------===\n";
        let mut out = String::new();
        out.push_str(rule);
        out.push_str("                      ... sundial-run execution time report ...\n");
        out.push_str(rule);
        out.push_str(&format!("  Total Execution Time: {t:.6} seconds\n\n"));
        out.push_str("  ----Wall Time----  ----Name----\n");
        for (name, d) in &self.done {
            let d = d.as_secs_f64();
            out.push_str(&format!("  {d:10.6} ({:5.1}%)  {name}\n", pct(d)));
        }
        out.push_str(&format!("  {t:10.6} ({:5.1}%)  Total\n", pct(t)));
        out
    }
}

/// What a run prints and its exit status.
#[derive(Debug, Default)]
pub struct Outcome {
    /// For stdout.
    pub stdout: String,
    /// For stderr.
    pub stderr: String,
    /// The exit status.
    pub status: i32,
}

/// Reports of one run: where diagnostics go and how they look.
struct Reporter<'a> {
    options: RenderOptions,
    name: &'a str,
    source: &'a [u8],
    out: Outcome,
}

impl Reporter<'_> {
    /// A failure without a position: `sundial-run: error: message`.
    fn fail(&mut self, message: impl Into<String>) -> i32 {
        let message = message.into();
        match self.options.format {
            DiagnosticsFormat::Text => {
                self.out
                    .stderr
                    .push_str(&format!("sundial-run: error: {message}\n"));
            }
            DiagnosticsFormat::Json => {
                let d = Diagnostic::new(Severity::Error, None, message);
                self.out
                    .stderr
                    .push_str(&render::render(&[d], self.name, &[], self.options));
            }
        }
        1
    }

    /// IR diagnostics, rendered like `sundial-opt`'s.
    fn diagnostics(&mut self, diags: &[Diagnostic]) {
        if !diags.is_empty() {
            self.out
                .stderr
                .push_str(&render::render(diags, self.name, self.source, self.options));
        }
    }

    /// A run error: at its op (with a source snippet), or without a position.
    fn run_error(&mut self, err: &RunError) -> i32 {
        if err.loc.is_some() {
            let d = err.diagnostic(self.name);
            self.diagnostics(&[d]);
            1
        } else {
            let mut message = err.message.clone();
            for n in &err.notes {
                message.push_str(&format!("\nnote: {n}"));
            }
            self.fail(message)
        }
    }
}

/// The whole tool: returns the exit status (output files are written here, on success only).
pub fn main_with_args(args: Vec<OsString>) -> i32 {
    let argv =
        sundial_codegen::cli::llvm_single_dash(args, &<RunArgs as clap::CommandFactory>::command());
    let args = match RunArgs::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let outcome = run(&args);
    if !outcome.stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(outcome.stdout.as_bytes());
        let _ = out.flush();
    }
    if !outcome.stderr.is_empty() {
        let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    }
    outcome.status
}

/// Reads the kernel: a file, or stdin for `-`.
fn read_input(input: &str) -> Result<(Vec<u8>, String), String> {
    if input == "-" {
        crate::opt::read_terminated(std::io::stdin().lock(), None)
            .map(|b| (b, "<stdin>".to_string()))
            .map_err(|e| format!("cannot read stdin: {e}"))
    } else {
        std::fs::File::open(input)
            .and_then(|f| {
                let size = f.metadata().ok().map(|m| m.len());
                crate::opt::read_terminated(f, size)
            })
            .map(|b| (b, input.to_string()))
            .map_err(|e| format!("cannot read '{input}': {e}"))
    }
}

/// Runs `sundial-run` with parsed options: reads, checks, runs, writes (see the module doc).
pub fn run(args: &RunArgs) -> Outcome {
    let mut phases = Phases::begin();
    let options = args.diagnostics.render_options();
    let (buffer, name) = match read_input(&args.input) {
        Ok(r) => r,
        Err(msg) => {
            let mut rep = Reporter {
                options,
                name: &args.input,
                source: &[],
                out: Outcome::default(),
            };
            rep.out.status = rep.fail(msg);
            return rep.out;
        }
    };
    phases.end("read the kernel");
    run_phases(args, &buffer, &name, phases)
}

/// Runs `sundial-run` with parsed options on a kernel already read: `buffer` is its text
/// followed by one NUL byte (as MLIR's lexer needs), `name` the file name diagnostics give;
/// `args.input` is not read. Otherwise as [`run`].
pub fn run_buffer(args: &RunArgs, buffer: &[u8], name: &str) -> Outcome {
    run_phases(args, buffer, name, Phases::begin())
}

fn run_phases(args: &RunArgs, buffer: &[u8], name: &str, mut phases: Phases) -> Outcome {
    let source = &buffer[..buffer.len().saturating_sub(1)];
    let mut rep = Reporter {
        options: args.diagnostics.render_options(),
        name,
        source,
        out: Outcome::default(),
    };
    let status = run_checked(args, buffer, &mut rep, &mut phases);
    rep.out.status = status;
    if args.timing {
        rep.out.stderr.push_str(&phases.report());
    }
    rep.out
}

fn run_checked(args: &RunArgs, buffer: &[u8], rep: &mut Reporter<'_>, phases: &mut Phases) -> i32 {
    let session = match Session::new() {
        Ok(s) => s,
        Err(e) => return rep.fail(e.to_string()),
    };
    if let Some(p) = &args.compare_pipeline {
        if p.trim().is_empty() {
            return rep.fail("--compare-pipeline needs a pipeline, e.g. 'builtin.module(cse)'");
        }
        if let Err(msg) = session.check_pipeline(p) {
            return rep.fail(format!("--compare-pipeline: {msg}"));
        }
    }
    let parsed = session.parse_terminated(buffer, rep.name, 1);
    rep.diagnostics(&parsed.diagnostics);
    let Some(mut module) = parsed.module else {
        return 1;
    };
    if parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        return 1;
    }
    let run_options = RunOptions::default();
    if let Some(t) = &args.target {
        let pipeline = format!("builtin.module(sundial-verify{{target={t}}})");
        match session.run_pipeline(&mut module, &pipeline, &run_options, rep.name) {
            Ok(d) => rep.diagnostics(&d),
            Err(d) => {
                rep.diagnostics(&d);
                return 1;
            }
        }
    }
    let target = args
        .target
        .as_deref()
        .or(module_target(&module).as_deref())
        .and_then(Target::from_name)
        .map(emu_target)
        .unwrap_or(sundial_emu::Target::Mariana);
    let ranks = args.ranks.map(usize::from);
    let config = RunConfig {
        target,
        ranks,
        check_uninit: !args.no_uninit_check,
        mx_scale_rule: args.mx_scale_rule.rule(),
        max_loop_iterations: args.max_loop_iterations,
    };
    let rank_count = config.rank_count();

    // The kernel after the pipeline, transformed from a copy before anything runs.
    let mut after = None;
    if let Some(p) = &args.compare_pipeline {
        let mut copy = match clone_module(&module) {
            Some(m) => m,
            None => return rep.fail("cannot copy the module for --compare-pipeline"),
        };
        match session.run_pipeline(&mut copy, p, &run_options, rep.name) {
            Ok(d) => rep.diagnostics(&d),
            Err(d) => {
                rep.diagnostics(&d);
                return 1;
            }
        }
        after = Some(copy);
    }
    phases.end("parse and verify the kernel");

    let func = match find_function(&module, args.func.as_deref()) {
        Ok(f) => f,
        Err(e) => return rep.run_error(&e),
    };
    let fname = function_name(&func);
    // The loop budget first, as before any input is read or filled.
    let program = match Program::prepare(func)
        .and_then(|p| p.check_loop_budget(config.max_loop_iterations).map(|()| p))
    {
        Ok(p) => p,
        Err(e) => return rep.run_error(&e),
    };
    if let Err(messages) = check_bindings(args, &program, &fname) {
        for m in &messages {
            rep.fail(m.clone());
        }
        return 1;
    }
    // Each argument's size fits in i64 (the verifier's tile rule); their sum may not.
    let total = program.args.iter().fold(0usize, |t, a| {
        t.saturating_add(a.num_bytes().saturating_mul(program.copies(a, rank_count)))
    });
    if total > super::exec::MAX_HBM_BYTES {
        return rep.fail(format!(
            "the arguments of @{fname} hold {total} bytes{}, more than the {} sundial-run allocates",
            if rank_count > 1 {
                format!(" over {rank_count} ranks")
            } else {
                String::new()
            },
            super::exec::MAX_HBM_BYTES
        ));
    }
    phases.end("prepare the function");
    let mut inputs = Vec::with_capacity(program.args.len());
    for arg in &program.args {
        let given = args.args.iter().find(|b| b.index == arg.index);
        let copies = program.copies(arg, rank_count);
        let stacked = if arg.per_program { "program" } else { "rank" };
        let contents = match (given, args.random_inputs) {
            (Some(b), _) => match read_arg(b, arg, copies, stacked) {
                Ok(bytes) => bytes,
                Err(msg) => {
                    return rep.fail(format!(
                        "--arg {b}: {msg} (argument {} is {})",
                        arg.index, arg.type_text
                    ));
                }
            },
            (None, Some(seed)) => {
                random::fill(arg.format, arg.num_elements() * copies, seed, arg.index)
            }
            (None, None) => vec![0u8; arg.num_bytes() * copies],
        };
        inputs.push(contents);
    }
    phases.end("read the inputs");
    // Only the saved arguments are read back.
    let keep: Vec<usize> = args.saves.iter().map(|s| s.index).collect();

    let results = match (&args.compare_pipeline, &after) {
        (Some(p), Some(after)) => {
            let transformed = match find_function(after, Some(&fname)).and_then(Program::prepare) {
                Ok(t) => t,
                Err(mut e) => {
                    e.notes
                        .push(format!("in @{fname} after the pipeline '{p}'"));
                    return rep.run_error(&e);
                }
            };
            match compare::compare_runs(&program, &transformed, &inputs, &config) {
                Ok(compare::Verdict::Same(results)) => {
                    rep.out.stdout.push_str(&format!(
                        "sundial-run: @{fname} computes the same after '{p}' ({} arguments compared bit-exactly, NaNs equal whatever their payload)\n",
                        program.args.len()
                    ));
                    phases.end("run the kernel before and after the pipeline");
                    results
                }
                Ok(compare::Verdict::Differs(d)) => {
                    return rep.fail(format!(
                        "@{fname} computes differently after the pipeline '{p}': {d}"
                    ));
                }
                Err(e) => return rep.run_error(&e),
            }
        }
        _ => match program.run(inputs, &config, &keep) {
            Ok(r) => {
                phases.end("run the kernel");
                phases.split("  set up the machine and the arguments", r.timing.setup);
                phases.split("  execute the ops", r.timing.ops);
                phases.split("  read the arguments back", r.timing.readback);
                r
            }
            Err(e) => return rep.run_error(&e),
        },
    };

    if let Err(msg) = save(args, &program, &results.args, ranks) {
        return rep.fail(msg);
    }
    phases.end("save the outputs");
    rep.out.stdout.push_str(&results.printed);
    0
}

/// Every `--arg` and `--save` names an argument of the function; no argument is given twice;
/// no file is written twice. All problems are reported.
fn check_bindings(
    args: &RunArgs,
    program: &Program<'_, '_>,
    fname: &str,
) -> Result<(), Vec<String>> {
    let n = program.args.len();
    let has = || {
        if n == 0 {
            format!("@{fname} has no arguments")
        } else {
            format!(
                "@{fname} has {n} argument{} (0..{})",
                if n == 1 { "" } else { "s" },
                n - 1
            )
        }
    };
    let mut problems = Vec::new();
    for (k, b) in args.args.iter().enumerate() {
        if b.index >= n {
            problems.push(format!(
                "--arg {b}: unknown argument index {}: {}",
                b.index,
                has()
            ));
        } else if let Some(first) = args.args[..k].iter().find(|o| o.index == b.index) {
            problems.push(format!(
                "argument {} is given twice: --arg {first} and --arg {b}",
                b.index
            ));
        }
    }
    for (k, s) in args.saves.iter().enumerate() {
        if s.index >= n {
            problems.push(format!(
                "--save {s}: {} is not an argument: {}",
                s.index,
                has()
            ));
        } else if !program.args[s.index].is_memory() {
            problems.push(format!(
                "--save {s}: argument {} of @{fname} is a value of type {}, which the run cannot change: --save writes tiles and registers",
                s.index, program.args[s.index].type_text
            ));
        } else if let Some(first) = args.saves[..k].iter().find(|o| o.path == s.path) {
            problems.push(format!(
                "'{}' would be written twice: --save {first} and --save {s}",
                s.path.display()
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Writes every `--save` file: all to temporary files first, then renamed into place; on any
/// failure the temporary files are removed and no output exists.
fn save(
    args: &RunArgs,
    program: &Program<'_, '_>,
    results: &[Vec<u8>],
    ranks: Option<usize>,
) -> Result<(), String> {
    let mut staged: Vec<(PathBuf, &Path)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, &Path)]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for s in &args.saves {
        let arg = &program.args[s.index];
        // With --ranks, every rank's contents, stacked on a leading dimension; for a
        // per-program argument, every program's.
        let stack = if arg.per_program {
            Some(program.programs() as usize)
        } else {
            ranks
        };
        let shape = match stack {
            Some(n) => std::iter::once(n)
                .chain(arg.shape.iter().copied())
                .collect(),
            None => arg.shape.clone(),
        };
        // The header, then the data straight from the run's buffer (no copy of it).
        let written = npy::header(arg.format, &shape).and_then(|head| {
            let tmp = temp_path(&s.path);
            std::fs::File::create(&tmp)
                .and_then(|mut f| {
                    f.write_all(&head)?;
                    f.write_all(&results[s.index])
                })
                .map(|()| tmp.clone())
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    format!("cannot write '{}': {e}", s.path.display())
                })
        });
        match written {
            Ok(tmp) => staged.push((tmp, &s.path)),
            Err(msg) => {
                cleanup(&staged);
                return Err(msg);
            }
        }
    }
    for (k, (tmp, path)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, path) {
            cleanup(&staged[k..]);
            return Err(format!("cannot write '{}': {e}", path.display()));
        }
    }
    Ok(())
}

/// A temporary file beside `path` (same directory, so the rename is atomic).
fn temp_path(path: &Path) -> PathBuf {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out.npy".into());
    path.with_file_name(format!(".{file}.{}.sundial-run.tmp", std::process::id()))
}

/// The module's `sundial.target`, if it names one (the verifier has checked its spelling).
fn module_target(module: &Module<'_>) -> Option<String> {
    module
        .as_operation()
        .attribute("sundial.target")
        .ok()
        .filter(|a| a.is_string())
        .map(string_attr_value)
}

/// A deep copy of `module` (MLIR's operation clone), for `--compare-pipeline`.
fn clone_module<'c>(module: &Module<'c>) -> Option<Module<'c>> {
    unsafe {
        let op = mlir_sys::mlirOperationClone(module.as_operation().to_raw());
        Module::from_option_raw(mlir_sys::mlirModuleFromOperation(op))
    }
}
