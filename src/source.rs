//! Input buffers: `--split-input-file` chunks and the guards run before MLIR parses.
//!
//! Chunks keep their position in the original file: each chunk is padded with the newlines
//! that precede it, so every diagnostic's `line:col` is a position in the file the user wrote.
//!
//! [`hazard`] rejects, before MLIR sees them, the inputs that would crash or mislead MLIR's
//! parser (too-deep nesting, NUL bytes, a dense-array parser crash), with a position.

/// The split marker line, as in `mlir-opt`.
pub const SPLIT_MARKER: &str = "// -----";

/// Deepest bracket nesting accepted (real IR stays far below it).
pub const MAX_NESTING: usize = 512;

/// One chunk of an input buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// 1-based line of the chunk's first line in the original buffer.
    pub first_line: usize,
    /// The chunk's bytes, preceded by `first_line - 1` newlines.
    pub padded: Vec<u8>,
    /// The chunk's own bytes (for expected-diagnostic comments).
    pub text: Vec<u8>,
}

fn is_marker(line: &[u8]) -> bool {
    let trimmed = line
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .copied()
        .collect::<Vec<u8>>();
    trimmed.starts_with(SPLIT_MARKER.as_bytes())
}

/// Splits a buffer on marker lines (or returns it whole when `split` is false).
pub fn split(buffer: &[u8], split: bool) -> Vec<Chunk> {
    if !split {
        return vec![Chunk {
            first_line: 1,
            padded: buffer.to_vec(),
            text: buffer.to_vec(),
        }];
    }
    let mut chunks = Vec::new();
    let mut current = Vec::new();
    let mut first_line = 1usize;
    for (line_no, line) in (1usize..).zip(buffer.split_inclusive(|b| *b == b'\n')) {
        if is_marker(line) {
            chunks.push((first_line, std::mem::take(&mut current)));
            first_line = line_no + 1;
        } else {
            current.extend_from_slice(line);
        }
    }
    chunks.push((first_line, current));
    chunks
        .into_iter()
        .map(|(first_line, text)| {
            let mut padded = vec![b'\n'; first_line - 1];
            padded.extend_from_slice(&text);
            Chunk {
                first_line,
                padded,
                text,
            }
        })
        .collect()
}

/// An input MLIR must not see: where it is and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The diagnostic message.
    pub message: String,
}

/// Scans a buffer for inputs that crash or mislead MLIR 22's parser, before MLIR sees them:
/// - a NUL byte (the lexer stops there and silently ignores the rest of the buffer);
/// - bracket nesting deeper than [`MAX_NESTING`] (the parser, verifier and printer recurse
///   once per level and would overflow the stack);
/// - `array<index ...>` (MLIR 22's dense-array parser accepts `index` as an element type and
///   then crashes computing its bit width; `mlir-opt` segfaults on it too).
///
/// Strings and `//` comments are skipped; `->` and `>=` do not close a bracket.
pub fn hazard(buffer: &[u8]) -> Option<Hazard> {
    let mut depth = 0usize;
    let (mut line, mut col) = (1usize, 0usize);
    let mut i = 0usize;
    let n = buffer.len();
    let at = |line, col, message: String| Some(Hazard { line, col, message });
    while i < n {
        let b = buffer[i];
        col += 1;
        match b {
            0 => {
                return at(
                    line,
                    col,
                    format!("unexpected NUL byte at offset {i} (the input is not MLIR text)"),
                );
            }
            b'\n' => {
                line += 1;
                col = 0;
            }
            b'"' => {
                // Skip the string literal (with escapes), keeping line/col in step.
                i += 1;
                while i < n && buffer[i] != b'"' {
                    if buffer[i] == 0 {
                        return at(
                            line,
                            col + 1,
                            format!(
                                "unexpected NUL byte at offset {i} (the input is not MLIR text)"
                            ),
                        );
                    }
                    if buffer[i] == b'\\' {
                        i += 1;
                        col += 1;
                    }
                    if i < n && buffer[i] == b'\n' {
                        line += 1;
                        col = 0;
                    } else {
                        col += 1;
                    }
                    i += 1;
                }
                col += 1;
            }
            b'/' if buffer.get(i + 1) == Some(&b'/') => {
                while i < n && buffer[i] != b'\n' {
                    if buffer[i] == 0 {
                        return at(
                            line,
                            col,
                            format!(
                                "unexpected NUL byte at offset {i} (the input is not MLIR text)"
                            ),
                        );
                    }
                    i += 1;
                    col += 1;
                }
                col -= 1;
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return at(
                        line,
                        col,
                        format!(
                            "nesting deeper than {MAX_NESTING} levels is not supported (this input would exhaust the parser's stack)"
                        ),
                    );
                }
                if b == b'<'
                    && i >= 5
                    && &buffer[i - 5..i] == b"array"
                    && (i == 5 || !is_ident(buffer[i - 6]))
                {
                    let mut k = i + 1;
                    while k < n && buffer[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    if buffer[k..].starts_with(b"index")
                        && buffer.get(k + 5).is_none_or(|c| !is_ident(*c))
                    {
                        return at(line, col, "'array<index ...>' is not a dense array: its element type must be an integer or float type".into());
                    }
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'>' if i > 0 && buffer[i - 1] == b'-' => {}
            b'>' if buffer.get(i + 1) == Some(&b'=') => {}
            b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$'
}

/// Finds the first `nisa.x` / `bir.x` op written in custom syntax (not quoted, not a type `!`,
/// attribute `#` or symbol `@`), outside strings and comments; returns (name, line, column).
pub fn custom_syntax_op(buffer: &[u8]) -> Option<(String, usize, usize)> {
    let (mut line, mut col) = (1usize, 1usize);
    let mut i = 0usize;
    let n = buffer.len();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$';
    while i < n {
        let b = buffer[i];
        if b == b'"' {
            i += 1;
            col += 1;
            while i < n && buffer[i] != b'"' && buffer[i] != b'\n' {
                if buffer[i] == b'\\' {
                    i += 1;
                    col += 1;
                }
                i += 1;
                col += 1;
            }
        } else if b == b'/' && buffer.get(i + 1) == Some(&b'/') {
            while i < n && buffer[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if b == b'\n' {
            line += 1;
            col = 0;
        } else if (buffer[i..].starts_with(b"nisa.") || buffer[i..].starts_with(b"bir."))
            && (i == 0
                || !(ident(buffer[i - 1])
                    || matches!(buffer[i - 1], b'!' | b'#' | b'@' | b'%' | b'^')))
        {
            let end = (i..n).find(|&k| !ident(buffer[k])).unwrap_or(n);
            return Some((
                String::from_utf8_lossy(&buffer[i..end]).into_owned(),
                line,
                col,
            ));
        }
        i += 1;
        col += 1;
    }
    None
}
