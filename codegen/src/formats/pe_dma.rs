//! Field tables of the PE, MX, DMA and event formats: LDWEIGHTS 0x01 / MATMUL 0x02 in their two
//! layouts, LDWEIGHTS_MX 0x09 / MATMUL_MX 0x0A and QUANTIZE_MX 0xE3 (mariana), DMA_DIRECT2D 0xB8
//! and EVENT_SEMAPHORE 0xA0 (DMA_INDIRECT1D 0xBB lives in the parent module), plus the per-target
//! layout table behind [`super::by_opcode_on`].
//!
//! Per-target layouts. The PE structs differ per generation (bundle-layouts §4.5, GPSIMD
//! 59686003097, compile-verified): sunda and cayman share the v3-style `S3_LW` / `S3D3_MM`
//! layout ([`LDWEIGHTS`], [`MATMUL`], in `FORMATS`, so `by_opcode` keeps returning them),
//! mariana has the v4 layout ([`LDWEIGHTS_V4`], [`MATMUL_V4`], listed in [`TARGET_LAYOUTS`]
//! only). The bytes carry no layout tag, so decoding, printing and validating a PE bundle need
//! the target: `by_opcode_on(op, arch)` returns the layout of `arch.core`, and every
//! target-aware path (validator, `decode_on`, stream disassembly/assembly, lifting) uses it. The
//! two layouts have distinct mnemonics (`matmul` / `matmul_v4`) so that a text line names its
//! layout without a target; the stream assembler refuses a layout that is not the target's.
//!
//! Sync band (conflict #8, settled for the CC capstone as the brief directs): the MATMUL bundle
//! has no EVENTS fields, so bytes 4..12 are reserved (zero); a Matmul's wait rides its LDWEIGHTS
//! bundle (which keeps the header EVENTS band), an update is refused by the encoder. The header
//! view (EVENTS in every struct) is the alternative: adding the band back to the MATMUL tables
//! is the one edit that switches.

use super::{Format, dst, events, f, src};
use crate::arch::{ArchModel, CoreGen, Family};
use crate::enums::{NameTable, UPDATE_MODES, WAIT_MODES};
use crate::fields::{DtypeRef, Field, Kind, Prov};

/// `PE_FP32MODE` names (header).
pub const PE_FP32_MODES: NameTable = &[(0, "none"), (1, "low"), (2, "high"), (3, "low_high")];

/// `PERF_OPT_MODE` names whose codes are pinned: only None = 0 (the dense encoder's value). The
/// header lists DoubleRow / DoubleColumn / DoublePixel without codes, so those print as hex and
/// the encoder refuses them (unpinned).
pub const PERF_OPT_MODES: NameTable = &[(0, "none")];

/// `DGE_COMPUTE_OP` names (header, bundle-layouts §5).
pub const DGE_COMPUTE_OPS: NameTable = &[
    (0, "none"),
    (1, "add"),
    (2, "multiply"),
    (3, "max"),
    (4, "min"),
];

// ---------------------------------------------------------------- value sets
// Stated once here; the encoders (`ops`) and the validator rules (`validate`) both read them.

/// `psum_accumulate_flags` valid set (CC, CONFIRMED): BEGIN 1<<0, END 1<<1, BEGIN_ACCUM 1<<2
/// (header); 5 and 7 are illegal.
pub const PSUM_ACCUMULATE_FLAGS: [u8; 6] = [0, 1, 2, 3, 4, 6];

/// The header's 4-bit quadrant group masks (conflict #14): one quadrant, one half, or all.
pub const PE_GROUP_MASKS: [u8; 7] = [0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0xF];

/// `col_grp` -> `xbus_sel` (header table, v3 layout). 0x8 (PSUM quadrant 3) has no entry: the
/// header says "NOT SUPPORTED, BUG".
pub const XBUS_SEL: [(u8, u8); 6] = [
    (0xF, 0x10),
    (0x3, 0x01),
    (0x1, 0x01),
    (0x2, 0x02),
    (0xC, 0x04),
    (0x4, 0x04),
];

/// The `xbus_sel` of a column group, if the header table has one.
pub fn xbus_sel_of(col_grp: u8) -> Option<u8> {
    XBUS_SEL
        .iter()
        .find(|(c, _)| *c == col_grp)
        .map(|(_, x)| *x)
}

/// The largest `psum_zero_region` (header MATMUL_ZERO_REGION: sunda/cayman only SIZE2048 = 0;
/// mariana 0..3 = 1/2/4/8 banks).
pub fn psum_zero_region_max(core: CoreGen) -> u8 {
    if core == CoreGen::V4 { 3 } else { 0 }
}

/// Wire codes of fp32 inputs (FP32, FP32R): `fp32_mode` must be nonzero exactly for these.
pub const FP32_IN_DTYPES: [u8; 2] = [0x0A, 0x0B];

/// `col_grp` of both MX PE bundles: the CC writes the constant 0x0F.
pub const MX_COL_GRP: u8 = 0x0F;

/// QUANTIZE_MX `num_active_channels` (header).
pub const QUANTIZE_MX_CHANNELS: [u8; 4] = [32, 64, 96, 128];
/// QUANTIZE_MX `in_dtype` wire codes (header: FP16, BFLOAT16).
pub const QUANTIZE_MX_IN_DTYPES: [u8; 2] = [0x06, 0x07];
/// QUANTIZE_MX `out_dtype` wire codes (header: FP8_EXP4, FP8_EXP5).
pub const QUANTIZE_MX_OUT_DTYPES: [u8; 2] = [0x0E, 0x0F];

/// The bits an ADDR8 immediate may use. ASSUMPTION (the width is not public): byte 7 is the
/// marker (§4x.6) and byte 6 is kept zero, so an immediate fits 48 bits.
pub const ADDR8_IMM_BITS: u32 = 48;
/// ADDR8 marker high nibbles (§4x.6): IMM, ADDR_TBL_SHAPE_IMM, SHAPE_REG, ADDR_TBL_SHAPE_REG,
/// ADDR_REG, ADDR_SHAPE_REG; OFFSET_REG 0x08 / OFFSET_WIDE 0x04 may be added; VAR_ID 0x10 is
/// PSEUDO-only.
pub const ADDR8_MARKERS: [u8; 6] = [0x00, 0x20, 0x40, 0x60, 0x80, 0xC0];
/// ADDR8 `SHAPE_REG_BIT`: the shape rides a register.
pub const ADDR8_SHAPE_REG: u8 = 0x40;

/// DMA_INDIRECT1D `num_elem` limit (header: `<= 4096` unless shape-from-register, then 0).
pub const DMA_INDIRECT_MAX_NUM: u16 = 4096;
/// DMA_INDIRECT1D `idx_num_active_channels` (header: == POOLING_NUM_CHANNELS = 128).
pub const DMA_INDIRECT_IDX_CHANNELS: u8 = 128;

/// `BOUND_CHECK_REG` (header, LSB->MSB `bc_reg:6, bc_disable_oob_error_notif:1, bc_enabled:1`):
/// the register bits.
pub const BC_REG_MASK: u8 = 0x3F;
/// `bc_disable_oob_error_notif`.
pub const BC_DISABLE_OOB_ERROR_NOTIF: u8 = 0x40;
/// `bc_enabled`.
pub const BC_ENABLED: u8 = 0x80;

/// `DMA_INDIRECT_FLAGS` (header, LSB->MSB `indirect_mode:2, idx_bound_is_err:1,
/// non_unique_dst_idx:1, gather_dim:2, scatter_dim:2`): the direction bits (seed: 1 load, 2 save).
pub const DMA_FLAGS_DIRECTION: u8 = 0x03;
/// `idx_bound_is_err`.
pub const DMA_FLAGS_IDX_BOUND_IS_ERR: u8 = 0x04;
/// `non_unique_dst_idx`.
pub const DMA_FLAGS_NON_UNIQUE_DST_IDX: u8 = 0x08;
/// The shift of `gather_dim`.
pub const DMA_FLAGS_GATHER_DIM_SHIFT: u8 = 4;
/// The shift of `scatter_dim`.
pub const DMA_FLAGS_SCATTER_DIM_SHIFT: u8 = 6;

/// Fields of LDWEIGHTS 0x01 (`S3_LW`). Offsets: header v3 (cayman) listing unless noted.
pub mod ldweights {
    use super::*;
    /// +0x0C `bg_xpose_mode` (v4 only).
    pub const BG_XPOSE_MODE: Field = f(
        "bg_xpose_mode",
        0x0C,
        Kind::U8,
        Prov::Header,
        "v4 header field; written 0. CONFLICT #13: the CC's V3 encoder sets +0x0C = 2 as its \
         transpose flag; the header's transpose fields are used instead",
    );
    /// +0x10 weights (v3: plain TENSOR3D).
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Tensor(3),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "stationary weights TENSOR3D (SBUF). CONFLICT #13: the CC's V2 encoder sets byte +0x13 = \
         0x80 as a transpose flag, which is bit 31 (register mode) of this ADDR4: rejected",
    );
    /// +0x10 weights (v4: MEM_PATTERN3D union).
    pub const SRC_V4: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mem(3),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "stationary weights MEM_PATTERN3D (static arm written)",
    );
    /// +0x20 weights dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x20,
        Kind::Dtype,
        Prov::Compiler,
        "CC +0x20 in-dtype (the header v3 listing omits it; v5 has in_dtype@32)",
    );
    /// +0x22 transpose mode.
    pub const TRANSPOSE_MODE: Field = f(
        "transpose_mode",
        0x22,
        Kind::U8,
        Prov::Header,
        "v3 transpose (CONFLICT #13 settled for the header's field; the CC's V2 ADDR4 bit 31 and \
         V3 +0x0C = 2 are the alternatives). Its codes are not given, so only 0 (no transpose) \
         is encoded: a v3 transpose is unpinned. Mariana writes 0 here and uses flags.xpose_mode",
    );
    /// +0x23 perf opt.
    pub const PERF_OPT: Field = f(
        "perf_opt",
        0x23,
        Kind::Enum(PERF_OPT_MODES),
        Prov::Header,
        "PERF_OPT_MODE (CC: +0x23 perf-opt dtype)",
    );
    /// +0x26 rows.
    pub const NUM_ACTIVE_ROWS: Field = f(
        "num_active_rows",
        0x26,
        Kind::U8,
        Prov::Header,
        "contraction depth K = weights partitions (1..=128)",
    );
    /// +0x27 cols.
    pub const NUM_ACTIVE_COLS: Field = f(
        "num_active_cols",
        0x27,
        Kind::U8,
        Prov::Header,
        "N = weights elements per partition (1..=128)",
    );
    /// +0x2C row group.
    pub const ROW_GRP: Field = f(
        "row_grp",
        0x2C,
        Kind::U8,
        Prov::Header,
        "SBUF source quadrant bitmask. CONFLICT #14 settled for the header's 4-bit masks \
         {1,2,4,8 | 3,0xC | 0xF}; the CC translateToRowGroup LUT {1,2,4,8}/{3,12,32,64}/0x0F is \
         the alternative (it agrees for every start partition below 128)",
    );
    /// +0x2D col group.
    pub const COL_GRP: Field = f(
        "col_grp",
        0x2D,
        Kind::U8,
        Prov::Header,
        "PSUM destination quadrant bitmask (as row_grp)",
    );
    /// +0x2F LD_WEIGHT_FLAGS (v4 only).
    pub const FLAGS: Field = f(
        "flags",
        0x2F,
        Kind::U8,
        Prov::Header,
        "LD_WEIGHT_FLAGS LSB->MSB xpose_mode:1, scalar_mode:2, seed_mode:2, load_order:1; only \
         xpose_mode is written (the transpose)",
    );
}

/// Fields of MATMUL 0x02 (`S3D3_MM`). No EVENTS band (conflict #8, see the module docs).
pub mod matmul {
    use super::*;
    /// +0x10 moving operand (v3).
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Tensor(3),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "moving/ifmap TENSOR3D (SBUF only)",
    );
    /// +0x10 moving operand (v4).
    pub const SRC_V4: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mem(3),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "moving/ifmap MEM_PATTERN3D (static arm written)",
    );
    /// +0x20 in dtype.
    pub const IN_DTYPE: Field = f("in_dtype", 0x20, Kind::Dtype, Prov::Header, "moving dtype");
    /// +0x21 fp32 mode.
    pub const FP32_MODE: Field = f(
        "fp32_mode",
        0x21,
        Kind::Enum(PE_FP32_MODES),
        Prov::Header,
        "PE_FP32MODE. CONFLICT #4: the CC calls +0x21 'opcode-variant/perf-select'; header name",
    );
    /// +0x23 perf opt.
    pub const PERF_OPT: Field = f(
        "perf_opt",
        0x23,
        Kind::Enum(PERF_OPT_MODES),
        Prov::Header,
        "PERF_OPT_MODE. CONFLICT #4: the CC calls +0x23 dst-dtype (perfModeToDstDtype)",
    );
    /// +0x24 quant offset.
    pub const QUANT_OFFSET: Field = f(
        "quant_offset",
        0x24,
        Kind::U16,
        Prov::Header,
        "CONFLICT #4: the CC names +0x24/+0x25 perf-opt dtype/src (V2 only). v3 layout only: \
         the v4 listing does not place it (v5 has none), so a mariana quant_offset is unpinned",
    );
    /// +0x26 rows.
    pub const NUM_ACTIVE_ROWS: Field = f(
        "num_active_rows",
        0x26,
        Kind::U8,
        Prov::Header,
        "contraction depth K (1..=128); CC +0x26 'weight/PE-row base'",
    );
    /// +0x27 cols.
    pub const NUM_ACTIVE_COLS: Field = f(
        "num_active_cols",
        0x27,
        Kind::U8,
        Prov::Header,
        "N = dst partitions (1..=128)",
    );
    /// +0x28 out dtype (v4 only).
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x28,
        Kind::Dtype,
        Prov::Header,
        "PSUM dst dtype (v4; the CC MatmulMx +0x28 dst dtype agrees)",
    );
    /// +0x2A MATMUL_FLAGS (v4 only).
    pub const FLAGS: Field = f(
        "flags",
        0x2A,
        Kind::U8,
        Prov::Header,
        "MATMUL_FLAGS scalar_mode:2, seed_mode:2, accumulate_flag:1, xpose_mode:1; written 0 \
         (ASSUMPTION: the model has no scalar/seed modes; accumulation is psum_accumulate_flags)",
    );
    /// +0x2B accumulate flags.
    pub const PSUM_ACCUMULATE_FLAGS: Field = f(
        "psum_accumulate_flags",
        0x2B,
        Kind::U8,
        Prov::Header,
        "BEGIN_MATMUL_GROUP 1<<0, END 1<<1, BEGIN_ACCUM 1<<2; valid {0,1,2,3,4,6} (CC)",
    );
    /// +0x2C row group.
    pub const ROW_GRP: Field = f(
        "row_grp",
        0x2C,
        Kind::U8,
        Prov::Header,
        "SBUF source quadrant bitmask (conflict #14: header masks, see ldweights::ROW_GRP)",
    );
    /// +0x2D col group.
    pub const COL_GRP: Field = f(
        "col_grp",
        0x2D,
        Kind::U8,
        Prov::Header,
        "PSUM destination quadrant bitmask",
    );
    /// +0x2E xbus select (v3 only).
    pub const XBUS_SEL: Field = f(
        "xbus_sel",
        0x2E,
        Kind::U8,
        Prov::Header,
        "from col_grp by the header table 0xF->0x10, 0x3/0x1->0x01, 0x2->0x02, 0xC/0x4->0x04 \
         (0x8: 'NOT SUPPORTED'). CONFLICT: the CC writes a constant 0x10 on V2 and nothing on V3",
    );
    /// +0x2F zero region.
    pub const PSUM_ZERO_REGION: Field = f(
        "psum_zero_region",
        0x2F,
        Kind::U8,
        Prov::Header,
        "MATMUL_ZERO_REGION: sunda/cayman only SIZE2048 = 0; mariana 0..3 = 1/2/4/8 banks",
    );
    /// +0x30 result (v3).
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Tensor(3),
        DtypeRef::None,
        Prov::Header,
        "PSUM result TENSOR3D (no dtype byte on v3)",
    );
    /// +0x30 result (v4).
    pub const DST_V4: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Mem(3),
        DtypeRef::Byte(0x28),
        Prov::Header,
        "PSUM result MEM_PATTERN3D",
    );
}

/// Fields of DMA_DIRECT2D 0xB8 (header only, GPSIMD 59696048623 §2.1).
pub mod dma_direct2d {
    use super::*;
    /// +12.
    pub const DMA_CONFIGS: Field = f(
        "dma_configs",
        12,
        Kind::U8,
        Prov::Header,
        "DMA_CONFIGS {priority_class:3 (0..4), reserved:5}",
    );
    /// +13.
    pub const SEMAPHORE: Field = f(
        "semaphore",
        13,
        Kind::U8,
        Prov::Header,
        "completion semaphore index (distinct from EVENTS, which gates issue)",
    );
    /// +14.
    pub const SEM_INCREMENT: Field = f(
        "sem_increment",
        14,
        Kind::U8,
        Prov::Header,
        "completion increment",
    );
    /// +15.
    pub const COMPUTE_OP: Field = f(
        "compute_op",
        15,
        Kind::Enum(DGE_COMPUTE_OPS),
        Prov::Header,
        "DGE_COMPUTE_OP (in PSEUDO_DMA_DIRECT2D 0xD4 this byte is dge_op instead)",
    );
    /// +16.
    pub const SRC_START_ADDR: Field = f(
        "src_start_addr",
        16,
        Kind::Hex64,
        Prov::Header,
        "ADDR8: marker byte 7 (mask 0xFC); ASSUMPTION: a 48-bit immediate in bytes 0..6, byte 6 zero",
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
    pub const SRC_ELEM_SIZE: Field = f(
        "src_elem_size",
        36,
        Kind::U16,
        Prov::Header,
        "bytes per element",
    );
    /// +38.
    pub const SRC_BOUND_REG: Field = f(
        "src_bound_reg",
        38,
        Kind::U8,
        Prov::Header,
        "BOUND_CHECK_REG",
    );
    /// +39.
    pub const DST_BOUND_REG: Field = f(
        "dst_bound_reg",
        39,
        Kind::U8,
        Prov::Header,
        "BOUND_CHECK_REG",
    );
    /// +40.
    pub const DST_START_ADDR: Field = f(
        "dst_start_addr",
        40,
        Kind::Hex64,
        Prov::Header,
        "ADDR8 (as src_start_addr)",
    );
    /// +48.
    pub const DST_STEP_ELEM0: Field = f("dst_step_elem[0]", 48, Kind::I32, Prov::Header, "");
    /// +52.
    pub const DST_STEP_ELEM1: Field = f("dst_step_elem[1]", 52, Kind::I32, Prov::Header, "");
    /// +56.
    pub const DST_NUM_ELEM0: Field = f("dst_num_elem[0]", 56, Kind::U16, Prov::Header, "");
    /// +58.
    pub const DST_NUM_ELEM1: Field = f("dst_num_elem[1]", 58, Kind::U16, Prov::Header, "");
    /// +60.
    pub const DST_ELEM_SIZE: Field = f(
        "dst_elem_size",
        60,
        Kind::U16,
        Prov::Header,
        "bytes per element",
    );
    /// +62.
    pub const IN_DTYPE: Field = f("in_dtype", 62, Kind::Dtype, Prov::Header, "");
    /// +63.
    pub const OUT_DTYPE: Field = f("out_dtype", 63, Kind::Dtype, Prov::Header, "");
}

/// Fields of EVENT_SEMAPHORE 0xA0 (CC capstone / sync page; header CTRL_ES: events @4,
/// setter_signature @12, events_extended (12 B) @32).
pub mod event_semaphore {
    use super::*;
    /// +0x20 second wait mode.
    pub const EXT_WAIT_MODE: Field = f(
        "events_extended.wait_mode",
        0x20,
        Kind::Enum(WAIT_MODES),
        Prov::Compiler,
        "CC cmp_op @+0x20 (wait LUT {07,05,85})",
    );
    /// +0x21 second wait index.
    pub const EXT_WAIT_IDX: Field = f(
        "events_extended.wait_idx",
        0x21,
        Kind::U8,
        Prov::Compiler,
        "instr.events_extended.wait_idx",
    );
    /// +0x22 update mode.
    pub const EXT_UPDATE_MODE: Field = f(
        "events_extended.update_mode",
        0x22,
        Kind::Enum(UPDATE_MODES),
        Prov::Compiler,
        "CONFLICT #9 settled for the LUT {11,15,17,13,14,19} (CC sync page and capstone \
         subtype list, and the header UPDATE_MODE codes); the CC enum page's raw identity form \
         (0 set, 1 increment) is the alternative",
    );
    /// +0x23 update index.
    pub const EXT_UPDATE_IDX: Field = f(
        "events_extended.update_idx",
        0x23,
        Kind::U8,
        Prov::Compiler,
        "instr.events_extended.update_idx",
    );
    /// +0x24 second wait value.
    pub const EXT_WAIT_VALUE: Field = f(
        "events_extended.wait_value",
        0x24,
        Kind::U32,
        Prov::Compiler,
        "wait threshold (register id for sem_ge_reg)",
    );
    /// +0x28 update value.
    pub const EXT_UPDATE_VALUE: Field = f(
        "events_extended.update_value",
        0x28,
        Kind::U32,
        Prov::Compiler,
        "update operand; not written for inc/dec (as setupSyncUpdate)",
    );
}

/// Fields of the MX PE pair LDWEIGHTS_MX 0x09 (`SMX1_LW`) / MATMUL_MX 0x0A (`SMX1D3_MM`),
/// mariana only. Offsets: header (GPSIMD 59686003097 / 59776809812) where it lists them, else the
/// CC encoder (CC 59674815273); the two agree on every offset both give. Opcodes: isa-table
/// conflict 2 (one wiki page says matmul_mx is 0x02): 0x09/0x0A, provenance wiki.
pub mod mx_pe {
    use super::*;
    /// +0x10 MX operand (data + scale).
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mx,
        DtypeRef::Byte(0x20),
        Prov::Header,
        "MXMEM_PATTERN1D / MXINDIRECT16B (data + E8M0 scale)",
    );
    /// +0x20 data dtype.
    pub const IN_DTYPE: Field = f("in_dtype", 0x20, Kind::Dtype, Prov::Header, "MX data dtype");
    /// +0x26 rows.
    pub const NUM_ACTIVE_ROWS: Field = f(
        "num_active_rows",
        0x26,
        Kind::U8,
        Prov::Header,
        "K = partitions of the MX operands (CC num_partitions)",
    );
    /// +0x27 cols.
    pub const NUM_ACTIVE_COLS: Field = f(
        "num_active_cols",
        0x27,
        Kind::U8,
        Prov::Header,
        "N = dst partitions (header on 0x09; CC 'num_active' on 0x0A)",
    );
    /// +0x28 out dtype (0x0A).
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x28,
        Kind::Dtype,
        Prov::Header,
        "PSUM dst dtype",
    );
    /// +0x2B accumulate flags (0x0A).
    pub const PSUM_ACCUMULATE_FLAGS: Field = f(
        "psum_accumulate_flags",
        0x2B,
        Kind::U8,
        Prov::Header,
        "as MATMUL; CC writes the BIR byte raw",
    );
    /// +0x2C row group.
    pub const ROW_GRP: Field = f(
        "row_grp",
        0x2C,
        Kind::U8,
        Prov::Header,
        "SBUF source quadrant mask (header on 0x09, CC on 0x0A; conflict #14 as for MATMUL)",
    );
    /// +0x2D col group.
    pub const COL_GRP: Field = f(
        "col_grp",
        0x2D,
        Kind::U8,
        Prov::Compiler,
        "the CC writes constant 0x0F on both MX bundles (header names the field on 0x09 only)",
    );
    /// +0x2F zero region (0x0A).
    pub const PSUM_ZERO_REGION: Field = f(
        "psum_zero_region",
        0x2F,
        Kind::U8,
        Prov::Compiler,
        "CC +0x2F psum_zero_region (raw); 0..=3 as MATMUL on mariana",
    );
    /// +0x30 PSUM result (0x0A).
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Mem(3),
        DtypeRef::Byte(0x28),
        Prov::Header,
        "PSUM result MEM_PATTERN3D",
    );
}

/// Fields of QUANTIZE_MX 0xE3 (`S3DMX1_QUANT`, mariana; header GPSIMD 59776809812 §2.5, CC
/// 59674815273 agrees on every offset). The CC sets bit 0 of byte 1 (`inst_word_len`) as a
/// saturate flag when FP8ConvConfig[0] == 0: not modelled, the header byte stays 0x10
/// (ASSUMPTION: saturating conversion is the default).
pub mod quantize_mx {
    use super::*;
    /// +0x10 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mem(3),
        DtypeRef::Byte(0x22),
        Prov::Header,
        "bf16/fp16 source MEM_PATTERN3D (SBUF only)",
    );
    /// +0x21 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x21,
        Kind::U8,
        Prov::Header,
        "in {32, 64, 96, 128} (CC: source partition count)",
    );
    /// +0x22 in dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x22,
        Kind::Dtype,
        Prov::Header,
        "{FP16, BFLOAT16}",
    );
    /// +0x23 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x23,
        Kind::Dtype,
        Prov::Header,
        "{FP8_EXP5, FP8_EXP4}",
    );
    /// +0x30 MX destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Mx,
        DtypeRef::Byte(0x23),
        Prov::Header,
        "MXMEM_PATTERN1D (quantised data + E8M0 scale)",
    );
}

/// LDWEIGHTS_MX 0x09 (mariana). Keeps the header EVENTS band as LDWEIGHTS does (conflict #8).
pub static LDWEIGHTS_MX: Format = Format {
    opcode: 0x09,
    mnemonic: "ldweights_mx",
    struct_name: "SMX1_LW",
    family: Family::MatmulMx,
    fields: with_events![
        mx_pe::SRC,
        mx_pe::IN_DTYPE,
        mx_pe::NUM_ACTIVE_ROWS,
        mx_pe::NUM_ACTIVE_COLS,
        mx_pe::ROW_GRP,
        mx_pe::COL_GRP,
    ],
    reserved_rule: "reserved_zero",
};

/// MATMUL_MX 0x0A (mariana). No sync band, as MATMUL (conflict #8).
pub static MATMUL_MX: Format = Format {
    opcode: 0x0A,
    mnemonic: "matmul_mx",
    struct_name: "SMX1D3_MM",
    family: Family::MatmulMx,
    fields: &[
        mx_pe::SRC,
        mx_pe::IN_DTYPE,
        mx_pe::NUM_ACTIVE_ROWS,
        mx_pe::NUM_ACTIVE_COLS,
        mx_pe::OUT_DTYPE,
        mx_pe::PSUM_ACCUMULATE_FLAGS,
        mx_pe::ROW_GRP,
        mx_pe::COL_GRP,
        mx_pe::PSUM_ZERO_REGION,
        mx_pe::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// QUANTIZE_MX 0xE3 (mariana; the CC writes the sync band).
pub static QUANTIZE_MX: Format = Format {
    opcode: 0xE3,
    mnemonic: "quantize_mx",
    struct_name: "S3DMX1_QUANT",
    family: Family::QuantizeMx,
    fields: with_events![
        quantize_mx::SRC,
        quantize_mx::ACTIVE,
        quantize_mx::IN_DTYPE,
        quantize_mx::OUT_DTYPE,
        quantize_mx::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// LDWEIGHTS 0x01, v3 layout (sunda, cayman; `by_opcode` default).
pub static LDWEIGHTS: Format = Format {
    opcode: 0x01,
    mnemonic: "ldweights",
    struct_name: "S3_LW (v3 layout: sunda, cayman)",
    family: Family::Matmul,
    fields: with_events![
        ldweights::SRC,
        ldweights::IN_DTYPE,
        ldweights::TRANSPOSE_MODE,
        ldweights::PERF_OPT,
        ldweights::NUM_ACTIVE_ROWS,
        ldweights::NUM_ACTIVE_COLS,
        ldweights::ROW_GRP,
        ldweights::COL_GRP,
    ],
    reserved_rule: "reserved_zero",
};

/// LDWEIGHTS 0x01, v4 layout (mariana).
pub static LDWEIGHTS_V4: Format = Format {
    opcode: 0x01,
    mnemonic: "ldweights_v4",
    struct_name: "S3_LW (v4 layout: mariana)",
    family: Family::Matmul,
    fields: with_events![
        ldweights::BG_XPOSE_MODE,
        ldweights::SRC_V4,
        ldweights::IN_DTYPE,
        ldweights::TRANSPOSE_MODE,
        ldweights::PERF_OPT,
        ldweights::NUM_ACTIVE_ROWS,
        ldweights::NUM_ACTIVE_COLS,
        ldweights::ROW_GRP,
        ldweights::COL_GRP,
        ldweights::FLAGS,
    ],
    reserved_rule: "reserved_zero",
};

/// MATMUL 0x02, v3 layout (sunda, cayman; `by_opcode` default).
pub static MATMUL: Format = Format {
    opcode: 0x02,
    mnemonic: "matmul",
    struct_name: "S3D3_MM (v3 layout: sunda, cayman)",
    family: Family::Matmul,
    fields: &[
        matmul::SRC,
        matmul::IN_DTYPE,
        matmul::FP32_MODE,
        matmul::PERF_OPT,
        matmul::QUANT_OFFSET,
        matmul::NUM_ACTIVE_ROWS,
        matmul::NUM_ACTIVE_COLS,
        matmul::PSUM_ACCUMULATE_FLAGS,
        matmul::ROW_GRP,
        matmul::COL_GRP,
        matmul::XBUS_SEL,
        matmul::PSUM_ZERO_REGION,
        matmul::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// MATMUL 0x02, v4 layout (mariana): the header's v4 rows (out_dtype, flags, accumulate flags,
/// groups, zero region, MEM_PATTERN3D src) plus the rows v3 and v5 agree on (in_dtype @32,
/// fp32_mode @33) and the CC's MX-on-v4 rows/cols @38/@39. ASSUMPTION: +0x23 perf_opt, +0x24
/// quant_offset and +0x2E xbus_sel (v3 only; v5 moved or dropped them, the CC drops the xbus
/// write after V2) are reserved here; the encoder refuses values that would need them.
pub static MATMUL_V4: Format = Format {
    opcode: 0x02,
    mnemonic: "matmul_v4",
    struct_name: "S3D3_MM (v4 layout: mariana)",
    family: Family::Matmul,
    fields: &[
        matmul::SRC_V4,
        matmul::IN_DTYPE,
        matmul::FP32_MODE,
        matmul::NUM_ACTIVE_ROWS,
        matmul::NUM_ACTIVE_COLS,
        matmul::OUT_DTYPE,
        matmul::FLAGS,
        matmul::PSUM_ACCUMULATE_FLAGS,
        matmul::ROW_GRP,
        matmul::COL_GRP,
        matmul::PSUM_ZERO_REGION,
        matmul::DST_V4,
    ],
    reserved_rule: "reserved_zero",
};

/// DMA_DIRECT2D 0xB8.
pub static DMA_DIRECT2D: Format = Format {
    opcode: 0xB8,
    mnemonic: "dma_direct2d",
    struct_name: "DMA_DIRECT2D",
    family: Family::DmaDirect,
    fields: with_events![
        dma_direct2d::DMA_CONFIGS,
        dma_direct2d::SEMAPHORE,
        dma_direct2d::SEM_INCREMENT,
        dma_direct2d::COMPUTE_OP,
        dma_direct2d::SRC_START_ADDR,
        dma_direct2d::SRC_STEP_ELEM0,
        dma_direct2d::SRC_STEP_ELEM1,
        dma_direct2d::SRC_NUM_ELEM0,
        dma_direct2d::SRC_NUM_ELEM1,
        dma_direct2d::SRC_ELEM_SIZE,
        dma_direct2d::SRC_BOUND_REG,
        dma_direct2d::DST_BOUND_REG,
        dma_direct2d::DST_START_ADDR,
        dma_direct2d::DST_STEP_ELEM0,
        dma_direct2d::DST_STEP_ELEM1,
        dma_direct2d::DST_NUM_ELEM0,
        dma_direct2d::DST_NUM_ELEM1,
        dma_direct2d::DST_ELEM_SIZE,
        dma_direct2d::IN_DTYPE,
        dma_direct2d::OUT_DTYPE,
    ],
    reserved_rule: "reserved_zero",
};

/// EVENT_SEMAPHORE 0xA0. The header EVENTS update bytes +6/+7 are not in the table: the CC
/// encoder puts the update in events_extended, so they stay reserved (zero). `setter_signature`
/// @12 (header; width and meaning not given) is likewise reserved.
pub static EVENT_SEMAPHORE: Format = Format {
    opcode: 0xA0,
    mnemonic: "event_semaphore",
    struct_name: "CTRL_ES",
    family: Family::EventSemaphore,
    fields: &[
        events::WAIT_MODE,
        events::WAIT_IDX,
        events::SEMAPHORE_VALUE,
        event_semaphore::EXT_WAIT_MODE,
        event_semaphore::EXT_WAIT_IDX,
        event_semaphore::EXT_UPDATE_MODE,
        event_semaphore::EXT_UPDATE_IDX,
        event_semaphore::EXT_WAIT_VALUE,
        event_semaphore::EXT_UPDATE_VALUE,
    ],
    reserved_rule: "reserved_zero",
};

/// Layouts that replace the `FORMATS` entry of their opcode on one core generation.
pub static TARGET_LAYOUTS: [(CoreGen, &Format); 2] =
    [(CoreGen::V4, &LDWEIGHTS_V4), (CoreGen::V4, &MATMUL_V4)];

/// The per-target layout of `op` on `arch`, if it has one.
pub fn layout_on(op: u8, arch: &ArchModel) -> Option<&'static Format> {
    TARGET_LAYOUTS
        .iter()
        .find(|(core, f)| *core == arch.core && f.opcode == op)
        .map(|(_, f)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{CAYMAN, MARIANA, SUNDA};
    use crate::formats::{by_mnemonic, by_opcode, by_opcode_on};

    #[test]
    fn layouts_are_disjoint_and_per_target() {
        for &(_, fmt) in &TARGET_LAYOUTS {
            let mut owner = [None::<&str>; 64];
            for fld in fmt.fields {
                assert!(fld.offset >= 4);
                for i in fld.range() {
                    assert!(
                        i < 64 && owner[i].is_none(),
                        "{} {}",
                        fmt.mnemonic,
                        fld.name
                    );
                    owner[i] = Some(fld.name);
                }
            }
            assert_eq!(by_mnemonic(fmt.mnemonic), Some(fmt));
        }
        assert_eq!(by_opcode_on(0x02, &MARIANA), Some(&MATMUL_V4));
        assert_eq!(by_opcode_on(0x01, &MARIANA), Some(&LDWEIGHTS_V4));
        assert_eq!(by_opcode_on(0x02, &CAYMAN), Some(&MATMUL));
        assert_eq!(by_opcode_on(0x01, &SUNDA), Some(&LDWEIGHTS));
        assert_eq!(by_opcode(0x02), Some(&MATMUL));
        assert_eq!(by_opcode_on(0xB8, &MARIANA), Some(&DMA_DIRECT2D));
    }

    #[test]
    fn name_tables_have_unique_codes_and_names() {
        for t in [PE_FP32_MODES, PERF_OPT_MODES, DGE_COMPUTE_OPS] {
            for (i, a) in t.iter().enumerate() {
                assert!(t[i + 1..].iter().all(|b| a.0 != b.0 && a.1 != b.1));
            }
        }
    }
}
