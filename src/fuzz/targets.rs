//! The four fuzz targets: what an input is, where the seed corpus comes from, how an input is
//! generated for an iteration, and what running it means (as far as each input gets).
//!
//! A target "crashes" on an input when running it panics (including a broken round-trip
//! property asserted here), aborts, dies of a signal, or takes longer than the time limit;
//! an `Err` from the code under test is a normal outcome.

use std::path::Path;

use super::mutate::{Rng, mutate_asm, mutate_bundles, mutate_bytes, mutate_tokens};
use crate::compile::{CompileOptions, Emit};
use crate::run::cli::RunArgs;
use crate::session::{RunOptions, Session};
use crate::translate::DEFAULT_PIPELINE;
use sundial_codegen::arch::Target;
use sundial_dialects::ffi::PrintOptions;

/// A fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum FuzzTarget {
    /// NISA/BIR text -> parse -> verify -> compile to bundles (as sundial-translate) -> run on
    /// the emulator (as sundial-run) -> pipeline -> print -> re-parse.
    Ir,
    /// Bytes -> bundles -> decode -> validate -> print -> assemble, and lifting.
    Bundle,
    /// Assembler text -> assemble -> print -> assemble.
    Asm,
    /// Random access patterns and op parameters -> the emulator.
    Emu,
}

impl FuzzTarget {
    /// Every target.
    pub const ALL: [FuzzTarget; 4] = [
        FuzzTarget::Ir,
        FuzzTarget::Bundle,
        FuzzTarget::Asm,
        FuzzTarget::Emu,
    ];

    /// The target's name (as on the command line and in reproducer file names).
    pub fn name(self) -> &'static str {
        match self {
            FuzzTarget::Ir => "ir",
            FuzzTarget::Bundle => "bundle",
            FuzzTarget::Asm => "asm",
            FuzzTarget::Emu => "emu",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<FuzzTarget> {
        FuzzTarget::ALL.into_iter().find(|t| t.name() == name)
    }

    /// File extension of its reproducers.
    pub fn extension(self) -> &'static str {
        match self {
            FuzzTarget::Ir => "mlir",
            FuzzTarget::Bundle => "bin",
            FuzzTarget::Asm => "s",
            FuzzTarget::Emu => "emu",
        }
    }
}

/// The seed corpus of `target`, read from the project tree at `root` (lit tests and examples
/// for `ir`; bundles synthesised from every format's field table for `bundle`, and their
/// disassembly for `asm`; fixed parameter strings for `emu`). Never empty; an `ir` corpus
/// with no file (a `root` that is not the project tree) is an error.
pub fn corpus(target: FuzzTarget, root: &Path) -> Result<Vec<Vec<u8>>, String> {
    let mut out = match target {
        FuzzTarget::Ir => {
            let c = ir_corpus(root);
            if c.is_empty() {
                return Err(format!(
                    "no .mlir file under '{}' or '{}': give --root the project tree",
                    root.join("lit").display(),
                    root.join("examples").display()
                ));
            }
            c
        }
        FuzzTarget::Bundle => bundle_corpus(),
        FuzzTarget::Asm => bundle_corpus()
            .iter()
            .filter_map(|b| {
                let b: &[u8; 64] = b.as_slice().try_into().ok()?;
                let d = sundial_codegen::decode::decode(b).ok()?;
                Some(sundial_codegen::text::format_decoded(&d).into_bytes())
            })
            .collect(),
        // The data-movement family (first byte below 0x80), then the compute family.
        FuzzTarget::Emu => (0u8..16)
            .map(|k| vec![k; 64])
            .chain((0u8..16).map(|k| {
                let mut v = vec![k; 96];
                v[0] = 0x80 | k;
                v
            }))
            .collect(),
    };
    if out.is_empty() {
        out.push(Vec::new());
    }
    Ok(out)
}

/// Every `.mlir` file under `root/lit` and `root/examples`, split into its chunks as
/// `sundial-opt --split-input-file` would, in a stable order.
pub fn ir_corpus(root: &Path) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let mut stack = vec![root.join("lit"), root.join("examples")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir")
                && let Ok(bytes) = std::fs::read(&p)
            {
                for chunk in crate::source::split(&bytes, true) {
                    files.push(chunk.text);
                }
            }
        }
    }
    files.sort();
    files
}

/// One bundle per format of the codegen tables: the opcode, `inst_word_len`, and each field
/// holding a value of its kind (a small count, the first table name, an SBUF start), so that
/// the mutators start from every format's structure. A stream of all of them comes last.
pub fn bundle_corpus() -> Vec<Vec<u8>> {
    use sundial_codegen::fields::Kind;
    use sundial_codegen::formats::FORMATS;
    let mut out = Vec::new();
    for fmt in FORMATS.iter() {
        let mut b = [0u8; 64];
        b[0] = fmt.opcode;
        b[1] = 0x10;
        for f in fmt.fields {
            let r = f.range();
            match f.kind {
                Kind::Tensor(n) | Kind::Mem(n) => {
                    // ADDR4 0 (SBUF partition 0), then steps 1 and counts 1.
                    let dims = n as usize;
                    for d in 0..dims {
                        let s = r.start + 4 + 2 * d;
                        let c = r.start + 4 + 2 * dims + 2 * d;
                        if c + 2 <= r.end {
                            b[s] = 1;
                            b[c] = 1;
                        }
                    }
                }
                Kind::U8 if f.name.contains("active") => b[r.start] = 1,
                _ => {}
            }
        }
        out.push(b.to_vec());
    }
    let all: Vec<u8> = out.iter().flatten().copied().collect();
    out.push(all);
    out
}

/// The input of iteration `i` of a run with `seed`: a corpus entry, mutated by the target's
/// mutators. Deterministic in (`seed`, `i`, corpus), so any input can be regenerated alone.
pub fn input(target: FuzzTarget, corpus: &[Vec<u8>], seed: u64, i: u64) -> Vec<u8> {
    let mut rng = Rng::for_iteration(seed, i);
    let base = &corpus[rng.below(corpus.len())];
    match target {
        FuzzTarget::Ir => {
            if rng.one_in(2) {
                mutate_tokens(&mut rng, base)
            } else {
                mutate_bytes(&mut rng, base)
            }
        }
        FuzzTarget::Bundle => mutate_bundles(&mut rng, base),
        FuzzTarget::Asm => mutate_asm(&mut rng, base),
        FuzzTarget::Emu => {
            let mut b = base.clone();
            for x in b.iter_mut() {
                if rng.one_in(2) {
                    *x = rng.below(256) as u8;
                }
            }
            mutate_bytes(&mut rng, &b)
        }
    }
}

/// Runs inputs of one target; keeps what is worth keeping between inputs (an MLIR session,
/// renewed every 1,000 inputs to bound the context's uniqued types and attributes).
pub struct Runner {
    session: Option<Session>,
    runs: usize,
    /// `sundial-run --random-inputs 1 --max-loop-iterations 1024` on the IR target's inputs.
    run_args: RunArgs,
}

impl Default for Runner {
    fn default() -> Runner {
        Runner::new()
    }
}

impl Runner {
    /// A runner.
    pub fn new() -> Runner {
        use clap::Parser;
        Runner {
            session: None,
            runs: 0,
            // A small loop budget: one input must finish well inside the time limit, and a
            // loop's time is its iterations times its body's (the ops are capped in size).
            run_args: RunArgs::try_parse_from([
                "sundial-run",
                "--random-inputs",
                "1",
                "--max-loop-iterations",
                "1024",
            ])
            .expect("sundial-run's own options parse"),
        }
    }

    /// Runs one input. Panics (a crash) when the code under test panics or a property the
    /// tools promise is broken.
    pub fn run(&mut self, target: FuzzTarget, input: &[u8]) {
        self.runs += 1;
        match target {
            FuzzTarget::Ir => self.run_ir(input),
            FuzzTarget::Bundle => run_bundle(input),
            FuzzTarget::Asm => run_asm(input),
            FuzzTarget::Emu => super::emu::run(input),
        }
    }

    fn run_ir(&mut self, input: &[u8]) {
        if self.session.is_none() || self.runs.is_multiple_of(1000) {
            self.session = None;
            self.session = Some(Session::new().expect("an MLIR context"));
        }
        let Some(session) = &self.session else {
            return;
        };
        let parsed = session.parse(input, "fuzz.mlir");
        let Some(mut module) = parsed.module else {
            assert!(
                parsed
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == crate::Severity::Error),
                "a rejected input must say why: {:?}",
                parsed.diagnostics
            );
            return;
        };
        // What sundial-translate does with the same text: the whole middle end, allocation,
        // selection, sync, encoding and validation. A module that names no target is
        // compiled for one picked by the iteration, so every target's rules are reached.
        let target = match sundial_isel::ir::target_of(&module.as_operation()) {
            Ok(None) => Some(TARGETS[self.runs % TARGETS.len()]),
            _ => None,
        };
        let _ = session.compile(
            input,
            "fuzz.mlir",
            &CompileOptions {
                target,
                pipeline: Some(DEFAULT_PIPELINE.to_string()),
                emit: Emit::Bundles,
            },
        );
        // What sundial-run does with it: the kernel on the emulator on random arguments; a
        // failure must say why.
        let Ok(buffer) = crate::opt::read_terminated(input, Some(input.len() as u64)) else {
            return;
        };
        let ran = crate::run::cli::run_buffer(&self.run_args, &buffer, "fuzz.mlir");
        assert!(
            ran.status == 0 || !ran.stderr.is_empty(),
            "sundial-run failed without a diagnostic (status {})",
            ran.status
        );
        let text = session.print(&module, PrintOptions::default());
        let _ = session.print(
            &module,
            PrintOptions {
                generic: true,
                debug_info: true,
            },
        );
        let again = session.parse(text.as_bytes(), "fuzz-printed.mlir");
        assert!(
            again.module.is_some(),
            "printed IR does not re-parse:\n{text}\n{:?}",
            again.diagnostics
        );
        let _ = session.run_pipeline(
            &mut module,
            // Every Rust pass runs on whatever verified; the unroll limit keeps one input fast.
            "builtin.module(sundial-verify,sundial-unroll{max-unroll=4096},canonicalize,cse)",
            &RunOptions::default(),
            "fuzz.mlir",
        );
        let _ = session.print(&module, PrintOptions::default());
    }
}

/// The built-in targets, in the order the IR target cycles through them.
const TARGETS: [Target; 3] = [Target::Sunda, Target::Cayman, Target::Mariana];

/// The three built-in targets' models.
fn models() -> [&'static sundial_codegen::ArchModel; 3] {
    use sundial_codegen::Target;
    [
        Target::Sunda.model(),
        Target::Cayman.model(),
        Target::Mariana.model(),
    ]
}

fn run_bundle(input: &[u8]) {
    use sundial_codegen::{decode, decode_instructions, generate_vec, text, validate};
    for arch in models() {
        let _ = text::disassemble_stream(input, arch);
        if let Ok(insts) = decode_instructions(input, arch) {
            // Lifting promises instructions that encode to exactly these bytes.
            let mut bytes: Vec<u8> = Vec::with_capacity(input.len());
            for inst in &insts {
                let bundles = generate_vec(inst, arch).unwrap_or_else(|e| {
                    panic!("a lifted instruction does not encode: {e}\n{inst}")
                });
                bytes.extend(bundles.iter().flatten());
            }
            assert!(
                bytes == input,
                "lifted instructions re-encode to other bytes on {:?}",
                arch.target
            );
        }
    }
    for (i, chunk) in input.chunks_exact(64).enumerate() {
        let Ok(b) = <&[u8; 64]>::try_from(chunk) else {
            continue;
        };
        let valid = models()
            .iter()
            .map(|arch| validate::validate_bundle(b, i, arch).is_empty())
            .fold(false, |a, v| a | v);
        if let Ok(d) = decode::decode(b) {
            let t = text::format_decoded(&d);
            let back = text::assemble(&t);
            // A bundle some target accepts prints to text that assembles to the same bytes.
            if valid {
                assert_eq!(
                    back.as_deref().map_err(|e| e.to_string()),
                    Ok(&[*b][..]),
                    "printed text does not assemble back: {t}"
                );
            }
        }
    }
}

fn run_asm(input: &[u8]) {
    use sundial_codegen::text;
    let Ok(s) = std::str::from_utf8(input) else {
        return;
    };
    for arch in models() {
        let _ = text::assemble_stream(s, arch);
    }
    if let Ok(bundles) = text::assemble(s) {
        for b in &bundles {
            if let Ok(t) = text::disassemble(b) {
                let again = text::assemble(&t);
                assert_eq!(
                    again.as_deref().map_err(|e| e.to_string()),
                    Ok(&[*b][..]),
                    "disassembly does not assemble back: {t}"
                );
            }
        }
    }
}
