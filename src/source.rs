//! Input buffers: `--split-input-file` chunks and the guards run before MLIR parses.
//!
//! A chunk is a slice of the input and the line it starts on: nothing is copied or padded
//! when splitting, so splitting costs memory proportional to nothing but the input (padding
//! each chunk with the newlines before it, as this module once did, made memory and time
//! quadratic in the number of lines). [`crate::Session::parse_at`] parses a chunk as text that
//! starts on its line, so every diagnostic's `line:col` is still a position in the file the
//! user wrote. Chunks are produced lazily ([`chunks`]), one at a time.
//!
//! [`hazard`] rejects, before MLIR sees them, the inputs that would crash or mislead MLIR's
//! parser (too-deep nesting, NUL bytes, a dense-array parser crash), with a position.

/// The split marker line, as in `mlir-opt`.
pub const SPLIT_MARKER: &str = "// -----";

/// Deepest bracket nesting accepted (real IR stays far below it).
pub const MAX_NESTING: usize = 512;

/// One chunk of an input buffer, borrowed from it (what [`chunks`] yields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRef<'a> {
    /// 1-based line of the chunk's first line in the original buffer (the chunk starts at the
    /// beginning of that line, so columns need no adjustment).
    pub first_line: usize,
    /// The chunk's own bytes, marker lines excluded.
    pub text: &'a [u8],
}

/// One chunk of an input buffer, owned (what [`split`] returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// 1-based line of the chunk's first line in the original buffer.
    pub first_line: usize,
    /// The chunk's own bytes, marker lines excluded.
    pub text: Vec<u8>,
}

fn is_marker(line: &[u8]) -> bool {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    line[start..].starts_with(SPLIT_MARKER.as_bytes())
}

/// The chunks of a buffer, lazily: split on marker lines, or the whole buffer when `split` is
/// false. Yields at least one chunk (an empty buffer is one empty chunk).
pub fn chunks(buffer: &[u8], split: bool) -> Chunks<'_> {
    Chunks {
        rest: Some(buffer),
        line: 1,
        split,
    }
}

/// Splits a buffer on marker lines (or returns it whole when `split` is false) into owned
/// chunks: one copy of the buffer in all. [`chunks`] borrows instead.
pub fn split(buffer: &[u8], split: bool) -> Vec<Chunk> {
    chunks(buffer, split)
        .map(|c| Chunk {
            first_line: c.first_line,
            text: c.text.to_vec(),
        })
        .collect()
}

/// The iterator of [`chunks`].
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    /// What is left to split (`None` once the last chunk was yielded).
    rest: Option<&'a [u8]>,
    /// The line `rest` starts on.
    line: usize,
    split: bool,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = ChunkRef<'a>;

    fn next(&mut self) -> Option<ChunkRef<'a>> {
        let rest = self.rest?;
        let first_line = self.line;
        if self.split {
            let mut at = 0usize;
            let mut line = first_line;
            while at < rest.len() {
                let end = rest[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(rest.len(), |i| at + i + 1);
                if is_marker(&rest[at..end]) {
                    self.rest = Some(&rest[end..]);
                    self.line = line.saturating_add(1);
                    return Some(ChunkRef {
                        first_line,
                        text: &rest[..at],
                    });
                }
                at = end;
                line = line.saturating_add(1);
            }
        }
        self.rest = None;
        Some(ChunkRef {
            first_line,
            text: rest,
        })
    }
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
/// The scan follows MLIR's own lexer ([`Lexer`]): it works on tokens, so whitespace, line
/// breaks and `//` comments between `array`, `<` and `index` do not hide the construct, while
/// `myarray`, `#array`, `!array` and text inside string literals and comments never match.
/// (MLIR's lexer has no block comments and no line continuations: a `\` outside a string is
/// an invalid character, so it cannot join two tokens either.) `->` does not close a bracket,
/// and neither does the `>` of `>=`.
pub fn hazard(buffer: &[u8]) -> Option<Hazard> {
    let mut depth = 0usize;
    let mut lexer = Lexer::new(buffer);
    // The two previous significant tokens, for the `array` `<` `index` pattern.
    let mut prev: [Option<Token>; 2] = [None, None];
    loop {
        let tok = match lexer.next_token() {
            Ok(Some(t)) => t,
            Ok(None) => return None,
            Err(h) => return Some(h),
        };
        match tok.kind {
            TokenKind::Punct(b'(' | b'[' | b'{' | b'<') => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(tok.hazard(format!(
                        "nesting deeper than {MAX_NESTING} levels is not supported (this input would exhaust the parser's stack)"
                    )));
                }
            }
            TokenKind::Punct(b')' | b']' | b'}' | b'>') => depth = depth.saturating_sub(1),
            TokenKind::BareIdent if tok.text(buffer) == b"index" => {
                if let [Some(a), Some(lt)] = &prev
                    && a.kind == TokenKind::BareIdent
                    && a.text(buffer) == b"array"
                    && lt.kind == TokenKind::Punct(b'<')
                {
                    return Some(lt.hazard(
                        "'array<index ...>' is not a dense array: its element type must be an integer or float type".into(),
                    ));
                }
            }
            _ => {}
        }
        prev = [prev[1], Some(tok)];
    }
}

/// The token classes the guards need (a coarse view of MLIR's `Token::Kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A bare identifier or keyword: `[a-zA-Z_][a-zA-Z0-9_$.]*`.
    BareIdent,
    /// An identifier with a sigil (`%x`, `@f`, `#a`, `!t`, `^bb`).
    SigilIdent,
    /// A string literal, escapes included.
    String,
    /// A number (integer, float or hex literal).
    Number,
    /// `->` (an arrow, not a closing `>`).
    Arrow,
    /// `>=` inside an affine constraint (not a closing `>`).
    GreaterEqual,
    /// A single punctuation character.
    Punct(u8),
    /// Any other byte (MLIR's lexer reports it as an unexpected character).
    Other(u8),
}

/// A token: its class, byte range and 1-based position of its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The class.
    pub kind: TokenKind,
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

impl Token {
    /// The token's bytes in `buffer`.
    pub fn text<'a>(&self, buffer: &'a [u8]) -> &'a [u8] {
        &buffer[self.start..self.end]
    }

    fn hazard(&self, message: String) -> Hazard {
        Hazard {
            line: self.line,
            col: self.col,
            message,
        }
    }
}

/// A lexer with MLIR's token boundaries: whitespace is space, tab, `\n` and `\r`; a comment
/// runs from `//` to the end of the line; string literals take `\` escapes. A NUL byte
/// anywhere (MLIR's lexer treats it as the end of the buffer) is a [`Hazard`].
///
/// It runs before every parse, over the whole input, so runs of bytes (whitespace,
/// identifiers, numbers, comments, string bodies) are skipped with one scan each rather than
/// one step per byte, and the column is the distance to the start of the line, not a counter
/// kept per byte.
pub struct Lexer<'a> {
    buf: &'a [u8],
    i: usize,
    line: usize,
    /// Offset of the first byte of line `line`.
    line_start: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Lexer<'a> {
        Lexer {
            buf,
            i: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The 1-based column of offset `self.i`.
    fn col(&self) -> usize {
        self.i - self.line_start + 1
    }

    /// The hazard of the NUL byte at `self.i`.
    fn nul(&self) -> Hazard {
        Hazard {
            line: self.line,
            col: self.col(),
            message: format!(
                "unexpected NUL byte at offset {} (the input is not MLIR text)",
                self.i
            ),
        }
    }

    /// Consumes one byte, keeping the position in step.
    fn bump(&mut self) -> Result<u8, Hazard> {
        let b = self.buf[self.i];
        if b == 0 {
            return Err(self.nul());
        }
        self.i += 1;
        if b == b'\n' {
            self.line += 1;
            self.line_start = self.i;
        }
        Ok(b)
    }

    fn peek(&self, k: usize) -> Option<u8> {
        self.buf.get(self.i + k).copied()
    }

    /// Consumes the bytes `pred` accepts. `pred` accepts neither NUL nor `\n`: a NUL where
    /// the run stops is the NUL hazard, and the line does not change.
    fn eat_while(&mut self, pred: impl Fn(u8) -> bool) -> Result<(), Hazard> {
        let rest = &self.buf[self.i..];
        self.i += rest.iter().position(|&c| !pred(c)).unwrap_or(rest.len());
        if self.peek(0) == Some(0) {
            return Err(self.nul());
        }
        Ok(())
    }

    /// Consumes a string literal's body and closing quote (the opening one is consumed).
    fn string_body(&mut self) -> Result<(), Hazard> {
        loop {
            let rest = &self.buf[self.i..];
            let Some(k) = rest
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\' | b'\n' | 0))
            else {
                // Unterminated: the string runs to the end of the buffer.
                self.i = self.buf.len();
                return Ok(());
            };
            self.i += k;
            match self.bump()? {
                b'"' => return Ok(()),
                b'\\' if self.peek(0).is_some() => {
                    self.bump()?;
                }
                _ => {}
            }
        }
    }

    /// The next token, `None` at the end of the buffer.
    pub fn next_token(&mut self) -> Result<Option<Token>, Hazard> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (None, _) => return Ok(None),
                (Some(b' ' | b'\t' | b'\n' | b'\r'), _) => {
                    self.bump()?;
                }
                (Some(b'/'), Some(b'/')) => {
                    self.eat_while(|c| c != b'\n' && c != b'\r' && c != 0)?
                }
                _ => break,
            }
        }
        let (start, line, col) = (self.i, self.line, self.col());
        let first = self.bump()?;
        let kind = match first {
            b'"' => {
                self.string_body()?;
                TokenKind::String
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                self.eat_while(is_ident)?;
                TokenKind::BareIdent
            }
            b'%' | b'@' | b'#' | b'!' | b'^' => {
                if self.peek(0) == Some(b'"') {
                    // `@"sym"`, `#"attr"`: a sigil on a string.
                    let _ = self.next_token()?;
                } else {
                    self.eat_while(|c| is_ident(c) || c == b'-')?;
                }
                TokenKind::SigilIdent
            }
            c if c.is_ascii_digit() => {
                self.eat_while(|c| c.is_ascii_alphanumeric() || c == b'.')?;
                // A signed exponent (`1.0e-3`) stays in the number.
                while matches!(self.peek(0), Some(b'-' | b'+'))
                    && matches!(self.buf.get(self.i - 1), Some(b'e' | b'E'))
                {
                    self.bump()?;
                    self.eat_while(|c| c.is_ascii_digit())?;
                }
                TokenKind::Number
            }
            b'-' if self.peek(0) == Some(b'>') => {
                self.bump()?;
                TokenKind::Arrow
            }
            b'>' if self.peek(0) == Some(b'=') => {
                self.bump()?;
                TokenKind::GreaterEqual
            }
            c if c.is_ascii_punctuation() => TokenKind::Punct(c),
            c => TokenKind::Other(c),
        };
        Ok(Some(Token {
            kind,
            start,
            end: self.i,
            line,
            col,
        }))
    }
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
