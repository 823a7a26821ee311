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
pub struct Lexer<'a> {
    buf: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Lexer<'a> {
        Lexer {
            buf,
            i: 0,
            line: 1,
            col: 1,
        }
    }

    fn nul(&self) -> Hazard {
        Hazard {
            line: self.line,
            col: self.col,
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
            self.col = 1;
        } else {
            self.col += 1;
        }
        Ok(b)
    }

    fn peek(&self, k: usize) -> Option<u8> {
        self.buf.get(self.i + k).copied()
    }

    fn eat_while(&mut self, pred: impl Fn(u8) -> bool) -> Result<(), Hazard> {
        while let Some(c) = self.peek(0) {
            if c == 0 {
                return Err(self.nul());
            }
            if !pred(c) {
                break;
            }
            self.bump()?;
        }
        Ok(())
    }

    /// The next token, `None` at the end of the buffer.
    pub fn next_token(&mut self) -> Result<Option<Token>, Hazard> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (None, _) => return Ok(None),
                (Some(b' ' | b'\t' | b'\n' | b'\r'), _) => {
                    self.bump()?;
                }
                (Some(b'/'), Some(b'/')) => self.eat_while(|c| c != b'\n' && c != b'\r')?,
                _ => break,
            }
        }
        let (start, line, col) = (self.i, self.line, self.col);
        let first = self.bump()?;
        let kind = match first {
            b'"' => {
                while let Some(c) = self.peek(0) {
                    self.bump()?;
                    if c == b'"' {
                        break;
                    }
                    if c == b'\\' && self.peek(0).is_some() {
                        self.bump()?;
                    }
                }
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
