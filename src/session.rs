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
    pub fn parse<'c>(&'c self, source: &[u8], name: &str) -> Parsed<'c> {
        if let Some(h) = crate::source::hazard(source) {
            let loc = FileLineCol {
                file: name.to_string(),
                line: h.line,
                col: h.col,
            };
            let diag = Diagnostic::new(Severity::Error, Some(loc), h.message);
            return Parsed {
                module: None,
                diagnostics: vec![diag],
            };
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
        let capture = DiagnosticCapture::new(&self.context);
        let raw = unsafe {
            mlir_sys::mlirModuleCreateParse(
                self.context.to_raw(),
                mlir_sys::MlirStringRef {
                    data: terminated.as_ptr() as *const _,
                    length: source.len(),
                },
            )
        };
        let module = unsafe { Module::from_option_raw(raw) };
        let module = module.filter(|m| sundial_dialects::verify::verify(&m.as_operation(), None));
        let mut diagnostics = rename(capture.take(), name);
        if module.is_none() && !diagnostics.iter().any(|d| d.severity == Severity::Error) {
            // MLIR fails without a message when an IRDL op is written in custom syntax (IRDL ops
            // have none): find it, or at least never fail silently.
            let diag = match crate::source::custom_syntax_op(source) {
                Some((op, line, col)) => Diagnostic::new(
                    Severity::Error,
                    Some(FileLineCol {
                        file: name.to_string(),
                        line,
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
    pub fn verify(&self, module: &Module<'_>, name: &str) -> Vec<Diagnostic> {
        let capture = DiagnosticCapture::new(&self.context);
        let ok = sundial_dialects::verify::verify(&module.as_operation(), None)
            && module.as_operation().verify();
        let mut diags = rename(capture.take(), name);
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
        let capture = DiagnosticCapture::new(&self.context);
        let pm = PassManager::new(&self.context);
        pm.enable_verifier(true);
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
        let verified = ran && sundial_dialects::verify::verify(&module.as_operation(), None);
        // Dropping the pass manager prints the timing report (when enabled).
        drop(pm);
        let mut diags = rename(capture.take(), name);
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

/// Names diagnostics from unnamed buffers with the input's name.
fn rename(mut diags: Vec<Diagnostic>, name: &str) -> Vec<Diagnostic> {
    fn fix(d: &mut Diagnostic, name: &str) {
        // MLIR names string buffers "-" (or leaves them unnamed).
        if let Some(loc) = &mut d.loc
            && (loc.file.is_empty() || loc.file == "-")
        {
            loc.file = name.to_string();
        }
        for n in &mut d.notes {
            fix(n, name);
        }
    }
    for d in &mut diags {
        fix(d, name);
    }
    diags
}
