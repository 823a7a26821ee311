//! Memset (0x49; CC libwalrus offsets only): one bundle, the destination element count, dtype and
//! partitions, the 32-bit fill value and the TENSOR4D destination (conflict #11, see
//! `formats::compute4d::memset`). No GENERATE fast path.

use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::compute4d::{memset as ms, opcode};
use crate::model::{Instruction, Memset};
use crate::tensor::assign_static;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Memset,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    super::gpsimd_no_psum(inst.engine, "memset", &[(&op.dst, "dst")])?;
    let dst = static_only(&op.dst, "memset dst_mem_pattern")?;
    let n = dst.num_elements_per_partition();
    let count = u32::try_from(n).map_err(|_| EncodeError::ElementCountOverflow(n))?;
    let b = sink.begin()?;
    setup_header(b, opcode::MEMSET);
    setup_sync(b, &inst.sync, true, true)?;
    ms::DST_ELEMENT_COUNT.put_u32(b, count);
    ms::DTYPE.put_u8(b, wire(dst.dtype, arch));
    ms::ACTIVE.put_u8(b, active(&op.dst, arch)?);
    ms::FILL_VALUE.put_u32(b, op.fill_value);
    assign_static::<4>(ms::DST.slot::<20>(b), dst, arch)?;
    sink.end();
    Ok(())
}
