//! Input generation for the fuzz targets: a small deterministic random number generator and
//! the mutators, byte-level (bit flips, splices, dictionary words) and structure-aware (MLIR
//! tokens via [`crate::source::Lexer`], bundle fields via the codegen field tables, assembler
//! `name=value` pairs).

use crate::source::{Lexer, TokenKind};

/// xorshift64*: small, deterministic, good enough to pick mutations.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator for iteration `i` of a run with `seed` (splitmix64 of both, never zero), so
    /// that any input of a run can be regenerated on its own.
    pub fn for_iteration(seed: u64, i: u64) -> Rng {
        let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability 1/n.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// Fragments of MLIR syntax that reach the parsers' corners (extreme numbers, builtin
/// attribute and type syntax, NISA/BIR names, split markers).
pub const IR_TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    "\"",
    "%",
    ",",
    ":",
    "=",
    "->",
    "0",
    "-1",
    "128",
    "129",
    "999999999999999999999999",
    "-9223372036854775808",
    "0x7FFFFFFF",
    "1.0e39 : f32",
    "0x7FC00000 : f32",
    "\\00",
    "\u{0}",
    "\u{ff}",
    "nisa.",
    "bir.",
    "memref<",
    "\"sbuf\"",
    "\"psum\"",
    "\"hbm\"",
    "\"xyz\"",
    "array<i64: ",
    "array<i32: 1, 1, 0, 0>",
    "f32",
    "tf32",
    "si32",
    "vector<4xf8E4M3FN>",
    "x",
    "?",
    "operandSegmentSizes",
    "{kind = \"indirect\"}",
    "\"engine\"",
    "true",
    "loc(\"f\":1:1)",
    "// -----",
    "^bb0:",
    "module {",
    "func.func @f() {",
    "return",
    "\n",
    "\"nisa.ap\"",
    "\"nisa.reshape\"",
    "\"nisa.slice\"",
    "\"nisa.permute\"",
    "\"nisa.broadcast\"",
    "\"nisa.alloc\"() : () -> ",
    // Builtin attribute and type syntax, to reach MLIR's own sub-parsers.
    "dense<",
    "dense<[1, 2]> : tensor<2xi32>",
    "dense<0x00FF> : tensor<1xi16>",
    "affine_map<(d0) -> (d0)>",
    "affine_set<(d0) : (d0 >= 0)>",
    "strided<[1], offset: ?>",
    "tensor<",
    "tensor<?x",
    "vector<[4]x",
    "complex<f32>",
    "opaque<\"x\", \"y\"> : i32",
    "#builtin.",
    "loc(fused[",
    "distinct[0]<",
    "dense_resource<",
    "sparse<",
    "array<i1: true>",
    "array<f32: 1.0>",
    "array<",
    "index",
    "i0",
    "i99999999",
    "0x1p3",
    "memref<*x",
    "memref<4xf32, strided<[",
    "unit",
    "@sym::@nested",
    "#nisa",
    "{{",
    "}}",
];

/// One to four byte-level edits of `input`: bit flips, deletions, dictionary insertions
/// ([`IR_TOKENS`]), duplicated runs, truncation, extreme numbers, swapped lines, random bytes.
pub fn mutate_bytes(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = out.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(32.min(len - i));
                out.drain(i..i + n);
            }
            2 => {
                let i = rng.below(len + 1);
                let t = IR_TOKENS[rng.below(IR_TOKENS.len())].as_bytes();
                out.splice(i..i, t.iter().copied());
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(64.min(len - i));
                let piece = out[i..i + n].to_vec();
                let at = rng.below(out.len() + 1);
                out.splice(at..at, piece);
            }
            4 if len > 0 => out.truncate(rng.below(len)),
            5 => {
                // Replace a run of digits with an extreme number.
                if let Some(start) = (0..len)
                    .map(|_| rng.below(len))
                    .find(|&i| out[i].is_ascii_digit())
                {
                    let end = (start..len)
                        .find(|&i| !out[i].is_ascii_digit())
                        .unwrap_or(len);
                    let big = [
                        "0",
                        "4294967296",
                        "99999999999999999999",
                        "65536",
                        "32768",
                        "-1",
                    ][rng.below(6)];
                    out.splice(start..end, big.bytes());
                }
            }
            6 if len > 0 => {
                // Swap two lines.
                let lines: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut l: Vec<Vec<u8>> = lines.iter().map(|x| x.to_vec()).collect();
                    l.swap(a, b);
                    out = l.join(&b'\n');
                }
            }
            _ => {
                let i = rng.below(len + 1);
                out.insert(i, rng.below(256) as u8);
            }
        }
    }
    out
}

/// Interesting replacements for a number token.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "127",
    "128",
    "129",
    "255",
    "256",
    "32767",
    "32768",
    "65535",
    "65536",
    "2147483647",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999999",
    "0x7FC00000",
    "0xFFFFFFFF",
    "1.0e38",
    "-0.0",
];

/// One to three token-level edits of MLIR text, on MLIR's own token boundaries: a number
/// becomes an extreme one, a token is deleted, duplicated or swapped with another, an
/// identifier or string is replaced by one taken elsewhere from the same input, a bracketed
/// group is dropped. Unlexable input falls back to [`mutate_bytes`].
pub fn mutate_tokens(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut lexer = Lexer::new(input);
    let mut toks = Vec::new();
    while let Ok(Some(t)) = lexer.next_token() {
        toks.push(t);
        if toks.len() > 100_000 {
            break;
        }
    }
    if toks.is_empty() {
        return mutate_bytes(rng, input);
    }
    let mut out = input.to_vec();
    // Edits go right to left so that earlier token offsets stay valid.
    let mut picks: Vec<usize> = (0..1 + rng.below(3))
        .map(|_| rng.below(toks.len()))
        .collect();
    picks.sort_unstable();
    picks.dedup();
    for &k in picks.iter().rev() {
        let t = toks[k];
        let (s, e) = (t.start, t.end);
        match (t.kind, rng.below(6)) {
            (TokenKind::Number, 0..=2) => {
                let n = NUMBERS[rng.below(NUMBERS.len())];
                out.splice(s..e, n.bytes());
            }
            (_, 0) => {
                out.drain(s..e);
            }
            (_, 1) => {
                let piece = out[s..e].to_vec();
                out.splice(e..e, piece.into_iter().chain([b' ']));
            }
            (TokenKind::BareIdent | TokenKind::String | TokenKind::SigilIdent, 2 | 3) => {
                // Another token of the same class from this input.
                let same: Vec<_> = toks.iter().filter(|o| o.kind == t.kind).collect();
                let o = same[rng.below(same.len())];
                let piece = input[o.start..o.end].to_vec();
                out.splice(s..e, piece);
            }
            (TokenKind::Punct(b'(' | b'[' | b'{' | b'<'), 4) => {
                // Drop the group this bracket opens (up to its matching close).
                let mut depth = 0i32;
                let close = toks[k..].iter().position(|o| {
                    match o.kind {
                        TokenKind::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
                        TokenKind::Punct(b')' | b']' | b'}' | b'>') => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                });
                if let Some(c) = close {
                    let end = toks[k + c].end;
                    if end <= out.len() {
                        out.drain(s..end);
                    }
                }
            }
            _ => {
                let w = IR_TOKENS[rng.below(IR_TOKENS.len())];
                out.splice(s..s, w.bytes().chain([b' ']));
            }
        }
    }
    out
}

/// Interesting values for a bundle field of `width` bytes, little-endian.
fn field_value(rng: &mut Rng, width: usize) -> Vec<u8> {
    let v: u64 = match rng.below(8) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => 1 << (8 * width.clamp(1, 8) - 1),
        4 => (1u64 << (8 * width.clamp(1, 8) - 1)) - 1,
        5 => rng.below(256) as u64,
        6 => 0x2000_0000 | (rng.next_u64() & 0x1FFF_FFFF),
        _ => rng.next_u64(),
    };
    v.to_le_bytes()
        .iter()
        .copied()
        .cycle()
        .take(width)
        .collect()
}

/// Field-aware edits of a bundle stream: for one to three bundles, a field of its format
/// (from the codegen field tables) gets an interesting value, or a whole field is copied from
/// another bundle, or the opcode changes to another known one (keeping the other bytes), or a
/// reserved byte is set; sometimes a byte-level edit on top.
pub fn mutate_bundles(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    use sundial_codegen::formats::{FORMATS, by_opcode};
    let mut out = input.to_vec();
    let n = out.len() / 64;
    if n == 0 {
        return mutate_bytes(rng, input);
    }
    for _ in 0..1 + rng.below(3) {
        let at = 64 * rng.below(n);
        let op = out[at];
        match (by_opcode(op), rng.below(5)) {
            (Some(fmt), 0..=2) if !fmt.fields.is_empty() => {
                let f = &fmt.fields[rng.below(fmt.fields.len())];
                let r = f.range();
                let v = field_value(rng, r.len());
                out[at + r.start..at + r.end].copy_from_slice(&v);
            }
            (_, 3) => {
                let other = FORMATS[rng.below(FORMATS.len())];
                out[at] = other.opcode;
            }
            _ => {
                let i = 1 + rng.below(63);
                out[at + i] = rng.below(256) as u8;
            }
        }
    }
    if rng.one_in(8) {
        out = mutate_bytes(rng, &out);
    }
    out
}

/// Edits of assembler text (`mnemonic name=value ...` lines): a value becomes an extreme
/// number, a name, or another field's value; a pair is dropped, duplicated or renamed; a line
/// is duplicated, dropped or gets a different mnemonic.
pub fn mutate_asm(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    use sundial_codegen::formats::FORMATS;
    let text = String::from_utf8_lossy(input);
    let mut lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect();
    if lines.is_empty() {
        return mutate_bytes(rng, input);
    }
    for _ in 0..1 + rng.below(3) {
        let li = rng.below(lines.len());
        let words = lines[li].len();
        let wi = rng.below(words.max(1));
        match rng.below(9) {
            0 | 1 if wi > 0 => {
                let w = &mut lines[li][wi];
                if let Some((name, _)) = w.split_once('=') {
                    *w = format!("{name}={}", NUMBERS[rng.below(NUMBERS.len())]);
                }
            }
            2 if wi > 0 => {
                lines[li].remove(wi);
            }
            3 if wi > 0 => {
                let w = lines[li][wi].clone();
                lines[li].push(w);
            }
            4 => {
                let m = FORMATS[rng.below(FORMATS.len())].mnemonic.to_string();
                if let Some(first) = lines[li].first_mut() {
                    *first = m;
                }
            }
            5 => {
                let l = lines[li].clone();
                lines.insert(li, l);
            }
            6 if lines.len() > 1 => {
                lines.remove(li);
            }
            7 if wi > 0 => {
                // Another pair's value under this pair's name.
                let (ol, ow) = (rng.below(lines.len()), rng.below(words));
                let other = lines[ol].get(ow).cloned().unwrap_or_default();
                let w = &mut lines[li][wi];
                if let (Some((name, _)), Some((_, v))) = (w.split_once('='), other.split_once('='))
                {
                    *w = format!("{name}={v}");
                }
            }
            _ => return mutate_bytes(rng, &asm_text(&lines)),
        }
    }
    asm_text(&lines)
}

/// Assembler lines of `name=value` words back to text.
fn asm_text(lines: &[Vec<String>]) -> Vec<u8> {
    lines
        .iter()
        .map(|l| l.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes()
}
