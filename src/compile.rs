//! [`Session::compile`]: a NISA kernel to NeuronCore bundles, with everything as values.
//!
//! The phases, each timed: `parse` (the parser and the semantic verifier; `verify` for a module
//! a front end built, [`Session::compile_module`]), `middle-end` (the
//! caller's pipeline, none by default), `unroll` (see [`UNROLL_PASS`]), `allocate`
//! (`sundial-allocate`), `isel` (`sundial-isel`, then the verifier on the BIR), `lower` (BIR ->
//! instructions), `sync` (engine ordering), `encode` and `validate` (`run_isa_checks` on every
//! bundle). [`Emit::Bir`] stops after `isel`. After each pipeline phase both verifiers (MLIR's
//! and Sundial's) run, except where the result is provably what they passed already: `unroll`
//! leaving the kernel as it was, `allocate` adding only its annotations
//! (`sundial_isel::allocate::ANNOTATIONS`, which neither verifier reads;
//! `sundial_dialects::verify::Snapshot::differs_only_in` decides).
//!
//! The module must name one target (its `sundial.target`, or [`CompileOptions::target`]; both
//! must agree) and hold one kernel: one `func.func` with a body, whose arguments are its HBM
//! tensors. Any failure returns every diagnostic and no artefact.

use crate::session::{RunOptions, Session, rename};
use melior::ir::{
    BlockLike, RegionLike, Value, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
};
use std::{collections::BTreeMap, time::Instant};
use sundial_codegen::{arch::Target, model::Instruction, text::disassemble_stream};
use sundial_dialects::{
    build::Attrs,
    diag::{Diagnostic, DiagnosticCapture, Severity},
    ffi::{PrintOptions, file_line_col, print_operation, string_attr_value},
    tile::Tile,
    verify::TARGET_ATTR,
};
use sundial_isel::{address, allocate::TENSOR_ATTR, emit, ir::set_attr};
use sundial_passes::rewrite::{collect, op_is, refuse};

/// The pass the translate pipeline runs after the middle end to unroll loops, when it is
/// registered. HOOK: loop unrolling is not part of this back end; until a pass of this name
/// is registered the phase is skipped and a kernel with loops fails in selection (which
/// refuses regions holding NISA ops).
pub const UNROLL_PASS: &str = "sundial-unroll";

/// Where [`Session::compile`] stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emit {
    /// Through encoding and validation: the bundles of every engine.
    #[default]
    Bundles,
    /// After selection: the BIR module's text.
    Bir,
}

/// Options of [`Session::compile`].
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// The target; `None`: the module's `sundial.target`.
    pub target: Option<Target>,
    /// The middle-end pipeline (textual, as `sundial-opt --pass-pipeline`), run before
    /// allocation; `None` runs none.
    pub pipeline: Option<String>,
    /// Where to stop.
    pub emit: Emit,
}

/// The code of one engine queue.
#[derive(Clone, Debug)]
pub struct EngineImage {
    /// The engine (the queue's name: `vector`, `dma`, ...).
    pub engine: String,
    /// Its file name (`<engine>.bin`).
    pub file: String,
    /// The bundles, 64 bytes each.
    pub bytes: Vec<u8>,
    /// The instructions that encoded them, in order (inserted waits included).
    pub instructions: Vec<Instruction>,
    /// How many bundles carry each opcode.
    pub opcodes: BTreeMap<u8, usize>,
}

impl EngineImage {
    /// Number of bundles.
    pub fn bundles(&self) -> usize {
        self.bytes.len() / sundial_codegen::bundle::BUNDLE_BYTES
    }
}

/// One HBM tensor of the kernel: an argument or a kernel-local (`nisa.alloc` in HBM) tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    /// Its tensor number (argument `k` is `k`; local tensors follow).
    pub index: i64,
    /// `argument` or `local`.
    pub kind: &'static str,
    /// Shape.
    pub shape: Vec<i64>,
    /// Element type (MLIR spelling).
    pub dtype: String,
    /// Size in bytes.
    pub bytes: i64,
    /// The DMA address of its byte 0 (`sundial_isel::address`).
    pub address: u64,
}

/// A phase's wall time.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseTime {
    /// Phase name.
    pub name: &'static str,
    /// Milliseconds.
    pub ms: f64,
}

/// What [`Session::compile`] produces.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The target.
    pub target: Target,
    /// The kernel's name.
    pub kernel: String,
    /// One image per engine queue used, in engine order (empty for [`Emit::Bir`]).
    pub engines: Vec<EngineImage>,
    /// The kernel's HBM tensors, by number.
    pub tensors: Vec<TensorInfo>,
    /// Phase times, in order.
    pub phases: Vec<PhaseTime>,
    /// The selected module as text (custom form, without locations) for [`Emit::Bir`]; empty
    /// when compiling to bundles.
    pub bir: String,
    /// Warnings and remarks.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// `manifest.json`: `target`, `kernel`, `engines` (engine, file, bundles, bytes, opcodes as
    /// a map from hex opcode to count), `phases` (name, ms) and `arguments` (the HBM tensor
    /// table: index, kind, shape, dtype, bytes, address).
    pub fn manifest(&self) -> serde_json::Value {
        use serde_json::json;
        let engines: Vec<serde_json::Value> = self
            .engines
            .iter()
            .map(|e| {
                let opcodes: serde_json::Map<String, serde_json::Value> = e
                    .opcodes
                    .iter()
                    .map(|(o, n)| (format!("{o:#04x}"), json!(n)))
                    .collect();
                json!({
                    "engine": e.engine,
                    "file": e.file,
                    "bundles": e.bundles(),
                    "bytes": e.bytes.len(),
                    "opcodes": opcodes,
                })
            })
            .collect();
        let phases: Vec<serde_json::Value> = self
            .phases
            .iter()
            .map(|p| json!({"name": p.name, "ms": p.ms}))
            .collect();
        let arguments: Vec<serde_json::Value> = self
            .tensors
            .iter()
            .map(|t| {
                json!({
                    "index": t.index,
                    "kind": t.kind,
                    "shape": t.shape,
                    "dtype": t.dtype,
                    "bytes": t.bytes,
                    "address": format!("{:#x}", t.address),
                })
            })
            .collect();
        json!({
            "target": self.target.name(),
            "kernel": self.kernel,
            "engines": engines,
            "phases": phases,
            "arguments": arguments,
        })
    }

    /// The listing: per engine a `# <file>: N bundles` line, then one line per bundle from the
    /// `sundial-mc` disassembler.
    pub fn listing(&self) -> Result<String, String> {
        let arch = self.target.model();
        let mut out = String::new();
        for e in &self.engines {
            out.push_str(&format!("# {}: {} bundles\n", e.file, e.bundles()));
            let text = disassemble_stream(&e.bytes, arch).map_err(|errs| {
                errs.iter()
                    .map(|x| x.render(&e.file))
                    .collect::<Vec<_>>()
                    .join("\n")
            })?;
            out.push_str(&text);
        }
        Ok(out)
    }
}

fn error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Severity::Error, None, message)
}

/// The kernel of `module`: its one `func.func` with a body.
fn kernel<'c, 'a>(module: &OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, String> {
    let funcs: Vec<OperationRef<'c, 'a>> = collect(module, |op| op_is(op, "func.func"))
        .into_iter()
        .filter(|f| f.region(0).ok().and_then(|r| r.first_block()).is_some())
        .collect();
    match funcs.as_slice() {
        [f] => Ok(*f),
        [] => Err("the module holds no kernel (a func.func with a body)".into()),
        more => Err(format!(
            "the module holds {} functions with a body: compile one kernel per module",
            more.len()
        )),
    }
}

fn symbol_name(func: &OperationRef<'_, '_>) -> String {
    func.attribute("sym_name")
        .ok()
        .filter(|a| a.is_string())
        .map(string_attr_value)
        .unwrap_or_default()
}

/// The kernel's HBM tensors once `sundial-allocate` numbered the local ones.
fn tensors(func: &OperationRef<'_, '_>) -> Result<Vec<TensorInfo>, String> {
    let mut out = Vec::new();
    let info = |index: i64, kind, value: Value<'_, '_>| -> Result<Option<TensorInfo>, String> {
        let Ok(tile) = Tile::from_type(value.r#type()) else {
            return Ok(None);
        };
        let bytes = tile.byte_size().unwrap_or(i64::MAX);
        let address = address::hbm(index, 0)?;
        if bytes as u64 > address::HBM_WINDOW {
            return Err(format!(
                "HBM tensor {index} ({} bytes) is larger than its {}-byte address window",
                bytes,
                address::HBM_WINDOW
            ));
        }
        Ok(Some(TensorInfo {
            index,
            kind,
            shape: tile.shape.clone(),
            dtype: tile.dtype.mlir_name().to_string(),
            bytes,
            address,
        }))
    };
    if let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) {
        for i in 0..block.argument_count() {
            if let Ok(arg) = block.argument(i) {
                out.extend(info(i as i64, "argument", arg.into())?);
            }
        }
    }
    for alloc in collect(func, |op| op_is(op, "nisa.alloc")) {
        if let Some(index) = sundial_isel::ir::int_attr(&alloc, TENSOR_ATTR)
            && let Ok(result) = alloc.result(0)
        {
            out.extend(info(index, "local", result.into())?);
        }
    }
    Ok(out)
}

/// Times `f` as phase `name`.
fn timed<T>(phases: &mut Vec<PhaseTime>, name: &'static str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    phases.push(PhaseTime {
        name,
        ms: start.elapsed().as_secs_f64() * 1e3,
    });
    out
}

impl Session {
    /// Compiles the kernel in `source` (named `name` in diagnostics): see the module docs.
    pub fn compile(
        &self,
        source: &[u8],
        name: &str,
        options: &CompileOptions,
    ) -> Result<Compiled, Vec<Diagnostic>> {
        // Each pipeline's verifiers skip what the parse (or the last pipeline) verified.
        sundial_dialects::verify::remembering_verified(|| {
            let mut phases = Vec::new();
            let parsed = timed(&mut phases, "parse", || self.parse(source, name));
            let Some(mut module) = parsed.module else {
                return Err(parsed.diagnostics);
            };
            self.compile_phases(&mut module, name, options, phases, parsed.diagnostics)
        })
    }

    /// Compiles a kernel module a front end built in this session's context (with
    /// `sundial_dialects::build::OpBuild`, say): the semantic verifier first (phase `verify`),
    /// then as [`Session::compile`]. The module is transformed in place (it ends as BIR).
    pub fn compile_module(
        &self,
        module: &mut melior::ir::Module<'_>,
        name: &str,
        options: &CompileOptions,
    ) -> Result<Compiled, Vec<Diagnostic>> {
        sundial_dialects::verify::remembering_verified(|| {
            let mut phases = Vec::new();
            let diagnostics = timed(&mut phases, "verify", || self.verify(module, name));
            if diagnostics.iter().any(|d| d.severity == Severity::Error) {
                return Err(diagnostics);
            }
            self.compile_phases(module, name, options, phases, diagnostics)
        })
    }

    /// Everything after parsing and verification.
    fn compile_phases(
        &self,
        module: &mut melior::ir::Module<'_>,
        name: &str,
        options: &CompileOptions,
        mut phases: Vec<PhaseTime>,
        mut diagnostics: Vec<Diagnostic>,
    ) -> Result<Compiled, Vec<Diagnostic>> {
        let fail = |mut diagnostics: Vec<Diagnostic>, more: Vec<Diagnostic>| {
            diagnostics.extend(more);
            if !diagnostics.iter().any(|d| d.severity == Severity::Error) {
                diagnostics.push(error("compilation failed"));
            }
            diagnostics
        };
        // The target: the module's, the option's, and they agree.
        let root = module.as_operation();
        let named = sundial_isel::ir::target_of(&root)
            .map_err(|m| fail(diagnostics.clone(), vec![error(m)]))?;
        let target = match (named, options.target) {
            (Some(a), Some(b)) if a != b => {
                return Err(fail(
                    diagnostics,
                    vec![error(format!(
                        "the module's {TARGET_ATTR} is \"{a}\" but the target option says \"{b}\""
                    ))],
                ));
            }
            (Some(t), _) | (None, Some(t)) => t,
            (None, None) => {
                return Err(fail(
                    diagnostics,
                    vec![error(format!(
                        "no target: give one (--target sunda|cayman|mariana) or set {TARGET_ATTR} on the module"
                    ))],
                ));
            }
        };
        if named.is_none() {
            set_attr(
                &root,
                TARGET_ATTR,
                Attrs::new(self.context()).string(target.name()),
            );
        }
        let func = kernel(&root).map_err(|m| fail(diagnostics.clone(), vec![error(m)]))?;
        let kernel_name = symbol_name(&func);
        let run = RunOptions::default();
        // Whether the module passed both verifiers as it is: after parsing (or
        // `compile_module`'s verification) unless the target attribute was just added, which
        // can enable target-gated rules; after every pipeline.
        let mut verified = named.is_some();
        let mut pipeline = |phases: &mut Vec<PhaseTime>,
                            diagnostics: &mut Vec<Diagnostic>,
                            module: &mut melior::ir::Module<'_>,
                            phase: &'static str,
                            text: &str|
         -> Result<(), Vec<Diagnostic>> {
            // One pass on verified IR: not verified again if it changes nothing (unrolling
            // a kernel without loops) or only adds the allocation's annotations.
            let annotations: Option<&[&str]> = match phase {
                "unroll" => Some(&[]),
                "allocate" => Some(sundial_isel::allocate::ANNOTATIONS),
                _ => None,
            };
            let was_verified = std::mem::replace(&mut verified, true);
            let verified_pass = annotations.filter(|_| was_verified);
            let result = timed(phases, phase, || {
                self.run_pipeline_on(module, text, &run, name, verified_pass)
            });
            match result {
                Ok(d) => {
                    diagnostics.extend(d);
                    Ok(())
                }
                Err(d) => Err(fail(diagnostics.clone(), d)),
            }
        };
        let d = &mut diagnostics;
        if let Some(p) = options.pipeline.as_deref().filter(|p| !p.trim().is_empty()) {
            pipeline(&mut phases, d, module, "middle-end", p)?;
        }
        if sundial_passes::registry::lookup(UNROLL_PASS).is_some() {
            pipeline(&mut phases, d, module, "unroll", UNROLL_PASS)?;
        }
        pipeline(&mut phases, d, module, "allocate", "sundial-allocate")?;
        let root = module.as_operation();
        let func = kernel(&root).map_err(|m| fail(diagnostics.clone(), vec![error(m)]))?;
        let tensors = tensors(&func).map_err(|m| fail(diagnostics.clone(), vec![error(m)]))?;
        pipeline(
            &mut phases,
            &mut diagnostics,
            module,
            "isel",
            "sundial-isel",
        )?;
        let root = module.as_operation();
        // The BIR text is what Emit::Bir produces; compiling to bundles does not print the
        // module (on a large kernel the print costs about as much as the parse).
        let bir = if options.emit == Emit::Bir {
            print_operation(
                root.to_raw(),
                PrintOptions {
                    generic: false,
                    debug_info: false,
                },
            )
        } else {
            String::new()
        };
        let mut compiled = Compiled {
            target,
            kernel: kernel_name,
            engines: Vec::new(),
            tensors,
            phases: Vec::new(),
            bir,
            diagnostics: Vec::new(),
        };
        if options.emit == Emit::Bundles {
            let func = kernel(&root).map_err(|m| fail(diagnostics.clone(), vec![error(m)]))?;
            let arch = target.model();
            let capture = DiagnosticCapture::new(self.context());
            let located = |capture: &DiagnosticCapture<'_>| rename(capture.take(), name, 0);
            let lowered = timed(&mut phases, "lower", || {
                sundial_dialects::tile::with_caches(|| emit::lower_function(func, arch))
            });
            let Ok(lowered) = lowered else {
                return Err(fail(diagnostics, located(&capture)));
            };
            let scheduled = timed(&mut phases, "sync", || emit::synchronise(&lowered));
            let scheduled = scheduled.map_err(|m| {
                let loc = file_line_col(func.location());
                let d =
                    Diagnostic::new(Severity::Error, loc, format!("engine ordering failed: {m}"));
                fail(diagnostics.clone(), rename(vec![d], name, 0))
            })?;
            let report = |f: emit::EncodeFailure, diagnostics: Vec<Diagnostic>| {
                match f.origin.and_then(|i| lowered.get(i)) {
                    Some(l) => refuse(&l.op, &f.message),
                    None => refuse(&func, &f.message),
                }
                fail(diagnostics, located(&capture))
            };
            let program = timed(&mut phases, "encode", || {
                emit::encode(scheduled, &lowered, arch)
            });
            let program = match program {
                Ok(p) => p,
                Err(f) => return Err(report(f, diagnostics)),
            };
            if let Err(f) = timed(&mut phases, "validate", || emit::validate(&program, arch)) {
                return Err(report(f, diagnostics));
            }
            // The program is done with: its instruction lists move into the images.
            compiled.engines = program
                .queues
                .into_iter()
                .map(|q| {
                    let mut opcodes = BTreeMap::new();
                    for b in &q.bundles {
                        *opcodes.entry(b[0]).or_insert(0) += 1;
                    }
                    EngineImage {
                        engine: q.name(),
                        file: format!("{}.bin", q.name()),
                        bytes: q.bytes(),
                        instructions: q.instructions,
                        opcodes,
                    }
                })
                .collect();
        }
        compiled.phases = phases;
        compiled.diagnostics = diagnostics;
        Ok(compiled)
    }
}
