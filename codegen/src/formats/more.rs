//! Field tables of SB2SB_COLLECTIVE 0xBF (`S3D3_COLLECTIVE`), DMA_GATHER_XPOSE 0xF1,
//! TENSOR_DEQUANTIZE 0x7B (`S3D3_TENS_DEQUANT`) and BATCH_NORM_BACK_PROP 0x65 (the `S3S3D3_TT`
//! struct of TENSOR_TENSOR, op forced BYPASS), plus the value sets their encoders and rules
//! read.
//!
//! Sources: bundle-layouts §4.13 (the two header structs, GPSIMD pages 59808626527 and
//! 59945825597) and §4.1 ("Same struct for ... BATCH_NORM_BACK_PROP 0x65 (op forced BYPASS)").
//! Every struct keeps the header EVENTS band at 4..12 (header view: EVENTS in every struct).

use super::compute3d::tt;
use super::{Format, dst, events, f, src};
use crate::arch::Family;
use crate::fields::{DtypeRef, Field, Kind, Prov};

/// SB2SB_COLLECTIVE: the largest TENSOR3D element count of either slot (header rule "t3d
/// element count <= 256").
pub const SB2SB_MAX_ELEMENTS: u64 = 256;

/// TENSOR_DEQUANTIZE `group_size` values (header: 0 or 8).
pub const DEQUANT_GROUP_SIZES: [u8; 2] = [0, 8];

/// Fields of S3D3_COLLECTIVE (SB2SB_COLLECTIVE 0xBF; header, GPSIMD 59808626527).
pub mod collective {
    use super::*;
    /// +12 in dtype.
    pub const IN_DTYPE: Field = f("in_dtype", 12, Kind::Dtype, Prov::Header, "source dtype");
    /// +13 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        13,
        Kind::Dtype,
        Prov::Header,
        "destination dtype",
    );
    /// +16 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        16,
        Kind::Tensor(3),
        DtypeRef::Byte(12),
        Prov::Header,
        "TENSOR3D source (element count <= 256)",
    );
    /// +32 LNC size format.
    pub const LNC_SIZE_FMT: Field = f(
        "lnc_size_fmt",
        32,
        Kind::U8,
        Prov::Header,
        "logical-NeuronCore size format; its codes are not given, so the byte is carried raw",
    );
    /// +33 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        33,
        Kind::U8,
        Prov::Header,
        "source partition count (ASSUMPTION: as the other 3D structs; the page gives no rule)",
    );
    /// +48 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        48,
        Kind::Tensor(3),
        DtypeRef::Byte(13),
        Prov::Header,
        "TENSOR3D destination (element count <= 256)",
    );
}

/// Fields of S3D3_TENS_DEQUANT (TENSOR_DEQUANTIZE 0x7B; header, GPSIMD 59945825597). The
/// TENSOR3D slots sit at 12 and 44, not the 16/48 of most 3D structs.
pub mod dequant {
    use super::*;
    /// +12 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        12,
        Kind::Tensor(3),
        DtypeRef::Byte(32),
        Prov::Header,
        "TENSOR3D packed source",
    );
    /// +32 in dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        32,
        Kind::Dtype,
        Prov::Header,
        "must be UINT32 (header)",
    );
    /// +33 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        33,
        Kind::Dtype,
        Prov::Header,
        "must be UINT32 (header)",
    );
    /// +34 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        34,
        Kind::U8,
        Prov::Header,
        "source partition count",
    );
    /// +35 dequant format.
    pub const DEQUANT_FMT: Field = f(
        "dequant_fmt",
        35,
        Kind::U8,
        Prov::Header,
        "dequantisation format; its codes are not given, so the byte is carried raw",
    );
    /// +36 group size.
    pub const GROUP_SIZE: Field = f("group_size", 36, Kind::U8, Prov::Header, "0 or 8 (header)");
    /// +44 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        44,
        Kind::Tensor(3),
        DtypeRef::Byte(33),
        Prov::Header,
        "TENSOR3D destination",
    );
}

/// DMA_GATHER_XPOSE `idx_num_active_channels` (header: 128, as DMA_INDIRECT1D).
pub const GATHER_XPOSE_IDX_CHANNELS: u8 = 128;
/// DMA_GATHER_XPOSE `flags` (LSB->MSB `gather_dim:2, reserved:6`): the `gather_dim` bits.
pub const GATHER_XPOSE_DIM_MASK: u8 = 0x03;

/// Fields of DMA_GATHER_XPOSE 0xF1 (NC-v3+; header, the DMA_INDIRECT1D page, bundle-layouts §5).
/// The ADDR8 words are the `Kind::Hex64` rows of DMA_DIRECT2D (marker byte 7; ASSUMPTION: a
/// 48-bit immediate, see `pe_dma::ADDR8_IMM_BITS`).
pub mod gather_xpose {
    use super::*;
    /// +12.
    pub const SEMAPHORE: Field = f(
        "semaphore",
        12,
        Kind::U8,
        Prov::Header,
        "completion semaphore index",
    );
    /// +13.
    pub const DMA_CONFIGS: Field = f(
        "dma_configs",
        13,
        Kind::U8,
        Prov::Header,
        "DMA_CONFIGS {priority_class:3 (0..4), reserved:5}",
    );
    /// +14.
    pub const IDX_NUM_ACTIVE_CHANNELS: Field = f(
        "idx_num_active_channels",
        14,
        Kind::U8,
        Prov::Header,
        "must be 128 (check_dma_indirect_indices)",
    );
    /// +15.
    pub const SRC_IDX_BOUND_REG: Field = f(
        "src_idx_bound_reg",
        15,
        Kind::U8,
        Prov::Header,
        "BOUND_CHECK_REG gating the source index",
    );
    /// +16.
    pub const SRC_START_ADDR: Field = f(
        "src_start_addr",
        16,
        Kind::Hex64,
        Prov::Header,
        "ADDR8 (as DMA_DIRECT2D src_start_addr)",
    );
    /// +24.
    pub const SRC_STEP_ELEM0: Field = f("src_step_elem[0]", 24, Kind::I32, Prov::Header, "");
    /// +28.
    pub const SRC_STEP_ELEM1: Field = f("src_step_elem[1]", 28, Kind::I32, Prov::Header, "");
    /// +32.
    pub const SRC_NUM_ELEM0: Field = f("src_num_elem[0]", 32, Kind::U16, Prov::Header, "");
    /// +34.
    pub const SRC_NUM_ELEM1: Field = f("src_num_elem[1]", 34, Kind::U16, Prov::Header, "");
    /// +36.
    pub const SRC_IDX_START_ADDR: Field = f(
        "src_idx_start_addr",
        36,
        Kind::Addr4,
        Prov::Header,
        "gather index vector ADDR4 (register, or u32-aligned from SBUF partition 0)",
    );
    /// +40.
    pub const DST_START_ADDR: Field = f(
        "dst_start_addr",
        40,
        Kind::Hex64,
        Prov::Header,
        "ADDR8 (as src_start_addr)",
    );
    /// +51 (48..50 reserved).
    pub const DST_BOUND_REG: Field = f(
        "dst_bound_reg",
        51,
        Kind::U8,
        Prov::Header,
        "BOUND_CHECK_REG",
    );
    /// +52.
    pub const DST_STEP_ELEM1: Field = f(
        "dst_step_elem_1",
        52,
        Kind::I32,
        Prov::Header,
        "the only dst step (the transposed side's inner step is implied)",
    );
    /// +56.
    pub const DST_NUM_ELEM0: Field = f("dst_num_elem[0]", 56, Kind::U16, Prov::Header, "");
    /// +58.
    pub const DST_NUM_ELEM1: Field = f("dst_num_elem[1]", 58, Kind::U16, Prov::Header, "");
    /// +60.
    pub const ELEM_SIZE: Field = f(
        "elem_size",
        60,
        Kind::U16,
        Prov::Header,
        "bytes per element (both sides)",
    );
    /// +62.
    pub const DTYPE: Field = f(
        "dtype",
        62,
        Kind::DtypePair,
        Prov::Header,
        "DTYPE_PAIR. ASSUMPTION: lo = in (source), hi = out (destination), as the \
         in_out_dtype pairs of the other structs; the page names the byte only",
    );
    /// +63.
    pub const FLAGS: Field = f(
        "flags",
        63,
        Kind::U8,
        Prov::Header,
        "{gather_dim:2 (INDIRECT_DIM X=0..W=3), reserved:6}",
    );
}

/// DMA_GATHER_XPOSE 0xF1 (cayman, mariana).
pub static DMA_GATHER_XPOSE: Format = Format {
    opcode: 0xF1,
    mnemonic: "dma_gather_xpose",
    struct_name: "DMA_GATHER_XPOSE",
    family: Family::DmaGatherTranspose,
    fields: with_events![
        gather_xpose::SEMAPHORE,
        gather_xpose::DMA_CONFIGS,
        gather_xpose::IDX_NUM_ACTIVE_CHANNELS,
        gather_xpose::SRC_IDX_BOUND_REG,
        gather_xpose::SRC_START_ADDR,
        gather_xpose::SRC_STEP_ELEM0,
        gather_xpose::SRC_STEP_ELEM1,
        gather_xpose::SRC_NUM_ELEM0,
        gather_xpose::SRC_NUM_ELEM1,
        gather_xpose::SRC_IDX_START_ADDR,
        gather_xpose::DST_START_ADDR,
        gather_xpose::DST_BOUND_REG,
        gather_xpose::DST_STEP_ELEM1,
        gather_xpose::DST_NUM_ELEM0,
        gather_xpose::DST_NUM_ELEM1,
        gather_xpose::ELEM_SIZE,
        gather_xpose::DTYPE,
        gather_xpose::FLAGS,
    ],
    reserved_rule: "reserved_zero",
};

/// SB2SB_COLLECTIVE 0xBF.
pub static SB2SB_COLLECTIVE: Format = Format {
    opcode: 0xBF,
    mnemonic: "sb2sb_collective",
    struct_name: "S3D3_COLLECTIVE",
    family: Family::Sb2sbCollective,
    fields: with_events![
        collective::IN_DTYPE,
        collective::OUT_DTYPE,
        collective::SRC,
        collective::LNC_SIZE_FMT,
        collective::ACTIVE,
        collective::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// TENSOR_DEQUANTIZE 0x7B.
pub static TENSOR_DEQUANTIZE: Format = Format {
    opcode: 0x7B,
    mnemonic: "tensor_dequantize",
    struct_name: "S3D3_TENS_DEQUANT",
    family: Family::TensorDequantize,
    fields: with_events![
        dequant::SRC,
        dequant::IN_DTYPE,
        dequant::OUT_DTYPE,
        dequant::ACTIVE,
        dequant::DEQUANT_FMT,
        dequant::GROUP_SIZE,
        dequant::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// BATCH_NORM_BACK_PROP 0x65: the TENSOR_TENSOR rows of `formats::compute3d` (slot order of
/// conflict #2 as settled there), the op byte forced BYPASS.
pub static BATCH_NORM_BACK_PROP: Format = Format {
    opcode: 0x65,
    mnemonic: "batch_norm_back_prop",
    struct_name: "S3S3D3_TT (op BYPASS)",
    family: Family::BatchNormBackProp,
    fields: with_events![
        tt::IN0_IN1_DTYPE,
        tt::OUT_DTYPE,
        tt::OP,
        tt::ACTIVE,
        tt::SRC0,
        tt::SRC1,
        tt::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// The formats of this group (each is also in `formats::FORMATS`).
pub static GROUP: [&Format; 4] = [
    &SB2SB_COLLECTIVE,
    &TENSOR_DEQUANTIZE,
    &BATCH_NORM_BACK_PROP,
    &DMA_GATHER_XPOSE,
];

/// Whether `opcode` is one of this group's.
pub fn owns(opcode: u8) -> bool {
    GROUP.iter().any(|f| f.opcode == opcode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_is_in_the_format_list() {
        for f in GROUP {
            assert!(std::ptr::eq(super::super::by_opcode(f.opcode).unwrap(), f));
        }
        assert!(owns(0x65) && owns(0x7B) && owns(0xBF) && owns(0xF1) && !owns(0x41));
    }
}
