//! `--verify-diagnostics`: matching emitted diagnostics against `expected-*` comments.
//!
//! The comment syntax is MLIR's: `// expected-error {{text}}` on the line the diagnostic
//! points at, or `expected-error@+N` / `@-N` (relative line), `@above` / `@below`, `@N`
//! (absolute line); also `expected-warning`, `expected-note` and `expected-remark`. The text
//! matches when it is a substring of the message. Every diagnostic (notes included) must be
//! expected and every expectation met. MLIR's "see current operation" notes are ignored here,
//! as mlir-opt disables them in this mode.

use sundial_dialects::diag::{Diagnostic, Severity};

/// One `expected-*` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// Expected severity.
    pub severity: Severity,
    /// Line (in the original buffer) the diagnostic must point at.
    pub line: usize,
    /// Substring the message must contain.
    pub text: String,
    /// Line of the comment itself (for "was not produced" reports).
    pub comment_line: usize,
    /// Column of the comment.
    pub comment_col: usize,
    matched: bool,
}

/// A malformed `expected-*` comment: (line, column, message).
pub type SyntaxError = (usize, usize, String);

/// Collects the expectations of a chunk whose first line is `first_line` in the buffer.
pub fn parse(text: &[u8], first_line: usize) -> Result<Vec<Expectation>, SyntaxError> {
    let text = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = first_line + i;
        let mut search = 0usize;
        while let Some(pos) = line[search..].find("expected-") {
            let at = search + pos;
            search = at + "expected-".len();
            let rest = &line[search..];
            let (severity, kind_len) = if rest.starts_with("error") {
                (Severity::Error, 5)
            } else if rest.starts_with("warning") {
                (Severity::Warning, 7)
            } else if rest.starts_with("note") {
                (Severity::Note, 4)
            } else if rest.starts_with("remark") {
                (Severity::Remark, 6)
            } else {
                continue;
            };
            let mut rest = &rest[kind_len..];
            let mut target = line_no as i64;
            if let Some(spec) = rest.strip_prefix('@') {
                let end = spec
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(spec.len());
                let token = &spec[..end];
                target = match token {
                    "above" => line_no as i64 - 1,
                    "below" => line_no as i64 + 1,
                    t if t.starts_with('+') => t[1..]
                        .parse::<i64>()
                        .map(|n| line_no as i64 + n)
                        .map_err(|_| (line_no, at + 1, format!("bad line offset '@{t}'")))?,
                    t if t.starts_with('-') => t[1..]
                        .parse::<i64>()
                        .map(|n| line_no as i64 - n)
                        .map_err(|_| (line_no, at + 1, format!("bad line offset '@{t}'")))?,
                    t => t
                        .parse::<i64>()
                        .map_err(|_| (line_no, at + 1, format!("bad line designator '@{t}'")))?,
                };
                rest = &spec[end..];
            }
            let rest_trim = rest.trim_start();
            let Some(body) = rest_trim.strip_prefix("{{") else {
                return Err((
                    line_no,
                    at + 1,
                    "expected '{{' after the expected-* directive".into(),
                ));
            };
            let Some(close) = body.find("}}") else {
                return Err((
                    line_no,
                    at + 1,
                    "expected '}}' to close the expected message".into(),
                ));
            };
            if target < 1 {
                return Err((
                    line_no,
                    at + 1,
                    "the expected line is before the start of the file".into(),
                ));
            }
            out.push(Expectation {
                severity,
                line: target as usize,
                text: body[..close].to_string(),
                comment_line: line_no,
                comment_col: at + 1,
                matched: false,
            });
        }
    }
    Ok(out)
}

/// Matches `diags` against `expected`; returns the report lines (empty: everything matched).
pub fn check(file: &str, diags: &[Diagnostic], mut expected: Vec<Expectation>) -> Vec<String> {
    let mut report = Vec::new();
    let mut flat = Vec::new();
    for d in diags {
        flat.push(d);
        for n in &d.notes {
            if !n.message.starts_with("see current operation") {
                flat.push(n);
            }
        }
    }
    for d in flat {
        let line = d
            .loc
            .as_ref()
            .filter(|l| l.file == file || l.file.is_empty())
            .map(|l| l.line);
        let hit = expected.iter_mut().find(|e| {
            !e.matched
                && e.severity == d.severity
                && Some(e.line) == line
                && d.message.contains(&e.text)
        });
        match hit {
            Some(e) => e.matched = true,
            None => {
                let at = match &d.loc {
                    Some(l) => format!(
                        "{}:{}:{}",
                        if l.file.is_empty() { file } else { &l.file },
                        l.line,
                        l.col
                    ),
                    None => file.to_string(),
                };
                report.push(format!(
                    "{at}: error: unexpected {}: {}",
                    d.severity, d.message
                ));
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        report.push(format!(
            "{file}:{}:{}: error: expected {} \"{}\" was not produced",
            e.comment_line, e.comment_col, e.severity, e.text
        ));
    }
    report
}
