//! Reference encoders of SB2SB_COLLECTIVE 0xBF, TENSOR_DEQUANTIZE 0x7B and BATCH_NORM_BACK_PROP
//! 0x65, through the field constants of `formats::more` (0x65 through the S3S3D3_TT writer of
//! `ops::compute3d`, with the op byte BYPASS). There is no GENERATE fast path for these: the
//! fast path declines them.

use super::{active, compute3d, in_wire, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::dtype::BirDtype;
use crate::error::EncodeError;
use crate::formats::more::{
    self as m, DEQUANT_GROUP_SIZES, SB2SB_MAX_ELEMENTS, collective as co, dequant as dq,
};
use crate::model::{BatchNormBackProp, Instruction, Sb2sbCollective, TensorDequantize};
use crate::tensor::assign_static;

/// SB2SB_COLLECTIVE: one S3D3_COLLECTIVE bundle; each slot holds at most 256 elements.
pub(super) fn encode_sb2sb<S: Sink>(
    inst: &Instruction,
    o: &Sb2sbCollective,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let s = static_only(&o.src, "sb2sb_collective src_mem_pattern")?;
    let d = static_only(&o.dst, "sb2sb_collective dst_mem_pattern")?;
    for (ap, slot) in [(&o.src, "src_mem_pattern"), (&o.dst, "dst_mem_pattern")] {
        let count = ap.num_elements_per_partition();
        if count > SB2SB_MAX_ELEMENTS {
            return Err(EncodeError::Sb2sbElementCount { slot, count });
        }
    }
    let in_dtype = in_wire(s.dtype, arch)?;
    let channels = active(&o.src, arch)?;
    let b = sink.begin()?;
    setup_header(b, m::SB2SB_COLLECTIVE.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    co::IN_DTYPE.put_u8(b, in_dtype);
    co::OUT_DTYPE.put_u8(b, wire(d.dtype, arch));
    assign_static::<3>(co::SRC.slot::<16>(b), s, arch)?;
    co::LNC_SIZE_FMT.put_u8(b, o.lnc_size_fmt);
    co::ACTIVE.put_u8(b, channels);
    assign_static::<3>(co::DST.slot::<16>(b), d, arch)?;
    sink.end();
    Ok(())
}

/// TENSOR_DEQUANTIZE: one S3D3_TENS_DEQUANT bundle; both dtypes UINT32, `group_size` 0 or 8.
pub(super) fn encode_dequant<S: Sink>(
    inst: &Instruction,
    o: &TensorDequantize,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let s = static_only(&o.src, "tensor_dequantize src_mem_pattern")?;
    let d = static_only(&o.dst, "tensor_dequantize dst_mem_pattern")?;
    for dt in [s.dtype, d.dtype] {
        if dt != BirDtype::Uint32 {
            return Err(EncodeError::DequantDtype(dt));
        }
    }
    if !DEQUANT_GROUP_SIZES.contains(&o.group_size) {
        return Err(EncodeError::DequantGroupSize(o.group_size));
    }
    let channels = active(&o.src, arch)?;
    let b = sink.begin()?;
    setup_header(b, m::TENSOR_DEQUANTIZE.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    assign_static::<3>(dq::SRC.slot::<16>(b), s, arch)?;
    dq::IN_DTYPE.put_u8(b, wire(s.dtype, arch));
    dq::OUT_DTYPE.put_u8(b, wire(d.dtype, arch));
    dq::ACTIVE.put_u8(b, channels);
    dq::DEQUANT_FMT.put_u8(b, o.dequant_fmt);
    dq::GROUP_SIZE.put_u8(b, o.group_size);
    assign_static::<3>(dq::DST.slot::<16>(b), d, arch)?;
    sink.end();
    Ok(())
}

/// BATCH_NORM_BACK_PROP: one S3S3D3_TT bundle, op byte BYPASS (0), channels from `in0`.
pub(super) fn encode_bn_back_prop<S: Sink>(
    inst: &Instruction,
    o: &BatchNormBackProp,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let pair = compute3d::dtype_pair(o.in0.dtype(), o.in1.dtype(), arch)?;
    let aps = [
        (&o.in0, "batch_norm_back_prop src0_mem_pattern"),
        (&o.in1, "batch_norm_back_prop src1_mem_pattern"),
        (&o.dst, "batch_norm_back_prop dst_mem_pattern"),
    ];
    let opcode = m::BATCH_NORM_BACK_PROP.opcode;
    compute3d::put_tt(inst, sink, arch, (opcode, pair, 0), aps, &o.in0)
}
