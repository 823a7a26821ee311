//! IndirectCopy (`visitInstIndirectCopy`, 0xE7, S4D4_IC): the source is a TensorIndirect AP
//! whose {index, data, count} descriptor is embedded at +0x0C..+0x15 with the marker on +0x0F.

use super::fast::{self, Ctx, Words};
use super::{active, wire};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{INDIRECT_COPY, indirect_copy as ic};
use crate::indirect::{assign_access_4d, assign_indirect_copy_descriptor};
use crate::model::{AccessPattern, IndirectCopy, Instruction};

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &IndirectCopy,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let AccessPattern::TensorIndirect(src) = &op.src else {
        return Err(EncodeError::IndirectCopyNotIndirect);
    };
    let b = sink.begin()?;
    setup_header(b, INDIRECT_COPY.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    assign_indirect_copy_descriptor(ic::SRC.slot(b), src, arch)?;
    ic::IN_DTYPE.put_u8(b, wire(src.data.dtype, arch));
    ic::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    ic::ACTIVE.put_u8(b, active(&op.src, arch)?);
    ic::SRC_NUM_ELEM_PER_IDX.put_u8(b, op.num_elem_per_idx);
    ic::SRC_BUFFER_SIZE.put_u16(b, op.src_buffer_size);
    assign_access_4d(ic::DST.slot(b), &op.dst, arch)?;
    sink.end();
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same bundle, or `None`.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &IndirectCopy,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    let AccessPattern::TensorIndirect(src) = &op.src else {
        return None;
    };
    let [b] = fast::room::<1>(out)?;
    // Fields are stored as soon as they are known (see dropout).
    let mut w = Words::new(b, INDIRECT_COPY.opcode);
    w.band(fast::events_single(&inst.sync)?);
    w.slot::<4>(ic::SRC, fast::copy_descriptor(src, cx.arch)?);
    w.u8(ic::IN_DTYPE, cx.wire(src.data.dtype));
    w.u8(ic::ACTIVE, cx.active(src.data.partitions)?);
    w.u8(ic::SRC_NUM_ELEM_PER_IDX, op.num_elem_per_idx);
    w.u16(ic::SRC_BUFFER_SIZE, op.src_buffer_size);
    let dst = fast::operand::<4>(&op.dst, cx.arch)?;
    w.slot::<4>(ic::DST, dst.slot);
    w.u8(ic::OUT_DTYPE, cx.wire(dst.dtype));
    Some(1)
}
