//! Reference encoders of SB2SB_COLLECTIVE 0xBF, DMA_GATHER_XPOSE 0xF1, TENSOR_DEQUANTIZE 0x7B
//! and BATCH_NORM_BACK_PROP 0x65, through the field constants of `formats::more` (0x65 through
//! the S3S3D3_TT writer of `ops::compute3d`, with the op byte BYPASS; 0xF1 through the ADDR8,
//! BOUND_CHECK_REG, DMA_CONFIGS and index-vector helpers of `ops::dma`). There is no GENERATE
//! fast path for these: the fast path declines them.

use super::{active, compute3d, dma, in_wire, static_only, wire};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::dtype::BirDtype;
use crate::error::EncodeError;
use crate::formats::more::{
    self as m, DEQUANT_GROUP_SIZES, GATHER_XPOSE_DIM_MASK, GATHER_XPOSE_IDX_CHANNELS,
    SB2SB_MAX_ELEMENTS, collective as co, dequant as dq, gather_xpose as gx,
};
use crate::model::{
    BatchNormBackProp, DmaCompletion, DmaGatherTranspose, Instruction, Sb2sbCollective,
    TensorDequantize,
};
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

/// DMA_GATHER_XPOSE: one bundle; every count and the element size nonzero, ADDR8 immediates
/// within the assumed 48 bits, the index vector placed as DMA_INDIRECT1D's, `gather_dim` 0..=3.
pub(super) fn encode_gather_transpose<S: Sink>(
    inst: &Instruction,
    o: &DmaGatherTranspose,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    for n in o.src_num {
        dma::nonzero(n, "src_num_elem")?;
    }
    for n in o.dst_num {
        dma::nonzero(n, "dst_num_elem")?;
    }
    dma::nonzero(o.elem_size, "elem_size")?;
    if o.gather_dim & !GATHER_XPOSE_DIM_MASK != 0 {
        return Err(EncodeError::GatherXposeDim(o.gather_dim));
    }
    let (src_addr, dst_addr) = (dma::addr8(o.src_addr)?, dma::addr8(o.dst_addr)?);
    let src_idx = dma::src_index_word(&o.src_idx, arch)?;
    let (src_bound, dst_bound) = (
        dma::bound(o.src_idx_bound_reg)?,
        dma::bound(o.dst_bound_reg)?,
    );
    let cfg = dma::configs(&DmaCompletion {
        priority_class: o.priority_class,
        ..DmaCompletion::default()
    })?;
    in_wire(o.in_dtype, arch)?;
    let pair = compute3d::dtype_pair(o.in_dtype, o.out_dtype, arch)?;
    let b = sink.begin()?;
    setup_header(b, m::DMA_GATHER_XPOSE.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    gx::SEMAPHORE.put_u8(b, o.semaphore);
    gx::DMA_CONFIGS.put_u8(b, cfg);
    gx::IDX_NUM_ACTIVE_CHANNELS.put_u8(b, GATHER_XPOSE_IDX_CHANNELS);
    gx::SRC_IDX_BOUND_REG.put_u8(b, src_bound);
    dma::put_u64(b, gx::SRC_START_ADDR.offset, src_addr);
    gx::SRC_STEP_ELEM0.put_u32(b, o.src_step[0] as u32);
    gx::SRC_STEP_ELEM1.put_u32(b, o.src_step[1] as u32);
    gx::SRC_NUM_ELEM0.put_u16(b, o.src_num[0]);
    gx::SRC_NUM_ELEM1.put_u16(b, o.src_num[1]);
    gx::SRC_IDX_START_ADDR.put_u32(b, src_idx);
    dma::put_u64(b, gx::DST_START_ADDR.offset, dst_addr);
    gx::DST_BOUND_REG.put_u8(b, dst_bound);
    gx::DST_STEP_ELEM1.put_u32(b, o.dst_step1 as u32);
    gx::DST_NUM_ELEM0.put_u16(b, o.dst_num[0]);
    gx::DST_NUM_ELEM1.put_u16(b, o.dst_num[1]);
    gx::ELEM_SIZE.put_u16(b, o.elem_size);
    gx::DTYPE.put_u8(b, pair);
    gx::FLAGS.put_u8(b, o.gather_dim);
    sink.end();
    Ok(())
}
