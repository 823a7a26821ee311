//! Iota (0x7E, D4_IOTA): one bundle, the DATA4D generator pattern, the channel multiplier and the
//! TENSOR4D destination (no source). No GENERATE fast path.

use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::data4d::assign_data4d;
use crate::error::EncodeError;
use crate::formats::compute4d::{iota as io, opcode};
use crate::model::{Instruction, Iota};
use crate::tensor::assign_static;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Iota,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let dst = static_only(&op.dst, "iota dst_mem_pattern")?;
    // Header validity: d4d element count == t4d count(dst).
    let (l, r) = (op.pattern.num_elements(), dst.num_elements_per_partition());
    if l != r {
        return Err(EncodeError::ElementCountMismatch {
            what: "D4_IOTA d4d and dst",
            left: l,
            right: r,
        });
    }
    let b = sink.begin()?;
    setup_header(b, opcode::IOTA);
    setup_sync(b, &inst.sync, true, true)?;
    assign_data4d(io::PATTERN.slot(b), &op.pattern)?;
    io::OUT_DTYPE.put_u8(b, wire(dst.dtype, arch));
    io::ACTIVE.put_u8(b, active(&op.dst, arch)?);
    io::CHANNEL_MULTIPLIER.put_u32(b, op.channel_multiplier as u32);
    assign_static::<4>(io::DST.slot::<20>(b), dst, arch)?;
    sink.end();
    Ok(())
}
