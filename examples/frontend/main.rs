//! An example front end on the embedding API: builds a NISA kernel in memory with `OpBuild`
//! (see `kernel.rs`), compiles it to NeuronCore bundles with `Session::compile_module`, and
//! prints the listing (sundial-mc's disassembler, per engine queue) and the manifest.
//!
//! `cargo run --example frontend [-- sunda|cayman|mariana]` (default cayman).

mod kernel;

use std::process::ExitCode;
use sundial::Session;
use sundial_codegen::arch::Target;

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_else(|| "cayman".into());
    let Some(target) = Target::from_name(&name) else {
        eprintln!("error: unknown target '{name}' (sunda, cayman or mariana)");
        return ExitCode::from(2);
    };
    let session = match Session::new() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let compiled = match kernel::compile(&session, target) {
        Ok(c) => c,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            return ExitCode::FAILURE;
        }
    };
    match compiled.listing() {
        Ok(listing) => print!("{listing}"),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!("{:#}", compiled.manifest());
    ExitCode::SUCCESS
}
