//! The indirect fork: INDIRECT16B / INDIRECT20B / MXINDIRECT16B, their static siblings, and the
//! decoded slot forms the disassembler prints.
//!
//! Byte maps (seed `indirect-gather-descriptors`, disasm-pinned):
//!
//! ```text
//! INDIRECT16B (16 B)          INDIRECT20B (20 B)          MXINDIRECT16B (16 B)
//! +0x00 ADDR4 INDEX (bit29)   +0x00 ADDR4 INDEX (bit29)   +0x00 ADDR4 INDEX (bit29)
//! +0x04 ADDR4 DATA            +0x04 ADDR4 DATA            +0x04 ADDR4 DATA
//! +0x08 u16   NUM (no x4)     +0x08 u16   NUM (no x4)     +0x08 ADDR4 SCALE (a4=1)
//! +0x0A..0x0F inert           +0x0A..0x13 inert           +0x0C u16   x4-NUM
//!                                                         +0x0E       spare (count high half)
//!                                                         +0x0F u8    scale part % PE_count
//! ```
//!
//! Each `assign_*` function forks on `is_tensor_indirect_dynamic_ap()` exactly as the seed's
//! pseudo-code does; the indirect branch writes only its record and leaves the rest of the slot
//! untouched ("inert"). There is no MXINDIRECT20B (the MX gather is 1-D only).

use crate::addr4::{self, INDIRECT_BIT, MARKER_BYTE3};
use crate::arch::{ArchModel, Family};
use crate::error::EncodeError;
use crate::model::{AccessPattern, IndirectAp};
use crate::tensor::{self, Slot, TensorSlot};

#[inline]
fn require(arch: &ArchModel, f: Family) -> Result<(), EncodeError> {
    if arch.has(f) {
        Ok(())
    } else {
        Err(EncodeError::NotOnTarget {
            target: arch.target,
            family: f,
        })
    }
}

#[inline]
fn num_u16(n: u32) -> Result<u16, EncodeError> {
    u16::try_from(n).map_err(|_| EncodeError::CountOverflow(n))
}

/// The INDIRECT16B/20B record as a [`Slot`]: INDEX@+0 with the marker (`B[3] |= 0x20`), DATA@+4,
/// NUM u16@+8 (never x4); with `dynamic_offset_asserts`, the two asserts against the
/// granularity mask on the INDEX and DATA words' byte 3 (before the marker). Shared by the
/// reference encoder and the GENERATE fast path.
#[inline(always)]
fn record(
    ap: &IndirectAp,
    arch: &ArchModel,
    dynamic_offset_asserts: bool,
) -> Result<Slot, EncodeError> {
    let index = addr4::word(&ap.index.start, arch)?;
    let data = addr4::word(&ap.data.start, arch)?;
    let num = num_u16(ap.num_indirect_indices)?;
    if dynamic_offset_asserts {
        let gran = arch.granularity_mask;
        if gran & (index >> 24) as u8 != 0 {
            return Err(EncodeError::IndicesDynamicOffset);
        }
        if gran & (data >> 24) as u8 != 0 {
            return Err(EncodeError::DataDynamicOffset);
        }
    }
    Ok(Slot {
        addr: index | INDIRECT_BIT,
        steps: data as u64 | (num as u64) << 32,
        nums: 0,
    })
}

/// Writes the ten record bytes of an indirect [`Slot`] (INDEX, DATA, NUM), leaving the rest of
/// the slot untouched (inert).
#[inline(always)]
fn put_record(b: &mut [u8], r: &Slot) {
    addr4::put_u32(b, 0, r.addr);
    b[4..10].copy_from_slice(&r.steps.to_le_bytes()[..6]);
}

/// The shared indirect branch of `assignAccess3D` / `assignAccess4D`
/// (`assignIndirectPattern<INDIRECT16B/20B>`) as a [`Slot`]: the family gate, the record and
/// its two dynamic-offset asserts.
#[inline(always)]
pub(crate) fn indirect_pattern(ap: &IndirectAp, arch: &ArchModel) -> Result<Slot, EncodeError> {
    require(arch, Family::TensorIndirect)?;
    record(ap, arch, true)
}

/// The IndirectCopy descriptor as a [`Slot`]: the record without the family gate and without
/// the dynamic-offset asserts (see [`assign_indirect_copy_descriptor`]).
#[inline(always)]
pub(crate) fn indirect_copy_descriptor(
    ap: &IndirectAp,
    arch: &ArchModel,
) -> Result<Slot, EncodeError> {
    record(ap, arch, false)
}

/// `assignIndirectPattern<INDIRECT16B/20B>` into a slot: [`indirect_pattern`], written.
#[inline]
fn assign_indirect_pattern(
    b: &mut [u8],
    ap: &IndirectAp,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    put_record(b, &indirect_pattern(ap, arch)?);
    Ok(())
}

/// `CoreV4GenImpl::assignAccess3D`: TENSOR3D static fill, or the INDIRECT16B record.
#[inline]
pub fn assign_access_3d(
    slot: &mut [u8; 16],
    ap: &AccessPattern,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    match ap {
        AccessPattern::Static(s) => tensor::assign_static::<3>(slot, s, arch),
        AccessPattern::TensorIndirect(i) => assign_indirect_pattern(slot, i, arch),
    }
}

/// `CoreV4GenImpl::assignAccess4D`: TENSOR4D static fill, or the INDIRECT20B record.
#[inline]
pub fn assign_access_4d(
    slot: &mut [u8; 20],
    ap: &AccessPattern,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    match ap {
        AccessPattern::Static(s) => tensor::assign_static::<4>(slot, s, arch),
        AccessPattern::TensorIndirect(i) => assign_indirect_pattern(slot, i, arch),
    }
}

/// The descriptor IndirectCopy 0xE7 embeds at +0x0C (seed DVE page: index_addr@+0x0C,
/// data_addr@+0x10, num_elem@+0x14, `or byte [r13+0Fh],20h`): the INDIRECT20B record written by
/// the CoreV2 TensorIndirect resolver. The seed shows no dynamic-offset asserts on this path (the
/// header accepts `INDIRECT_REG` 0xA0 here), so a register index stays legal.
pub fn assign_indirect_copy_descriptor(
    slot: &mut [u8; 20],
    ap: &IndirectAp,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    put_record(slot, &indirect_copy_descriptor(ap, arch)?);
    Ok(())
}

/// `CoreV4GenImpl::assignIndirectPatternForMX<MXINDIRECT16B>`: the four MX asserts, then INDEX@+0,
/// DATA@+4, SCALE@+8 (a4 = 1), scale base partition % PE_count @+0xF, x4-NUM @+0xC (x4 only for
/// BIR dtypes 2, 8, 9), the three dynamic-offset asserts, and the marker.
pub fn assign_indirect_pattern_for_mx(
    slot: &mut [u8; 16],
    data: &AccessPattern,
    scale: &AccessPattern,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    require(arch, Family::Mx)?;
    if scale.parent_instr() != data.parent_instr() {
        return Err(EncodeError::MxParentMismatch);
    }
    let AccessPattern::TensorIndirect(d) = data else {
        return Err(EncodeError::MxDataNotIndirect);
    };
    if !scale.is_tensor_indirect_dynamic_ap() {
        return Err(EncodeError::MxScaleNotIndirect);
    }
    if scale.index_arg_id() != data.index_arg_id() {
        return Err(EncodeError::MxScaleIndirectionMismatch);
    }
    addr4::put_u32(slot, 0, addr4::word(&d.index.start, arch)?);
    addr4::put_u32(slot, 4, addr4::word(&d.data.start, arch)?);
    let (sw, part) = addr4::scale_word(&scale.base().start, arch)?;
    addr4::put_u32(slot, 8, sw);
    slot[0xF] = part
        .checked_rem(arch.pe_count)
        .ok_or(EncodeError::InvalidArchModel("the PE count"))? as u8;
    let mut n = data.get_num_indirect_indices();
    if d.data.dtype.is_x4_packed() {
        n = n
            .checked_shl(2)
            .filter(|v| v >> 2 == n)
            .ok_or(EncodeError::CountOverflow(n))?;
    }
    slot[0xC..0xE].copy_from_slice(&num_u16(n)?.to_le_bytes());
    let gran = arch.granularity_mask;
    if gran & slot[3] != 0 {
        return Err(EncodeError::IndicesDynamicOffset);
    }
    if gran & slot[7] != 0 {
        return Err(EncodeError::DataDynamicOffset);
    }
    if gran & slot[0xB] != 0 {
        return Err(EncodeError::MxScaleDynamicOffset);
    }
    slot[3] |= MARKER_BYTE3;
    Ok(())
}

/// `assignAccessForMX<MXMEM_PATTERN1D>`: tail-calls [`assign_indirect_pattern_for_mx`] when the
/// data AP is indirect; otherwise fills the static MXMEM_PATTERN1D (bundle-layouts §2c, CC
/// CONFIRMED): data@+0, scale@+4 (a4 = 1), k_extent u16@+8 (elements per partition, x4 for BIR
/// dtypes 2/8/9), step_dir@+0xA (0x01 = +1, 0xFF = -1), scale part % PE_count @+0xB.
pub fn assign_access_for_mx(
    slot: &mut [u8; 16],
    data: &AccessPattern,
    scale: &AccessPattern,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    require(arch, Family::Mx)?;
    let AccessPattern::Static(d) = data else {
        return assign_indirect_pattern_for_mx(slot, data, scale, arch);
    };
    let mut free = d.dims.iter().filter(|x| x.num != 1);
    let step = match (free.next(), free.next()) {
        (None, _) => 1,
        (Some(x), None) => x.step,
        _ => return Err(EncodeError::MxStaticShape),
    };
    let dir = match step {
        1 => 0x01,
        -1 => 0xFF,
        _ => return Err(EncodeError::MxStaticShape),
    };
    if d.dims.iter().any(|x| x.num == 0) {
        return Err(EncodeError::ZeroNumElem);
    }
    addr4::put_u32(slot, 0, addr4::word(&d.start, arch)?);
    let (sw, part) = addr4::scale_word(&scale.base().start, arch)?;
    addr4::put_u32(slot, 4, sw);
    let nepp = d.num_elements_per_partition();
    let k = if d.dtype.is_x4_packed() {
        nepp * 4
    } else {
        nepp
    };
    let k =
        u16::try_from(k).map_err(|_| EncodeError::CountOverflow(k.min(u32::MAX as u64) as u32))?;
    slot[8..10].copy_from_slice(&k.to_le_bytes());
    slot[0xA] = dir;
    slot[0xB] = part
        .checked_rem(arch.pe_count)
        .ok_or(EncodeError::InvalidArchModel("the PE count"))? as u8;
    Ok(())
}

/// The indirect arm of a decoded MEM_PATTERN3D/4D slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndirectSlot {
    /// 3 (INDIRECT16B) or 4 (INDIRECT20B).
    pub n: u8,
    /// INDEX ADDR4 with the bit-29 marker removed.
    pub index: u32,
    /// DATA ADDR4.
    pub data: u32,
    /// NUM.
    pub num: u16,
    /// The inert bytes (+0x0A..; 6 for 16B, 10 for 20B; trailing entries unused for 16B).
    pub inert: [u8; 10],
}

impl IndirectSlot {
    /// Reads the record of a rank-`n` slot (at least `4 + 4n` bytes) whatever its mode nibble:
    /// INDEX@+0 (the marker bit removed), DATA@+4, NUM u16@+8, the rest inert.
    #[inline]
    pub fn read(b: &[u8], n: usize) -> IndirectSlot {
        let mut inert = [0u8; 10];
        let w = tensor::tensor_bytes(n);
        // The ranks of the unions by constant lengths (a copy of a run-time length is a call).
        match w {
            16 => inert[..6].copy_from_slice(&b[10..16]),
            20 => inert.copy_from_slice(&b[10..20]),
            _ => inert[..w - 10].copy_from_slice(&b[10..w]),
        }
        IndirectSlot {
            n: n as u8,
            index: addr4::get_u32(b, 0) & !INDIRECT_BIT,
            data: addr4::get_u32(b, 4),
            num: u16::from_le_bytes([b[8], b[9]]),
            inert,
        }
    }

    /// Number of inert bytes.
    pub fn inert_len(&self) -> usize {
        tensor::tensor_bytes(self.n as usize) - 10
    }
}

/// A decoded MEM_PATTERN3D/4D slot: the union the validators select by the mode nibble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSlot {
    /// TENSOR3D/4D.
    Static(TensorSlot),
    /// INDIRECT16B/20B.
    Indirect(IndirectSlot),
}

impl MemSlot {
    /// Decodes a slot of rank `n`: `(byte3 & 0x60) == 0x20` selects the indirect arm
    /// (the `mxmem1d_valid`/`mem4d_valid` selector).
    #[inline]
    pub fn read(b: &[u8], n: usize) -> MemSlot {
        if b[3] & 0x60 == MARKER_BYTE3 {
            MemSlot::Indirect(IndirectSlot::read(b, n))
        } else {
            MemSlot::Static(TensorSlot::read(b, n))
        }
    }

    /// Writes the slot back.
    pub fn write(&self, b: &mut [u8]) {
        match self {
            MemSlot::Static(t) => t.write(b),
            MemSlot::Indirect(i) => {
                addr4::put_u32(b, 0, i.index | INDIRECT_BIT);
                addr4::put_u32(b, 4, i.data);
                b[8..10].copy_from_slice(&i.num.to_le_bytes());
                let l = i.inert_len();
                b[10..10 + l].copy_from_slice(&i.inert[..l]);
            }
        }
    }

    /// Text: `tNd(...)`, or `i16b(INDEX;DATA;NUM)` / `i20b(...)` with `;inert=HEX` when an inert
    /// byte is nonzero.
    pub fn format(&self, out: &mut String) {
        use std::fmt::Write;
        match self {
            MemSlot::Static(t) => t.format(out),
            MemSlot::Indirect(i) => {
                out.push_str(if i.n == 3 { "i16b(" } else { "i20b(" });
                addr4::format(i.index, out);
                out.push(';');
                addr4::format(i.data, out);
                let _ = write!(out, ";{}", i.num);
                let l = i.inert_len();
                if i.inert[..l].iter().any(|&x| x != 0) {
                    out.push_str(";inert=");
                    push_hex(out, &i.inert[..l]);
                }
                out.push(')');
            }
        }
    }

    /// Parses the text form for rank `n`.
    pub fn parse(s: &str, n: usize) -> Result<MemSlot, String> {
        let head = if n == 3 { "i16b(" } else { "i20b(" };
        let Some(inner) = s.strip_prefix(head) else {
            return TensorSlot::parse(s, n).map(MemSlot::Static);
        };
        let inner = inner
            .strip_suffix(')')
            .ok_or_else(|| format!("missing `)` in `{s}`"))?;
        let parts: Vec<&str> = inner.split(';').collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(format!(
                "expected `{head}INDEX;DATA;NUM[;inert=HEX])`, found `{s}`"
            ));
        }
        let index = addr4::parse(parts[0])?;
        if index & INDIRECT_BIT != 0 || index & addr4::SHAPE_BIT != 0 {
            return Err("the INDEX of an indirect record carries no mode suffix".into());
        }
        let data = addr4::parse(parts[1])?;
        let num = parts[2]
            .parse()
            .map_err(|_| format!("bad NUM `{}` (u16)", parts[2]))?;
        let mut slot = IndirectSlot {
            n: n as u8,
            index,
            data,
            num,
            inert: [0; 10],
        };
        if let Some(p) = parts.get(3) {
            let hex = p
                .strip_prefix("inert=")
                .ok_or_else(|| format!("expected `inert=HEX`, found `{p}`"))?;
            let l = slot.inert_len();
            parse_hex(hex, &mut slot.inert[..l])?;
        }
        Ok(MemSlot::Indirect(slot))
    }
}

/// A decoded MXMEM_PATTERN1D / MXINDIRECT16B (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MxSlot {
    /// MXMEM_PATTERN1D.
    Static {
        /// Data ADDR4.
        data: u32,
        /// Scale ADDR4.
        scale: u32,
        /// k_extent.
        k_extent: u16,
        /// step_dir.
        step_dir: u8,
        /// scale base partition.
        scale_part: u8,
        /// +0xC..0xF reserved.
        reserved: [u8; 4],
    },
    /// MXINDIRECT16B.
    Indirect {
        /// INDEX ADDR4 without the marker.
        index: u32,
        /// DATA ADDR4.
        data: u32,
        /// SCALE ADDR4.
        scale: u32,
        /// x4-NUM.
        num: u16,
        /// +0xE spare.
        spare: u8,
        /// scale base partition.
        scale_part: u8,
    },
}

impl MxSlot {
    /// Decodes by the mode nibble of the first word.
    pub fn read(b: &[u8; 16]) -> MxSlot {
        if b[3] & 0x60 == MARKER_BYTE3 {
            MxSlot::Indirect {
                index: addr4::get_u32(b, 0) & !INDIRECT_BIT,
                data: addr4::get_u32(b, 4),
                scale: addr4::get_u32(b, 8),
                num: u16::from_le_bytes([b[12], b[13]]),
                spare: b[14],
                scale_part: b[15],
            }
        } else {
            MxSlot::Static {
                data: addr4::get_u32(b, 0),
                scale: addr4::get_u32(b, 4),
                k_extent: u16::from_le_bytes([b[8], b[9]]),
                step_dir: b[10],
                scale_part: b[11],
                reserved: [b[12], b[13], b[14], b[15]],
            }
        }
    }

    /// Writes the 16 bytes back (the INDEX marker of the indirect arm included).
    pub fn write(&self, b: &mut [u8]) {
        match *self {
            MxSlot::Static {
                data,
                scale,
                k_extent,
                step_dir,
                scale_part,
                reserved,
            } => {
                addr4::put_u32(b, 0, data);
                addr4::put_u32(b, 4, scale);
                b[8..10].copy_from_slice(&k_extent.to_le_bytes());
                b[10] = step_dir;
                b[11] = scale_part;
                b[12..16].copy_from_slice(&reserved);
            }
            MxSlot::Indirect {
                index,
                data,
                scale,
                num,
                spare,
                scale_part,
            } => {
                addr4::put_u32(b, 0, index | INDIRECT_BIT);
                addr4::put_u32(b, 4, data);
                addr4::put_u32(b, 8, scale);
                b[12..14].copy_from_slice(&num.to_le_bytes());
                b[14] = spare;
                b[15] = scale_part;
            }
        }
    }

    /// Parses the [`MxSlot::format`] text.
    pub fn parse(s: &str) -> Result<MxSlot, String> {
        let (indirect, inner) = if let Some(r) = s.strip_prefix("mxi16b(") {
            (true, r)
        } else if let Some(r) = s.strip_prefix("mx1d(") {
            (false, r)
        } else {
            return Err(format!(
                "expected `mx1d(...)` or `mxi16b(...)`, found `{s}`"
            ));
        };
        let inner = inner
            .strip_suffix(')')
            .ok_or_else(|| format!("missing `)` in `{s}`"))?;
        let parts: Vec<&str> = inner.split(';').collect();
        let int = |p: &str, what: &str| -> Result<u64, String> {
            let r = match p.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => p.parse(),
            };
            r.map_err(|_| format!("bad {what} `{p}`"))
        };
        let small = |p: &str, what: &str, max: u64| -> Result<u64, String> {
            let v = int(p, what)?;
            if v > max {
                return Err(format!("{what} `{p}` out of range"));
            }
            Ok(v)
        };
        if indirect {
            if !(5..=6).contains(&parts.len()) {
                return Err(format!(
                    "expected `mxi16b(INDEX;DATA;SCALE;NUM;PART[;spare=HEX])`, found `{s}`"
                ));
            }
            let index = addr4::parse(parts[0])?;
            if index & INDIRECT_BIT != 0 || index & addr4::SHAPE_BIT != 0 {
                return Err("the INDEX of an indirect record carries no mode suffix".into());
            }
            let mut spare = [0u8; 1];
            if let Some(p) = parts.get(5) {
                let hex = p
                    .strip_prefix("spare=")
                    .ok_or_else(|| format!("expected `spare=HEX`, found `{p}`"))?;
                parse_hex(hex, &mut spare)?;
            }
            Ok(MxSlot::Indirect {
                index,
                data: addr4::parse(parts[1])?,
                scale: addr4::parse(parts[2])?,
                num: small(parts[3], "NUM", 0xFFFF)? as u16,
                spare: spare[0],
                scale_part: small(parts[4], "PART", 0xFF)? as u8,
            })
        } else {
            if !(5..=6).contains(&parts.len()) {
                return Err(format!(
                    "expected `mx1d(DATA;SCALE;K;STEP;PART[;rsv=HEX])`, found `{s}`"
                ));
            }
            let data = addr4::parse(parts[0])?;
            if data & 0x6000_0000 == INDIRECT_BIT {
                return Err(
                    "an `!ind` data word makes the slot MXINDIRECT16B: write `mxi16b`".into(),
                );
            }
            let mut reserved = [0u8; 4];
            if let Some(p) = parts.get(5) {
                let hex = p
                    .strip_prefix("rsv=")
                    .ok_or_else(|| format!("expected `rsv=HEX`, found `{p}`"))?;
                parse_hex(hex, &mut reserved)?;
            }
            Ok(MxSlot::Static {
                data,
                scale: addr4::parse(parts[1])?,
                k_extent: small(parts[2], "K", 0xFFFF)? as u16,
                step_dir: small(parts[3], "STEP", 0xFF)? as u8,
                scale_part: small(parts[4], "PART", 0xFF)? as u8,
                reserved,
            })
        }
    }

    /// Text: `mx1d(DATA;SCALE;K;STEP;PART[;rsv=HEX])` or
    /// `mxi16b(INDEX;DATA;SCALE;NUM;PART[;spare=HEX])`.
    pub fn format(&self, out: &mut String) {
        use std::fmt::Write;
        match *self {
            MxSlot::Static {
                data,
                scale,
                k_extent,
                step_dir,
                scale_part,
                reserved,
            } => {
                out.push_str("mx1d(");
                addr4::format(data, out);
                out.push(';');
                addr4::format(scale, out);
                let _ = write!(out, ";{k_extent};{step_dir:#04x};{scale_part}");
                if reserved != [0; 4] {
                    out.push_str(";rsv=");
                    push_hex(out, &reserved);
                }
            }
            MxSlot::Indirect {
                index,
                data,
                scale,
                num,
                spare,
                scale_part,
            } => {
                out.push_str("mxi16b(");
                addr4::format(index, out);
                out.push(';');
                addr4::format(data, out);
                out.push(';');
                addr4::format(scale, out);
                let _ = write!(out, ";{num};{scale_part}");
                if spare != 0 {
                    let _ = write!(out, ";spare={spare:02x}");
                }
            }
        }
        out.push(')');
    }
}

/// Appends lower-case hex.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    use std::fmt::Write;
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
}

/// Parses exactly `out.len()` bytes of hex.
pub fn parse_hex(s: &str, out: &mut [u8]) -> Result<(), String> {
    if s.len() != out.len() * 2 || !s.is_ascii() {
        return Err(format!(
            "expected {} hex digits, found `{s}`",
            out.len() * 2
        ));
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| format!("bad hex `{s}`"))?;
    }
    Ok(())
}
