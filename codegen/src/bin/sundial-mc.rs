//! `sundial-mc`: disassemble raw NeuronCore bundles to text, or assemble that text to bytes, or
//! lift bundles back to the instructions that encode to them.
//!
//! ```text
//! sundial-mc --disassemble FILE|- [--target sunda|cayman|mariana] [-o FILE]
//! sundial-mc --assemble    FILE|- [--target sunda|cayman|mariana] [-o FILE]
//! sundial-mc --lift        FILE|- [--target sunda|cayman|mariana] [-o FILE]
//! ```
//!
//! The default target is mariana (CoreV4, the family that has the INDIRECT16B/20B encoders).
//! Output goes to `-o FILE`, or to standard output when `-o` is absent (for `--assemble` that is
//! raw bytes). Both directions validate every bundle for the target: on any failure each
//! diagnostic is printed to standard error as `<file>: bundle N (byte offset 0xOFF): rule R:
//! message` (the offset is the failing field's offset in the input stream), nothing is written
//! and the exit status is 1. Parse errors are `<file>:LINE:COL: message`. I/O errors exit 2.
//!
//! `--lift` prints one line per instruction (the `Display` form of the instruction model, in its
//! canonical form); input that is not exactly encoder output is an error
//! `<file>: bundle N (byte offset 0xOFF): message`, with nothing written and exit status 1.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{ArgGroup, Parser};
use sundial_codegen::text::{assemble_stream, disassemble_stream};
use sundial_codegen::{Target, decode_instructions};

#[derive(Parser)]
#[command(
    name = "sundial-mc",
    about = "NeuronCore bundle assembler / disassembler"
)]
#[command(group(ArgGroup::new("mode").required(true).args(["disassemble", "assemble", "lift"])))]
struct Cli {
    /// Raw bundles (64 bytes each) to text; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    disassemble: Option<String>,
    /// Text to raw bundles; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    assemble: Option<String>,
    /// Raw bundles to the instructions that encode to them, one per line; `-` reads standard
    /// input.
    #[arg(long, value_name = "FILE")]
    lift: Option<String>,
    /// Target whose rules validate the bundles.
    #[arg(long, default_value = "mariana")]
    target: Target,
    /// Output file (default: standard output).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
}

fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

fn write_output(path: Option<&str>, bytes: &[u8]) -> std::io::Result<()> {
    match path {
        Some(p) => std::fs::write(p, bytes),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let arch = cli.target.model();
    #[derive(PartialEq)]
    enum Mode {
        Disassemble,
        Assemble,
        Lift,
    }
    let (path, mode) = match (&cli.disassemble, &cli.assemble, &cli.lift) {
        (Some(p), _, _) => (p.as_str(), Mode::Disassemble),
        (None, Some(p), _) => (p.as_str(), Mode::Assemble),
        (None, None, Some(p)) => (p.as_str(), Mode::Lift),
        (None, None, None) => unreachable!("clap requires one mode"),
    };
    let name = if path == "-" { "<stdin>" } else { path };
    let input = match read_input(path) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match mode {
        Mode::Disassemble => disassemble_stream(&input, arch).map(String::into_bytes),
        Mode::Lift => match decode_instructions(&input, arch) {
            Ok(insts) => Ok(insts
                .iter()
                .map(|i| format!("{i}\n"))
                .collect::<String>()
                .into_bytes()),
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::from(1);
            }
        },
        Mode::Assemble => match String::from_utf8(input) {
            Ok(text) => assemble_stream(&text, arch),
            Err(e) => {
                eprintln!(
                    "{name}: input is not UTF-8 text (byte offset {:#x})",
                    e.utf8_error().valid_up_to()
                );
                return ExitCode::from(1);
            }
        },
    };
    match result {
        Ok(bytes) => match write_output(cli.output.as_deref(), &bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{}: {e}", cli.output.as_deref().unwrap_or("<stdout>"));
                ExitCode::from(2)
            }
        },
        Err(errs) => {
            for e in errs {
                eprintln!("{}", e.render(name));
            }
            ExitCode::from(1)
        }
    }
}
