//! CrossLaneReduce (0x7C arith / 0x7D bitvec, S4D4_CR; the pass `LegalizePartitionReduce`
//! produces it): a reduction across partitions into one partition. One bundle. No GENERATE fast
//! path.

use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::compute4d::{cr, opcode as op_code};
use crate::model::{CrossLaneAxis, CrossLaneReduce, Instruction};
use crate::tensor::assign_static;

/// The destination element count the axis requires (header REDUCE_AXIS: ALL -> 1, PARTITIONS ->
/// the source's).
pub(crate) fn dst_count(axis: CrossLaneAxis, src_count: u64) -> u64 {
    match axis {
        CrossLaneAxis::All => 1,
        CrossLaneAxis::Partitions => src_count,
    }
}

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &CrossLaneReduce,
    opcode: u8,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if op.op.is_bitvec() != (opcode == op_code::CROSS_LANE_REDUCE_BITVEC) {
        return Err(EncodeError::CrossLaneOpClass { op: op.op, opcode });
    }
    let src = static_only(&op.src, "cross_lane_reduce src_mem_pattern")?;
    let dst = static_only(&op.dst, "cross_lane_reduce dst_mem_pattern")?;
    let want = dst_count(op.axis, src.num_elements_per_partition());
    let got = dst.num_elements_per_partition();
    if want != got {
        return Err(EncodeError::ElementCountMismatch {
            what: "S4D4_CR reduce_axis and dst",
            left: want,
            right: got,
        });
    }
    let b = sink.begin()?;
    setup_header(b, opcode);
    setup_sync(b, &inst.sync, true, true)?;
    cr::IN_DTYPE.put_u8(b, wire(src.dtype, arch));
    cr::OUT_DTYPE.put_u8(b, wire(dst.dtype, arch));
    cr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    cr::REDUCE_OP.put_u8(b, op.op.wire());
    cr::REDUCE_AXIS.put_u8(b, op.axis as u8);
    cr::SCALE.put_u32(b, op.scale.to_bits());
    assign_static::<4>(cr::SRC.slot::<20>(b), src, arch)?;
    assign_static::<4>(cr::DST.slot::<20>(b), dst, arch)?;
    sink.end();
    Ok(())
}
