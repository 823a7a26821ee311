//! Matmul: one LDWEIGHTS 0x01 then one MATMUL 0x02 (PE engine), in the v3 layout on sunda and
//! cayman and the v4 layout on mariana (`formats::pe_dma`).
//!
//! Derived fields: `num_active_rows` = K (partitions of weights and moving), `num_active_cols` =
//! N (weights' elements per partition = dst partitions); `row_grp` / `col_grp` are the header's
//! 4-bit quadrant masks of the SBUF source / PSUM destination partitions ([`pe_group`]);
//! `xbus_sel` (v3 only) follows `col_grp` by the header table. The wait of the instruction rides
//! the LDWEIGHTS bundle; MATMUL has no sync band (conflict #8), so an update is refused.

use super::{active, static_only, wire};
use crate::addr4;
use crate::arch::{ArchModel, CoreGen};
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::dtype::BirDtype;
use crate::error::EncodeError;
use crate::formats::{ldweights as lw, matmul as mm, pe_dma};
use crate::model::{Instruction, Matmul, PeFp32Mode, PerfOptMode, Space, Start, StaticAp};
use crate::tensor::assign_static;

/// The quadrant group mask of partitions `start..start + size` (CONFLICT #14 settled for the
/// header's masks): up to 32 partitions one quadrant `1 << (start / 32)`, up to 64 one half
/// `0x3 << 2 * (start / 64)`, else all `0xF`. The CC `translateToRowGroup` picks the same group
/// by `start >> 5` / `start >> 6` (its LUT64 entries 32/64 are reached only for start >= 128);
/// unlike the CC this also requires the partitions to lie inside the group.
pub fn pe_group(start: u32, size: u32) -> Result<u8, EncodeError> {
    let (width, mask) = match size {
        0..=32 => (32, 0x1u8),
        33..=64 => (64, 0x3),
        _ => (128, 0xF),
    };
    let g = start / width;
    let end = start.saturating_add(size);
    if size == 0 || end > (g + 1) * width || end > 128 {
        return Err(EncodeError::PeGroup { start, end });
    }
    Ok(mask << (g * width / 32))
}

/// `xbus_sel` of a PSUM column group (header table, v3 layout).
pub fn xbus_sel(col_grp: u8) -> Result<u8, EncodeError> {
    pe_dma::xbus_sel_of(col_grp).ok_or(EncodeError::Unpinned {
        op: "matmul",
        missing: "xbus_sel of col_grp 0x8 (PSUM quadrant 3: the header table says NOT SUPPORTED)",
    })
}

/// The start partition of an immediate operand in `space`.
pub(super) fn start_partition(
    ap: &StaticAp,
    space: Space,
    name: &'static str,
    arch: &ArchModel,
) -> Result<u32, EncodeError> {
    let Start::Imm(loc) = ap.start else {
        return Err(EncodeError::MatmulSpace(name));
    };
    if loc.space != space {
        return Err(EncodeError::MatmulSpace(name));
    }
    let w = addr4::fold(loc, arch)?;
    let (base, stride) = match space {
        Space::Sbuf => (0, arch.sbuf_partition_stride),
        Space::Psum => (arch.psum_base, arch.psum_partition_stride),
    };
    (w - base)
        .checked_div(stride)
        .ok_or(EncodeError::InvalidArchModel("the partition stride"))
}

/// The checks shared by the dense and MX matmuls.
pub(super) fn check_flags(flags: u8, zero_region: u8, arch: &ArchModel) -> Result<(), EncodeError> {
    if !pe_dma::PSUM_ACCUMULATE_FLAGS.contains(&flags) {
        return Err(EncodeError::PsumAccumulateFlags(flags));
    }
    if zero_region > pe_dma::psum_zero_region_max(arch.core) {
        return Err(EncodeError::PsumZeroRegion {
            value: zero_region,
            target: arch.target,
        });
    }
    Ok(())
}

/// Whether a BIR dtype is a 4-byte PSUM result dtype (header: PSUM writes are fp32 / int32 /
/// uint32 / fp32r). Selection asks the same question before it builds a matmul, so an op the
/// encoder would refuse fails at its own location with the reason.
pub fn psum_dtype(d: BirDtype) -> bool {
    matches!(
        d,
        BirDtype::Float32 | BirDtype::Float32r | BirDtype::Int32 | BirDtype::Uint32
    )
}

/// The PE `in_dtype` byte. An fp32r operand is written as the fp32 tag (the CC writes the word
/// 0x020A at +0x20 for fp32r: tag 0x0A with +0x21 = 2, the header's fp32_mode High), and FP32R
/// itself is output-only; so fp32r lifts back as fp32 with fp32_mode High.
pub(super) fn pe_in_dtype(d: BirDtype, arch: &ArchModel) -> u8 {
    if d == BirDtype::Float32r {
        wire(BirDtype::Float32, arch)
    } else {
        wire(d, arch)
    }
}

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Matmul,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if inst.sync.update.is_some() {
        return Err(EncodeError::MatmulSyncUpdate);
    }
    let w = static_only(&op.weights, "ldweights src_mem_pattern")?;
    let m = static_only(&op.moving, "matmul src_mem_pattern")?;
    let d = static_only(&op.dst, "matmul dst_mem_pattern")?;
    let k = active(&op.moving, arch)?;
    if w.partitions != m.partitions {
        return Err(EncodeError::MatmulShape(
            "weights and moving partition counts (num_active_rows) differ",
        ));
    }
    let n = w.num_elements_per_partition();
    if n == 0 || n > arch.partitions as u64 || n > 255 {
        return Err(EncodeError::MatmulShape(
            "weights elements per partition (num_active_cols) must be 1..=128",
        ));
    }
    if d.partitions as u64 != n {
        return Err(EncodeError::MatmulShape(
            "dst partitions must equal the weights' elements per partition (num_active_cols)",
        ));
    }
    let v4 = arch.core == CoreGen::V4;
    // A transpose on v3 is refused first: its missing code is the reason, whatever the dtype.
    if op.transpose && !v4 {
        return Err(EncodeError::Unpinned {
            op: "matmul",
            missing: "the LDWEIGHTS transpose_mode code of a transpose on sunda/cayman (conflict #13: the \
             header names the field without codes)",
        });
    }
    if !psum_dtype(d.dtype) {
        return Err(EncodeError::MatmulDstDtype(d.dtype));
    }
    let fp32 = matches!(m.dtype, BirDtype::Float32 | BirDtype::Float32r);
    let fp32r_needs_high = m.dtype == BirDtype::Float32r && op.fp32_mode != PeFp32Mode::High;
    if fp32 == (op.fp32_mode == PeFp32Mode::None) || fp32r_needs_high {
        return Err(EncodeError::Fp32Mode {
            mode: op.fp32_mode,
            dtype: m.dtype,
        });
    }
    check_flags(op.psum_accumulate_flags, op.psum_zero_region, arch)?;
    if op.perf_opt != PerfOptMode::None {
        return Err(EncodeError::Unpinned {
            op: "matmul",
            missing: "the PERF_OPT_MODE code of DoubleRow / DoubleColumn / DoublePixel (the header lists \
             the names only)",
        });
    }
    if op.quant_offset != 0 && v4 {
        return Err(EncodeError::Unpinned {
            op: "matmul",
            missing: "the place of quant_offset in the mariana MATMUL layout",
        });
    }
    let n = n as u8;
    let row_w = pe_group(start_partition(w, Space::Sbuf, "weights", arch)?, k as u32)?;
    let row_m = pe_group(start_partition(m, Space::Sbuf, "moving", arch)?, k as u32)?;
    let col = pe_group(start_partition(d, Space::Psum, "dst", arch)?, n as u32)?;
    let xbus = if v4 { 0 } else { xbus_sel(col)? };

    let b = sink.begin()?;
    setup_header(b, 0x01);
    setup_sync(b, &inst.sync, true, false)?;
    assign_static::<3>(lw::SRC.slot::<16>(b), w, arch)?;
    lw::IN_DTYPE.put_u8(b, pe_in_dtype(w.dtype, arch));
    if v4 {
        lw::FLAGS.put_u8(b, op.transpose as u8);
    } else {
        lw::TRANSPOSE_MODE.put_u8(b, op.transpose as u8);
    }
    lw::PERF_OPT.put_u8(b, op.perf_opt as u8);
    lw::NUM_ACTIVE_ROWS.put_u8(b, k);
    lw::NUM_ACTIVE_COLS.put_u8(b, n);
    lw::ROW_GRP.put_u8(b, row_w);
    lw::COL_GRP.put_u8(b, col);
    sink.end();

    let b = sink.begin()?;
    setup_header(b, 0x02);
    assign_static::<3>(mm::SRC.slot::<16>(b), m, arch)?;
    mm::IN_DTYPE.put_u8(b, pe_in_dtype(m.dtype, arch));
    mm::FP32_MODE.put_u8(b, op.fp32_mode as u8);
    if !v4 {
        mm::PERF_OPT.put_u8(b, op.perf_opt as u8);
        mm::QUANT_OFFSET.put_u16(b, op.quant_offset);
    }
    mm::NUM_ACTIVE_ROWS.put_u8(b, k);
    mm::NUM_ACTIVE_COLS.put_u8(b, n);
    mm::PSUM_ACCUMULATE_FLAGS.put_u8(b, op.psum_accumulate_flags);
    mm::ROW_GRP.put_u8(b, row_m);
    mm::COL_GRP.put_u8(b, col);
    mm::PSUM_ZERO_REGION.put_u8(b, op.psum_zero_region);
    if v4 {
        mm::OUT_DTYPE.put_u8(b, wire(d.dtype, arch));
    } else {
        mm::XBUS_SEL.put_u8(b, xbus);
    }
    assign_static::<3>(mm::DST.slot::<16>(b), d, arch)?;
    sink.end();
    Ok(())
}
