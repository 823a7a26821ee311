//! TensorScalarAffineSelect (0x92, S2D2_TS_AS): one bundle, the DATA4D mask generator, TENSOR2D
//! source and destination, the packed dtype pair, the fill mode and register and the channel
//! multiplier. No GENERATE fast path.

use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::data4d::assign_data4d;
use crate::error::EncodeError;
use crate::formats::compute4d::{affine_select as af, opcode};
use crate::model::{AffineSelect, Instruction};
use crate::tensor::assign_static;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &AffineSelect,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let src = static_only(&op.src, "tensor_scalar_affine_select src_mem_pattern")?;
    let dst = static_only(&op.dst, "tensor_scalar_affine_select dst_mem_pattern")?;
    // Header validity: d4d count(mask) == t2d count(src) == count(dst).
    let (m, s, d) = (
        op.mask.num_elements(),
        src.num_elements_per_partition(),
        dst.num_elements_per_partition(),
    );
    for (what, l, r) in [
        ("S2D2_TS_AS mask and src", m, s),
        ("S2D2_TS_AS src and dst", s, d),
    ] {
        if l != r {
            return Err(EncodeError::ElementCountMismatch {
                what,
                left: l,
                right: r,
            });
        }
    }
    let (lo, hi) = (wire(src.dtype, arch), wire(dst.dtype, arch));
    if lo > 0xF {
        return Err(EncodeError::DtypeNotEncodable(src.dtype));
    }
    if hi > 0xF {
        return Err(EncodeError::DtypeNotEncodable(dst.dtype));
    }
    let b = sink.begin()?;
    setup_header(b, opcode::AFFINE_SELECT);
    setup_sync(b, &inst.sync, true, true)?;
    af::ACTIVE.put_u8(b, active(&op.src, arch)?);
    af::IN_OUT_DTYPE.put_u8(b, lo | hi << 4);
    af::FILL_MODE.put_u8(b, op.fill_mode as u8);
    af::FILL_REG.put_u8(b, op.fill_reg);
    assign_data4d(af::MASK.slot(b), &op.mask)?;
    assign_static::<2>(af::SRC.slot::<12>(b), src, arch)?;
    assign_static::<2>(af::DST.slot::<12>(b), dst, arch)?;
    af::CHANNEL_MULTIPLIER.put_u32(b, op.channel_multiplier as u32);
    sink.end();
    Ok(())
}
