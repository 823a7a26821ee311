//! Rendering `sundial-mc` diagnostics for people and for tools.
//!
//! Text form: the first line of every diagnostic is exactly [`StreamError::render`]'s
//! (`file: bundle N (byte offset 0xOFF): rule R: message`, `file: truncated input: ...`,
//! `file:L:C: message`), which tests, editors and scripts read. Below it, for a diagnostic that
//! points into a bundle, the bundle's 64 bytes as four 16-byte hex rows headed by their input
//! offsets, a caret line under the byte range of the field the offset belongs to (the field of
//! the bundle's format table, [`formats::by_opcode_on`]; the header byte, or the single byte
//! where no field covers the offset), labelled with the field name and its decoded value, then
//! the rule as a note and the rule's description ([`validate::RULES`]) as help. For assembler
//! text, a codespan-reporting snippet of the source line with a caret at the column. Colour
//! (codespan's styles) only when asked or on a terminal ([`ColorMode`]).
//!
//! JSON form: one object per diagnostic per line, always with the same keys (`null` where a
//! fact does not apply): `severity`, `file`, `bundle`, `offset` (from the start of the input,
//! as in the first line), `range` (the underlined input bytes, `[start, end)`), `field`,
//! `value`, `rule`, `help`, `message`, `line`, `col`.

use std::io::Write as _;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{Buffer, ColorSpec, WriteColor};
use codespan_reporting::term::{self, Config, Styles};

use crate::arch::ArchModel;
use crate::bundle::{BUNDLE_BYTES, Bundle};
use crate::error::{DecodeError, ParseError};
use crate::formats;
use crate::text::{self, StreamError};
use crate::validate::{self, Diagnostic, RuleSource};

/// How diagnostics are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiagnosticsFormat {
    /// The one-line diagnostic, then the bytes or the source with a caret, note and help.
    #[default]
    Text,
    /// One JSON object per diagnostic per line.
    Json,
}

/// When the text form uses colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorMode {
    /// When standard error is a terminal and `NO_COLOR` is unset.
    #[default]
    Auto,
    /// Always (ANSI escapes).
    Always,
    /// Never.
    Never,
}

impl ColorMode {
    /// Resolves `auto` against standard error and `NO_COLOR`.
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorMode::Always => true,
            ColorMode::Never => false,
            ColorMode::Auto => {
                std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
            }
        }
    }
}

/// The diagnostics options every tool takes, flattened into its arguments (`#[command(flatten)]`):
/// one definition of `--color` and `--diagnostics-format` for `sundial-mc`, `sundial-opt`,
/// `sundial-translate` and `sundial-run`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct DiagnosticArgs {
    /// Colour in diagnostics: auto (standard error is a terminal and NO_COLOR is unset),
    /// always or never.
    #[arg(long = "color", value_enum, value_name = "WHEN", default_value_t)]
    pub color: ColorMode,
    /// Diagnostics as text (source snippets or bytes under each) or JSON, one object per line.
    #[arg(
        long = "diagnostics-format",
        value_enum,
        value_name = "FORMAT",
        default_value_t
    )]
    pub diagnostics_format: DiagnosticsFormat,
}

impl DiagnosticArgs {
    /// The rendering options these flags ask for (`auto` colour resolved now).
    pub fn render_options(self) -> RenderOptions {
        RenderOptions {
            format: self.diagnostics_format,
            color: self.color.enabled(),
        }
    }
}

/// Rendering options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Text or JSON.
    pub format: DiagnosticsFormat,
    /// Colour in the text form.
    pub color: bool,
}

/// What the diagnostics point into.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// Raw bundles (the `--disassemble` / `--lift` input).
    Bytes(&'a [u8]),
    /// Assembler text: parse errors point into it, validator diagnostics into the bundles it
    /// assembles to (for the target), each bundle traced back to its source line.
    Text(&'a str),
}

/// The bundle header fields (`NEURON_ISA_TPB_HEADER`, header-derived: opcode @0, inst_word_len
/// @1, debug_cmd @2, debug_hint @3; the seed's 2.1 skeleton calls bytes 2-3 reserved zero). The
/// format tables start after them, so they are named here, by byte.
const HEADER: [&str; 4] = ["opcode", "inst_word_len", "debug_cmd", "debug_hint"];

/// The field a bundle byte belongs to, for the caret and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldAt {
    /// Field name (a header field's, or `None` for a byte no field covers).
    pub name: Option<&'static str>,
    /// Its byte range in the bundle.
    pub range: Range<usize>,
    /// Its value as the disassembler prints it (`None` where it does not decode).
    pub value: Option<String>,
}

/// The field of `b`'s format (the target's layout of its opcode) that byte `offset` belongs
/// to; a header byte is its own field; a byte no field covers is a one-byte range without a
/// name, valued as hex. `None` for an offset outside the bundle.
pub fn field_at(b: &Bundle, offset: usize, arch: &ArchModel) -> Option<FieldAt> {
    let byte = *b.get(offset)?;
    if let Some(&name) = HEADER.get(offset) {
        let value = match (offset, formats::by_opcode_on(b[0], arch)) {
            (0, Some(f)) => format!("{byte:#04x} ({})", f.mnemonic),
            (0, None) => format!("{byte:#04x} (no format)"),
            _ => format!("{byte:#04x}"),
        };
        return Some(FieldAt {
            name: Some(name),
            range: offset..offset + 1,
            value: Some(value),
        });
    }
    let field = formats::by_opcode_on(b[0], arch)
        .and_then(|f| f.fields.iter().find(|x| x.range().contains(&offset)));
    Some(match field {
        Some(f) => {
            let mut v = String::new();
            f.format(&f.read(b), &mut v);
            FieldAt {
                name: Some(f.name),
                range: f.range(),
                // The printer writes `?` for a value of the wrong shape: no decoded value.
                value: (v != "?").then_some(v),
            }
        }
        None => FieldAt {
            name: None,
            range: offset..offset + 1,
            value: Some(format!("{byte:#04x}")),
        },
    })
}

/// Everything one diagnostic says, for both forms.
struct Facts<'a> {
    first: String,
    message: String,
    bundle: Option<usize>,
    offset: Option<usize>,
    field: Option<&'static str>,
    value: Option<String>,
    rule: Option<&'static str>,
    note: Option<String>,
    help: Option<String>,
    line: Option<usize>,
    col: Option<usize>,
    shown: Shown<'a>,
}

/// What the text form shows under the first line.
enum Shown<'a> {
    Nothing,
    /// Hex rows of `bytes` (input offset `base` first), carets under `span` (relative).
    Hex {
        bytes: &'a [u8],
        base: usize,
        title: String,
        span: Option<Range<usize>>,
        label: String,
    },
    /// The assembler source with a caret at (line, col).
    Source,
}

impl Facts<'_> {
    fn new(first: String, message: String) -> Self {
        Facts {
            first,
            message,
            bundle: None,
            offset: None,
            field: None,
            value: None,
            rule: None,
            note: None,
            help: None,
            line: None,
            col: None,
            shown: Shown::Nothing,
        }
    }

    /// The underlined input bytes.
    fn range(&self) -> Option<Range<usize>> {
        match &self.shown {
            Shown::Hex {
                base,
                span: Some(s),
                ..
            } => Some(base + s.start..base + s.end),
            _ => None,
        }
    }
}

fn source_name(s: RuleSource) -> &'static str {
    match s {
        RuleSource::Seed => "named by a seed",
        RuleSource::Header => "header-derived",
        RuleSource::Local => "a local check",
    }
}

/// The caret label: `name = value`, `reserved byte (no field) = 0x05`, or the name alone.
fn label_of(at: &FieldAt) -> String {
    match (at.name, &at.value) {
        (Some(n), Some(v)) => format!("{n} = {v}"),
        (Some(n), None) => n.to_string(),
        (None, Some(v)) => format!("reserved byte (no field) = {v}"),
        (None, None) => "reserved byte (no field)".to_string(),
    }
}

/// The hex block title of bundle `i`: where it comes from (`origin`, the input or the source
/// line it was assembled from), its format and its byte range in the input or the output.
fn bundle_title(b: &Bundle, i: usize, arch: &ArchModel, origin: &str, assembled: bool) -> String {
    let what = match formats::by_opcode_on(b[0], arch) {
        Some(f) => format!("{}, opcode {:#04x}", f.mnemonic, f.opcode),
        None => format!("unknown opcode {:#04x}", b[0]),
    };
    let at = i * BUNDLE_BYTES;
    format!(
        "{origin}: bundle {i} ({what}), {} bytes {at:#x}..{:#x}",
        if assembled { "assembled" } else { "input" },
        at + BUNDLE_BYTES
    )
}

/// The facts of a diagnostic pointing at byte `offset` of bundle `i` (bytes `bundles`).
fn bundle_facts<'a>(
    f: &mut Facts<'a>,
    bundles: &'a [u8],
    i: usize,
    offset: usize,
    arch: &ArchModel,
    origin: &str,
    assembled: bool,
) {
    f.bundle = Some(i);
    let start = i * BUNDLE_BYTES;
    let Some(b) = bundles
        .get(start..start + BUNDLE_BYTES)
        .and_then(|s| <&Bundle>::try_from(s).ok())
    else {
        return;
    };
    let at = field_at(b, offset, arch);
    if let Some(a) = &at {
        f.field = a.name;
        f.value = a.value.clone();
    }
    f.shown = Shown::Hex {
        bytes: b,
        base: start,
        title: bundle_title(b, i, arch, origin, assembled),
        span: at.as_ref().map(|a| a.range.clone()),
        label: at.as_ref().map(label_of).unwrap_or_default(),
    };
}

/// The 1-based source line of each bundle the assembler makes of `text`.
fn bundle_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(i, l)| matches!(text::parse_line(l, i + 1), Ok(Some(_))))
        .map(|(i, _)| i + 1)
        .collect()
}

fn facts<'a>(
    e: &StreamError,
    name: &str,
    bundles: &'a [u8],
    lines: &[usize],
    arch: &ArchModel,
) -> Facts<'a> {
    let mut f = Facts::new(e.render(name), String::new());
    match e {
        StreamError::Diag(d) => diag_facts(&mut f, d, name, bundles, lines, arch),
        StreamError::Decode(err) => {
            f.message = err.to_string();
            match err {
                DecodeError::Truncated { offset, trailing } => {
                    f.bundle = Some(offset / BUNDLE_BYTES);
                    f.offset = Some(*offset);
                    f.help = Some(format!(
                        "the input must be whole 64-byte bundles: {} bytes short of the next one, \
                         or {trailing} too many",
                        BUNDLE_BYTES.saturating_sub(*trailing)
                    ));
                    if let Some(tail) = bundles.get(*offset..) {
                        f.shown = Shown::Hex {
                            bytes: tail,
                            base: *offset,
                            title: format!("{name}: the partial bundle after the last whole one"),
                            span: Some(0..tail.len()),
                            label: format!("{} of 64 bytes", tail.len()),
                        };
                    }
                }
                DecodeError::Sequence { bundle, offset, .. } => {
                    f.offset = Some(*offset);
                    let rel = offset.checked_sub(bundle * BUNDLE_BYTES).unwrap_or(0);
                    bundle_facts(&mut f, bundles, *bundle, rel, arch, name, false);
                    f.help = Some(
                        "--lift reads the bundle sequences the encoders emit; --disassemble \
                         prints any valid bundle"
                            .into(),
                    );
                }
                DecodeError::UnknownOpcode(_) => {}
            }
        }
        StreamError::Parse(p) => parse_facts(&mut f, p),
    }
    f
}

fn diag_facts<'a>(
    f: &mut Facts<'a>,
    d: &Diagnostic,
    name: &str,
    bundles: &'a [u8],
    lines: &[usize],
    arch: &ArchModel,
) {
    f.message = d.message.clone();
    f.offset = Some(d.bundle * BUNDLE_BYTES + d.offset);
    f.rule = Some(d.rule);
    let rule = validate::RULES.iter().find(|r| r.name == d.rule);
    f.note = Some(match rule {
        Some(r) => format!("rule {} ({})", r.name, source_name(r.source)),
        None => format!("rule {}", d.rule),
    });
    f.help = rule.map(|r| r.check.to_string());
    // Assembled text: the bundle is traced to the line it came from.
    let assembled = !lines.is_empty();
    let origin = match lines.get(d.bundle) {
        Some(l) => {
            f.line = Some(*l);
            format!("{name}:{l}")
        }
        None => name.to_string(),
    };
    bundle_facts(f, bundles, d.bundle, d.offset, arch, &origin, assembled);
}

fn parse_facts(f: &mut Facts<'_>, p: &ParseError) {
    f.message = p.msg.clone();
    f.line = Some(p.line);
    f.col = Some(p.col);
    if p.msg.starts_with("unknown mnemonic") {
        f.help = Some("`sundial-mc --list-opcodes` lists every mnemonic".into());
    }
    f.shown = Shown::Source;
}

/// Renders every diagnostic of a failed run on `input` (named `name`) for `arch`.
pub fn render(
    errs: &[StreamError],
    name: &str,
    input: Input<'_>,
    arch: &ArchModel,
    opts: RenderOptions,
) -> String {
    let (owned, text, lines) = match input {
        Input::Bytes(_) => (Vec::new(), None, Vec::new()),
        Input::Text(t) => {
            // Validator diagnostics count the bundles the text assembles to; a text that does
            // not assemble has only its parse error, which points into the text.
            let bundles = text::assemble_on(t, arch)
                .map(|b| b.concat())
                .unwrap_or_default();
            (bundles, Some(t), bundle_lines(t))
        }
    };
    let bundles = match input {
        Input::Bytes(b) => b,
        Input::Text(_) => &owned,
    };
    let mut out = String::new();
    for e in errs {
        let f = facts(e, name, bundles, &lines, arch);
        emit(&f, name, text, opts, &mut out);
    }
    out
}

/// Renders the failure of `--assemble` on input that is not UTF-8: the first line as before,
/// then the 16-byte row holding the first bad byte with a caret under its sequence.
pub fn render_not_utf8(
    name: &str,
    bytes: &[u8],
    err: &std::str::Utf8Error,
    opts: RenderOptions,
) -> String {
    let at = err.valid_up_to();
    let message = format!("input is not UTF-8 text (byte offset {at:#x})");
    let mut f = Facts::new(format!("{name}: {message}"), message);
    f.offset = Some(at);
    f.help = Some("--assemble reads text; --disassemble and --lift read raw bundles".into());
    let base = at / 16 * 16;
    let row = bytes.get(base..bytes.len().min(base + 16)).unwrap_or(&[]);
    let bad = err
        .error_len()
        .unwrap_or(row.len().saturating_sub(at - base));
    if !row.is_empty() {
        f.shown = Shown::Hex {
            bytes: row,
            base,
            title: format!("{name}: the first byte that is not UTF-8"),
            span: Some(at - base..(at - base + bad.max(1)).min(row.len())),
            label: "not UTF-8".into(),
        };
    }
    let mut out = String::new();
    emit(&f, name, None, opts, &mut out);
    out
}

fn emit(f: &Facts<'_>, name: &str, text: Option<&str>, opts: RenderOptions, out: &mut String) {
    match opts.format {
        DiagnosticsFormat::Json => {
            let range = f.range().map(|r| [r.start, r.end]);
            let v = serde_json::json!({
                "severity": "error",
                "file": name,
                "bundle": f.bundle,
                "offset": f.offset,
                "range": range,
                "field": f.field,
                "value": f.value,
                "rule": f.rule,
                "help": f.help,
                "message": f.message,
                "line": f.line,
                "col": f.col,
            });
            out.push_str(&v.to_string());
            out.push('\n');
        }
        DiagnosticsFormat::Text => {
            out.push_str(&f.first);
            out.push('\n');
            let body = match (&f.shown, text) {
                (
                    Shown::Hex {
                        bytes,
                        base,
                        title,
                        span,
                        label,
                    },
                    _,
                ) => Some(hex_block(
                    bytes,
                    *base,
                    title,
                    span.clone(),
                    label,
                    f,
                    opts.color,
                )),
                (Shown::Source, Some(t)) => source_snippet(f, name, t, opts.color),
                _ => None,
            };
            if let Some(b) = body {
                out.push_str(&b);
            }
        }
    }
}

/// Writes with a style (a no-op style on a colourless buffer).
fn put(buf: &mut Buffer, spec: &ColorSpec, s: &str) {
    let _ = buf.set_color(spec);
    let _ = buf.write_all(s.as_bytes());
    let _ = buf.reset();
}

/// Text column of byte `i` of a hex row (two digits, a space, and an extra space after 8).
fn hex_col(i: usize) -> usize {
    3 * i + usize::from(i >= 8)
}

/// The hex row of up to 16 bytes.
fn hex_row(row: &[u8]) -> String {
    let mut s = String::with_capacity(48);
    for (i, x) in row.iter().enumerate() {
        if i == 8 {
            s.push(' ');
        }
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{x:02x}"));
    }
    s
}

/// The widest line the label is appended to; a longer label goes on its own line.
const WIDTH: usize = 100;

/// The hex rows of `bytes`, each headed by its input offset, with a caret line under the part
/// of `span` each row holds and `label` after the last caret; then the note and help lines.
fn hex_block(
    bytes: &[u8],
    base: usize,
    title: &str,
    span: Option<Range<usize>>,
    label: &str,
    f: &Facts<'_>,
    color: bool,
) -> String {
    let styles = Styles::default();
    let mut buf = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let last = base + bytes.len().saturating_sub(1) / 16 * 16;
    let digits = format!("{last:x}").len().max(4);
    let gutter = digits + 2;
    let pad = " ".repeat(gutter + 1);
    let border = &styles.source_border;
    put(&mut buf, border, &format!("{pad}┌─"));
    put(&mut buf, &ColorSpec::new(), &format!(" {title}\n"));
    put(&mut buf, border, &format!("{pad}│\n"));
    let rows = bytes.chunks(16).enumerate();
    // The last row the span reaches carries the label.
    let label_row = span
        .as_ref()
        .filter(|s| !s.is_empty())
        .map(|s| (s.end - 1) / 16);
    for (r, row) in rows {
        put(
            &mut buf,
            &styles.line_number,
            &format!("0x{:0digits$x}", base + r * 16),
        );
        put(&mut buf, border, " │ ");
        put(&mut buf, &ColorSpec::new(), &format!("{}\n", hex_row(row)));
        let Some(s) = &span else { continue };
        let (lo, hi) = (s.start.max(r * 16), s.end.min(r * 16 + row.len()));
        if lo >= hi {
            continue;
        }
        let (c0, c1) = (hex_col(lo - r * 16), hex_col(hi - 1 - r * 16) + 2);
        put(&mut buf, border, &format!("{pad}│ "));
        let mut carets = format!("{}{}", " ".repeat(c0), "^".repeat(c1 - c0));
        if label_row == Some(r) && !label.is_empty() {
            if gutter + 3 + c1 + 1 + label.len() <= WIDTH {
                carets.push(' ');
                carets.push_str(label);
            } else {
                put(
                    &mut buf,
                    &styles.primary_label_error,
                    &format!("{carets}\n"),
                );
                put(&mut buf, border, &format!("{pad}│ "));
                carets = format!("{}{label}", " ".repeat(c0));
            }
        }
        put(
            &mut buf,
            &styles.primary_label_error,
            &format!("{carets}\n"),
        );
    }
    put(&mut buf, border, &format!("{pad}│\n"));
    for (kind, text) in [("note", &f.note), ("help", &f.help)] {
        if let Some(t) = text {
            put(&mut buf, &styles.note_bullet, &format!("{pad}="));
            put(&mut buf, &ColorSpec::new(), &format!(" {kind}: {t}\n"));
        }
    }
    // A blank line ends the diagnostic, as codespan's snippets end.
    put(&mut buf, &ColorSpec::new(), "\n");
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// Byte offset of 1-based (line, character column) in `text`, if it is inside it.
fn offset_of(text: &str, line: usize, col: usize) -> Option<usize> {
    let mut start = 0usize;
    for _ in 1..line {
        start += text.get(start..)?.find('\n')? + 1;
    }
    let rest = text.get(start..)?;
    let line_text = rest.split('\n').next().unwrap_or("");
    if col == 0 {
        return None;
    }
    match line_text.char_indices().nth(col - 1) {
        Some((i, _)) => Some(start + i),
        // The column just past the line's last character (a missing-field error).
        None if line_text.chars().count() + 1 == col => Some(start + line_text.len()),
        None => None,
    }
}

/// The codespan snippet of the source line with a caret under the token at the column.
fn source_snippet(f: &Facts<'_>, name: &str, text: &str, color: bool) -> Option<String> {
    let at = offset_of(text, f.line?, f.col?)?;
    let rest = text.get(at..)?;
    let len = rest
        .find(|c: char| c.is_whitespace() || c == '#')
        .unwrap_or(rest.len());
    let span = at..at + len.max(rest.chars().next().map_or(0, char::len_utf8));
    let mut notes = Vec::new();
    if let Some(h) = &f.help {
        notes.push(format!("help: {h}"));
    }
    let report = Report::error()
        .with_message(&f.message)
        .with_labels(vec![Label::primary((), span)])
        .with_notes(notes);
    let file = SimpleFile::new(name, text);
    let mut buf = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    term::emit(&mut buf, &Config::default(), &file, &report).ok()?;
    let rendered = String::from_utf8_lossy(buf.as_slice()).into_owned();
    // codespan's own header repeats the message: the first line above already says it.
    rendered.split_once('\n').map(|(_, b)| b.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Target;

    fn plain() -> RenderOptions {
        RenderOptions {
            format: DiagnosticsFormat::Text,
            color: false,
        }
    }

    /// A bundle of the first format with a one-byte field after the header.
    fn sample() -> (
        &'static formats::Format,
        Bundle,
        &'static crate::fields::Field,
    ) {
        let arch = Target::Mariana.model();
        let fmt = formats::FORMATS
            .iter()
            .copied()
            .find(|f| arch.has(f.family))
            .expect("a mariana format");
        let mut b = [0u8; 64];
        crate::bundle::setup_header(&mut b, fmt.opcode);
        let field = fmt
            .fields
            .iter()
            .find(|x| x.kind.width() > 1 && x.offset >= 16)
            .expect("a wide field");
        (fmt, b, field)
    }

    #[test]
    fn field_at_names_the_field_the_offset_belongs_to() {
        let arch = Target::Mariana.model();
        let (fmt, b, field) = sample();
        let inside = field.range().end - 1;
        let at = field_at(&b, inside, arch).unwrap();
        assert_eq!(at.name, Some(field.name));
        assert_eq!(at.range, field.range());
        let mut want = String::new();
        field.format(&field.read(&b), &mut want);
        assert_eq!(at.value.as_deref(), Some(want.as_str()));
        // Header bytes are their own fields.
        let op = field_at(&b, 0, arch).unwrap();
        assert_eq!(op.name, Some("opcode"));
        assert_eq!(
            op.value,
            Some(format!("{:#04x} ({})", fmt.opcode, fmt.mnemonic))
        );
        assert_eq!(field_at(&b, 1, arch).unwrap().name, Some("inst_word_len"));
        assert_eq!(field_at(&b, 64, arch), None);
    }

    #[test]
    fn a_byte_no_field_covers_is_a_single_byte() {
        let arch = Target::Mariana.model();
        let fmt = formats::FORMATS
            .iter()
            .copied()
            .find(|f| {
                (4..64).any(|i| !f.covers(i))
                    && formats::by_opcode_on(f.opcode, arch).is_some_and(|t| std::ptr::eq(t, *f))
            })
            .expect("a format with a reserved byte that is its target layout");
        let gap = (4..64).find(|&i| !fmt.covers(i)).unwrap();
        let mut b = [0u8; 64];
        crate::bundle::setup_header(&mut b, fmt.opcode);
        b[gap] = 5;
        let at = field_at(&b, gap, arch).unwrap();
        assert_eq!(at.name, None);
        assert_eq!(at.range, gap..gap + 1);
        assert_eq!(at.value.as_deref(), Some("0x05"));
        assert_eq!(label_of(&at), "reserved byte (no field) = 0x05");
        // An unknown opcode: every byte past the header is uncovered.
        let mut u = [0u8; 64];
        u[0] = 0xEE;
        assert!(formats::by_opcode_on(0xEE, arch).is_none());
        assert_eq!(
            field_at(&u, 0, arch).unwrap().value.as_deref(),
            Some("0xee (no format)")
        );
        assert_eq!(field_at(&u, 40, arch).unwrap().range, 40..41);
    }

    #[test]
    fn hex_columns_and_rows() {
        assert_eq!(hex_col(0), 0);
        assert_eq!(hex_col(7), 21);
        assert_eq!(hex_col(8), 25);
        let row: Vec<u8> = (0..16).collect();
        let s = hex_row(&row);
        assert_eq!(s, "00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f");
        for i in 0..16 {
            assert_eq!(&s[hex_col(i)..hex_col(i) + 2], format!("{i:02x}"));
        }
    }

    fn diag_at(
        b: &Bundle,
        bundle: usize,
        offset: usize,
        rule: &'static str,
    ) -> (Vec<u8>, StreamError) {
        let mut bytes = vec![0u8; bundle * 64];
        for k in 0..bundle {
            crate::bundle::setup_header(
                (&mut bytes[k * 64..k * 64 + 64]).try_into().unwrap(),
                b[0],
            );
        }
        bytes.extend_from_slice(b);
        let e = StreamError::Diag(Diagnostic {
            rule,
            bundle,
            offset,
            message: "bad".into(),
        });
        (bytes, e)
    }

    /// The caret line under the row of `needle` and the row itself.
    fn caret_under(out: &str, row_prefix: &str) -> (String, String) {
        let lines: Vec<&str> = out.lines().collect();
        let i = lines
            .iter()
            .position(|l| l.starts_with(row_prefix))
            .unwrap_or_else(|| panic!("no row {row_prefix} in\n{out}"));
        (lines[i].to_string(), lines[i + 1].to_string())
    }

    #[test]
    fn a_validator_diagnostic_shows_the_bundle_with_a_caret_under_the_field() {
        let arch = Target::Mariana.model();
        let (_fmt, mut b, field) = sample();
        let r = field.range();
        for (k, i) in r.clone().enumerate() {
            b[i] = 0xA0 + k as u8;
        }
        let (bytes, e) = diag_at(&b, 1, r.start, "reserved_zero");
        let out = render(
            std::slice::from_ref(&e),
            "x.bin",
            Input::Bytes(&bytes),
            arch,
            plain(),
        );
        let first = out.lines().next().unwrap();
        assert_eq!(first, e.render("x.bin"));
        // Four rows of the second bundle, headed by their input offsets.
        for o in [0x40, 0x50, 0x60, 0x70] {
            assert!(out.contains(&format!("0x{o:04x} │ ")), "{out}");
        }
        // Carets exactly under the field's bytes, row by row.
        let start_row = 0x40 + r.start / 16 * 16;
        let (row, carets) = caret_under(&out, &format!("0x{start_row:04x} "));
        let hex_at = row.find('│').unwrap() + '│'.len_utf8() + 1;
        let caret_at = carets.find('│').unwrap() + '│'.len_utf8() + 1;
        assert_eq!(hex_at, caret_at);
        let first_col = hex_at + hex_col(r.start % 16);
        assert_eq!(&row[first_col..first_col + 2], "a0");
        assert_eq!(carets.find('^'), Some(first_col), "{out}");
        if r.end.div_ceil(16) == r.start / 16 + 1 {
            let last = hex_at + hex_col((r.end - 1) % 16) + 2;
            assert_eq!(&carets[first_col..last], "^".repeat(last - first_col));
            assert!(!carets[last..].contains('^'));
        }
        assert!(out.contains(&format!("{} = ", field.name)), "{out}");
        assert!(
            out.contains("= note: rule reserved_zero (a local check)"),
            "{out}"
        );
        assert!(
            out.contains("= help: bytes no field covers are zero (pxor-zeroed bundle)"),
            "{out}"
        );
        assert!(!out.contains('\x1b'));
    }

    #[test]
    fn every_line_fits_in_100_columns_and_colour_is_optional() {
        let arch = Target::Mariana.model();
        let (_fmt, b, field) = sample();
        let (bytes, e) = diag_at(&b, 0, field.offset as usize, "known_opcode");
        let out = render(
            std::slice::from_ref(&e),
            "x.bin",
            Input::Bytes(&bytes),
            arch,
            plain(),
        );
        for l in out.lines().skip(1) {
            assert!(l.chars().count() <= WIDTH, "{l}");
        }
        let color = RenderOptions {
            color: true,
            ..plain()
        };
        let c = render(
            std::slice::from_ref(&e),
            "x.bin",
            Input::Bytes(&bytes),
            arch,
            color,
        );
        assert!(c.contains("\x1b["));
        // The first line is never coloured.
        assert_eq!(c.lines().next().unwrap(), e.render("x.bin"));
    }

    #[test]
    fn a_truncated_input_underlines_the_partial_bundle() {
        let arch = Target::Mariana.model();
        let bytes = [0x11u8; 64 + 5];
        let e = StreamError::Decode(crate::decode::split(&bytes).unwrap_err());
        let out = render(
            std::slice::from_ref(&e),
            "t.bin",
            Input::Bytes(&bytes),
            arch,
            plain(),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], e.render("t.bin"));
        let (row, carets) = caret_under(&out, "0x0040 ");
        assert!(row.ends_with("│ 11 11 11 11 11"), "{row}");
        assert!(
            carets.ends_with("│ ^^^^^^^^^^^^^^ 5 of 64 bytes"),
            "{carets}"
        );
        assert!(out.contains("59 bytes short"));
    }

    #[test]
    fn a_parse_error_shows_the_source_line_with_a_caret() {
        let arch = Target::Mariana.model();
        let text = "# c\n  dropout bogus\n";
        let e = StreamError::Parse(text::assemble_on(text, arch).unwrap_err());
        let out = render(
            std::slice::from_ref(&e),
            "a.s",
            Input::Text(text),
            arch,
            plain(),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "a.s:2:11: expected `field=value`, found `bogus`");
        let src = lines
            .iter()
            .position(|l| l.ends_with("  dropout bogus"))
            .unwrap();
        let caret = lines[src + 1];
        let col = lines[src].find("bogus").unwrap();
        assert_eq!(caret.find('^'), Some(col), "{out}");
        assert_eq!(caret.trim_end().rfind('^'), Some(col + 4), "{out}");
    }

    #[test]
    fn json_has_every_key_on_one_line() {
        let arch = Target::Mariana.model();
        let (_fmt, b, field) = sample();
        let (bytes, e) = diag_at(&b, 0, field.offset as usize, "reserved_zero");
        let opts = RenderOptions {
            format: DiagnosticsFormat::Json,
            color: true,
        };
        let out = render(&[e.clone(), e], "x.bin", Input::Bytes(&bytes), arch, opts);
        assert_eq!(out.lines().count(), 2);
        for l in out.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["severity"], "error");
            assert_eq!(v["field"], field.name);
            assert_eq!(v["rule"], "reserved_zero");
            assert_eq!(v["offset"], field.offset as u64);
            let r = field.range();
            assert_eq!(v["range"], serde_json::json!([r.start, r.end]));
            assert!(v["line"].is_null() && v["col"].is_null());
        }
    }

    #[test]
    fn not_utf8_underlines_the_bad_byte() {
        let bytes: Vec<u8> = [&b"dropout "[..], &[0xFF, 0xFE]].concat();
        let err = std::str::from_utf8(&bytes).unwrap_err();
        let out = render_not_utf8("<stdin>", &bytes, &err, plain());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "<stdin>: input is not UTF-8 text (byte offset 0x8)"
        );
        let (_, carets) = caret_under(&out, "0x0000 ");
        let at = carets.find('│').unwrap() + '│'.len_utf8() + 1 + hex_col(8);
        assert_eq!(carets.find('^'), Some(at), "{out}");
        assert!(carets.ends_with("^^ not UTF-8"), "{carets}");
    }

    #[test]
    fn a_field_across_rows_has_carets_on_each_row_and_one_label() {
        let arch = Target::Mariana.model();
        // A field whose bytes cross a 16-byte row boundary, in a format that is its target's
        // layout.
        let (fmt, field) = formats::FORMATS
            .iter()
            .copied()
            .filter(|f| formats::by_opcode_on(f.opcode, arch).is_some_and(|t| std::ptr::eq(t, *f)))
            .find_map(|f| {
                f.fields
                    .iter()
                    .find(|x| x.range().start / 16 != (x.range().end - 1) / 16)
                    .map(|x| (f, x))
            })
            .expect("a field across rows");
        let mut b = [0u8; 64];
        crate::bundle::setup_header(&mut b, fmt.opcode);
        let r = field.range();
        let (bytes, e) = diag_at(&b, 0, r.start, "reserved_zero");
        let out = render(
            std::slice::from_ref(&e),
            "x",
            Input::Bytes(&bytes),
            arch,
            plain(),
        );
        let lines: Vec<&str> = out.lines().collect();
        let (first_row, last_row) = (r.start / 16, (r.end - 1) / 16);
        for row in 0..4 {
            let i = lines
                .iter()
                .position(|l| l.starts_with(&format!("0x{:04x} ", row * 16)))
                .unwrap();
            let next = lines[i + 1];
            let covered = (first_row..=last_row).contains(&row);
            assert_eq!(next.contains('^'), covered, "row {row}:\n{out}");
            // Only the last row the field reaches carries the label (on the caret line or,
            // when it is too long, on the line after it).
            let labelled = next.contains(&format!("{} =", field.name))
                || lines[i + 2].contains(&format!("{} =", field.name));
            assert_eq!(labelled, row == last_row, "row {row}:\n{out}");
            if covered {
                let border = next.find('│').unwrap() + '│'.len_utf8() + 1;
                let lo = r.start.max(row * 16) - row * 16;
                let hi = r.end.min(row * 16 + 16) - row * 16;
                let marks = &next[border..];
                assert_eq!(marks.find('^'), Some(hex_col(lo)), "{out}");
                let end = hex_col(hi - 1) + 2;
                assert_eq!(&marks[hex_col(lo)..end], "^".repeat(end - hex_col(lo)));
                assert!(!marks[end..].contains('^'));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Random input never panics the renderer; every diagnostic keeps its first line, fits
        /// its hex rows in 100 columns, and is one parseable JSON line.
        #[test]
        fn random_bytes_render_without_panicking(
            bundles in proptest::collection::vec(
                (0..formats::FORMATS.len(), proptest::collection::vec(proptest::prelude::any::<u8>(), 63)),
                1..4,
            ),
            tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3),
            t in 0usize..3,
        ) {
            let arch = Target::ALL[t].model();
            // Whole bundles with a known opcode in byte 0 (and random bytes after it), so the
            // field lookups run; sometimes a partial bundle after them.
            let mut bytes = Vec::new();
            for (op, rest) in &bundles {
                bytes.push(formats::FORMATS[*op].opcode);
                bytes.extend_from_slice(rest);
            }
            bytes.extend_from_slice(&tail);
            let Err(errs) = text::disassemble_stream(&bytes, arch) else {
                return Ok(());
            };
            let out = render(&errs, "r", Input::Bytes(&bytes), arch, plain());
            for e in &errs {
                let first = e.render("r");
                proptest::prop_assert!(out.lines().any(|l| l == first));
            }
            for l in out.lines().filter(|l| l.starts_with("0x")) {
                proptest::prop_assert!(l.chars().count() <= WIDTH);
            }
            let json = RenderOptions { format: DiagnosticsFormat::Json, color: false };
            let j = render(&errs, "r", Input::Bytes(&bytes), arch, json);
            proptest::prop_assert_eq!(j.lines().count(), errs.len());
            for l in j.lines() {
                proptest::prop_assert!(serde_json::from_str::<serde_json::Value>(l).is_ok());
            }
            // The same bytes as (mostly invalid) assembler text.
            let text = String::from_utf8_lossy(&bytes);
            if let Err(errs) = text::assemble_stream(&text, arch) {
                let out = render(&errs, "r", Input::Text(&text), arch, plain());
                proptest::prop_assert!(out.starts_with(&errs[0].render("r")));
            }
        }
    }

    #[test]
    fn offsets_of_columns() {
        assert_eq!(offset_of("ab\ncd", 2, 1), Some(3));
        assert_eq!(offset_of("ab\ncd", 2, 3), Some(5));
        assert_eq!(offset_of("ab\ncd", 2, 4), None);
        assert_eq!(offset_of("ab\ncd", 3, 1), None);
        assert_eq!(offset_of("é=x", 1, 2), Some(2));
    }
}
