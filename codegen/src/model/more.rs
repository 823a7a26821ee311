//! Instruction-model types of SB2SB_COLLECTIVE 0xBF, TENSOR_DEQUANTIZE 0x7B and
//! BATCH_NORM_BACK_PROP 0x65, with their one-line text forms. Every field says where on the wire
//! it goes (`formats::more` and `formats::compute3d::tt` hold the offsets).

use std::fmt;

use super::AccessPattern;

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
        _ => Ok(()),
    }
}
