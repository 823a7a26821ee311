//! Instruction-model types of SB2SB_COLLECTIVE 0xBF, DMA_GATHER_XPOSE 0xF1, TENSOR_DEQUANTIZE
//! 0x7B and BATCH_NORM_BACK_PROP 0x65, with their one-line text forms. Every field says where
//! on the wire it goes (`formats::more` and `formats::compute3d::tt` hold the offsets).

use std::fmt;

use super::{AccessPattern, BoundCheckReg, Start};
use crate::dtype::BirDtype;

/// DMA_GATHER_XPOSE 0xF1 (NC-v3+): a DMA gather through a u32 index vector whose destination is
/// transposed (NKI's indirect `dma_transpose`, isa-table row 59). Addresses are resolved ADDR8
/// immediates, as for DMA_DIRECT2D.
#[derive(Clone, Debug, PartialEq)]
pub struct DmaGatherTranspose {
    /// `src_start_addr` (+16 ADDR8 immediate; fits the assumed 48-bit field).
    pub src_addr: u64,
    /// `src_step_elem[0..2]` (+24, +28; int32 elements).
    pub src_step: [i32; 2],
    /// `src_num_elem[0..2]` (+32, +34; nonzero).
    pub src_num: [u16; 2],
    /// `src_idx_start_addr` (+36 ADDR4): a register, or u32-aligned in SBUF from partition 0.
    pub src_idx: Start,
    /// `dst_start_addr` (+40 ADDR8 immediate).
    pub dst_addr: u64,
    /// `dst_step_elem_1` (+52).
    pub dst_step1: i32,
    /// `dst_num_elem[0..2]` (+56, +58; nonzero).
    pub dst_num: [u16; 2],
    /// `elem_size` (+60, bytes; nonzero).
    pub elem_size: u16,
    /// `dtype` low nibble (+62; ASSUMPTION: the source).
    pub in_dtype: BirDtype,
    /// `dtype` high nibble (the destination).
    pub out_dtype: BirDtype,
    /// `flags.gather_dim` (+63 bits 0-1): INDIRECT_DIM X=0, Y=1, Z=2, W=3.
    pub gather_dim: u8,
    /// `src_idx_bound_reg` (+15).
    pub src_idx_bound_reg: BoundCheckReg,
    /// `dst_bound_reg` (+51).
    pub dst_bound_reg: BoundCheckReg,
    /// `semaphore` (+12): completion semaphore index.
    pub semaphore: u8,
    /// `dma_configs.priority_class` (+13; 0..=4).
    pub priority_class: u8,
}

/// SB2SB_COLLECTIVE 0xBF (`S3D3_COLLECTIVE`): the GpSimd engine's SB-to-SB copy
/// (`dma_engine = gpsimd_dma`). `num_active_channels` (+33) is the source partition count.
#[derive(Clone, Debug, PartialEq)]
pub struct Sb2sbCollective {
    /// `src_mem_pattern` (+16, TENSOR3D, at most 256 elements; dtype +12).
    pub src: AccessPattern,
    /// `dst_mem_pattern` (+48, TENSOR3D, at most 256 elements; dtype +13).
    pub dst: AccessPattern,
    /// `lnc_size_fmt` (+32), carried raw (the header gives no codes).
    pub lnc_size_fmt: u8,
}

/// TENSOR_DEQUANTIZE 0x7B (`S3D3_TENS_DEQUANT`), a BIR-level instruction: no NISA op produces
/// it (isa-table §2). Both operands are UINT32 (header).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorDequantize {
    /// `src_mem_pattern` (+12, TENSOR3D; dtype +32, partitions +34).
    pub src: AccessPattern,
    /// `dst_mem_pattern` (+44, TENSOR3D; dtype +33).
    pub dst: AccessPattern,
    /// `dequant_fmt` (+35), carried raw (the header gives no codes).
    pub dequant_fmt: u8,
    /// `group_size` (+36): 0 or 8.
    pub group_size: u8,
}

/// BATCH_NORM_BACK_PROP 0x65 (the `S3S3D3_TT` struct, op byte BYPASS), a BIR-level instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchNormBackProp {
    /// `src0_mem_pattern` (dtype in the `in0_in1_dtype` low nibble; its partitions are
    /// `num_active_channels`).
    pub in0: AccessPattern,
    /// `src1_mem_pattern` (high nibble).
    pub in1: AccessPattern,
    /// `dst_mem_pattern` (`out_dtype`).
    pub dst: AccessPattern,
}

/// The `name=value` fields of one of this group's ops (after the op name).
pub(super) fn fmt_fields(op: &super::Op, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    use super::Op;
    match op {
        Op::Sb2sbCollective(o) => write!(
            f,
            " src={} dst={} lnc_size_fmt={}",
            o.src, o.dst, o.lnc_size_fmt
        ),
        Op::TensorDequantize(o) => write!(
            f,
            " src={} dst={} dequant_fmt={} group_size={}",
            o.src, o.dst, o.dequant_fmt, o.group_size
        ),
        Op::BatchNormBackProp(o) => write!(f, " in0={} in1={} dst={}", o.in0, o.in1, o.dst),
        Op::DmaGatherTranspose(o) => write!(
            f,
            " src={:#x}[{}:{},{}:{}] src_idx={} dst={:#x}[-:{},{}:{}]x{} in_dtype={:?} \
             out_dtype={:?} gather_dim={} src_idx_bound_reg={} dst_bound_reg={} semaphore={} \
             priority_class={}",
            o.src_addr,
            o.src_step[0],
            o.src_num[0],
            o.src_step[1],
            o.src_num[1],
            o.src_idx,
            o.dst_addr,
            o.dst_num[0],
            o.dst_step1,
            o.dst_num[1],
            o.elem_size,
            o.in_dtype,
            o.out_dtype,
            o.gather_dim,
            o.src_idx_bound_reg,
            o.dst_bound_reg,
            o.semaphore,
            o.priority_class
        ),
        _ => Ok(()),
    }
}
