//! `sundial-opt`: parse, verify, transform and print NISA/BIR IR, with `mlir-opt`'s
//! conventions.
//!
//! Input is a file or `-` (stdin, the default); output goes to `-o FILE` or stdout and is
//! written only when everything succeeded (never partially). Diagnostics print as
//! `file:line:col: error: message` on stderr and make the exit status 1. Options accept
//! LLVM's single-dash spelling too (`-split-input-file`, `-verify-diagnostics`).
//!
//! # Memory
//!
//! Peak memory is proportional to the input. The input is read once, into a buffer sized from
//! the file's length (fallibly: an input that cannot be allocated is `cannot read '...': the
//! input does not fit in memory`, exit 1) with one spare byte for the NUL terminator MLIR's
//! lexer needs, so a whole file, and the last chunk of a split one, is parsed in place; other
//! chunks are copied one at a time, each copy freed once MLIR has parsed it. A whole input is
//! freed once its diagnostics are rendered, so at the peak (printing) the process holds MLIR's
//! IR of the module, about 330-370 bytes per op however the op is spelled, and the printed
//! output, held whole because it is written only on success. Measured with
//! `scripts/measure-rss.sh` (release build): about 5x the input for IR that spells its memref
//! types out (~94 bytes per op: a 1 GB input peaks at 4.8 GB), about 9.5x for IR that names
//! them through a type alias (~46 bytes per op, printed back expanded to ~102: 10 M ops in one
//! function peak at 4.2 GB). With `--split-input-file` each chunk's module is freed after it
//! is printed and the MLIR context is replaced every [`CHUNKS_PER_CONTEXT`] chunks, so the
//! peak is the input plus the output, whatever the number of chunks (2.2x for 4 M chunks).

use crate::{
    expected,
    render::{self, DiagnosticArgs, DiagnosticsFormat, RenderOptions},
    session::{RunOptions, Session},
    source,
};
use clap::Parser;
use std::io::{Read, Write};
use sundial_dialects::{diag::Diagnostic, ffi::PrintOptions};

/// Chunks of a `--split-input-file` input processed in one MLIR context before a fresh one
/// replaces it. A context keeps every location, type and attribute it ever uniqued (each
/// chunk's parser-made and moved locations: a few hundred bytes per chunk) until it is
/// destroyed; a fresh one (a few milliseconds) every this many chunks bounds that to the
/// recent chunks, so millions of chunks need memory for the input and the output only.
pub const CHUNKS_PER_CONTEXT: usize = 10_000;

/// Command-line options.
#[derive(Parser, Debug, Clone, Default)]
#[command(
    name = "sundial-opt",
    version,
    about = "Parse, verify, transform and print NISA/BIR IR (mlir-opt conventions)",
    after_help = "Pipelines mix Sundial's Rust passes and upstream MLIR passes, e.g.\n  sundial-opt kernel.mlir --pass-pipeline='builtin.module(sundial-verify{target=cayman},canonicalize)'\nSee --list-passes."
)]
pub struct OptArgs {
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: String,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', default_value = "-")]
    pub output: String,
    /// Textual pass pipeline, e.g. `builtin.module(sundial-verify,cse)`.
    #[arg(long = "pass-pipeline", short = 'p', value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// Split the input on `// -----` lines and process each chunk independently.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Check diagnostics against `expected-*` comments instead of reporting them.
    #[arg(long = "verify-diagnostics")]
    pub verify_diagnostics: bool,
    /// List the available passes and exit.
    #[arg(long = "list-passes")]
    pub list_passes: bool,
    /// List the NISA and BIR ops and exit.
    #[arg(long = "list-ops")]
    pub list_ops: bool,
    /// Print the IR after every pass (stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,
    /// Print a pass timing report (stderr).
    #[arg(long = "mlir-timing")]
    pub timing: bool,
    /// Print every op in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub print_generic: bool,
    /// Print source locations.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Diagnostics: `--color`, `--diagnostics-format`.
    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

/// Accepts LLVM's single-dash long options (`-split-input-file`) by doubling the dash: every
/// long option [`OptArgs`] defines (the shared rule of the tools, `sundial_codegen::cli`).
pub fn normalize_args(args: impl IntoIterator<Item = String>) -> Vec<String> {
    sundial_codegen::cli::llvm_single_dash(
        args.into_iter().map(std::ffi::OsString::from),
        &<OptArgs as clap::CommandFactory>::command(),
    )
    .into_iter()
    .map(|a| a.to_string_lossy().into_owned())
    .collect()
}

/// The result of a run: what to write to stdout/the output file and stderr, and the status.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Output text (written only when `status == 0`).
    pub output: String,
    /// Diagnostics and reports for stderr.
    pub stderr: String,
    /// Exit status.
    pub status: i32,
}

fn list_passes() -> String {
    use std::fmt::Write;
    crate::register_passes();
    let mut out = String::from("Sundial passes:\n");
    for p in sundial_passes::registry::all() {
        let _ = writeln!(out, "  {:<28} {}", p.name, p.summary);
        for o in p.options {
            let default = if o.default.is_empty() {
                String::new()
            } else {
                format!(" (default {})", o.default)
            };
            let _ = writeln!(
                out,
                "    {{{}=...}}{:<width$} {}{default}",
                o.name,
                "",
                o.help,
                width = 20usize.saturating_sub(o.name.len() + 6)
            );
        }
    }
    out.push_str("Sundial pipelines:\n");
    for p in sundial_passes::registry::PIPELINES {
        let _ = writeln!(out, "  {:<28} {}", p.name, p.summary);
        for o in p.options {
            let default = if o.default.is_empty() {
                String::new()
            } else {
                format!(" (default {})", o.default)
            };
            let _ = writeln!(
                out,
                "    {{{}=...}}{:<width$} {}{default}",
                o.name,
                "",
                o.help,
                width = 20usize.saturating_sub(o.name.len() + 6)
            );
        }
        let _ = writeln!(
            out,
            "    = {}",
            (p.expand)(&p.parse_options(&[]).unwrap_or_default())
        );
    }
    out.push_str("Upstream MLIR passes:\n");
    for (name, summary) in sundial_passes::registry::UPSTREAM_PASSES {
        let _ = writeln!(out, "  {name:<28} {summary}");
    }
    out
}

fn list_ops() -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "NISA ops ({}):", sundial_dialects::nisa::OPS.len());
    for op in sundial_dialects::nisa::OPS {
        let emit = op
            .emit
            .map(|e| format!("#{e}"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "  nisa.{:<55} {:>4}  {}  [{}]",
            op.name, emit, op.api, op.provenance.0
        );
    }
    let _ = writeln!(out, "BIR ops ({}):", sundial_dialects::bir::OPS.len());
    for op in sundial_dialects::bir::OPS {
        let codes = op.opcodes_text(",");
        let num = op.number.map(|n| format!("op {n}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  bir.{:<30} {:<24} {:<6} {}  [{}]",
            op.spec.name, codes, num, op.bir_class, op.spec.provenance.0
        );
    }
    out
}

/// A diagnostic with no position (a driver error) in the requested format.
fn driver_error(args: &OptArgs, name: &str, message: String) -> String {
    match args.diagnostics.diagnostics_format {
        DiagnosticsFormat::Text => format!("sundial-opt: error: {message}\n"),
        DiagnosticsFormat::Json => render::render(
            &[Diagnostic::new(
                sundial_dialects::diag::Severity::Error,
                None,
                message,
            )],
            name,
            &[],
            RenderOptions {
                format: DiagnosticsFormat::Json,
                color: false,
            },
        ),
    }
}

/// Runs `sundial-opt` on an input buffer (already read) and returns what to print.
pub fn run(args: &OptArgs, input: &[u8], input_name: &str) -> Outcome {
    run_input(args, Input::Borrowed(input), input_name)
}

/// The input of a run.
enum Input<'a> {
    /// The caller's bytes (parsed through copies).
    Borrowed(&'a [u8]),
    /// The input followed by a NUL byte, owned (how [`main_with_args`] reads it): parsed in
    /// place, and freed as soon as it is no longer needed.
    Terminated(Vec<u8>),
}

impl Input<'_> {
    /// The input's bytes.
    fn text(&self) -> &[u8] {
        match self {
            Input::Borrowed(b) => b,
            Input::Terminated(t) => &t[..t.len().saturating_sub(1)],
        }
    }

    /// The input and its NUL terminator, when there is one.
    fn terminated(&self) -> Option<&[u8]> {
        match self {
            Input::Borrowed(_) => None,
            Input::Terminated(t) => Some(t),
        }
    }
}

/// What every chunk is processed with.
struct ChunkRun<'a> {
    args: &'a OptArgs,
    pipeline: String,
    run_options: RunOptions,
    render_options: RenderOptions,
    input_name: &'a str,
}

impl ChunkRun<'_> {
    /// Parses, transforms and checks one chunk of `input`, appending its report to `stderr`.
    /// Returns the module when it parsed and went through the pipeline (the one to print), and
    /// whether the chunk failed (a diagnostic, or unmet expectations under
    /// `--verify-diagnostics`).
    fn check<'c>(
        &self,
        session: &'c Session,
        chunk: source::ChunkRef<'_>,
        input: &[u8],
        terminated: Option<&[u8]>,
        stderr: &mut String,
    ) -> (Option<melior::ir::Module<'c>>, bool) {
        let (args, input_name) = (self.args, self.input_name);
        // The pipeline's verifiers need not walk again IR the parse verified unchanged.
        let (diags, module) = sundial_dialects::verify::remembering_verified(|| {
            let parsed = parse_chunk(session, chunk, input, terminated, input_name);
            let mut diags = parsed.diagnostics;
            let mut module = parsed.module;
            if let Some(m) = &mut module
                && (args.pass_pipeline.is_some() || args.timing || args.print_ir_after_all)
            {
                match session.run_pipeline(m, &self.pipeline, &self.run_options, input_name) {
                    Ok(d) => diags.extend(d),
                    Err(d) => {
                        diags.extend(d);
                        module = None;
                    }
                }
            }
            (diags, module)
        });
        let failed = if args.verify_diagnostics {
            match expected::parse(chunk.text, chunk.first_line) {
                Err((line, col, msg)) => {
                    stderr.push_str(&format!("{input_name}:{line}:{col}: error: {msg}\n"));
                    true
                }
                Ok(exp) => {
                    let report = expected::check(input_name, &diags, exp);
                    for r in &report {
                        stderr.push_str(r);
                        stderr.push('\n');
                    }
                    !report.is_empty()
                }
            }
        } else {
            if !diags.is_empty() {
                stderr.push_str(&render::render_at(
                    &diags,
                    input_name,
                    chunk.text,
                    chunk.first_line,
                    self.render_options,
                ));
            }
            module.is_none()
                || diags
                    .iter()
                    .any(|d| d.severity == sundial_dialects::diag::Severity::Error)
        };
        (module, failed)
    }
}

/// [`run`] on an [`Input`].
fn run_input(args: &OptArgs, input: Input<'_>, input_name: &str) -> Outcome {
    let mut outcome = Outcome::default();
    if args.list_passes {
        outcome.output = list_passes();
        return outcome;
    }
    if args.list_ops {
        outcome.output = list_ops();
        return outcome;
    }
    let mut session = match Session::new() {
        Ok(s) => s,
        Err(e) => {
            outcome.stderr = driver_error(args, input_name, e.to_string());
            outcome.status = 1;
            return outcome;
        }
    };
    let print = PrintOptions {
        generic: args.print_generic,
        debug_info: args.print_debuginfo,
    };
    let run = ChunkRun {
        args,
        pipeline: args.pass_pipeline.clone().unwrap_or_default(),
        run_options: RunOptions {
            print_ir_after_all: args.print_ir_after_all,
            timing: args.timing,
        },
        render_options: args.diagnostics.render_options(),
        input_name,
    };
    // A malformed pipeline is reported once, before any input is read as IR.
    if let Err(msg) = session.check_pipeline(&run.pipeline) {
        outcome.stderr = driver_error(args, input_name, msg);
        outcome.status = 1;
        return outcome;
    }
    // The output of every chunk, printed by MLIR straight into one buffer (no per-chunk
    // string, no joining copy); freed, and no longer built, as soon as anything fails, since
    // it is then never written.
    let mut output = Vec::new();
    let mut failed = false;
    if !args.split_input_file {
        let text = input.text();
        let whole = source::ChunkRef {
            first_line: 1,
            text,
        };
        let (module, chunk_failed) = run.check(
            &session,
            whole,
            text,
            input.terminated(),
            &mut outcome.stderr,
        );
        failed = chunk_failed;
        // Its diagnostics rendered, the input is no longer needed: an owned one is freed
        // before printing, when the module and the output are both in memory (the peak).
        drop(input);
        if let Some(m) = module
            && !failed
        {
            print_into(&mut output, &m, print);
        }
    } else {
        let text = input.text();
        let mut pieces = 0usize;
        for (index, chunk) in source::chunks(text, true).enumerate() {
            if index > 0 && index % CHUNKS_PER_CONTEXT == 0 {
                match Session::new() {
                    Ok(s) => session = s,
                    Err(e) => {
                        outcome
                            .stderr
                            .push_str(&driver_error(args, input_name, e.to_string()));
                        failed = true;
                        break;
                    }
                }
            }
            let (module, chunk_failed) = run.check(
                &session,
                chunk,
                text,
                input.terminated(),
                &mut outcome.stderr,
            );
            failed |= chunk_failed;
            if failed {
                output = Vec::new();
            } else if let Some(m) = module {
                // Under --verify-diagnostics a chunk that failed as expected prints nothing.
                if pieces > 0 {
                    output.extend_from_slice(source::SPLIT_MARKER.as_bytes());
                    output.push(b'\n');
                }
                print_into(&mut output, &m, print);
                pieces += 1;
            }
        }
    }
    if failed {
        outcome.status = 1;
        return outcome;
    }
    // MLIR's printer escapes what is not printable, so this is valid UTF-8 and moves without a
    // copy; the lossy copy is a fallback only.
    outcome.output = String::from_utf8(output)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    outcome
}

/// Appends the printed form of `module` to `out`, as `Session::print` prints it.
///
/// The buffer grows like MLIR's own allocations, infallibly: the text is proportional to the
/// module, which MLIR already holds in memory.
fn print_into(out: &mut Vec<u8>, module: &melior::ir::Module<'_>, options: PrintOptions) {
    unsafe extern "C" fn append(chunk: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        if chunk.length == 0 || chunk.data.is_null() {
            return;
        }
        unsafe {
            let out = &mut *(data as *mut Vec<u8>);
            out.extend_from_slice(std::slice::from_raw_parts(
                chunk.data as *const u8,
                chunk.length,
            ));
        }
    }
    unsafe {
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        if options.generic {
            mlir_sys::mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        if options.debug_info {
            mlir_sys::mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
        }
        mlir_sys::mlirOperationPrintWithFlags(
            module.as_operation().to_raw(),
            flags,
            Some(append),
            out as *mut Vec<u8> as *mut std::ffi::c_void,
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
}

/// Parses a chunk of `input` at its line: in place when it ends where `input` does and the
/// caller's buffer has the NUL terminator MLIR needs right after it (`terminated` is `input`
/// plus that byte, as [`main_with_args`] reads it), else through a copy of the chunk.
fn parse_chunk<'c>(
    session: &'c Session,
    chunk: source::ChunkRef<'_>,
    input: &[u8],
    terminated: Option<&[u8]>,
    input_name: &str,
) -> crate::session::Parsed<'c> {
    // `chunk.text` is a slice of `input`: its offset in it.
    let start = (chunk.text.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    match terminated {
        Some(t)
            if t.as_ptr() == input.as_ptr()
                && t.len() == input.len().wrapping_add(1)
                && start.checked_add(chunk.text.len()) == Some(input.len()) =>
        {
            session.parse_terminated(&t[start..], input_name, chunk.first_line)
        }
        _ => session.parse_at(chunk.text, input_name, chunk.first_line),
    }
}

/// Reads all of `reader` into a buffer followed by one NUL byte (the terminator MLIR's lexer
/// needs, so that the input is parsed in place rather than copied). `size_hint` (a file's
/// length) sizes the buffer exactly; every allocation is fallible, so an input that does not
/// fit in memory is an error (`ErrorKind::OutOfMemory`), not an abort.
pub fn read_terminated(mut reader: impl Read, size_hint: Option<u64>) -> std::io::Result<Vec<u8>> {
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            "the input does not fit in memory",
        )
    };
    let mut buf = Vec::new();
    if let Some(size) = size_hint {
        let want = usize::try_from(size)
            .ok()
            .and_then(|n| n.checked_add(1))
            .ok_or_else(too_big)?;
        buf.try_reserve_exact(want).map_err(|_| too_big())?;
    }
    // `read_to_end` grows the buffer with `try_reserve` (OutOfMemory on failure).
    reader.read_to_end(&mut buf)?;
    buf.try_reserve_exact(1).map_err(|_| too_big())?;
    buf.push(0);
    Ok(buf)
}

/// The whole tool: reads the input, runs, writes the output only on success; returns the exit
/// status.
pub fn main_with_args(args: Vec<String>) -> i32 {
    let args = match OptArgs::try_parse_from(normalize_args(args)) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let (buffer, name) = if args.list_passes || args.list_ops {
        (vec![0], "-".to_string())
    } else if args.input == "-" {
        match read_terminated(std::io::stdin().lock(), None) {
            Ok(b) => (b, "<stdin>".to_string()),
            Err(e) => {
                eprintln!("sundial-opt: error: cannot read stdin: {e}");
                return 1;
            }
        }
    } else {
        let read = std::fs::File::open(&args.input).and_then(|f| {
            let size = f.metadata().ok().map(|m| m.len());
            read_terminated(f, size)
        });
        match read {
            Ok(b) => (b, args.input.clone()),
            Err(e) => {
                eprintln!("sundial-opt: error: cannot read '{}': {e}", args.input);
                return 1;
            }
        }
    };
    // The buffer moves into the run, which frees it as soon as it is no longer needed.
    let outcome = run_input(&args, Input::Terminated(buffer), &name);
    if !outcome.stderr.is_empty() {
        let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    }
    if outcome.status != 0 {
        return outcome.status;
    }
    let written = if args.output == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(outcome.output.as_bytes())
            .and_then(|_| out.flush())
    } else {
        std::fs::write(&args.output, outcome.output.as_bytes())
    };
    if let Err(e) = written {
        eprintln!("sundial-opt: error: cannot write '{}': {e}", args.output);
        return 1;
    }
    0
}
