//! StreamTranspose (`visitInstStreamTranspose`): {0x6B} when the dst spans <= 31 partitions,
//! else {0x6B, 0x69}. The 0x69 half is identical in structure to StreamShuffle's.

use super::fast::{self, Ctx, Words};
use super::{
    TRANSPOSE_WIDE_PARTITIONS, active, fill_lanes, lane_map, passthrough_sentinel, sentinel, wire,
};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{STREAM_SHUFFLE, STREAM_TRANSPOSE, shuffle, tr};
use crate::indirect::assign_access_4d;
use crate::model::{AccessPattern, Instruction, StreamTranspose};
use crate::tensor::pack;

/// +0x26 `d3_transpose_ch` on the standalone 0x6B (0x6A leaves it 0).
const TRANSPOSE_CH: u8 = 1;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &StreamTranspose,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    // Guard A: no TensorIndirect source.
    let AccessPattern::Static(src) = &op.src else {
        return Err(EncodeError::TransposeIndirectSrc);
    };
    // Guard B: the packed source's num_elem[3] (the +0x1E word) must be 1.
    let (_, num) = pack(&src.dims, 4)?;
    if num[3] != 1 {
        return Err(EncodeError::TransposeNumElem3);
    }
    let wide = op.dst.partitions() >= TRANSPOSE_WIDE_PARTITIONS;

    let b = sink.begin()?;
    setup_header(b, STREAM_TRANSPOSE.opcode);
    setup_sync(b, &inst.sync, true, !wide)?;
    tr::IN_DTYPE.put_u8(b, wire(op.src.dtype(), arch));
    tr::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    tr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    tr::TRANSPOSE_CH.put_u8(b, TRANSPOSE_CH);
    assign_access_4d(tr::SRC.slot(b), &op.src, arch)?;
    assign_access_4d(tr::DST.slot(b), &op.dst, arch)?;
    sink.end();

    if wide {
        let b = sink.begin()?;
        setup_header(b, STREAM_SHUFFLE.opcode);
        setup_sync(b, &inst.sync, false, true)?;
        assign_access_4d(shuffle::SRC.slot(b), &op.src, arch)?;
        fill_lanes(b, &op.mask, passthrough_sentinel(&op.src, &op.dst))?;
        sink.end();
    }
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same one or two bundles, or `None`. The source is
/// packed once: guard B reads the same packing the slot carries.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &StreamTranspose,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    let AccessPattern::Static(s) = &op.src else {
        return None;
    };
    let src = fast::tensor::<4>(s, cx.arch)?;
    // Guard B: num_elem[3] is lane 3 of the count run.
    if src.nums >> 48 != 1 {
        return None;
    }
    let [b0, rest @ ..] = out else {
        return None;
    };
    // Fields are stored as soon as they are known (see dropout).
    let mut w = Words::new(b0, STREAM_TRANSPOSE.opcode);
    w.slot::<4>(tr::SRC, src);
    w.u8(tr::IN_DTYPE, cx.wire(s.dtype));
    w.u8(tr::ACTIVE, cx.active(s.partitions)?);
    w.u8(tr::TRANSPOSE_CH, TRANSPOSE_CH);
    let dst = fast::operand::<4>(&op.dst, cx.arch)?;
    w.slot::<4>(tr::DST, dst.slot);
    w.u8(tr::OUT_DTYPE, cx.wire(dst.dtype));
    if dst.partitions < TRANSPOSE_WIDE_PARTITIONS {
        w.band(fast::events_single(&inst.sync)?);
        return Some(1);
    }
    let (first, last) = fast::events_pair(&inst.sync);
    w.band(first);
    let b1 = rest.first_mut()?;
    let lanes = lane_map(&op.mask, sentinel(s.partitions, dst.partitions)).ok()?;
    let mut w = Words::new(b1, STREAM_SHUFFLE.opcode);
    w.band(last);
    w.slot::<4>(shuffle::SRC, src);
    w.lanes(shuffle::IMMEDIATE, &lanes);
    Some(2)
}
