//! Rendering IR diagnostics for people and for tools.
//!
//! Text form: the first line of every diagnostic is `file:line:col: error: message`, exactly
//! as `mlir-opt` prints it (lit tests, editors and `--verify-diagnostics` read it); below it,
//! when the location is in the input, a codespan-reporting snippet of the source with a label
//! under the offending op (or under the attribute the message names, at the attribute's own
//! column), the rule as a note and a `help:` line where the fix is known. Colour only on a
//! terminal unless asked. JSON form: one object per diagnostic per line (severity, file, line,
//! col, message, rule, help, notes) for IDEs and CI.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use sundial_dialects::diag::{Diagnostic, Severity};

/// The rendering options are the tools' shared ones (`sundial-mc` renders bundles with the
/// same flags): one definition, in the codegen crate both tools link.
pub use sundial_codegen::render::{ColorMode, DiagnosticArgs, DiagnosticsFormat, RenderOptions};

/// The rule name a message ends with (`... (rule: engine)`), if any.
pub fn rule_of(message: &str) -> Option<&str> {
    let start = message.rfind("(rule: ")?;
    let rest = &message[start + "(rule: ".len()..];
    let end = rest.find(')')?;
    Some(&rest[..end])
}

/// A `help:` line for the diagnostics whose fix the message itself determines.
pub fn help_of(message: &str) -> Option<String> {
    if let Some(i) = message.find("(legal: ") {
        let rest = &message[i + "(legal: ".len()..];
        let legal = &rest[..rest.find(')')?];
        return Some(format!("use one of: {legal}"));
    }
    if message.contains("partitions") && message.contains("128") {
        return Some(
            "an SBUF/PSUM tile spans at most 128 partitions: split the partition axis".into(),
        );
    }
    if message.contains("has no custom assembly syntax") {
        return Some(
            "NISA and BIR ops are written in MLIR's generic form: \"nisa.op\"(%a) {attr = ...} : (types) -> ()"
                .into(),
        );
    }
    None
}

/// Renders every diagnostic. `source` is the whole input buffer named `name` (line numbers
/// of the diagnostics are positions in it); snippets are shown for locations in it only.
pub fn render(diags: &[Diagnostic], name: &str, source: &[u8], opts: RenderOptions) -> String {
    render_at(diags, name, source, 1, opts)
}

/// [`render`] for a chunk of a larger input (`--split-input-file`): `chunk` is the text of
/// the input from line `first_line` on, and the diagnostics' lines are lines of the whole
/// input. Only the chunk is indexed, so rendering every chunk of a split input costs the size
/// of the input once, not once per chunk.
pub fn render_at(
    diags: &[Diagnostic],
    name: &str,
    chunk: &[u8],
    first_line: usize,
    opts: RenderOptions,
) -> String {
    let mut out = String::new();
    match opts.format {
        DiagnosticsFormat::Json => {
            for d in diags {
                out.push_str(&json(d, name).to_string());
                out.push('\n');
            }
        }
        DiagnosticsFormat::Text => {
            // One file (and one line index) for every diagnostic: rendering n diagnostics of
            // an input costs O(input + n), not O(n x input).
            let text = String::from_utf8_lossy(chunk);
            let file = ChunkFile {
                file: SimpleFile::new(name, text.as_ref()),
                first_line: first_line.max(1),
            };
            for d in diags {
                out.push_str(&d.render(name));
                if let Some(s) = snippet(d, name, &file, opts.color) {
                    out.push_str(&s);
                }
            }
        }
    }
    out
}

fn json(d: &Diagnostic, name: &str) -> serde_json::Value {
    let (file, line, col) = match &d.loc {
        Some(l) if !l.file.is_empty() => (l.file.clone(), Some(l.line), Some(l.col)),
        Some(l) => (name.to_string(), Some(l.line), Some(l.col)),
        None => (name.to_string(), None, None),
    };
    serde_json::json!({
        "severity": d.severity.as_str(),
        "file": file,
        "line": line,
        "col": col,
        "message": d.message,
        "rule": rule_of(&d.message),
        "help": help_of(&d.message),
        "notes": d.notes.iter().map(|n| json(n, name)).collect::<Vec<_>>(),
    })
}

/// The text a diagnostic points into: a chunk of the input starting at line `first_line`,
/// with its line index; the snippet's line numbers are the input's.
struct ChunkFile<'a> {
    file: SimpleFile<&'a str, &'a str>,
    first_line: usize,
}

impl<'a> codespan_reporting::files::Files<'a> for ChunkFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(*self.file.name())
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.file.source())
    }

    fn line_index(
        &'a self,
        (): (),
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        self.file.line_index((), byte)
    }

    fn line_number(
        &'a self,
        (): (),
        index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(index + self.first_line)
    }

    fn line_range(
        &'a self,
        (): (),
        index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        self.file.line_range((), index)
    }
}

/// Byte offset in `file` of the input's 1-based (line, col), if it is inside the chunk (from
/// the chunk's line index).
fn offset_of(file: &ChunkFile<'_>, line: usize, col: usize) -> Option<usize> {
    use codespan_reporting::files::Files;
    let range = file
        .file
        .line_range((), line.checked_sub(file.first_line)?)
        .ok()?;
    let len = file.file.source()[range.clone()]
        .trim_end_matches(['\n', '\r'])
        .len();
    (col >= 1 && col - 1 <= len).then_some(range.start + col - 1)
}

/// The extent of the token at `at`: a string literal, or an identifier-like run.
fn token_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    if b.get(at) == Some(&b'"') {
        let mut i = at + 1;
        while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        return (i + 1).min(b.len());
    }
    let mut i = at;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b"_.$%#@!-".contains(&b[i])) {
        i += 1;
    }
    if i == at { (at + 1).min(b.len()) } else { i }
}

/// Where the attribute `attr` of the op starting at `op` is written (`attr = ...`), looked for
/// in the op's own text (up to the line where the next op or the block's end begins).
fn attribute_at(text: &str, op: usize, attr: &str) -> Option<(usize, usize)> {
    let rest = &text[op..];
    let mut end = rest.len();
    let mut pos = rest.find('\n').map(|i| i + 1).unwrap_or(rest.len());
    while pos < rest.len() {
        let line = &rest[pos..];
        let t = line.trim_start();
        if t.starts_with('%')
            || t.starts_with('"')
            || t.starts_with('}')
            || t.starts_with("return")
            || t.starts_with("func.")
        {
            end = pos;
            break;
        }
        pos += line.find('\n').map(|i| i + 1).unwrap_or(line.len());
    }
    let region = &rest[..end];
    let bytes = region.as_bytes();
    let mut from = 0;
    while let Some(i) = region[from..].find(attr) {
        let s = from + i;
        let before_ok = s == 0 || !(bytes[s - 1].is_ascii_alphanumeric() || bytes[s - 1] == b'_');
        let after = region[s + attr.len()..].trim_start();
        if before_ok && after.starts_with('=') {
            return Some((op + s, op + s + attr.len()));
        }
        from = s + attr.len();
    }
    None
}

/// The name in `attribute 'x'` / `attributes 'x' and 'y'` at the start of a message.
fn attribute_named(message: &str) -> Option<&str> {
    let rest = message
        .find("attribute '")
        .map(|i| &message[i + "attribute '".len()..])
        .or_else(|| {
            message
                .find("attributes '")
                .map(|i| &message[i + "attributes '".len()..])
        })?;
    Some(&rest[..rest.find('\'')?])
}

/// The word after `op ` in `'nisa.x' op engine "dma" ...`: verifier messages name the
/// offending attribute that way; it is labelled only where the op's text writes `word =`.
fn word_after_op(message: &str) -> Option<&str> {
    let rest = &message[message.find("' op ")? + "' op ".len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn snippet(d: &Diagnostic, name: &str, file: &ChunkFile<'_>, color: bool) -> Option<String> {
    let loc = d.loc.as_ref()?;
    if !(loc.file.is_empty() || loc.file == name) {
        return None;
    }
    let text: &str = file.file.source();
    let at = offset_of(file, loc.line, loc.col)?;
    let op_span = at..token_end(text, at);
    let mut labels = Vec::new();
    let attr = attribute_named(&d.message)
        .and_then(|a| attribute_at(text, at, a))
        .or_else(|| word_after_op(&d.message).and_then(|w| attribute_at(text, at, w)));
    match attr {
        Some((s, e)) => {
            labels.push(Label::primary((), s..e).with_message("this attribute"));
            labels.push(Label::secondary((), op_span).with_message("of this op"));
        }
        None => labels.push(Label::primary((), op_span)),
    }
    let mut notes = Vec::new();
    if let Some(rule) = rule_of(&d.message) {
        notes.push(format!("rule: {rule}"));
    }
    if let Some(help) = help_of(&d.message) {
        notes.push(format!("help: {help}"));
    }
    let report = match d.severity {
        Severity::Error => Report::error(),
        Severity::Warning => Report::warning(),
        Severity::Note => Report::note(),
        Severity::Remark => Report::help(),
    }
    .with_message(&d.message)
    .with_labels(labels)
    .with_notes(notes);
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    term::emit(&mut buf, &term::Config::default(), file, &report).ok()?;
    let rendered = String::from_utf8_lossy(buf.as_slice()).into_owned();
    // codespan's own header repeats the message: the mlir-opt line above already says it.
    let body = rendered.split_once('\n').map(|(_, b)| b)?;
    Some(body.to_string())
}
