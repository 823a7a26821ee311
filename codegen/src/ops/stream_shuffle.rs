//! StreamShuffle (`visitInstStreamShuffle`): {0x6A stream_transpose, 0x69 stream_shuffle}.
//!
//! The 0x69 half stores the source at +0x0C, the destination at +0x2C, then the 32 lane bytes
//! at +0x20..+0x3F, which overwrite the destination (the order of the seed's GEN block; see
//! `formats::shuffle`). The fast path skips the dead destination store: the bytes are the same.

use super::fast::{self, Ctx, Words};
use super::{active, fill_lanes, lane_map, passthrough_sentinel, sentinel, wire};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{STREAM_SHUFFLE, STREAM_TRANSPOSE_FWD, shuffle, tr};
use crate::indirect::assign_access_4d;
use crate::model::{Instruction, StreamShuffle};

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &StreamShuffle,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    // Guard of the 0x6A half: both element counts nonzero.
    if op.src.num_elements_per_partition() == 0 || op.dst.num_elements_per_partition() == 0 {
        return Err(EncodeError::TransposeZeroCount);
    }
    let sentinel = passthrough_sentinel(&op.src, &op.dst);

    // 0x6A: the dtype-bearing transpose half (d3_transpose_ch stays 0).
    let b = sink.begin()?;
    setup_header(b, STREAM_TRANSPOSE_FWD.opcode);
    setup_sync(b, &inst.sync, true, false)?;
    tr::IN_DTYPE.put_u8(b, wire(op.src.dtype(), arch));
    tr::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    tr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    assign_access_4d(tr::SRC.slot(b), &op.src, arch)?;
    assign_access_4d(tr::DST.slot(b), &op.dst, arch)?;
    sink.end();

    // 0x69: the access patterns, then the 32-byte lane map over the dst (no dtype).
    let b = sink.begin()?;
    setup_header(b, STREAM_SHUFFLE.opcode);
    setup_sync(b, &inst.sync, false, true)?;
    assign_access_4d(shuffle::SRC.slot(b), &op.src, arch)?;
    assign_access_4d(shuffle::DST.slot(b), &op.dst, arch)?;
    fill_lanes(b, &op.mask, sentinel)?;
    sink.end();
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same two bundles, or `None`. The source slot is
/// encoded once and stamped into both halves.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &StreamShuffle,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    // The guard (both element counts nonzero) holds wherever both operands encode: a static AP
    // that packs has no zero dim, and the indirect slot declines a zero gather count.
    let [b0, b1] = fast::room::<2>(out)?;
    // Fields are stored as soon as they are known (see dropout).
    let (first, last) = fast::events_pair(&inst.sync);
    let mut w0 = Words::new(b0, STREAM_TRANSPOSE_FWD.opcode);
    w0.band(first);
    let mut w1 = Words::new(b1, STREAM_SHUFFLE.opcode);
    w1.band(last);
    let src = fast::operand::<4>(&op.src, cx.arch)?;
    w0.slot::<4>(tr::SRC, src.slot);
    w1.slot::<4>(shuffle::SRC, src.slot);
    w0.u8(tr::IN_DTYPE, cx.wire(src.dtype));
    w0.u8(tr::ACTIVE, cx.active(src.partitions)?);
    let dst = fast::operand::<4>(&op.dst, cx.arch)?;
    w0.slot::<4>(tr::DST, dst.slot);
    w0.u8(tr::OUT_DTYPE, cx.wire(dst.dtype));
    let sentinel = sentinel(src.partitions, dst.partitions);
    w1.lanes(shuffle::IMMEDIATE, &lane_map(&op.mask, sentinel).ok()?);
    Some(2)
}
