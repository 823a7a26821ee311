//! Input buffers: `--split-input-file` chunks and the nesting guard.
//!
//! Chunks keep their position in the original file: each chunk is padded with the newlines
//! that precede it, so every diagnostic's `line:col` is a position in the file the user wrote.
//!
//! MLIR's parser, verifier and printer recurse once per nesting level; a hostile input with
//! tens of thousands of nested regions or brackets overflows any stack. [`nesting_error`]
//! rejects such inputs before MLIR sees them, with the position of the first bracket past the
//! limit.

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

/// Finds the first bracket that nests deeper than [`MAX_NESTING`]; returns its 1-based
/// (line, column). Strings and `//` comments are skipped; `->` and `>=` are not closers.
pub fn nesting_error(buffer: &[u8]) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let (mut line, mut col) = (1usize, 0usize);
    let mut i = 0usize;
    let n = buffer.len();
    while i < n {
        let b = buffer[i];
        col += 1;
        match b {
            b'\n' => {
                line += 1;
                col = 0;
            }
            b'"' => {
                // Skip the string literal (with escapes), keeping line/col in step.
                i += 1;
                while i < n && buffer[i] != b'"' {
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
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some((line, col));
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
