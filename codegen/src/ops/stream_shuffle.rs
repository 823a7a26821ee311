//! StreamShuffle (`visitInstStreamShuffle`): {0x6A stream_transpose, 0x69 stream_shuffle}.

use super::{active, fill_lanes, passthrough_sentinel, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{shuffle, tr};
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
    setup_header(b, 0x6A);
    setup_sync(b, &inst.sync, true, false)?;
    tr::IN_DTYPE.put_u8(b, wire(op.src.dtype(), arch));
    tr::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    tr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    assign_access_4d(tr::SRC.slot(b), &op.src, arch)?;
    assign_access_4d(tr::DST.slot(b), &op.dst, arch)?;
    sink.end();

    // 0x69: the 32-byte lane map (no dtype).
    let b = sink.begin()?;
    setup_header(b, 0x69);
    setup_sync(b, &inst.sync, false, true)?;
    assign_access_4d(shuffle::SRC.slot(b), &op.src, arch)?;
    fill_lanes(b, &op.mask, sentinel)?;
    sink.end();
    Ok(())
}
