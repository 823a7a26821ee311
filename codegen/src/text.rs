//! Disassembler and assembler: the `sundial-mc` text format.
//!
//! One line per bundle: the format's mnemonic followed by every field of its table as
//! `name=value`, in table order, separated by single spaces. Values never contain spaces.
//!
//! | kind | text |
//! |------|------|
//! | integers | decimal (`0x` hex for addresses, ADDR8 words, IMM values and the 0x67 vector depth) |
//! | dtype | `bf16`, `fp32`, ... (`0xNN` for an unnamed code); a `DTYPE_PAIR` is `lo:hi` |
//! | enums | the table name (`is_ge`, `sem_inc`, ...) or `0xNN` |
//! | f32 | shortest round-tripping decimal (`-3.4028235e38`), `0x` bits for NaN |
//! | ADDR4 | `sb[P]+0xOFF`, `ps[P]+0xOFF`, `rN`, with `!ind` / `!shape` mode suffixes, or raw `0xXXXXXXXX` |
//! | TENSORnD | `tNd(ADDR;step0,..;num0,..)` |
//! | INDIRECT16B/20B | `i16b(INDEX;DATA;NUM)` / `i20b(...)`, plus `;inert=HEX` if an inert byte is nonzero |
//! | lane map | 64 hex digits |
//! | DATA4D | `d4d(BASE;step0,..,step3;num0,..,num3)` (base signed decimal, four lanes) |
//! | MXMEM_PATTERN1D / MXINDIRECT16B | `mx1d(DATA;SCALE;K;STEP;PART)` / `mxi16b(INDEX;DATA;SCALE;NUM;PART)`, plus `;rsv=HEX` / `;spare=HEX` if those bytes are nonzero |
//!
//! The PE formats have one layout per core (`formats::pe_dma`): `matmul` / `ldweights` are the
//! sunda/cayman layouts of 0x02 / 0x01, `matmul_v4` / `ldweights_v4` mariana's. [`disassemble`]
//! and [`assemble`] know no target and use the opcode's default (`FORMATS`) layout;
//! [`disassemble_stream`], [`assemble_on`] and [`assemble_stream`] use the target's.
//!
//! The assembler accepts the fields in any order (each exactly once), numbers in decimal or
//! `0x` hex, blank lines and `#` comments. Errors carry 1-based line:column.

use crate::arch::ArchModel;
use crate::bundle::Bundle;
use crate::decode::{self, Decoded};
use crate::error::{DecodeError, ParseError};
use crate::formats;
use crate::validate::{self, Diagnostic};

/// Prints a decoded bundle as one line.
pub fn format_decoded(d: &Decoded) -> String {
    let mut s = String::with_capacity(256);
    s.push_str(d.format.mnemonic);
    for (f, v) in d.format.fields.iter().zip(&d.values) {
        s.push(' ');
        s.push_str(f.name);
        s.push('=');
        f.format(v, &mut s);
    }
    s
}

/// Decodes and prints one bundle (no validation).
pub fn disassemble(b: &Bundle) -> Result<String, DecodeError> {
    decode::decode(b).map(|d| format_decoded(&d))
}

fn col(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// Parses one line; `Ok(None)` for a blank or comment-only line. `lineno` is 1-based.
pub fn parse_line(line: &str, lineno: usize) -> Result<Option<Decoded>, ParseError> {
    let code = match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    };
    let err = |byte: usize, msg: String| ParseError {
        line: lineno,
        col: col(line, byte),
        msg,
    };
    // Tokens with their byte offsets.
    let mut toks = Vec::new();
    let mut start = None;
    for (i, ch) in code.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                toks.push((s, &code[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        toks.push((s, &code[s..]));
    }
    let Some(&(m_at, mnemonic)) = toks.first() else {
        return Ok(None);
    };
    let format = formats::by_mnemonic(mnemonic)
        .ok_or_else(|| err(m_at, format!("unknown mnemonic `{mnemonic}`")))?;
    let mut values = vec![None; format.fields.len()];
    for &(at, tok) in &toks[1..] {
        let (name, val) = tok
            .split_once('=')
            .ok_or_else(|| err(at, format!("expected `field=value`, found `{tok}`")))?;
        let i = format
            .fields
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| err(at, format!("{mnemonic} has no field `{name}`")))?;
        if values[i].is_some() {
            return Err(err(at, format!("field `{name}` given twice")));
        }
        let v = format.fields[i]
            .parse(val)
            .map_err(|m| err(at + name.len() + 1, m))?;
        values[i] = Some(v);
    }
    let missing: Vec<&str> = format
        .fields
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(f, _)| f.name)
        .collect();
    if !missing.is_empty() {
        return Err(err(
            code.trim_end().len(),
            format!("missing field(s): {}", missing.join(", ")),
        ));
    }
    Ok(Some(Decoded {
        format,
        values: values
            .into_iter()
            .map(|v| v.expect("checked above"))
            .collect(),
    }))
}

/// Assembles text into bundles (no validation).
pub fn assemble(text: &str) -> Result<Vec<Bundle>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(d) = parse_line(line, i + 1)? {
            out.push(d.encode());
        }
    }
    Ok(out)
}

/// Assembles text for one target: as [`assemble`], and each line's format must be the target's
/// layout of its opcode (`matmul` is the sunda/cayman layout of 0x02, `matmul_v4` mariana's).
pub fn assemble_on(text: &str, arch: &ArchModel) -> Result<Vec<Bundle>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(d) = parse_line(line, i + 1)? {
            if let Some(want) = formats::by_opcode_on(d.format.opcode, arch)
                && !std::ptr::eq(want, d.format)
            {
                let at = line.len() - line.trim_start().len();
                return Err(ParseError {
                    line: i + 1,
                    col: col(line, at),
                    msg: format!(
                        "`{}` is not the {} layout of opcode {:#04x}; write `{}`",
                        d.format.mnemonic, arch.target, d.format.opcode, want.mnemonic
                    ),
                });
            }
            out.push(d.encode());
        }
    }
    Ok(out)
}

/// A failure of a whole-stream operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// A validator (or unknown-opcode) failure on a bundle.
    Diag(Diagnostic),
    /// The input is not a whole number of bundles.
    Decode(DecodeError),
    /// Bad assembler text.
    Parse(ParseError),
}

impl StreamError {
    /// Renders the message with the input's name: `<file>: bundle N (byte offset 0xOFF): rule
    /// R: message`, `<file>: truncated input: ...`, or `<file>:L:C: message`.
    pub fn render(&self, file: &str) -> String {
        match self {
            StreamError::Diag(d) => format!("{file}: {d}"),
            StreamError::Decode(e) => format!("{file}: {e}"),
            StreamError::Parse(e) => format!("{file}:{e}"),
        }
    }
}

/// Validates a sequence of bundles; every failure, in order.
pub fn validate_all(bundles: &[Bundle], arch: &ArchModel) -> Vec<StreamError> {
    bundles
        .iter()
        .enumerate()
        .flat_map(|(i, b)| validate::validate_bundle(b, i, arch))
        .map(StreamError::Diag)
        .collect()
}

/// Disassembles a raw stream: one line per bundle. Any invalid bundle makes the whole call fail
/// with every diagnostic and no text.
pub fn disassemble_stream(bytes: &[u8], arch: &ArchModel) -> Result<String, Vec<StreamError>> {
    let bundles: Vec<Bundle> = decode::split(bytes)
        .map_err(|e| vec![StreamError::Decode(e)])?
        .into_iter()
        .copied()
        .collect();
    let errs = validate_all(&bundles, arch);
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut out = String::with_capacity(bundles.len() * 320);
    for b in &bundles {
        let d = decode::decode_on(b, arch).map_err(|e| vec![StreamError::Decode(e)])?;
        out.push_str(&format_decoded(&d));
        out.push('\n');
    }
    Ok(out)
}

/// Assembles text and validates the result; any failure makes the whole call fail.
pub fn assemble_stream(text: &str, arch: &ArchModel) -> Result<Vec<u8>, Vec<StreamError>> {
    let bundles = assemble_on(text, arch).map_err(|e| vec![StreamError::Parse(e)])?;
    let errs = validate_all(&bundles, arch);
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(bundles.concat())
}
