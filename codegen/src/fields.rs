//! Field descriptors: one row per wire field (offset, kind, spec name, meaning, provenance), and
//! the single implementation of reading, writing, printing and parsing a field of each kind.
//!
//! The op encoders write through the same `Field` constants the decoder, printer, assembler and
//! validator iterate over (`formats.rs`), so an offset is stated once.

use std::fmt::Write;

use crate::addr4;
use crate::data4d::{DATA4D_BYTES, Data4dSlot};
use crate::dtype::WireDtype;
use crate::enums::{self, NameTable};
use crate::indirect::{MemSlot, MxSlot, parse_hex, push_hex};
use crate::tensor::{TensorSlot, tensor_bytes};

/// Where a field's offset and meaning come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prov {
    /// Pinned by a seed document (`spec/`).
    Seed,
    /// Header-derived (GPSIMD wiki, compile-verified offsets); the seeds are silent.
    Header,
    /// Compiler-derived (CC wiki) only.
    Compiler,
    /// Not pinned by any source: an explicit assumption of this crate.
    Assumption,
}

impl Prov {
    /// Whether the value is pinned by a source (anything but an assumption).
    pub fn pinned(self) -> bool {
        self != Prov::Assumption
    }
}

/// How a field is stored and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// u8, printed decimal.
    U8,
    /// u16 LE, printed decimal.
    U16,
    /// u32 LE, printed decimal.
    U32,
    /// u32 LE, printed hex.
    Hex32,
    /// i32 LE, printed decimal.
    I32,
    /// u64 LE, printed hex.
    Hex64,
    /// f32 LE, printed as the shortest decimal that round-trips (hex bits for NaN).
    F32,
    /// A wire dtype byte.
    Dtype,
    /// `DTYPE_PAIR`: low nibble : high nibble.
    DtypePair,
    /// A byte from a named table.
    Enum(NameTable),
    /// One ADDR4 word.
    Addr4,
    /// A plain TENSORnD.
    Tensor(u8),
    /// A MEM_PATTERN3D/4D union (TENSORnD or INDIRECT16B/20B, by the mode nibble).
    Mem(u8),
    /// 32 lane bytes.
    Lanes,
    /// A DATA4D generator pattern (int32 base, 4 x i16 step, 4 x u16 num; no ADDR4).
    Data4d,
    /// A 16-byte MXMEM_PATTERN1D / MXINDIRECT16B union (by the mode nibble).
    Mx,
}

impl Kind {
    /// Byte width.
    pub const fn width(self) -> usize {
        match self {
            Kind::U8 | Kind::Dtype | Kind::DtypePair | Kind::Enum(_) => 1,
            Kind::U16 => 2,
            Kind::U32 | Kind::Hex32 | Kind::I32 | Kind::F32 | Kind::Addr4 => 4,
            Kind::Hex64 => 8,
            Kind::Tensor(n) | Kind::Mem(n) => tensor_bytes(n as usize),
            Kind::Lanes => 32,
            Kind::Data4d => DATA4D_BYTES,
            Kind::Mx => 16,
        }
    }
}

/// Which dtype governs an access-pattern slot (for alignment and the PSUM-write rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DtypeRef {
    /// The bundle carries no dtype for this slot.
    None,
    /// The dtype byte at this offset.
    Byte(u8),
    /// The low nibble of the `DTYPE_PAIR` at this offset.
    Lo(u8),
    /// The high nibble of the `DTYPE_PAIR` at this offset.
    Hi(u8),
}

/// The role of an access-pattern slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Not an access pattern.
    Plain,
    /// Read operand.
    Src(DtypeRef),
    /// Written operand.
    Dst(DtypeRef),
}

/// One wire field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name as the spec (or, failing that, the header) spells it.
    pub name: &'static str,
    /// Byte offset in the bundle.
    pub offset: u8,
    /// Storage and text kind.
    pub kind: Kind,
    /// Access-pattern role.
    pub role: Role,
    /// Provenance.
    pub prov: Prov,
    /// Meaning, value source, and any conflict settled for this row.
    pub meaning: &'static str,
}

/// A decoded field value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Any integer-like kind (ints, enums, dtypes, f32 bits).
    Int(u64),
    /// ADDR4 word.
    Addr4(u32),
    /// Plain tensor.
    Tensor(TensorSlot),
    /// MEM_PATTERN union.
    Mem(MemSlot),
    /// Lane map.
    Lanes([u8; 32]),
    /// DATA4D generator pattern.
    Data4d(Data4dSlot),
    /// MX union.
    Mx(MxSlot),
}

impl Field {
    /// Byte range of the field.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset as usize..self.offset as usize + self.kind.width()
    }

    /// Writes a u8 (encoder fast path).
    #[inline(always)]
    pub fn put_u8(&self, b: &mut [u8; 64], v: u8) {
        debug_assert_eq!(self.kind.width(), 1);
        b[self.offset as usize] = v;
    }

    /// Writes a u16 LE (encoder fast path).
    #[inline(always)]
    pub fn put_u16(&self, b: &mut [u8; 64], v: u16) {
        debug_assert_eq!(self.kind.width(), 2);
        let o = self.offset as usize;
        b[o..o + 2].copy_from_slice(&v.to_le_bytes());
    }

    /// Writes a u32 LE (encoder fast path).
    #[inline(always)]
    pub fn put_u32(&self, b: &mut [u8; 64], v: u32) {
        debug_assert_eq!(self.kind.width(), 4);
        addr4::put_u32(b, self.offset as usize, v);
    }

    /// Reads a u8 (the validator's and the lifter's per-field checks).
    #[inline(always)]
    pub fn get_u8(&self, b: &[u8; 64]) -> u8 {
        debug_assert_eq!(self.kind.width(), 1);
        b[self.offset as usize]
    }

    /// Reads a u16 LE.
    #[inline(always)]
    pub fn get_u16(&self, b: &[u8; 64]) -> u16 {
        debug_assert_eq!(self.kind.width(), 2);
        let o = self.offset as usize;
        u16::from_le_bytes([b[o], b[o + 1]])
    }

    /// Reads a u32 LE (also the first word of a slot: an ADDR4 field or a slot's start word).
    #[inline(always)]
    pub fn get_u32(&self, b: &[u8; 64]) -> u32 {
        addr4::get_u32(b, self.offset as usize)
    }

    /// The slot bytes of an N-byte field, for the access-pattern encoders.
    #[inline(always)]
    pub fn slot<'a, const N: usize>(&self, b: &'a mut [u8; 64]) -> &'a mut [u8; N] {
        debug_assert_eq!(self.kind.width(), N);
        let o = self.offset as usize;
        (&mut b[o..o + N])
            .try_into()
            .expect("field width matches N")
    }

    /// Reads the field.
    #[inline(always)]
    pub fn read(&self, b: &[u8; 64]) -> Value {
        self.read_with(b, |v| v)
    }

    /// Reads the field and hands the value to `emit` from the arm of its kind, so that a
    /// caller storing it (the decoder's value vector) writes one variant in place rather than
    /// copying a `Value` of any variant.
    #[inline(always)]
    pub fn read_with<R>(&self, b: &[u8; 64], emit: impl FnOnce(Value) -> R) -> R {
        let o = self.offset as usize;
        match self.kind {
            // The integer kinds by their fixed widths (one load each, no slice of the range).
            Kind::U8 | Kind::Dtype | Kind::DtypePair | Kind::Enum(_) => {
                emit(Value::Int(b[o] as u64))
            }
            Kind::U16 => emit(Value::Int(u16::from_le_bytes([b[o], b[o + 1]]) as u64)),
            Kind::U32 | Kind::Hex32 | Kind::I32 | Kind::F32 => {
                emit(Value::Int(addr4::get_u32(b, o) as u64))
            }
            Kind::Hex64 => {
                let mut v = [0u8; 8];
                v.copy_from_slice(&b[o..o + 8]);
                emit(Value::Int(u64::from_le_bytes(v)))
            }
            Kind::Addr4 => emit(Value::Addr4(addr4::get_u32(b, o))),
            Kind::Tensor(n) => emit(Value::Tensor(TensorSlot::read(
                &b[self.range()],
                n as usize,
            ))),
            Kind::Mem(n) => emit(Value::Mem(MemSlot::read(&b[self.range()], n as usize))),
            Kind::Lanes => {
                let mut l = [0u8; 32];
                l.copy_from_slice(&b[o..o + 32]);
                emit(Value::Lanes(l))
            }
            Kind::Data4d => emit(Value::Data4d(Data4dSlot::read(&b[self.range()]))),
            Kind::Mx => {
                let mut m = [0u8; 16];
                m.copy_from_slice(&b[o..o + 16]);
                emit(Value::Mx(MxSlot::read(&m)))
            }
        }
    }

    /// Writes the field. A value of the wrong shape for the kind is ignored by construction:
    /// the decoder and the assembler only produce matching values.
    pub fn write(&self, b: &mut [u8; 64], v: &Value) {
        let r = self.range();
        let s = &mut b[r];
        match (self.kind, v) {
            (Kind::Addr4, Value::Addr4(w)) => addr4::put_u32(s, 0, *w),
            (Kind::Tensor(_), Value::Tensor(t)) => t.write(s),
            (Kind::Mem(_), Value::Mem(m)) => m.write(s),
            (Kind::Lanes, Value::Lanes(l)) => s.copy_from_slice(l),
            (Kind::Data4d, Value::Data4d(d)) => d.write(s),
            (Kind::Mx, Value::Mx(m)) => m.write(s),
            (_, Value::Int(x)) => {
                let w = s.len();
                s.copy_from_slice(&x.to_le_bytes()[..w]);
            }
            _ => {}
        }
    }

    /// Appends the text of a value of this field.
    pub fn format(&self, v: &Value, out: &mut String) {
        match (self.kind, v) {
            (Kind::U8 | Kind::U16 | Kind::U32, Value::Int(x)) => {
                let _ = write!(out, "{x}");
            }
            (Kind::Hex32 | Kind::Hex64, Value::Int(x)) => {
                let _ = write!(out, "{x:#x}");
            }
            (Kind::I32, Value::Int(x)) => {
                let _ = write!(out, "{}", *x as u32 as i32);
            }
            (Kind::F32, Value::Int(x)) => format_f32(*x as u32, out),
            (Kind::Dtype, Value::Int(x)) => format_dtype(*x as u8, out),
            (Kind::DtypePair, Value::Int(x)) => {
                format_dtype(*x as u8 & 0xF, out);
                out.push(':');
                format_dtype(*x as u8 >> 4, out);
            }
            (Kind::Enum(t), Value::Int(x)) => match enums::name_of(t, *x as u8) {
                Some(n) => out.push_str(n),
                None => {
                    let _ = write!(out, "{x:#04x}");
                }
            },
            (Kind::Addr4, Value::Addr4(w)) => addr4::format(*w, out),
            (Kind::Tensor(_), Value::Tensor(t)) => t.format(out),
            (Kind::Mem(_), Value::Mem(m)) => m.format(out),
            (Kind::Lanes, Value::Lanes(l)) => push_hex(out, l),
            (Kind::Data4d, Value::Data4d(d)) => d.format(out),
            (Kind::Mx, Value::Mx(m)) => m.format(out),
            _ => out.push('?'),
        }
    }

    /// Parses the text of a value of this field.
    pub fn parse(&self, s: &str) -> Result<Value, String> {
        let w = self.kind.width();
        let int = |v: u64| -> Result<Value, String> {
            if w < 8 && v >> (8 * w) != 0 {
                Err(format!("value `{s}` does not fit {w} byte(s)"))
            } else {
                Ok(Value::Int(v))
            }
        };
        match self.kind {
            Kind::U8 | Kind::U16 | Kind::U32 | Kind::Hex32 | Kind::Hex64 => int(parse_u64(s)?),
            Kind::I32 => {
                let v: i32 = s.parse().map_err(|_| format!("bad i32 `{s}`"))?;
                Ok(Value::Int(v as u32 as u64))
            }
            Kind::F32 => Ok(Value::Int(parse_f32(s)? as u64)),
            Kind::Dtype => int(parse_dtype(s)? as u64),
            Kind::DtypePair => {
                let (lo, hi) = s
                    .split_once(':')
                    .ok_or_else(|| format!("expected `LO:HI` dtypes, found `{s}`"))?;
                let (lo, hi) = (parse_dtype(lo)?, parse_dtype(hi)?);
                if lo > 0xF || hi > 0xF {
                    return Err(format!("`{s}`: DTYPE_PAIR nibbles hold codes <= 0xF only"));
                }
                Ok(Value::Int((lo | hi << 4) as u64))
            }
            Kind::Enum(t) => match enums::code_of(t, s) {
                Some(c) => Ok(Value::Int(c as u64)),
                None => int(parse_u64(s).map_err(|_| {
                    let names: Vec<&str> = t.iter().map(|(_, n)| *n).collect();
                    format!(
                        "unknown name `{s}` (expected one of {} or a number)",
                        names.join(", ")
                    )
                })?),
            },
            Kind::Addr4 => addr4::parse(s).map(Value::Addr4),
            Kind::Tensor(n) => TensorSlot::parse(s, n as usize).map(Value::Tensor),
            Kind::Mem(n) => MemSlot::parse(s, n as usize).map(Value::Mem),
            Kind::Lanes => {
                let mut l = [0u8; 32];
                parse_hex(s, &mut l)?;
                Ok(Value::Lanes(l))
            }
            Kind::Data4d => Data4dSlot::parse(s).map(Value::Data4d),
            Kind::Mx => MxSlot::parse(s).map(Value::Mx),
        }
    }
}

fn parse_u64(s: &str) -> Result<u64, String> {
    let r = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else {
        s.parse()
    };
    r.map_err(|_| format!("bad number `{s}`"))
}

fn format_dtype(code: u8, out: &mut String) {
    match WireDtype(code).name() {
        Some(n) => out.push_str(n),
        None => {
            let _ = write!(out, "{code:#04x}");
        }
    }
}

fn parse_dtype(s: &str) -> Result<u8, String> {
    if let Some(d) = WireDtype::from_name(s) {
        return Ok(d.0);
    }
    match parse_u64(s) {
        Ok(v) if v <= 0xFF => Ok(v as u8),
        _ => Err(format!("unknown dtype `{s}`")),
    }
}

/// Prints an f32 by its shortest round-tripping decimal (`{:?}`), or `0x` bits for NaN.
pub fn format_f32(bits: u32, out: &mut String) {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        let _ = write!(out, "{bits:#010x}");
    } else {
        let _ = write!(out, "{f:?}");
    }
}

/// Parses `format_f32` output (decimal, `inf`, or `0x` bits).
pub fn parse_f32(s: &str) -> Result<u32, String> {
    if let Some(h) = s.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).map_err(|_| format!("bad f32 bits `{s}`"));
    }
    let f: f32 = s.parse().map_err(|_| format!("bad f32 `{s}`"))?;
    if f.is_nan() {
        return Err("write NaN as 0x bits".into());
    }
    Ok(f.to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed-width reads of the integer kinds are the little-endian value of the field's
    /// byte range (what the slice-based read gave).
    #[test]
    fn integer_reads_are_the_little_endian_range() {
        let mut b = [0u8; 64];
        for (i, x) in b.iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(37) ^ 0xA5;
        }
        let kinds = [
            Kind::U8,
            Kind::U16,
            Kind::U32,
            Kind::Hex32,
            Kind::I32,
            Kind::Hex64,
            Kind::F32,
            Kind::Dtype,
            Kind::DtypePair,
            Kind::Addr4,
        ];
        for kind in kinds {
            for offset in 4..=(64 - kind.width()) as u8 {
                let f = Field {
                    name: "x",
                    offset,
                    kind,
                    role: Role::Plain,
                    prov: Prov::Assumption,
                    meaning: "",
                };
                let mut v = [0u8; 8];
                v[..kind.width()].copy_from_slice(&b[f.range()]);
                let want = u64::from_le_bytes(v);
                let got = match f.read(&b) {
                    Value::Int(x) => x,
                    Value::Addr4(w) if kind == Kind::Addr4 => w as u64,
                    other => panic!("{kind:?}: {other:?}"),
                };
                assert_eq!(got, want, "{kind:?} at {offset}");
            }
        }
    }

    #[test]
    fn f32_text_round_trips() {
        for bits in [
            0u32,
            0x8000_0000,
            0xFF7F_FFFF,
            0x3F80_0000,
            0x7F80_0000,
            0x0000_0001,
            0x7FC0_0001,
        ] {
            let mut s = String::new();
            format_f32(bits, &mut s);
            assert_eq!(parse_f32(&s), Ok(bits), "{s}");
        }
    }
}
