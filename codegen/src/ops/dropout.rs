//! Dropout (`visitInstDropout`, 0x7F, S3D3_DROPOUT): one bundle, TENSOR3D slots, the threshold
//! as a scalar-bank pointer and its dtype, and the RNG mode byte.

use super::fast::{self, Ctx, Words};
use super::{active, wire};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{DROPOUT, dropout as dr};
use crate::indirect::assign_access_3d;
use crate::model::{Dropout, Instruction};

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Dropout,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let b = sink.begin()?;
    setup_header(b, DROPOUT.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    dr::IN_DTYPE.put_u8(b, wire(op.src.dtype(), arch));
    dr::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    dr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    dr::THRESHOLD_IMM_PTR.put_u8(b, op.threshold_imm_ptr);
    dr::THRESHOLD_DTYPE.put_u8(b, wire(op.threshold_dtype, arch));
    dr::RNG_MODE.put_u8(b, op.rng_mode);
    assign_access_3d(dr::SRC.slot(b), &op.src, arch)?;
    assign_access_3d(dr::DST.slot(b), &op.dst, arch)?;
    sink.end();
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same bundle, or `None`.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &Dropout,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    let [b] = fast::room::<1>(out)?;
    // Each field is stored as soon as it is known (short live ranges, no spills); a later
    // failure leaves a partial bundle, which the reference encoder then overwrites.
    let mut w = Words::new(b, DROPOUT.opcode);
    w.band(fast::events_single(&inst.sync)?);
    let src = fast::operand::<3>(&op.src, cx.arch)?;
    w.slot::<3>(dr::SRC, src.slot);
    w.u8(dr::IN_DTYPE, cx.wire(src.dtype));
    w.u8(dr::ACTIVE, cx.active(src.partitions)?);
    let dst = fast::operand::<3>(&op.dst, cx.arch)?;
    w.slot::<3>(dr::DST, dst.slot);
    w.u8(dr::OUT_DTYPE, cx.wire(dst.dtype));
    w.u8(dr::THRESHOLD_IMM_PTR, op.threshold_imm_ptr);
    w.u8(dr::THRESHOLD_DTYPE, cx.wire(op.threshold_dtype));
    w.u8(dr::RNG_MODE, op.rng_mode);
    Some(1)
}
