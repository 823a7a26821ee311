//! `sundial-mc`: NeuronCore bundles to text and back, with `llvm-mc`'s conventions.
//!
//! ```text
//! sundial-mc [--assemble | --disassemble | --lift | --list-opcodes] [FILE|-]
//!            [--target sunda|cayman|mariana] [--show-encoding] [-o FILE|-]
//!            [--color=auto|always|never] [--diagnostics-format=text|json]
//! ```
//!
//! * The mode flags are plain flags and exclusive; with none the mode is `--assemble`
//!   (llvm-mc's default). `--assemble` turns text into raw 64-byte bundles, `--disassemble` raw
//!   bundles into one line of text per bundle, `--lift` raw bundles into the instructions that
//!   encode to them (the `Display` form of the model, one per line), `--list-opcodes` prints
//!   every opcode of the format table (no input).
//! * The input is the one positional argument; absent or `-` reads standard input. Options and
//!   the input may come in any order, and every long option has llvm's single-dash spelling
//!   too (`-disassemble`, `-target=sunda`).
//! * `--show-encoding` (with `--disassemble` or `--assemble`) prints the disassembly text with
//!   each bundle's bytes beside it as a `# encoding: [0x..,...]` comment, which the assembler
//!   reads back as a comment.
//! * `--target` picks the rules every bundle is validated against (default mariana, CoreV4,
//!   the family with the INDIRECT16B/20B encoders).
//! * Output goes to `-o FILE` (or standard output when it is absent or `-`). It is built in
//!   memory and written only when everything succeeded: an error never leaves a partial file.
//!
//! * Diagnostics (`sundial_codegen::render`): the first line of each is
//!   `<file>: bundle N (byte offset 0xOFF): rule R: message` (the offset counted from the start
//!   of the input) or `<file>:LINE:COL: message` for text, unchanged for scripts and editors;
//!   below it the bundle's 64 bytes as hex rows with a caret under the offending field, its name
//!   and value, the rule as a note and the rule's description as help, or the source line with
//!   a caret at the column. `--color=auto|always|never` (auto: standard error is a terminal and
//!   `NO_COLOR` is unset); `--diagnostics-format=json` prints one JSON object per diagnostic per
//!   line instead.
//!
//! Exit status: 0 on success; 1 on invalid input, with every diagnostic on standard error; 2 on
//! a usage error (unknown or conflicting options or option values, a missing or unreadable
//! input file, an unwritable output).

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sundial_codegen::cli::llvm_single_dash;

use clap::{ArgGroup, Parser};
use sundial_codegen::arch::Target;
use sundial_codegen::bundle::Bundle;
use sundial_codegen::decode::split;
use sundial_codegen::fields::Prov;
use sundial_codegen::formats::{FORMATS, Format};
use sundial_codegen::render::{self, DiagnosticArgs, Input, RenderOptions};
use sundial_codegen::text::{StreamError, assemble_stream, disassemble_stream};
use sundial_codegen::{ArchModel, decode_instructions};

#[derive(Parser)]
#[command(
    name = "sundial-mc",
    version,
    about = "NeuronCore bundle assembler / disassembler (llvm-mc conventions)",
    after_help = "The mode defaults to --assemble. Single-dash spellings work too \
                  (-disassemble, -target=sunda). Exit status: 0 ok, 1 invalid input, 2 usage."
)]
#[command(group(ArgGroup::new("mode").args(["assemble", "disassemble", "lift", "list_opcodes"])))]
struct Cli {
    /// Input file; absent or `-` reads standard input.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Text to raw 64-byte bundles (the default mode).
    #[arg(long)]
    assemble: bool,
    /// Raw 64-byte bundles to text, one line per bundle.
    #[arg(long)]
    disassemble: bool,
    /// Raw bundles to the instructions that encode to them, one per line.
    #[arg(long)]
    lift: bool,
    /// Print every opcode of the format table (mnemonic, wire struct, family, targets, whether
    /// every field is pinned by a source) and exit; reads no input.
    #[arg(long = "list-opcodes", conflicts_with = "input")]
    list_opcodes: bool,
    /// Print text with each bundle's bytes as a `# encoding: [...]` comment (with
    /// --disassemble, or with --assemble instead of the raw bytes).
    #[arg(long = "show-encoding", conflicts_with_all = ["lift", "list_opcodes"])]
    show_encoding: bool,
    /// Target whose rules validate the bundles.
    #[arg(long, default_value = "mariana")]
    target: Target,
    /// Output file (`-` or absent: standard output).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Diagnostics: `--color`, `--diagnostics-format`.
    #[command(flatten)]
    diagnostics: DiagnosticArgs,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Assemble,
    Disassemble,
    Lift,
    ListOpcodes,
}

impl Cli {
    fn mode(&self) -> Mode {
        if self.disassemble {
            Mode::Disassemble
        } else if self.lift {
            Mode::Lift
        } else if self.list_opcodes {
            Mode::ListOpcodes
        } else {
            Mode::Assemble
        }
    }
}

/// Why a run failed, and so its exit status.
enum Failure {
    /// Invalid input: the rendered diagnostics.
    Input(String),
    /// A usage error (including I/O on the named files): one message.
    Usage(String),
}

/// Whether a path argument names standard input / output (`-`).
fn is_dash(p: &Path) -> bool {
    p.as_os_str() == "-"
}

fn read_input(path: Option<&Path>) -> Result<(Vec<u8>, String), Failure> {
    match path {
        Some(p) if !is_dash(p) => {
            let name = p.display().to_string();
            std::fs::read(p)
                .map(|v| (v, name.clone()))
                .map_err(|e| Failure::Usage(format!("{name}: {e}")))
        }
        _ => {
            let mut v = Vec::new();
            std::io::stdin()
                .read_to_end(&mut v)
                .map_err(|e| Failure::Usage(format!("<stdin>: {e}")))?;
            Ok((v, "<stdin>".into()))
        }
    }
}

fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    match path {
        Some(p) if !is_dash(p) => {
            std::fs::write(p, bytes).map_err(|e| Failure::Usage(format!("{}: {e}", p.display())))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| Failure::Usage(format!("<stdout>: {e}")))
        }
    }
}

/// What a run needs to render its diagnostics.
struct Diags<'a> {
    name: &'a str,
    arch: &'a ArchModel,
    opts: RenderOptions,
}

impl Diags<'_> {
    fn fail(&self, errs: &[StreamError], input: Input<'_>) -> Failure {
        Failure::Input(render::render(errs, self.name, input, self.arch, self.opts))
    }
}

/// `# encoding: [0x7f,0x10,...]`, llvm-mc's comment, for one bundle.
fn encoding_comment(b: &Bundle, out: &mut String) {
    out.push_str("  # encoding: [");
    for (i, x) in b.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(out, "{sep}{x:#04x}");
    }
    out.push(']');
}

/// The disassembly of validated bundles, each line followed by its encoding comment.
fn with_encodings(bytes: &[u8], d: &Diags<'_>) -> Result<Vec<u8>, Failure> {
    let text = disassemble_stream(bytes, d.arch).map_err(|e| d.fail(&e, Input::Bytes(bytes)))?;
    let bundles =
        split(bytes).map_err(|e| d.fail(&[StreamError::Decode(e)], Input::Bytes(bytes)))?;
    let mut out = String::with_capacity(text.len() + bundles.len() * 340);
    for (line, b) in text.lines().zip(bundles) {
        out.push_str(line);
        encoding_comment(b, &mut out);
        out.push('\n');
    }
    Ok(out.into_bytes())
}

/// The `--list-opcodes` table, derived from the format table, the field provenance and the
/// target models: one row per format, ascending opcode. `sources` lists the provenances of the
/// format's fields (seed, header, compiler, assumption); `pinned` is `yes` when no field is an
/// assumption, else names the assumed fields.
fn list_opcodes() -> String {
    let mut formats: Vec<&Format> = FORMATS.to_vec();
    formats.sort_by_key(|f| f.opcode);
    let rows: Vec<[String; 7]> = formats
        .iter()
        .map(|f| {
            let targets: Vec<&str> = Target::ALL
                .into_iter()
                .filter(|t| t.model().has(f.family))
                .map(Target::name)
                .collect();
            let assumed: Vec<&str> = f
                .fields
                .iter()
                .filter(|x| !x.prov.pinned())
                .map(|x| x.name)
                .collect();
            let pinned = if assumed.is_empty() {
                "yes".to_string()
            } else {
                format!("no (assumed: {})", assumed.join(", "))
            };
            let sources: Vec<&str> = [
                (Prov::Seed, "seed"),
                (Prov::Header, "header"),
                (Prov::Compiler, "compiler"),
                (Prov::Assumption, "assumption"),
            ]
            .into_iter()
            .filter(|(p, _)| f.fields.iter().any(|x| x.prov == *p))
            .map(|(_, n)| n)
            .collect();
            [
                format!("{:#04x}", f.opcode),
                f.mnemonic.to_string(),
                f.struct_name.to_string(),
                format!("{:?}", f.family),
                if targets.is_empty() {
                    "-".to_string()
                } else {
                    targets.join(",")
                },
                sources.join("+"),
                pinned,
            ]
        })
        .collect();
    let header = [
        "opcode", "mnemonic", "struct", "family", "targets", "sources", "pinned",
    ];
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    let line = |cells: &[&str], out: &mut String| {
        let mut l = String::new();
        for (i, (c, w)) in cells.iter().zip(width).enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                let _ = write!(l, "{c:<w$}  ");
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&header, &mut out);
    for r in &rows {
        let cells: Vec<&str> = r.iter().map(String::as_str).collect();
        line(&cells, &mut out);
    }
    out
}

fn run(cli: &Cli) -> Result<Vec<u8>, Failure> {
    let arch = cli.target.model();
    let opts = cli.diagnostics.render_options();
    let input = || read_input(cli.input.as_deref());
    let diags = |name| Diags { name, arch, opts };
    match cli.mode() {
        Mode::ListOpcodes => Ok(list_opcodes().into_bytes()),
        Mode::Disassemble => {
            let (bytes, name) = input()?;
            let d = diags(&name);
            if cli.show_encoding {
                with_encodings(&bytes, &d)
            } else {
                disassemble_stream(&bytes, arch)
                    .map(String::into_bytes)
                    .map_err(|e| d.fail(&e, Input::Bytes(&bytes)))
            }
        }
        Mode::Lift => {
            let (bytes, name) = input()?;
            match decode_instructions(&bytes, arch) {
                Ok(insts) => Ok(insts
                    .iter()
                    .map(|i| format!("{i}\n"))
                    .collect::<String>()
                    .into_bytes()),
                // The lifter's errors print as the decoder's do (`<file>: <error>`).
                Err(e) => Err(diags(&name).fail(&[StreamError::Decode(e)], Input::Bytes(&bytes))),
            }
        }
        Mode::Assemble => {
            let (bytes, name) = input()?;
            let d = diags(&name);
            let text = std::str::from_utf8(&bytes)
                .map_err(|e| Failure::Input(render::render_not_utf8(&name, &bytes, &e, opts)))?;
            let bundles = assemble_stream(text, arch).map_err(|e| d.fail(&e, Input::Text(text)))?;
            if cli.show_encoding {
                with_encodings(&bundles, &d)
            } else {
                Ok(bundles)
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(llvm_single_dash(
        std::env::args_os(),
        &<Cli as clap::CommandFactory>::command(),
    )) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // --help and --version print to stdout and succeed; every other parse error is a
            // usage error.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = run(&cli).and_then(|bytes| write_output(cli.output.as_deref(), &bytes));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("sundial-mc: error: {msg}");
            ExitCode::from(2)
        }
    }
}
