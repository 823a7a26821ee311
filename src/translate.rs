//! `sundial-translate`: compile a NISA kernel to NeuronCore bundles.
//!
//! ```text
//! sundial-translate KERNEL.mlir [--target T] [--pass-pipeline=...] -o OUTDIR
//!     (the pipeline defaults to `builtin.module(sundial-middle-end)`; `--pass-pipeline=''`
//!     runs none)
//! sundial-translate KERNEL.mlir --disassemble [-o FILE]
//! sundial-translate KERNEL.mlir --emit=bir [-o FILE]
//! ```
//!
//! The input is a file or `-` (stdin, the default). By default it writes OUTDIR with one
//! `<engine>.bin` per engine queue (raw 64-byte bundles) and `manifest.json` ([`Compiled::
//! manifest`]). `--disassemble` prints the listing instead (the `sundial-mc` disassembler),
//! `--emit=bir` the module after selection; both to stdout or `-o FILE`. Options take LLVM's
//! single-dash spelling too (`-target=cayman`), as `sundial-opt` and `sundial-mc` do.
//!
//! Nothing is written on error: the directory is staged next to OUTDIR and renamed into
//! place when complete. An existing OUTDIR is replaced only when it holds nothing but an
//! earlier output (`*.bin`, `manifest.json`). Exit status: 0 success, 1 a compilation or
//! output error (diagnostics on stderr as `sundial-opt` renders them), 2 a usage error.

use crate::{
    compile::{CompileOptions, Compiled, Emit},
    render::{self, DiagnosticArgs},
    session::Session,
};
use clap::{Parser, ValueEnum};
use std::{
    io::Write,
    path::{Path, PathBuf},
};
use sundial_codegen::arch::Target;

/// The pipeline `sundial-translate` runs before allocation when `--pass-pipeline` is not given:
/// the whole middle end, as the compile flow is parse, verify, middle end, allocate, select,
/// encode. The middle end takes the target from `--target` through the module's attribute.
pub const DEFAULT_PIPELINE: &str = "builtin.module(sundial-middle-end)";

/// What to produce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum EmitArg {
    /// The engine bundles and the manifest (OUTDIR).
    #[default]
    Bundles,
    /// The BIR module after selection.
    Bir,
}

/// Command-line options.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "sundial-translate",
    version,
    about = "Compile a NISA kernel to NeuronCore bundles: one <engine>.bin per engine queue and manifest.json",
    after_help = "Example:\n  sundial-translate examples/kernels/elementwise.mlir -o out/\n  sundial-translate examples/kernels/elementwise.mlir --disassemble\nExit status: 0 ok, 1 compilation or output error, 2 usage error."
)]
pub struct TranslateArgs {
    /// Input kernel (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: String,
    /// Target (default: the module's sundial.target).
    #[arg(long = "target", value_name = "TARGET", value_parser = ["sunda", "cayman", "mariana"])]
    pub target: Option<String>,
    /// Middle-end pipeline run before allocation (default: the whole middle end,
    /// `builtin.module(sundial-middle-end)`; `''` runs none).
    #[arg(long = "pass-pipeline", short = 'p', value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// Output: the directory of bundles, or with --disassemble / --emit=bir a file (`-`
    /// for stdout).
    #[arg(short = 'o', value_name = "OUT")]
    pub output: Option<String>,
    /// Print the listing (every bundle disassembled) instead of writing bundles.
    #[arg(long = "disassemble")]
    pub disassemble: bool,
    /// What to produce.
    #[arg(
        long = "emit",
        value_enum,
        default_value = "bundles",
        value_name = "WHAT"
    )]
    pub emit: EmitArg,
    /// Diagnostics: `--color`, `--diagnostics-format`.
    #[command(flatten)]
    pub diagnostics: DiagnosticArgs,
}

/// Accepts LLVM's single-dash long options (`-disassemble`), as the other tools do.
pub fn normalize_args(args: impl IntoIterator<Item = String>) -> Vec<String> {
    sundial_codegen::cli::llvm_single_dash(
        args.into_iter().map(std::ffi::OsString::from),
        &<TranslateArgs as clap::CommandFactory>::command(),
    )
    .into_iter()
    .map(|a| a.to_string_lossy().into_owned())
    .collect()
}

/// A finished run: what to write and the exit status.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Text for stdout or the output file (listing or BIR modes).
    pub text: Option<String>,
    /// Files of the output directory (bundle mode): (name, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// Diagnostics for stderr.
    pub stderr: String,
    /// Exit status.
    pub status: i32,
}

fn usage(message: &str) -> Outcome {
    Outcome {
        stderr: format!("sundial-translate: error: {message}\n"),
        status: 2,
        ..Outcome::default()
    }
}

/// The files of a bundle-mode output: one `<engine>.bin` per queue, then `manifest.json`.
pub fn output_files(compiled: &Compiled) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = compiled
        .engines
        .iter()
        .map(|e| (e.file.clone(), e.bytes.clone()))
        .collect();
    let mut manifest = serde_json::to_string_pretty(&compiled.manifest()).unwrap_or_default();
    manifest.push('\n');
    files.push(("manifest.json".to_string(), manifest.into_bytes()));
    files
}

/// Compiles `input` (named `name`) as `args` say.
pub fn run(args: &TranslateArgs, input: &[u8], name: &str) -> Outcome {
    if args.disassemble && args.emit == EmitArg::Bir {
        return usage("--disassemble and --emit=bir are exclusive");
    }
    let listing_or_text = args.disassemble || args.emit == EmitArg::Bir;
    if !listing_or_text && args.output.is_none() {
        return usage("bundles go to a directory: give -o OUTDIR (or --disassemble / --emit=bir)");
    }
    let session = match Session::new() {
        Ok(s) => s,
        Err(e) => {
            return Outcome {
                stderr: format!("sundial-translate: error: {e}\n"),
                status: 1,
                ..Outcome::default()
            };
        }
    };
    let options = CompileOptions {
        target: args.target.as_deref().and_then(Target::from_name),
        pipeline: Some(
            args.pass_pipeline
                .clone()
                .unwrap_or_else(|| DEFAULT_PIPELINE.to_string()),
        ),
        emit: if args.emit == EmitArg::Bir {
            Emit::Bir
        } else {
            Emit::Bundles
        },
    };
    let render_options = args.diagnostics.render_options();
    match session.compile(input, name, &options) {
        Err(diags) => Outcome {
            stderr: render::render(&diags, name, input, render_options),
            status: 1,
            ..Outcome::default()
        },
        Ok(compiled) => {
            let stderr = if compiled.diagnostics.is_empty() {
                String::new()
            } else {
                render::render(&compiled.diagnostics, name, input, render_options)
            };
            if args.emit == EmitArg::Bir {
                return Outcome {
                    text: Some(compiled.bir.clone()),
                    stderr,
                    ..Outcome::default()
                };
            }
            if args.disassemble {
                return match compiled.listing() {
                    Ok(text) => Outcome {
                        text: Some(text),
                        stderr,
                        ..Outcome::default()
                    },
                    Err(msg) => Outcome {
                        stderr: format!("{stderr}sundial-translate: error: {msg}\n"),
                        status: 1,
                        ..Outcome::default()
                    },
                };
            }
            Outcome {
                files: output_files(&compiled),
                stderr,
                ..Outcome::default()
            }
        }
    }
}

/// Whether `name` is a file an earlier run writes (and so may be replaced).
fn is_output_file(name: &str) -> bool {
    name == "manifest.json" || name.ends_with(".bin")
}

/// Writes `files` as directory `dir`: staged next to it, then renamed into place; on any
/// failure nothing is left behind and `dir` is as it was.
pub fn write_dir(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    let fail = |what: &str, path: &Path, e: std::io::Error| {
        format!("cannot {what} '{}': {e}", path.display())
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("'{}' does not name a directory to create", dir.display()))?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let existing = match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => {
            let entries = std::fs::read_dir(dir).map_err(|e| fail("read", dir, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| fail("read", dir, e))?;
                let n = entry.file_name().to_string_lossy().into_owned();
                if !is_output_file(&n) || entry.path().is_dir() {
                    return Err(format!(
                        "'{}' exists and holds '{n}', which is not an output of sundial-translate: not replacing it",
                        dir.display()
                    ));
                }
            }
            true
        }
        Ok(_) => {
            return Err(format!("'{}' exists and is not a directory", dir.display()));
        }
        Err(_) => false,
    };
    let pid = std::process::id();
    let staged = parent.join(format!(".{name}.staged-{pid}"));
    let _ = std::fs::remove_dir_all(&staged);
    let write = || -> Result<(), String> {
        std::fs::create_dir(&staged).map_err(|e| fail("create", &staged, e))?;
        for (file, bytes) in files {
            let path = staged.join(file);
            std::fs::write(&path, bytes).map_err(|e| fail("write", &path, e))?;
        }
        if existing {
            let old = parent.join(format!(".{name}.old-{pid}"));
            std::fs::rename(dir, &old).map_err(|e| fail("replace", dir, e))?;
            if let Err(e) = std::fs::rename(&staged, dir) {
                let _ = std::fs::rename(&old, dir);
                return Err(fail("create", dir, e));
            }
            let _ = std::fs::remove_dir_all(&old);
        } else {
            std::fs::rename(&staged, dir).map_err(|e| fail("create", dir, e))?;
        }
        Ok(())
    };
    let result = write();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staged);
    }
    result
}

/// The whole tool: reads the input, compiles, writes; returns the exit status.
pub fn main_with_args(args: Vec<String>) -> i32 {
    let args = match TranslateArgs::try_parse_from(normalize_args(args)) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let (input, name) = if args.input == "-" {
        match crate::opt::read_terminated(std::io::stdin().lock(), None) {
            Ok(mut b) => {
                b.pop();
                (b, "<stdin>".to_string())
            }
            Err(e) => {
                eprintln!("sundial-translate: error: cannot read stdin: {e}");
                return 1;
            }
        }
    } else {
        match std::fs::read(&args.input) {
            Ok(b) => (b, args.input.clone()),
            Err(e) => {
                eprintln!(
                    "sundial-translate: error: cannot read '{}': {e}",
                    args.input
                );
                return 1;
            }
        }
    };
    let outcome = run(&args, &input, &name);
    if !outcome.stderr.is_empty() {
        let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    }
    if outcome.status != 0 {
        return outcome.status;
    }
    let written = match (&outcome.text, args.output.as_deref()) {
        (Some(text), None | Some("-")) => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write stdout: {e}"))
        }
        (Some(text), Some(file)) => {
            std::fs::write(file, text.as_bytes()).map_err(|e| format!("cannot write '{file}': {e}"))
        }
        (None, Some(dir)) => write_dir(Path::new(dir), &outcome.files),
        (None, None) => Err("no output".to_string()),
    };
    if let Err(msg) = written {
        eprintln!("sundial-translate: error: {msg}");
        return 1;
    }
    0
}
