//! The ADDR4 word: start-address folding, register mode, the mode bits, and its text form.
//!
//! Bit layout (bundle-layouts §1a, CC CERTAIN; seed pins bit 29 and `& 0x1FFFFFFF`):
//!
//! | bits  | meaning |
//! |-------|---------|
//! | 0..28 | 29-bit byte address (SBUF `[0, 0x2000000)`, PSUM `[0x2000000, 0x2400000)`) |
//! | 29    | tensor-indirect marker (0x20 on byte 3), the only mode bit an encoder writes |
//! | 30    | header `ADDR4_MARKER_SHAPE_REG` (CC: "ACTIVE/dynamic-AP"; CONFLICT #1, header name used) |
//! | 31    | register mode: word = 0x80000000 \| regid, regid < 64 |
//!
//! The mode nibble is `byte3 & 0x60` (0x00 static, 0x20 indirect, 0x40 shape-register,
//! 0x60 dead).

use crate::arch::ArchModel;
use crate::error::EncodeError;
use crate::model::{MemLoc, Space, Start};

/// 29-bit address mask (`TPB_PARTITION_ADDR_MASK`).
pub const ADDR_MASK: u32 = 0x1FFF_FFFF;
/// Bit 29: the tensor-indirect marker.
pub const INDIRECT_BIT: u32 = 0x2000_0000;
/// Bit 30: shape-register marker.
pub const SHAPE_BIT: u32 = 0x4000_0000;
/// Bit 31: register mode.
pub const REG_BIT: u32 = 0x8000_0000;
/// The marker as it appears on byte 3 (`or byte [B+3],0x20`).
pub const MARKER_BYTE3: u8 = 0x20;
/// Number of address registers (`NUM_ADDR_REGISTERS`).
pub const NUM_ADDR_REGISTERS: u8 = 64;

/// Text geometry: the SBUF and PSUM partition strides are identical on the three targets
/// (bundle-layouts §1c), so the text form does not depend on `--target`.
const SB_SHIFT: u32 = 18;
const PS_SHIFT: u32 = 15;
const PSUM_BASE: u32 = 0x0200_0000;
const PSUM_END: u32 = 0x0240_0000;

/// Folds an immediate location into the 29-bit address (bundle-layouts §1c: SBUF word =
/// `(basePartition << 18) + inPartitionByteAddr`, PSUM word = `0x2000000 + (part << 15) + ...`),
/// checking the window and the active bytes of the resulting partition. Always inlined: the
/// GENERATE fast path folds through it too, so the SBUF fold sees the model's fields as constants
/// on the built-in models (the strides become shifts) and the error values it discards are never
/// built. The PSUM fold is out of line, so that it never merges with the SBUF one into
/// variable-stride arithmetic.
#[inline(always)]
pub fn fold(loc: MemLoc, arch: &ArchModel) -> Result<u32, EncodeError> {
    fold_at(&loc, arch)
}

/// [`fold`] by reference (the location stays where it is; nothing is copied for the PSUM call).
#[inline(always)]
fn fold_at(loc: &MemLoc, arch: &ArchModel) -> Result<u32, EncodeError> {
    match loc.space {
        Space::Sbuf => fold_in(
            loc,
            0,
            arch.sbuf_partition_stride,
            arch.sbuf_window,
            arch.sbuf_active_bytes,
            "SBUF",
        ),
        Space::Psum => fold_psum(loc, arch),
    }
}

/// [`fold`] for a PSUM location.
#[cold]
#[inline(never)]
fn fold_psum(loc: &MemLoc, arch: &ArchModel) -> Result<u32, EncodeError> {
    fold_in(
        loc,
        arch.psum_base,
        arch.psum_partition_stride,
        arch.psum_window,
        arch.psum_active_bytes,
        "PSUM",
    )
}

/// [`fold`] in one space: `base + partition * stride + offset` must fit 32 bits
/// (`AddressOutOfU32`, reported first), then lie inside the window with its in-partition
/// remainder below the active bytes (`AddressOutsideWindow`).
#[inline(always)]
fn fold_in(
    loc: &MemLoc,
    base: u32,
    stride: u32,
    window: u32,
    active: u32,
    space: &'static str,
) -> Result<u32, EncodeError> {
    // In u64 the sum cannot wrap (a product of two u32s plus two more stays below 2^64).
    let word = loc.partition as u64 * stride as u64 + loc.offset as u64 + base as u64;
    let rel = word - base as u64;
    let wide = word >> 32 != 0;
    // The strides are powers of two on every target, so the in-partition offset is a mask (a
    // division only for a non-power-of-two model).
    let in_part = if stride.is_power_of_two() {
        rel & (stride as u64 - 1)
    } else {
        match rel.checked_rem(stride as u64) {
            Some(r) => r,
            None if wide => return Err(EncodeError::AddressOutOfU32),
            None => return Err(EncodeError::InvalidArchModel("the partition stride")),
        }
    };
    // One test for every failure; which error it is is worked out only when it fails.
    if wide | (rel >= window as u64) | (in_part >= active as u64) {
        return Err(if wide {
            EncodeError::AddressOutOfU32
        } else {
            EncodeError::AddressOutsideWindow {
                space,
                partition: loc.partition,
                offset: loc.offset,
            }
        });
    }
    Ok(word as u32)
}

/// The ADDR4 word of a start (`assignStartAddr<ADDR4>` with `a4 = 0`, the data resolver).
/// Always inlined, like [`fold`]; register starts are out of line.
#[inline(always)]
pub fn word(start: &Start, arch: &ArchModel) -> Result<u32, EncodeError> {
    match start {
        Start::Imm(loc) => fold_at(loc, arch),
        Start::Reg(r) => reg_word(*r),
    }
}

/// [`word`] for a register start: register mode, `0x80000000 | regid`.
#[cold]
#[inline(never)]
fn reg_word(r: u8) -> Result<u32, EncodeError> {
    if r >= NUM_ADDR_REGISTERS {
        return Err(EncodeError::RegisterOutOfRange(r));
    }
    Ok(REG_BIT | r as u32)
}

/// The canonical start an ADDR4 word encodes (the inverse of [`word`]): register mode when bit
/// 31 is set (the id is the low byte), PSUM inside the PSUM window, SBUF otherwise, with the
/// in-partition offset below the partition stride. Several starts fold to one word (an offset
/// past the stride carries into the partition); this one re-folds to the same word whenever any
/// does. `None` for a zero stride.
pub fn unfold(w: u32, arch: &ArchModel) -> Option<Start> {
    if w & REG_BIT != 0 {
        return Some(Start::Reg(w as u8));
    }
    let (space, rel, stride) = if arch.in_psum(w) {
        (Space::Psum, w - arch.psum_base, arch.psum_partition_stride)
    } else {
        (Space::Sbuf, w, arch.sbuf_partition_stride)
    };
    Some(Start::Imm(MemLoc {
        space,
        partition: rel.checked_div(stride)?,
        offset: rel.checked_rem(stride)?,
    }))
}

/// The ADDR4 word of an MX scale start (`a4 = 1`, `getStartAddressForMXScale`): SBUF only, the
/// partition part is `(basePart << 18) & 0xFF800000` (bundle-layouts §1a, CC CERTAIN); the
/// in-partition byte offset is added as for data addresses (ASSUMPTION: the CC quotes only the
/// partition term). Returns the word and the base partition (for the +0xF/+0xB scale byte).
pub fn scale_word(start: &Start, arch: &ArchModel) -> Result<(u32, u32), EncodeError> {
    match *start {
        Start::Imm(loc) => {
            if loc.space != Space::Sbuf {
                return Err(EncodeError::MxScaleNotSbuf);
            }
            let full = fold(loc, arch)?;
            let stride = arch.sbuf_partition_stride;
            let bad = EncodeError::InvalidArchModel("the SBUF partition stride");
            let part = full.checked_div(stride).ok_or(bad.clone())?;
            let in_part = full.checked_rem(stride).ok_or(bad)?;
            let w = ((part << SB_SHIFT) & 0xFF80_0000) + in_part;
            Ok((w, part))
        }
        // A register scale start has no static base partition; the MX scale dynamic-offset
        // assert rejects it after the word is written, so the partition is irrelevant.
        Start::Reg(_) => Ok((word(start, arch)?, 0)),
    }
}

/// Writes a u32 little-endian at `b[off..off + 4]`.
#[inline(always)]
pub fn put_u32(b: &mut [u8], off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}

/// Reads a u32 little-endian at `b[off..off + 4]`.
#[inline(always)]
pub fn get_u32(b: &[u8], off: usize) -> u32 {
    // One range check and one load (four indexed bytes would be four checks and loads).
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[off..off + 4]);
    u32::from_le_bytes(w)
}

/// Appends the text form of an ADDR4 word: `sb[P]+0xOFF`, `ps[P]+0xOFF` or `rN`, each with
/// optional `!ind` (bit 29) and `!shape` (bit 30) suffixes, or the raw `0xXXXXXXXX` word when
/// none of those forms describes it. Every word has exactly one printed form, and
/// [`parse`] inverts it.
pub fn format(w: u32, out: &mut String) {
    use std::fmt::Write;
    let a = w & ADDR_MASK;
    let body_ok = if w & REG_BIT != 0 {
        if a & !0xFF == 0 {
            let _ = write!(out, "r{}", a & 0xFF);
            true
        } else {
            false
        }
    } else if a < PSUM_BASE {
        let _ = write!(
            out,
            "sb[{}]+{:#x}",
            a >> SB_SHIFT,
            a & ((1 << SB_SHIFT) - 1)
        );
        true
    } else if a < PSUM_END {
        let r = a - PSUM_BASE;
        let _ = write!(
            out,
            "ps[{}]+{:#x}",
            r >> PS_SHIFT,
            r & ((1 << PS_SHIFT) - 1)
        );
        true
    } else {
        false
    };
    if !body_ok {
        let _ = write!(out, "{w:#010x}");
        return;
    }
    if w & INDIRECT_BIT != 0 {
        out.push_str("!ind");
    }
    if w & SHAPE_BIT != 0 {
        out.push_str("!shape");
    }
}

fn parse_num(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Parses the text form written by [`format()`].
pub fn parse(s: &str) -> Result<u32, String> {
    let bad = || format!("malformed ADDR4 `{s}` (expected sb[P]+OFF, ps[P]+OFF, rN or 0xXXXXXXXX)");
    let (body, flags) = match s.find('!') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let mut w = if let Some(rest) = body
        .strip_prefix("sb[")
        .or_else(|| body.strip_prefix("ps["))
    {
        let psum = body.starts_with("ps");
        let (p, off) = rest.split_once("]+").ok_or_else(bad)?;
        let p = parse_num(p).ok_or_else(bad)?;
        let off = parse_num(off).ok_or_else(bad)?;
        let shift = if psum { PS_SHIFT } else { SB_SHIFT };
        if p >= 128 || off >= 1 << shift {
            return Err(format!(
                "ADDR4 `{s}`: partition must be < 128 and offset < {:#x}",
                1u32 << shift
            ));
        }
        let rel = ((p as u32) << shift) | off as u32;
        if psum { PSUM_BASE + rel } else { rel }
    } else if let Some(r) = body.strip_prefix('r') {
        let r = parse_num(r).ok_or_else(bad)?;
        if r > 0xFF {
            return Err(format!("ADDR4 `{s}`: register id must be <= 255"));
        }
        REG_BIT | r as u32
    } else if body.starts_with("0x") && flags.is_empty() {
        let v = parse_num(body).ok_or_else(bad)?;
        return u32::try_from(v).map_err(|_| bad());
    } else {
        return Err(bad());
    };
    let mut rest = flags;
    if let Some(r) = rest.strip_prefix("!ind") {
        w |= INDIRECT_BIT;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix("!shape") {
        w |= SHAPE_BIT;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::MARIANA;

    #[test]
    fn folding() {
        let l = MemLoc {
            space: Space::Sbuf,
            partition: 3,
            offset: 0x40,
        };
        assert_eq!(fold(l, &MARIANA).unwrap(), (3 << 18) + 0x40);
        let l = MemLoc {
            space: Space::Psum,
            partition: 2,
            offset: 0x100,
        };
        assert_eq!(fold(l, &MARIANA).unwrap(), 0x200_0000 + (2 << 15) + 0x100);
        // An offset past the stride carries into the partition.
        let l = MemLoc {
            space: Space::Sbuf,
            partition: 0,
            offset: (1 << 18) + 4,
        };
        assert_eq!(fold(l, &MARIANA).unwrap(), (1 << 18) + 4);
        let l = MemLoc {
            space: Space::Sbuf,
            partition: 128,
            offset: 0,
        };
        assert!(fold(l, &MARIANA).is_err());
        let l = MemLoc {
            space: Space::Psum,
            partition: 0,
            offset: 16 * 1024,
        };
        assert!(fold(l, &MARIANA).is_err());
        assert_eq!(word(&Start::Reg(5), &MARIANA).unwrap(), 0x8000_0005);
        assert_eq!(
            word(&Start::Reg(64), &MARIANA),
            Err(EncodeError::RegisterOutOfRange(64))
        );
    }

    #[test]
    fn fold_reports_the_first_failure() {
        let sb = |partition, offset| MemLoc {
            space: Space::Sbuf,
            partition,
            offset,
        };
        // Past 32 bits (the window would fail too): the u32 error comes first.
        assert_eq!(
            fold(sb(1 << 14, 0), &MARIANA),
            Err(EncodeError::AddressOutOfU32)
        );
        assert_eq!(
            fold(sb(u32::MAX, u32::MAX), &MARIANA),
            Err(EncodeError::AddressOutOfU32)
        );
        // Inside 32 bits, past the window.
        assert!(matches!(
            fold(sb(1 << 13, 0), &MARIANA),
            Err(EncodeError::AddressOutsideWindow { space: "SBUF", .. })
        ));
        // A zero stride has no in-partition offset: a model error, unless the word is too wide.
        let mut zero = MARIANA.clone();
        zero.sbuf_partition_stride = 0;
        assert_eq!(
            fold(sb(0, 0x40), &zero),
            Err(EncodeError::InvalidArchModel("the partition stride"))
        );
        let mut psum_zero = MARIANA.clone();
        psum_zero.psum_partition_stride = 0;
        let far = MemLoc {
            space: Space::Psum,
            partition: 0,
            offset: u32::MAX,
        };
        assert_eq!(fold(far, &psum_zero), Err(EncodeError::AddressOutOfU32));
        // A non-power-of-two stride takes the remainder.
        let mut odd = MARIANA.clone();
        odd.sbuf_partition_stride = 3000;
        odd.sbuf_active_bytes = 1000;
        assert_eq!(fold(sb(2, 999), &odd), Ok(6999));
        assert!(fold(sb(2, 1000), &odd).is_err());
        assert_eq!(fold(sb(2, 3001), &odd), Ok(9001));
    }

    #[test]
    fn unfold_inverts_word() {
        for s in [
            Start::Reg(5),
            Start::Imm(MemLoc {
                space: Space::Sbuf,
                partition: 7,
                offset: 0x1230,
            }),
            Start::Imm(MemLoc {
                space: Space::Psum,
                partition: 3,
                offset: 0x40,
            }),
        ] {
            let w = word(&s, &MARIANA).unwrap();
            assert_eq!(unfold(w, &MARIANA), Some(s));
        }
        // An offset past the stride unfolds to the carried partition.
        let w = word(
            &Start::Imm(MemLoc {
                space: Space::Sbuf,
                partition: 0,
                offset: (1 << 18) + 4,
            }),
            &MARIANA,
        )
        .unwrap();
        let Some(Start::Imm(l)) = unfold(w, &MARIANA) else {
            panic!("not an immediate start")
        };
        assert_eq!((l.partition, l.offset), (1, 4));
    }

    #[test]
    fn scale_word_masks_to_quadrant() {
        let s = Start::Imm(MemLoc {
            space: Space::Sbuf,
            partition: 37,
            offset: 0x10,
        });
        let (w, p) = scale_word(&s, &MARIANA).unwrap();
        assert_eq!(p, 37);
        assert_eq!(w, 0x80_0000 + 0x10);
    }

    #[test]
    fn text_round_trip_samples() {
        for w in [
            0u32,
            0x0000_0040,
            (5 << 18) | 0x123,
            0x2000_0000 | (7 << 18),
            0x0200_8010,
            0x8000_0005,
            0xA000_0003,
            0xC000_003F,
            0x0300_0000,
            0xFFFF_FFFF,
            0x8000_0100,
            0x6000_0000,
        ] {
            let mut s = String::new();
            format(w, &mut s);
            assert_eq!(parse(&s), Ok(w), "{s}");
        }
    }
}
