//! Pool (0x45, S4D4_PL; CC `visitInstPool` offsets): one bundle, TENSOR4D source and
//! destination, the pool function, the constant mode 3 and the f32 scale. No GENERATE fast path.

use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::enums::POOL_MODE;
use crate::error::EncodeError;
use crate::formats::compute4d::{opcode, pool as pl};
use crate::model::{Instruction, Pool};
use crate::tensor::assign_static;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Pool,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let src = static_only(&op.src, "pool src_mem_pattern")?;
    let dst = static_only(&op.dst, "pool dst_mem_pattern")?;
    let b = sink.begin()?;
    setup_header(b, opcode::POOL);
    setup_sync(b, &inst.sync, true, true)?;
    pl::IN_DTYPE.put_u8(b, wire(src.dtype, arch));
    pl::OUT_DTYPE.put_u8(b, wire(dst.dtype, arch));
    pl::ACTIVE.put_u8(b, active(&op.src, arch)?);
    pl::POOL_FUNC.put_u8(b, op.func.wire());
    pl::POOL_MODE.put_u8(b, POOL_MODE);
    pl::POOL_SCALE.put_u32(b, op.pool_scale.to_bits());
    assign_static::<4>(pl::SRC.slot::<20>(b), src, arch)?;
    assign_static::<4>(pl::DST.slot::<20>(b), dst, arch)?;
    sink.end();
    Ok(())
}
