//! Capturing MLIR diagnostics as plain Rust values.
//!
//! Every error Sundial reports about IR (parser errors, IRDL constraint failures, the semantic
//! verifier, pass failures) flows through MLIR's diagnostic engine. [`DiagnosticCapture`]
//! attaches a handler that records them, with their `file:line:col` and notes, so that the
//! driver can print them, `--verify-diagnostics` can match them, and embedders can inspect them.

use crate::ffi::{FileLineCol, file_line_col, string_ref_lossy};
use melior::Context;
use mlir_sys::{
    MlirDiagnostic, MlirDiagnosticHandlerID, MlirLogicalResult, MlirStringRef,
    mlirContextAttachDiagnosticHandler, mlirContextDetachDiagnosticHandler,
    mlirDiagnosticGetLocation, mlirDiagnosticGetNote, mlirDiagnosticGetNumNotes,
    mlirDiagnosticGetSeverity, mlirDiagnosticPrint,
};
use std::{cell::RefCell, ffi::c_void, fmt, rc::Rc};

/// Diagnostic severity, as in MLIR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// `error:`
    Error,
    /// `warning:`
    Warning,
    /// `note:`
    Note,
    /// `remark:`
    Remark,
}

impl Severity {
    /// The word MLIR prints for this severity.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One diagnostic with its location and attached notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Where it points, if the location resolves to a file position.
    pub loc: Option<FileLineCol>,
    /// The message text.
    pub message: String,
    /// Notes attached to this diagnostic.
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// Creates a diagnostic without notes.
    pub fn new(severity: Severity, loc: Option<FileLineCol>, message: impl Into<String>) -> Self {
        Self {
            severity,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// Renders `file:line:col: severity: message` followed by the notes, one per line, in the
    /// format of `mlir-opt`. `default_file` names buffers that were parsed without a name.
    pub fn render(&self, default_file: &str) -> String {
        let mut out = String::new();
        self.render_into(default_file, &mut out);
        out
    }

    fn render_into(&self, default_file: &str, out: &mut String) {
        use std::fmt::Write;
        match &self.loc {
            Some(l) => {
                let file = if l.file.is_empty() {
                    default_file
                } else {
                    l.file.as_str()
                };
                let _ = write!(out, "{file}:{}:{}: ", l.line, l.col);
            }
            None => {
                let _ = write!(out, "{default_file}: ");
            }
        }
        let _ = writeln!(out, "{}: {}", self.severity, self.message);
        for note in &self.notes {
            note.render_into(default_file, out);
        }
    }
}

unsafe extern "C" fn collect(chunk: MlirStringRef, data: *mut c_void) {
    let out = unsafe { &mut *(data as *mut String) };
    out.push_str(&unsafe { string_ref_lossy(chunk) });
}

/// Converts a raw MLIR diagnostic (and its notes, recursively) into a [`Diagnostic`].
///
/// # Safety
/// `raw` must be a live diagnostic (only valid inside a diagnostic handler).
pub unsafe fn convert(raw: MlirDiagnostic) -> Diagnostic {
    unsafe { convert_bounded(raw, 0) }
}

unsafe fn convert_bounded(raw: MlirDiagnostic, depth: usize) -> Diagnostic {
    let severity = match unsafe { mlirDiagnosticGetSeverity(raw) } {
        mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError => Severity::Error,
        mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning => Severity::Warning,
        mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticNote => Severity::Note,
        _ => Severity::Remark,
    };
    let mut message = String::new();
    unsafe {
        mlirDiagnosticPrint(
            raw,
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    let loc =
        file_line_col(unsafe { melior::ir::Location::from_raw(mlirDiagnosticGetLocation(raw)) });
    let mut notes = Vec::new();
    if depth < 16 {
        let n = unsafe { mlirDiagnosticGetNumNotes(raw) }.max(0);
        for i in 0..n {
            notes.push(unsafe { convert_bounded(mlirDiagnosticGetNote(raw, i), depth + 1) });
        }
    }
    Diagnostic {
        severity,
        loc,
        message,
        notes,
    }
}

type Sink = Rc<RefCell<Vec<Diagnostic>>>;

unsafe extern "C" fn handle(raw: MlirDiagnostic, user: *mut c_void) -> MlirLogicalResult {
    // SAFETY: `user` is the `Sink` boxed in `DiagnosticCapture::new`, alive until `destroy`;
    // the diagnostic is live for the duration of this call.
    let sink = unsafe { &*(user as *const Sink) };
    let diag = unsafe { convert(raw) };
    if let Ok(mut v) = sink.try_borrow_mut() {
        v.push(diag);
    }
    MlirLogicalResult { value: 1 }
}

unsafe extern "C" fn destroy(user: *mut c_void) {
    drop(unsafe { Box::from_raw(user as *mut Sink) });
}

/// Records every diagnostic the context emits while it is alive; detaches on drop.
///
/// The handler reports "handled", so nothing reaches MLIR's default stderr printer: the
/// driver decides what to print. Handlers nest like MLIR's: the newest capture sees the
/// diagnostics first.
pub struct DiagnosticCapture<'c> {
    context: &'c Context,
    id: Option<MlirDiagnosticHandlerID>,
    sink: Sink,
}

impl<'c> DiagnosticCapture<'c> {
    /// Starts capturing diagnostics of `context`.
    pub fn new(context: &'c Context) -> Self {
        let sink: Sink = Rc::new(RefCell::new(Vec::new()));
        let user = Box::into_raw(Box::new(Rc::clone(&sink))) as *mut c_void;
        let id = unsafe {
            mlirContextAttachDiagnosticHandler(context.to_raw(), Some(handle), user, Some(destroy))
        };
        Self {
            context,
            id: Some(id),
            sink,
        }
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.sink.borrow_mut())
    }

    /// Whether an error has been recorded (and not yet taken).
    pub fn has_errors(&self) -> bool {
        self.sink
            .borrow()
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

impl Drop for DiagnosticCapture<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            unsafe { mlirContextDetachDiagnosticHandler(self.context.to_raw(), id) };
        }
    }
}
