//! The MX encoders (mariana): MatmulMx {0x09 LDWEIGHTS_MX, 0x0A MATMUL_MX} and QuantizeMx 0xE3.
//! Their MX operands go through `assign_access_for_mx` (static MXMEM_PATTERN1D, or the
//! MXINDIRECT16B record of `assign_indirect_pattern_for_mx` with its four asserts).

use super::matmul::{check_flags, pe_group, psum_dtype, start_partition};
use super::{active, in_wire, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::pe_dma::{
    MX_COL_GRP, QUANTIZE_MX_CHANNELS, QUANTIZE_MX_IN_DTYPES, QUANTIZE_MX_OUT_DTYPES,
};
use crate::formats::{mx_pe, quantize_mx as qm};
use crate::indirect::{assign_access_3d, assign_access_for_mx};
use crate::model::{Instruction, MatmulMx, QuantizeMx, Space, Start};
use crate::tensor::assign_static;

pub(super) fn encode_matmul<S: Sink>(
    inst: &Instruction,
    op: &MatmulMx,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if inst.sync.update.is_some() {
        return Err(EncodeError::MatmulSyncUpdate);
    }
    let k = active(&op.moving, arch)?;
    if op.weights.partitions() != op.moving.partitions() {
        return Err(EncodeError::MatmulShape(
            "weights and moving partition counts (num_active_rows) differ",
        ));
    }
    let d = static_only(&op.dst, "matmul_mx dst_mem_pattern")?;
    let n = active(&op.dst, arch)?;
    if !psum_dtype(d.dtype) {
        return Err(EncodeError::MatmulDstDtype(d.dtype));
    }
    check_flags(op.psum_accumulate_flags, op.psum_zero_region, arch)?;
    let row_w = pe_group(
        start_partition(op.weights.base(), Space::Sbuf, "weights", arch)?,
        k as u32,
    )?;
    let row_m = pe_group(
        start_partition(op.moving.base(), Space::Sbuf, "moving", arch)?,
        k as u32,
    )?;
    // The PSUM side must still be a PSUM start (the CC's constant col_grp covers all of PSUM).
    start_partition(d, Space::Psum, "dst", arch)?;
    let (w_dtype, m_dtype) = (
        in_wire(op.weights.dtype(), arch)?,
        in_wire(op.moving.dtype(), arch)?,
    );

    let b = sink.begin()?;
    setup_header(b, 0x09);
    setup_sync(b, &inst.sync, true, false)?;
    assign_access_for_mx(
        mx_pe::SRC.slot::<16>(b),
        &op.weights,
        &op.weights_scale,
        arch,
    )?;
    mx_pe::IN_DTYPE.put_u8(b, w_dtype);
    mx_pe::NUM_ACTIVE_ROWS.put_u8(b, k);
    mx_pe::NUM_ACTIVE_COLS.put_u8(b, n);
    mx_pe::ROW_GRP.put_u8(b, row_w);
    mx_pe::COL_GRP.put_u8(b, MX_COL_GRP);
    sink.end();

    let b = sink.begin()?;
    setup_header(b, 0x0A);
    assign_access_for_mx(mx_pe::SRC.slot::<16>(b), &op.moving, &op.moving_scale, arch)?;
    mx_pe::IN_DTYPE.put_u8(b, m_dtype);
    mx_pe::NUM_ACTIVE_ROWS.put_u8(b, k);
    mx_pe::NUM_ACTIVE_COLS.put_u8(b, n);
    mx_pe::OUT_DTYPE.put_u8(b, wire(d.dtype, arch));
    mx_pe::PSUM_ACCUMULATE_FLAGS.put_u8(b, op.psum_accumulate_flags);
    mx_pe::ROW_GRP.put_u8(b, row_m);
    mx_pe::COL_GRP.put_u8(b, MX_COL_GRP);
    mx_pe::PSUM_ZERO_REGION.put_u8(b, op.psum_zero_region);
    assign_static::<3>(mx_pe::DST.slot::<16>(b), d, arch)?;
    sink.end();
    Ok(())
}

pub(super) fn encode_quantize<S: Sink>(
    inst: &Instruction,
    op: &QuantizeMx,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let parts = op.src.partitions();
    if parts > arch.partitions || !QUANTIZE_MX_CHANNELS.contains(&(parts as u8)) {
        return Err(EncodeError::QuantizeMx(
            "num_active_channels must be 32, 64, 96 or 128",
        ));
    }
    let in_dtype = wire(op.src.dtype(), arch);
    if !QUANTIZE_MX_IN_DTYPES.contains(&in_dtype) {
        return Err(EncodeError::QuantizeMx(
            "the source dtype must be bf16 or fp16",
        ));
    }
    let out = wire(op.dst.dtype(), arch);
    if !QUANTIZE_MX_OUT_DTYPES.contains(&out) {
        return Err(EncodeError::QuantizeMx(
            "the data dtype must be an fp8 e4m3 or e5m2 type",
        ));
    }
    if let Start::Imm(loc) = op.src.base().start
        && loc.space != Space::Sbuf
    {
        return Err(EncodeError::QuantizeMx("the source must be in SBUF"));
    }
    let b = sink.begin()?;
    setup_header(b, 0xE3);
    setup_sync(b, &inst.sync, true, true)?;
    assign_access_3d(qm::SRC.slot::<16>(b), &op.src, arch)?;
    qm::ACTIVE.put_u8(b, parts as u8);
    qm::IN_DTYPE.put_u8(b, in_dtype);
    qm::OUT_DTYPE.put_u8(b, out);
    assign_access_for_mx(qm::DST.slot::<16>(b), &op.dst, &op.dst_scale, arch)?;
    sink.end();
    Ok(())
}
