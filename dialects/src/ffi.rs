//! Safe helpers over the few MLIR C API calls whose melior wrappers can panic.
//!
//! melior 0.27.8 converts `MlirStringRef`s with `StringRef::as_str`, which indexes the last
//! byte (a panic on an empty string) and rejects non-UTF-8 bytes (string attributes may hold
//! any bytes through `\XX` escapes). Sundial must not panic on any input, so every string that
//! comes out of MLIR goes through [`string_ref_lossy`] instead, and every printer uses a
//! byte-collecting callback.

use melior::ir::{Attribute, Location, Type, attribute::AttributeLike, r#type::TypeLike};
use mlir_sys::{
    MlirStringRef, mlirAttributePrint, mlirIdentifierStr, mlirLocationCallSiteGetCaller,
    mlirLocationFileLineColRangeGetFilename, mlirLocationFileLineColRangeGetStartColumn,
    mlirLocationFileLineColRangeGetStartLine, mlirLocationFusedGetLocations,
    mlirLocationFusedGetNumLocations, mlirLocationNameGetChildLoc, mlirOpPrintingFlagsCreate,
    mlirOpPrintingFlagsDestroy, mlirOpPrintingFlagsEnableDebugInfo,
    mlirOpPrintingFlagsPrintGenericOpForm, mlirOperationPrintWithFlags, mlirStringAttrGetValue,
    mlirTypePrint,
};
use std::ffi::c_void;

/// Converts an MLIR string reference to an owned string, replacing invalid UTF-8.
///
/// # Safety
/// `raw` must point to `raw.length` readable bytes (or have length 0).
pub unsafe fn string_ref_lossy(raw: MlirStringRef) -> String {
    if raw.length == 0 || raw.data.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe extern "C" fn collect_bytes(chunk: MlirStringRef, data: *mut c_void) {
    if chunk.length == 0 || chunk.data.is_null() {
        return;
    }
    let out = unsafe { &mut *(data as *mut Vec<u8>) };
    out.extend_from_slice(unsafe {
        std::slice::from_raw_parts(chunk.data as *const u8, chunk.length)
    });
}

/// Printing options for [`print_operation`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print every operation in the generic form (`"dialect.op"(...) {...} : (...) -> ...`).
    pub generic: bool,
    /// Print source locations (`loc(...)`).
    pub debug_info: bool,
}

/// Prints an operation to a string (lossy UTF-8), never panicking.
pub fn print_operation(op: mlir_sys::MlirOperation, options: PrintOptions) -> String {
    print_with(|cb, data| unsafe {
        let flags = mlirOpPrintingFlagsCreate();
        if options.generic {
            mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        if options.debug_info {
            mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
        }
        mlirOperationPrintWithFlags(op, flags, cb, data);
        mlirOpPrintingFlagsDestroy(flags);
    })
}

/// Runs an MLIR printer that reports through a string callback and returns what it printed
/// (lossy UTF-8).
fn print_with(print: impl FnOnce(mlir_sys::MlirStringCallback, *mut c_void)) -> String {
    let mut out = Vec::new();
    print(Some(collect_bytes), &mut out as *mut Vec<u8> as *mut c_void);
    String::from_utf8_lossy(&out).into_owned()
}

/// Prints a type to a string (lossy UTF-8).
pub fn print_type(ty: Type<'_>) -> String {
    print_with(|cb, data| unsafe { mlirTypePrint(ty.to_raw(), cb, data) })
}

/// The attribute `name` of `op`, if it carries one. melior's `attribute` builds an error holding
/// a copy of the name for every absent attribute, and the verifier and the passes ask every op
/// for attributes it does not carry (optional ones, `name`, loop annotations).
pub fn attribute_of<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
    name: &str,
) -> Option<Attribute<'c>> {
    unsafe {
        let name = mlir_sys::MlirStringRef {
            data: name.as_ptr() as *const _,
            length: name.len(),
        };
        Attribute::from_option_raw(mlir_sys::mlirOperationGetAttributeByName(op.to_raw(), name))
    }
}

/// Prints an attribute to a string (lossy UTF-8).
pub fn print_attribute(attr: Attribute<'_>) -> String {
    print_with(|cb, data| unsafe { mlirAttributePrint(attr.to_raw(), cb, data) })
}

/// The value of a string attribute, borrowed from the context's storage when it is valid UTF-8
/// (copied, lossily, only when it is not). The caller must have checked `attr.is_string()`.
pub fn string_attr_cow<'c>(attr: Attribute<'c>) -> std::borrow::Cow<'c, str> {
    unsafe {
        let raw = mlirStringAttrGetValue(attr.to_raw());
        if raw.data.is_null() || raw.length == 0 {
            return std::borrow::Cow::Borrowed("");
        }
        let bytes: &'c [u8] = std::slice::from_raw_parts(raw.data as *const u8, raw.length);
        String::from_utf8_lossy(bytes)
    }
}

/// The value of a string attribute (lossy UTF-8). The caller must have checked
/// `attr.is_string()`.
pub fn string_attr_value(attr: Attribute<'_>) -> String {
    unsafe { string_ref_lossy(mlirStringAttrGetValue(attr.to_raw())) }
}

/// A resolved `file:line:col` position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileLineCol {
    /// The buffer name (empty for buffers parsed without a name).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

/// Finds the first `file:line:col` inside a location, looking through name, call-site
/// (caller side) and fused locations the way MLIR's own source-manager handler does.
pub fn file_line_col(loc: Location<'_>) -> Option<FileLineCol> {
    // Bounded so that a pathological location tree cannot recurse forever.
    fn walk(raw: mlir_sys::MlirLocation, depth: usize) -> Option<FileLineCol> {
        if depth > 64 || raw.ptr.is_null() {
            return None;
        }
        unsafe {
            if mlir_sys::mlirLocationIsAFileLineColRange(raw) {
                let file = string_ref_lossy(mlirIdentifierStr(
                    mlirLocationFileLineColRangeGetFilename(raw),
                ));
                let line = mlirLocationFileLineColRangeGetStartLine(raw).max(0) as usize;
                let col = mlirLocationFileLineColRangeGetStartColumn(raw).max(0) as usize;
                return Some(FileLineCol { file, line, col });
            }
            if mlir_sys::mlirLocationIsAName(raw) {
                return walk(mlirLocationNameGetChildLoc(raw), depth + 1);
            }
            if mlir_sys::mlirLocationIsACallSite(raw) {
                return walk(mlirLocationCallSiteGetCaller(raw), depth + 1);
            }
            if mlir_sys::mlirLocationIsAFused(raw) {
                let n = mlirLocationFusedGetNumLocations(raw) as usize;
                if n == 0 {
                    return None;
                }
                let mut locs = vec![
                    mlir_sys::MlirLocation {
                        ptr: std::ptr::null()
                    };
                    n
                ];
                mlirLocationFusedGetLocations(raw, locs.as_mut_ptr());
                return locs.into_iter().find_map(|l| walk(l, depth + 1));
            }
        }
        None
    }
    walk(loc.to_raw(), 0)
}

/// The name of an operation (`dialect.mnemonic`), borrowed from the context (copied only if
/// it is not UTF-8): a walk asks every op for it.
pub fn op_name<'o>(op: mlir_sys::MlirOperation) -> std::borrow::Cow<'o, str> {
    String::from_utf8_lossy(op_name_bytes(op))
}

/// The bytes of an operation's name, borrowed from its context (no copy: what a check of
/// every op of a walk compares against).
fn op_name_bytes<'o>(op: mlir_sys::MlirOperation) -> &'o [u8] {
    let raw = unsafe { mlirIdentifierStr(mlir_sys::mlirOperationGetName(op)) };
    if raw.length == 0 || raw.data.is_null() {
        return &[];
    }
    // SAFETY: an op name is an identifier uniqued in (and living as long as) the context that
    // owns `op`, which outlives the caller's use of the bytes.
    unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) }
}

/// Whether the name of `op` is `name` ([`op_name`] without the copy).
pub fn op_name_is(op: mlir_sys::MlirOperation, name: &str) -> bool {
    op_name_bytes(op) == name.as_bytes()
}

/// The mnemonic of `op` when its dialect is `dialect` (`nisa.` ... as `"nisa"`), without a
/// copy.
pub fn op_mnemonic_in<'o>(op: mlir_sys::MlirOperation, dialect: &str) -> Option<&'o str> {
    let bytes = op_name_bytes(op);
    let rest = bytes.strip_prefix(dialect.as_bytes())?.strip_prefix(b".")?;
    std::str::from_utf8(rest).ok()
}

/// Emits an error diagnostic at `loc` through the context's diagnostic engine (so that
/// handlers, `--verify-diagnostics` and the driver all see it like any MLIR error).
pub fn emit_error(loc: Location<'_>, message: &str) {
    // The C API takes a NUL-terminated string: interior NULs cannot be represented.
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    unsafe { mlir_sys::mlirEmitError(loc.to_raw(), text.as_ptr()) }
}

/// Text for MLIR's parsers, with a NUL byte stored just past its end.
///
/// MLIR's lexer reads the byte after the token it is lexing and relies on a NUL there to stop
/// at the end of the buffer, but the C API (`mlirModuleCreateParse`, `mlirTypeParseGet`, ...)
/// wraps the caller's bytes without adding one: text ending inside an identifier (`!nisa.reg`)
/// was lexed on into whatever memory followed it. [`NulTerminated::as_str`] is the text
/// itself (the NUL is not part of it), backed by a buffer that has the NUL after it.
pub struct NulTerminated(String);

impl NulTerminated {
    /// Copies `text` and appends the NUL.
    pub fn new(text: &str) -> NulTerminated {
        let mut s = String::with_capacity(text.len() + 1);
        s.push_str(text);
        s.push('\0');
        NulTerminated(s)
    }

    /// The text, without the NUL (which stays right after it in memory).
    pub fn as_str(&self) -> &str {
        &self.0[..self.0.len() - 1]
    }
}
