//! The embedding API: a [`Session`] owns an MLIR context with NISA and BIR loaded, and parses,
//! verifies, transforms and prints modules, returning diagnostics as values.
//!
//! Front ends that build IR themselves use [`Session::context`] with melior's builders and
//! then [`Session::verify`]; front ends that produce text use [`Session::parse`]. Nothing here
//! prints to stderr or exits: the tools decide what to do with the diagnostics.

use melior::{
    Context,
    ir::{Module, operation::OperationLike},
    pass::{PassIrPrintingOptions, PassManager},
};
pub use sundial_dialects::verify::Phase;
use sundial_dialects::{
    context::{ContextError, create_context},
    diag::{Diagnostic, DiagnosticCapture, Severity},
    ffi::{FileLineCol, PrintOptions, print_operation},
};

/// Options for running a pipeline.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Print the IR after every pass to stderr (`--mlir-print-ir-after-all`).
    pub print_ir_after_all: bool,
    /// Print a pass timing report to stderr (`--mlir-timing`).
    pub timing: bool,
}

/// Options of the middle end ([`Session::run_middle_end`]).
#[derive(Clone, Debug, Default)]
pub struct MiddleEndOptions {
    /// The target (`None`: the module's `sundial.target`).
    pub target: Option<sundial_dialects::enums::Target>,
    /// Let fusion drop rounding steps (`sundial-infer-intrinsic{contract=true}`).
    pub contract: bool,
}

impl MiddleEndOptions {
    /// The pipeline text these options select.
    pub fn pipeline(&self) -> String {
        let mut opts = Vec::new();
        if let Some(t) = self.target {
            opts.push(format!("target={}", t.name()));
        }
        if self.contract {
            opts.push("contract=true".to_string());
        }
        if opts.is_empty() {
            "builtin.module(sundial-middle-end)".to_string()
        } else {
            format!("builtin.module(sundial-middle-end{{{}}})", opts.join(" "))
        }
    }
}

/// A parse result: the module (if the input parsed and verified) and every diagnostic.
pub struct Parsed<'c> {
    /// The module, present when parsing and verification succeeded.
    pub module: Option<Module<'c>>,
    /// Diagnostics, in emission order, with unnamed buffers renamed to the input's name.
    pub diagnostics: Vec<Diagnostic>,
}

/// An MLIR context set up for Sundial.
pub struct Session {
    context: Context,
}

impl Session {
    /// Creates a session (a fresh context with the NISA and BIR dialects loaded).
    pub fn new() -> Result<Self, ContextError> {
        crate::register_passes();
        Ok(Self {
            context: create_context()?,
        })
    }

    /// The MLIR context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Parses `source` (named `name` in diagnostics) into a module, then runs the semantic
    /// verifier. The module is `None` if anything failed; the diagnostics say why.
    ///
    /// MLIR needs a NUL-terminated buffer: this makes one copy of `source` (allocated
    /// fallibly, freed before verification). [`Session::parse_terminated`] parses a buffer
    /// that already ends in a NUL without copying it. While parsing, memory holds `source`,
    /// the copy and MLIR's IR of the module (about 330-370 bytes per op, measured by
    /// `scripts/measure-rss.sh`): proportional to the input.
    pub fn parse<'c>(&'c self, source: &[u8], name: &str) -> Parsed<'c> {
        self.parse_at(source, name, 1)
    }

    /// Parses `source` as the text that starts at the beginning of line `first_line` of the
    /// file `name` (a `--split-input-file` chunk): the module's locations and every diagnostic
    /// are positions in that file. Otherwise as [`Session::parse`].
    pub fn parse_at<'c>(&'c self, source: &[u8], name: &str, first_line: usize) -> Parsed<'c> {
        if let Some(parsed) = self.refuse_hazard(source, name, first_line) {
            return parsed;
        }
        // MLIR's lexer reads one byte past the token it is lexing and relies on a NUL there
        // to stop at the end of the buffer, but `mlirModuleCreateParse` wraps the caller's
        // bytes without adding one: an input ending inside an identifier or number was lexed
        // on into whatever memory followed it (a SIGSEGV found by the mutation fuzzer). The
        // parser gets a NUL-terminated copy; `hazard` has already refused interior NULs.
        let mut terminated = Vec::new();
        if terminated.try_reserve_exact(source.len() + 1).is_err() {
            return Parsed {
                module: None,
                diagnostics: vec![Diagnostic::new(
                    Severity::Error,
                    None,
                    format!("the input ({} bytes) does not fit in memory", source.len()),
                )],
            };
        }
        terminated.extend_from_slice(source);
        terminated.push(0);
        self.parse_unguarded(terminated, name, first_line)
    }

    /// Parses `source`, whose last byte is a NUL terminator that is not part of the text, in
    /// place: the buffer MLIR lexes is `source` itself, so a whole file read with one spare
    /// byte is parsed without a copy. A buffer that does not end in a NUL is an error
    /// diagnostic. Otherwise as [`Session::parse_at`].
    pub fn parse_terminated<'c>(
        &'c self,
        source: &[u8],
        name: &str,
        first_line: usize,
    ) -> Parsed<'c> {
        let Some((&0, text)) = source.split_last() else {
            return Parsed {
                module: None,
                diagnostics: vec![Diagnostic::new(
                    Severity::Error,
                    None,
                    "the buffer given to parse_terminated does not end in a NUL byte",
                )],
            };
        };
        if let Some(parsed) = self.refuse_hazard(text, name, first_line) {
            return parsed;
        }
        self.parse_unguarded(source, name, first_line)
    }

    /// The [`crate::source::hazard`] guard as a parse result, if the text must not reach MLIR.
    fn refuse_hazard<'c>(
        &'c self,
        text: &[u8],
        name: &str,
        first_line: usize,
    ) -> Option<Parsed<'c>> {
        let h = crate::source::hazard(text)?;
        let loc = FileLineCol {
            file: name.to_string(),
            line: h.line.saturating_add(first_line.saturating_sub(1)),
            col: h.col,
        };
        Some(Parsed {
            module: None,
            diagnostics: vec![Diagnostic::new(Severity::Error, Some(loc), h.message)],
        })
    }

    /// Parses a NUL-terminated buffer that passed the hazard guard, then verifies. An owned
    /// buffer (a copy) is freed as soon as MLIR has parsed it: the module keeps no reference
    /// to it.
    fn parse_unguarded<'c>(
        &'c self,
        terminated: impl AsRef<[u8]>,
        name: &str,
        first_line: usize,
    ) -> Parsed<'c> {
        let bytes = terminated.as_ref();
        let text_len = bytes.len().saturating_sub(1);
        let line_offset = first_line.saturating_sub(1);
        let capture = DiagnosticCapture::new(&self.context);
        // Parsed as `mlirModuleCreateParse` does, but with the attributes the text may leave
        // implied filled in before MLIR's verifier runs (sundial_dialects::implied).
        // SAFETY: `bytes` ends in the NUL the lexer needs, just past `text_len`.
        let module = unsafe {
            sundial_dialects::implied::parse_module(
                &self.context,
                mlir_sys::MlirStringRef {
                    data: bytes.as_ptr() as *const _,
                    length: text_len,
                },
            )
        };
        // Parser and IRDL diagnostics point into the chunk: shift them to the file's lines.
        let mut diagnostics = rename(capture.take(), name, line_offset);
        if let Some(m) = &module
            && line_offset > 0
        {
            shift_locations(m.as_operation().to_raw(), line_offset);
        }
        // The fallback below needs the text, which is about to be freed: look now.
        let silent_failure =
            module.is_none() && !diagnostics.iter().any(|d| d.severity == Severity::Error);
        let custom = silent_failure
            .then(|| crate::source::custom_syntax_op(&bytes[..text_len]))
            .flatten();
        drop(terminated);
        // The verifier reports at the module's (already shifted) locations.
        let module = module.filter(|m| sundial_dialects::verify::verify(&m.as_operation(), None));
        diagnostics.extend(rename(capture.take(), name, 0));
        if module.is_none() && !diagnostics.iter().any(|d| d.severity == Severity::Error) {
            // MLIR fails without a message when an IRDL op is written in custom syntax (IRDL ops
            // have none): find it, or at least never fail silently.
            let diag = match custom {
                Some((op, line, col)) => Diagnostic::new(
                    Severity::Error,
                    Some(FileLineCol {
                        file: name.to_string(),
                        line: line.saturating_add(line_offset),
                        col,
                    }),
                    format!(
                        "'{op}' has no custom assembly syntax: write it in the generic form \"{op}\"(operands) {{attributes}} : (types) -> (types)"
                    ),
                ),
                None => Diagnostic::new(
                    Severity::Error,
                    None,
                    "failed to parse the input (MLIR gave no reason)",
                ),
            };
            diagnostics.push(diag);
        }
        Parsed {
            module,
            diagnostics,
        }
    }

    /// Runs the semantic verifier on `module`; returns its diagnostics (empty: success).
    /// Tiles are logical (any partition count): [`Session::verify_phase`] adds the checks of a
    /// later phase.
    pub fn verify(&self, module: &Module<'_>, name: &str) -> Vec<Diagnostic> {
        self.verify_phase(module, name, Phase::Logical)
    }

    /// [`Session::verify`] plus the phase checks of `phase` (e.g. [`Phase::Tiled`]: at most
    /// 128 partitions per SBUF/PSUM tile).
    pub fn verify_phase(&self, module: &Module<'_>, name: &str, phase: Phase) -> Vec<Diagnostic> {
        let capture = DiagnosticCapture::new(&self.context);
        let ok = sundial_dialects::verify::verify_phase(&module.as_operation(), None, phase)
            && module.as_operation().verify();
        let mut diags = rename(capture.take(), name, 0);
        if !ok && !diags.iter().any(|d| d.severity == Severity::Error) {
            diags.push(Diagnostic::new(
                Severity::Error,
                None,
                "verification failed",
            ));
        }
        diags
    }

    /// Runs `pipeline` (textual, e.g. `builtin.module(sundial-verify,cse)`) on `module`, then the
    /// semantic verifier. `Err` carries the diagnostics of a malformed pipeline or a failure.
    pub fn run_pipeline(
        &self,
        module: &mut Module<'_>,
        pipeline: &str,
        options: &RunOptions,
        name: &str,
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        self.run_pipeline_on(module, pipeline, options, name, None)
    }

    /// [`Session::run_pipeline`]; with `verified_pass` given, `pipeline` is one pass and
    /// `module` passed both verifiers as it is now, so when the pass leaves it unchanged (the
    /// same [`sundial_dialects::verify::Snapshot`]), or changes only discardable attributes
    /// that `verified_pass` names and neither verifier reads (the annotations of
    /// `sundial-allocate`), neither verifier runs again: they would read what they passed.
    /// When it changed otherwise, both run, as after any pass.
    pub(crate) fn run_pipeline_on(
        &self,
        module: &mut Module<'_>,
        pipeline: &str,
        options: &RunOptions,
        name: &str,
        verified_pass: Option<&[&str]>,
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let capture = DiagnosticCapture::new(&self.context);
        let pm = PassManager::new(&self.context);
        // With one pass, MLIR's verifier after the pass is its verifier after the pipeline,
        // which the unchanged check below runs itself when it must.
        pm.enable_verifier(verified_pass.is_none());
        let before = verified_pass.map(|names| {
            (
                sundial_dialects::verify::snapshot(&module.as_operation()),
                names,
            )
        });
        if options.print_ir_after_all {
            pm.enable_ir_printing(&PassIrPrintingOptions {
                before_all: false,
                after_all: true,
                module_scope: true,
                on_change: false,
                on_failure: false,
                flags: melior::ir::operation::OperationPrintingFlags::new(),
                tree_printing_path: std::path::PathBuf::new(),
            });
        }
        if options.timing {
            unsafe { mlir_sys::mlirPassManagerEnableTiming(pm.to_raw()) };
        }
        if !pipeline.trim().is_empty()
            && let Err(msg) = sundial_passes::pipeline::build(&self.context, &pm, pipeline)
        {
            return Err(vec![Diagnostic::new(Severity::Error, None, msg)]);
        }
        let ran = pm.run(module).is_ok();
        // The semantic verifier after the pipeline, unless its last pass just ran it on the
        // whole module (the middle end verifies after each of its steps).
        let unchanged = ran
            && before.is_some_and(|(b, names)| {
                let after = sundial_dialects::verify::snapshot(&module.as_operation());
                // SAFETY: both snapshots are of `module`, whose context `self` keeps alive.
                b == after || unsafe { b.differs_only_in(&after, names) }
            });
        let verified = ran
            && (unchanged
                || (sundial_passes::pipeline::ends_verified(pipeline) && verified_pass.is_none())
                // MLIR's verifier first, as the pass manager runs it: the semantic verifier
                // reads structurally valid IR only.
                || ((verified_pass.is_none() || module.as_operation().verify())
                    && sundial_dialects::verify::verify(&module.as_operation(), None)));
        // Dropping the pass manager prints the timing report (when enabled).
        drop(pm);
        let mut diags = rename(capture.take(), name, 0);
        if ran && verified {
            Ok(diags)
        } else {
            if !diags.iter().any(|d| d.severity == Severity::Error) {
                diags.push(Diagnostic::new(
                    Severity::Error,
                    None,
                    "pass pipeline failed",
                ));
            }
            Err(diags)
        }
    }

    /// Runs the middle end (`sundial-middle-end`, see `sundial_passes::middle_end`) on
    /// `module`: [`Session::run_pipeline`] with that pipeline and `options`.
    pub fn run_middle_end(
        &self,
        module: &mut Module<'_>,
        options: &MiddleEndOptions,
        name: &str,
    ) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        self.run_pipeline(module, &options.pipeline(), &RunOptions::default(), name)
    }

    /// Checks a textual pipeline (syntax, pass names, options, anchors) without running it.
    pub fn check_pipeline(&self, pipeline: &str) -> Result<(), String> {
        if pipeline.trim().is_empty() {
            return Ok(());
        }
        let pm = PassManager::new(&self.context);
        sundial_passes::pipeline::build(&self.context, &pm, pipeline)
    }

    /// Prints a module.
    pub fn print(&self, module: &Module<'_>, options: PrintOptions) -> String {
        print_operation(module.as_operation().to_raw(), options)
    }
}

/// Names diagnostics from unnamed buffers with the input's name, and moves their lines down
/// by `line_offset` (the lines before the parsed chunk in the input).
pub(crate) fn rename(
    mut diags: Vec<Diagnostic>,
    name: &str,
    line_offset: usize,
) -> Vec<Diagnostic> {
    fn fix(d: &mut Diagnostic, name: &str, line_offset: usize) {
        // MLIR names string buffers "-" (or leaves them unnamed).
        if let Some(loc) = &mut d.loc
            && (loc.file.is_empty() || loc.file == "-")
        {
            loc.file = name.to_string();
            if loc.line > 0 {
                loc.line = loc.line.saturating_add(line_offset);
            }
        }
        for n in &mut d.notes {
            fix(n, name, line_offset);
        }
    }
    for d in &mut diags {
        fix(d, name, line_offset);
    }
    diags
}

/// The name MLIR gives the buffer of `mlirModuleCreateParse`: the file of every location the
/// parser makes.
const BUFFER_NAME: &[u8] = b"-";

/// Moves every parser-made location under `root` (ops and block arguments) down by
/// `line_offset` lines, so that a chunk parsed on its own carries positions in its file.
///
/// Only plain file:line:col locations in the parsed buffer (named [`BUFFER_NAME`]) are the
/// parser's own; locations the input writes itself (`loc("other.mlir":3:4)`, names, call
/// sites, fused) are left as written, except a plain one that names the buffer itself
/// (`loc("-":1:1)`), which cannot be told apart from the parser's and moves too. Line 0 (the
/// implicit module's location) stays 0.
fn shift_locations(root: mlir_sys::MlirOperation, line_offset: usize) {
    struct Shift {
        ctx: mlir_sys::MlirContext,
        offset: u32,
    }
    impl Shift {
        /// `loc` moved down, or `None` when it is not a parser-made location.
        unsafe fn shifted(&self, loc: mlir_sys::MlirLocation) -> Option<mlir_sys::MlirLocation> {
            unsafe {
                if !mlir_sys::mlirLocationIsAFileLineColRange(loc) {
                    return None;
                }
                let file = mlir_sys::mlirIdentifierStr(
                    mlir_sys::mlirLocationFileLineColRangeGetFilename(loc),
                );
                let file_bytes = std::slice::from_raw_parts(file.data as *const u8, file.length);
                if file_bytes != BUFFER_NAME {
                    return None;
                }
                let line = u32::try_from(mlir_sys::mlirLocationFileLineColRangeGetStartLine(loc))
                    .ok()
                    .filter(|&l| l > 0)?;
                let col = u32::try_from(mlir_sys::mlirLocationFileLineColRangeGetStartColumn(loc))
                    .unwrap_or(0);
                let end_line = u32::try_from(mlir_sys::mlirLocationFileLineColRangeGetEndLine(loc))
                    .unwrap_or(line);
                let end_col =
                    u32::try_from(mlir_sys::mlirLocationFileLineColRangeGetEndColumn(loc))
                        .unwrap_or(col);
                Some(if (end_line, end_col) == (line, col) {
                    mlir_sys::mlirLocationFileLineColGet(
                        self.ctx,
                        file,
                        line.saturating_add(self.offset),
                        col,
                    )
                } else {
                    mlir_sys::mlirLocationFileLineColRangeGet(
                        self.ctx,
                        file,
                        line.saturating_add(self.offset),
                        col,
                        end_line.saturating_add(self.offset),
                        end_col,
                    )
                })
            }
        }
    }
    unsafe extern "C" fn visit(
        op: mlir_sys::MlirOperation,
        data: *mut std::ffi::c_void,
    ) -> mlir_sys::MlirWalkResult {
        unsafe {
            let shift = &*(data as *const Shift);
            if let Some(loc) = shift.shifted(mlir_sys::mlirOperationGetLocation(op)) {
                mlir_sys::mlirOperationSetLocation(op, loc);
            }
            for r in 0..mlir_sys::mlirOperationGetNumRegions(op) {
                let region = mlir_sys::mlirOperationGetRegion(op, r);
                let mut block = mlir_sys::mlirRegionGetFirstBlock(region);
                while !block.ptr.is_null() {
                    for a in 0..mlir_sys::mlirBlockGetNumArguments(block) {
                        let arg = mlir_sys::mlirBlockGetArgument(block, a);
                        if let Some(loc) = shift.shifted(mlir_sys::mlirValueGetLocation(arg)) {
                            mlir_sys::mlirBlockArgumentSetLocation(arg, loc);
                        }
                    }
                    block = mlir_sys::mlirBlockGetNextInRegion(block);
                }
            }
        }
        mlir_sys::MlirWalkResult_MlirWalkResultAdvance
    }
    // MLIR's lines are 32-bit: an offset beyond that saturates (such a file has other limits).
    let shift = Shift {
        ctx: unsafe { mlir_sys::mlirOperationGetContext(root) },
        offset: u32::try_from(line_offset).unwrap_or(u32::MAX),
    };
    unsafe {
        mlir_sys::mlirOperationWalk(
            root,
            Some(visit),
            &shift as *const Shift as *mut std::ffi::c_void,
            mlir_sys::MlirWalkOrder_MlirWalkPreOrder,
        );
    }
}
