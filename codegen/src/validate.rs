//! Bundle validators as a list of named rules (the `dbg_is_valid_*` / `*_valid` predicates of
//! the ISA checker). A failure names the rule, the bundle index and the byte offset of the field
//! it concerns. [`RULES`] lists every rule with its source; names are the spec's where the spec
//! names the predicate, otherwise a local name marked as such.
//!
//! What is checked: the header; the reserved bytes; dtype codes; every access-pattern slot
//! (`tensor_start_addr_valid`, `tensorNd_valid`, the indirect arm and its quadrant invariant);
//! the per-op predicates below; the MX descriptor selector `mxmem1d_valid` (on a 16-byte slot,
//! and on the MX slots of 0x09 / 0x0A / 0xE3); DMA_INDIRECT1D's index rules; and the rules of
//! the 3D-slot and 4D-slot compute formats, the PE/DMA/event formats and SB2SB / gather-transpose
//! DMA / dequantize / batch-norm back-prop (`validate/compute3d.rs`, `validate/compute4d.rs`,
//! `validate/pe_dma.rs`, `validate/more.rs`).
//!
//! How: each layout's field table is compiled at build time into a plan: the reserved-byte
//! masks, the dtype rows and the access-pattern rows (each reduced to the reads its checks make:
//! offsets, the count run, the governing dtype byte) and the per-op rule function of the
//! opcode. A bundle's check is a lookup of its layout by core and opcode, the plan's rows, and
//! one call; every rule reads its offsets from the field constants and its opcodes from the
//! format statics, and the unit tests check each compiled row against the table it comes from.
//!
//! What is not checked (the spec gives only a name, no semantics): `s4d4_tr_same_src_dst_count`
//! (beyond `d4_tr_same_src_dst_count`), `d4_gt_same_src_dst`, `s_gather_index_dtype`,
//! `gload_*` (they belong to REG_LOAD 0x4A), `threshold_imm_ptr`'s bank range,
//! the lane values of a shuffle map, and the pair-level checks that
//! look at both halves of a micro-pair (each bundle is validated on its own).

use crate::addr4::{ADDR_MASK, INDIRECT_BIT, MARKER_BYTE3, REG_BIT, get_u32};
use crate::arch::{ArchModel, CoreGen, Family};
use crate::bundle::{Bundle, INST_WORD_LEN};
use crate::dtype::{WIRE_DTYPES, WIRE_FP32R, WireDtype};
use crate::enums::{ALU_MAX, RS_COMP_OPS};
#[cfg(test)]
use crate::fields::Value;
use crate::fields::{DtypeRef, Field, Kind, Role};
use crate::formats::{self, Format};
use crate::indirect::MxSlot;
use crate::tensor::num_elem_offset;

/// The dtype an INDEX word is validated as (`mem4d_valid`: dtype 9, u32).
const INDEX_DTYPE: WireDtype = WireDtype(0x09);

// Rules of the 4D-slot compute formats.
mod compute4d;
// 3D-slot compute formats.
mod compute3d;

// PE, DMA and event rules.
mod pe_dma;

// The `more` group (0xBF, 0xF1, 0x7B, 0x65) rules.
mod more;

/// One validator failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Rule name.
    pub rule: &'static str,
    /// Bundle index in the stream.
    pub bundle: usize,
    /// Byte offset within the bundle (or the slot, for descriptor-level checks).
    pub offset: usize,
    /// What failed.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bundle {} (byte offset {:#x}): rule {}: {}",
            self.bundle,
            self.bundle * 64 + self.offset,
            self.rule,
            self.message
        )
    }
}

/// Where a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSource {
    /// Named (and described) by a seed.
    Seed,
    /// Header-derived (GPSIMD) name or semantics.
    Header,
    /// A local name for a check the sources state without naming it.
    Local,
}

/// A rule of the list.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// Name.
    pub name: &'static str,
    /// Source.
    pub source: RuleSource,
    /// What it checks.
    pub check: &'static str,
}

macro_rules! rules {
    ($($name:literal, $src:ident, $check:literal;)*) => {
        /// Every validator rule.
        pub const RULES: &[Rule] = &[$(Rule { name: $name, source: RuleSource::$src, check: $check }),*];
    };
}

rules! {
    "known_opcode", Local, "byte 0 names a known format";
    "inst_word_len", Seed, "byte 1 == 0x10";
    "header_debug_zero", Seed, "bytes 2-3 == 0 (setupHeader)";
    "opcode_on_target", Local, "the format's encoder family exists on the target";
    "reserved_zero", Local, "bytes no field covers are zero (pxor-zeroed bundle)";
    "d4_tr_reserved_z", Seed, "S4D4_TR reserved bytes are zero";
    "d4_gt_reserved_z", Seed, "S4D4_GT reserved bytes are zero";
    "d3_dropout_reserved_zero", Seed, "S3D3_DROPOUT reserved bytes are zero";
    "valid_dtype", Header, "dtype bytes are defined codes on the target; FP32R only as output";
    "tensor_start_addr_valid", Seed, "ADDR4: register bypass, mode nibble not 0x60, SBUF/PSUM window, PSUM writes 4-byte dtype";
    "addr_aligned_dtype", Header, "address aligned to the slot dtype";
    "addr_in_sbuf_partition", Header, "in-partition SBUF offset below the active partition size";
    "addr_in_psum_partition", Local, "in-partition PSUM offset below the active 16 KiB";
    "start_addr_active_channels", Header, "start partition + active channels <= partitions";
    "tensor1d_valid", Header, "TENSOR1D num_elem != 0";
    "tensor2d_valid", Header, "TENSOR2D num_elem != 0";
    "tensor3d_valid", Header, "TENSOR3D num_elem != 0";
    "tensor4d_valid", Header, "TENSOR4D num_elem != 0";
    "static_tensor_pattern", Header, "no indirect record where only a static pattern is legal";
    "indirect_quadrant_check_src3d", Seed, "INDIRECT16B: INDEX and DATA in one SBUF quadrant unless DATA is in PSUM";
    "indirect_quadrant_check_src4d", Seed, "INDIRECT20B: INDEX and DATA in one SBUF quadrant unless DATA is in PSUM";
    "mxmem1d_valid", Seed, "MX slot: mode nibble selects MXMEM_PATTERN1D (0) or MXINDIRECT16B (0x20); words valid; scale in SBUF";
    "has_dma_indirect_valid_idx_start_addr", Seed, "DMA indirect: flags & 3 in {1,2}; index ADDR4 valid; secondary not register-mode";
    "check_dma_indirect_indices", Header, "DMA indirect idx_num_active_channels == 128";
    "has_valid_active_channel_range", Seed, "active channels in 1..=partitions";
    "d4_tr_same_src_dst_count", Seed, "S4D4_TR src and dst element counts equal";
    "d4_tr_transpose_src_dst_count", Seed, "S4D4_TR element counts nonzero";
    "d4_tr_op_bypass", Seed, "S4D4_TR op byte is BYPASS";
    "d3_transpose_ch", Seed, "0x6B sets d3_transpose_ch = 1, 0x6A leaves it 0";
    "instr.src_mem_pattern.num_elem[3] == 1", Seed, "0x6B source num_elem[3] (+0x1E) == 1";
    "stream_transpose_src_not_indirect", Local, "0x6B source is not TensorIndirect (encoder guard A)";
    "reg_load_src_not_indirect", Local, "0x68 data source is not TensorIndirect (Gather pre-amble)";
    "gather_valid_options", Seed, "0x68 gather_options (continuation flag) in {0, 1}";
    "d3_dropout_same_src_dst_type", Seed, "dropout in_dtype == out_dtype";
    "d3_dropout_src_dst_count_check", Seed, "dropout src and dst element counts equal";
    "d3_dropout_threshold_dtype_check", Seed, "dropout threshold dtype is a defined code";
    "s_same_in_out_dtype_indirect_copy", Seed, "indirect_copy in_dtype == out_dtype";
    "s_valid_s4d4_ic_active_channels", Seed, "indirect_copy active channels % 16 == 0, 16..=128 (header)";
    "s4d4_ic_src_indirect", Header, "indirect_copy source is an indirect record";
    "s4d4_ic_num_elem_per_idx", Header, "src_num_elem_per_idx in {1,2,4,8,16,32}; dst fields zero";
    "s_same_elem_count_rs_src_dst", Seed, "range_select src and dst element counts equal";
    "valid_rs_comp_op", Seed, "comp ops are IS_EQ/IS_GT/IS_GE/IS_LE/IS_LT";
    "s_valid_range_select_reduce_op", Seed, "reduce_op == MAX";
    "range_select_reduce_cmd", Header, "reduce_cmd in {IDLE, ACCUMULATE, ZERO_ACCUMULATE}";
    "range_select_bound_src", Header, "bound sources are IMM_SRC codes";
    "range_select_dtype", Header, "in (lo) is float and not FP32R; out (hi) is float";
    "d1_rd_dst_element_count", Header, "dve_read_accumulator dst_element_count == 1";
    // 4D-slot compute formats (validate/compute4d.rs).
    "tensor_reduce_op_class", Local, "0x42 op is an arith ALU op, 0x52 op a bitvec one (header class predicates)";
    "tensor_reduce_op_dim", Header, "TensorReduce op_dim is a TENSOR_SUBDIM X..XYZW";
    "s4d4_tr_copy_same_dtype", Header, "Copy requires out dtype == in dtype";
    "s4d4_tr_copy_cast_bypass", Header, "Copy and Cast require op BYPASS, negated 0, mask_enable 0, op_dim UNUSED or X";
    "pool_func", Local, "Pool pool_func is Max (1) or Avg (2) (CC)";
    "pool_mode", Local, "Pool pool_mode == 3 (CC constant)";
    "pool_max_scale", Local, "Max pooling has pool_scale 1.0 (CC)";
    "s4d4_cr_reduce_op", Header, "0x7C reduce_op is ADD/AVERAGE/MAX, 0x7D OR/AND/XOR";
    "s4d4_cr_reduce_axis", Header, "reduce_axis is ALL (0) or PARTITIONS (1)";
    "s4d4_cr_sbuf_only", Header, "cross-lane reduce source and destination are in SBUF";
    "s4d4_cr_dst_count", Header, "ALL: dst element count 1; PARTITIONS: dst count == src count";
    "d4_iota_count", Header, "iota d4d element count == dst t4d count";
    "memset_dst_element_count", Local, "memset dst_element_count == dst elements per partition";
    "s2d2_ts_as_count", Header, "affine select d4d count(mask) == count(src) == count(dst)";
    "s2d2_ts_as_fill_mode", Header, "fill_mode is an AFFINE_SELECT_CMP (0..3)";
    "s2d2_ts_as_dtype", Header, "affine select in dtype (lo nibble) is not FP32R";
    // 3D-slot compute formats (validate::compute3d).
    "tt_in_dtype_not_fp32r", Header, "S3S3D3_TT src0/src1 dtype nibbles are not FP32R";
    "tt_same_elem_count", Header, "S3S3D3_TT src0, src1 and dst element counts equal (unless shape_from_register)";
    "tt_valid_partitions", Header, "S3S3D3_TT src0/src1: one PSUM and one SBUF, or both SBUF in one quadrant; never both PSUM";
    "tt_arith_op", Header, "0x41 op is arithmetic (not bitvec-only, raw DIVIDE, CRC32, RSQRT, argmax/argmin)";
    "tt_bitvec_op", Header, "0x51 op is BYPASS or is_general_bitvec_op";
    "tt_bitvec_dtype", Header, "0x51 out dtype is an integer; src0 == src1 == out (a shift's count may be u32 under a 64-bit value)";
    "tt_wide_variant", Local, "0x8a/0x8b/0x8f: ALU byte and dtypes are the bf16 form (sunda only)";
    "tt_gpsimd_no_psum", Local, "GpSimd int32 TENSOR_TENSOR operands are not in PSUM (CC assert)";
    "tt_predicated_op_bypass", Local, "0x72/0x99 op byte is BYPASS (CC: no ALU byte written)";
    "copy_predicated_same_dtype", Local, "0x72 data dtype == out dtype (a cast is 0x99)";
    "ts_op0_bypass_implies_op1_bypass", Header, "S3D3_TS op0 != BYPASS || op1 == BYPASS";
    "ts_valid_alu_op", Header, "S3D3_TS op0/op1 in 0x00..0x1D, 0x20..0x23, 0xC4..0xE1";
    "ts_bitvec_op", Local, "0x53 op0/op1 are BYPASS or bitvec ops";
    "ts_imm_src", Header, "S3D3_TS imm0_src/imm1_src are IMM_SRC codes";
    "ts_reverse_operands", Header, "S3D3_TS reverse_operands in 0..=3";
    "ts_accumulator_cmd", Header, "S3D3_TS accumulator_cmd IDLE on 0x43/0x53/0x93, an ACCUM_CMD elsewhere";
    "tss_reversed_pred", Header, "0x98 reversed_pred in {0, 1}";
    "tss_imm_src", Header, "0x98 src1_imm_src/pred_imm_src are IMM_SRC codes";
    "tss_pred_imm_inline_bool", Header, "0x98 inline pred_imm is 0 or 1";
    "tss_pred_imm_dtype", Header, "0x98 pred_imm_dtype is an integer dtype of the width of dtype";
    "act_imm_src", Header, "ACTIVATE imm_src / scale_src are IMM_SRC codes, bias_src_n an IMM_SRC_N code";
    "act_accumulator_cmd", Header, "ACTIVATE accumulator_cmd is an ACCUM_CMD (its offset +0x0E is assumed)";
    "act_func_known", Local, "ACTIVATE activation_func is a code of the BIR -> wire map (bundle-layouts 4x.2)";
    "act_imm_gate", Local, "ACTIVATE imm_src and imm are zero unless the function is Prelu, Copy or Reciprocal (the CC gate)";
    // PE, MX, DMA and event formats (validate/pe_dma.rs).
    "pe_active_rows_cols", Header, "LDWEIGHTS/MATMUL num_active_rows and num_active_cols in 1..=partitions";
    "pe_group_mask", Header, "row_grp / col_grp are 4-bit quadrant masks {1,2,4,8,3,0xC,0xF} (conflict #14: header masks)";
    "matmul_operand_space", Header, "PE sources are SBUF only; the MATMUL result is PSUM only";
    "psum_accumulate_flags_valid", Local, "MATMUL psum_accumulate_flags in {0,1,2,3,4,6} (CC valid set)";
    "psum_zero_region_valid", Header, "MATMUL psum_zero_region: 0 on sunda/cayman, 0..=3 on mariana";
    "matmul_fp32_mode", Header, "fp32_mode in 1..=3 exactly for fp32/fp32r inputs, else 0";
    "matmul_xbus_sel", Header, "v3 MATMUL xbus_sel follows col_grp (0xF->0x10, 0x3/0x1->0x01, 0x2->0x02, 0xC/0x4->0x04)";
    "addr8_valid", Local, "ADDR8 marker is a DMA marker; an immediate fits 48 bits (assumption)";
    "dma_configs_priority", Header, "dma_configs priority_class 0..=4, reserved bits zero";
    "dge_compute_op", Header, "compute_op is a DGE_COMPUTE_OP (0..=4)";
    "valid_bound_check_reg", Header, "BOUND_CHECK_REG fully inert or enabled";
    "dma_shape_reg", Header, "DMA_DIRECT2D shape-from-register side: num_elem == 0 and step_elem[1] == 0";
    "dma_memcpy_size", Header, "DMA_DIRECT2D memcpy (compute_op NONE): num0*num1*elem_size equal on both sides";
    "s_valid_idx_bound_check_reg", Header, "DMA indirect index bound register: bc_disable_oob_error_notif needs flags.idx_bound_is_err";
    "dma_indirect_num_elem", Header, "DMA indirect num_elem <= 4096, or 0 with a shape register";
    "dma_indirect_dims", Header, "DMA indirect gather/scatter dim is X unless the side is shape-from-register; a load does not scatter, a save does not gather";
    "event_semaphore_modes", Local, "EventSemaphore waits are sem_ge_imm/sem_ge_reg (CC); the update is a LUT code";
    "quantize_mx_active_channels", Header, "QuantizeMx num_active_channels in {32, 64, 96, 128}";
    "quantize_mx_dtypes", Header, "QuantizeMx in bf16/fp16, out fp8 e4/e5";
    "quantize_mx_src_sbuf", Header, "QuantizeMx source is SBUF only";
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65) (validate/more.rs).
    "sb2sb_t3d_elem_count", Header, "SB2SB_COLLECTIVE src/dst TENSOR3D element count <= 256";
    "tens_dequant_dtype_uint32", Header, "TENSOR_DEQUANTIZE in_dtype and out_dtype are UINT32";
    "tens_dequant_group_size", Header, "TENSOR_DEQUANTIZE group_size is 0 or 8";
    "bn_back_prop_op_bypass", Header, "BATCH_NORM_BACK_PROP 0x65 op byte is BYPASS (forced)";
    "dma_gather_xpose_flags", Header, "DMA_GATHER_XPOSE flags: gather_dim (bits 0-1) only, reserved:6 zero";
    "dma_gather_xpose_idx_start_addr", Local, "DMA_GATHER_XPOSE src_idx_start_addr: a valid u32 ADDR4; in SBUF from a partition that leaves 128 index channels";
}

/// Collects failures for one bundle.
struct Ctx<'a> {
    arch: &'a ArchModel,
    bundle: usize,
    out: Vec<Diagnostic>,
}

impl Ctx<'_> {
    // Out of line and cold: rules pass on valid bundles, so the failure path stays off the
    // checks' straight line.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, rule: &'static str, offset: usize, message: impl Into<String>) {
        self.out.push(Diagnostic {
            rule,
            bundle: self.bundle,
            offset,
            message: message.into(),
        });
    }
}

/// `tensor_start_addr_valid` and the checks that hang off it, for one ADDR4 word.
/// `dtype` = None skips the dtype-dependent parts (the bundle carries no dtype for the slot).
#[inline]
fn check_addr(c: &mut Ctx, off: usize, w: u32, dtype: Option<WireDtype>, write: bool) {
    check_addr_inline(c, off, w, dtype, write);
}

/// [`check_addr`], inlined into the access-pattern rows' check (every slot of every bundle
/// takes it, so a call there costs more than the check).
#[inline(always)]
fn check_addr_inline(c: &mut Ctx, off: usize, w: u32, dtype: Option<WireDtype>, write: bool) {
    let arch = c.arch;
    if w & REG_BIT != 0 {
        // Register bypass (bundle-layouts §1a/§1b): v2 requires bits 8..30 zero, v3/v4 bits 8..23.
        let ok = match arch.core {
            CoreGen::V2 => w & 0x7FFF_FF00 == 0,
            _ => w & 0x00FF_FF00 == 0,
        } && (w & 0xFF) < 64;
        if !ok {
            c.fail(
                "tensor_start_addr_valid",
                off,
                format!(
                    "register-mode ADDR4 {w:#010x} is malformed (regid < 64, reserved bits zero)"
                ),
            );
        }
        return;
    }
    if (w >> 24) & 0x60 == 0x60 {
        c.fail(
            "tensor_start_addr_valid",
            off,
            format!("ADDR4 {w:#010x}: mode nibble 0x60 is dead (no validator accepts it)"),
        );
        return;
    }
    let a = w & ADDR_MASK;
    if let Some(d) = dtype {
        match align_mask_on(d.0, arch.core) {
            None => c.fail(
                "addr_aligned_dtype",
                off,
                format!("dtype {:#04x} has no alignment defined", d.0),
            ),
            Some(mask) if a & mask != 0 => c.fail(
                "addr_aligned_dtype",
                off,
                format!("address {a:#x} not {}-byte aligned", mask + 1),
            ),
            _ => {}
        }
    }
    if arch.in_psum(a) {
        // A custom model with a zero stride has no partitions: the whole offset is checked.
        let rel = a.wrapping_sub(arch.psum_base); // in_psum wraps the same way
        let in_part = in_partition(rel, arch.psum_partition_stride);
        if in_part >= arch.psum_active_bytes {
            c.fail(
                "addr_in_psum_partition",
                off,
                format!("PSUM offset {in_part:#x} past the active partition bytes"),
            );
        }
        if let Some(d) = dtype
            && write
            && !d.is_psum_write_dtype()
        {
            c.fail(
                "tensor_start_addr_valid",
                off,
                format!("PSUM write needs a 4-byte dtype, found {:#04x}", d.0),
            );
        }
    } else if arch.in_sbuf(a) {
        let in_part = in_partition(a, arch.sbuf_partition_stride);
        if in_part >= arch.sbuf_active_bytes {
            c.fail(
                "addr_in_sbuf_partition",
                off,
                format!("SBUF offset {in_part:#x} past the active partition bytes"),
            );
        }
    } else {
        c.fail(
            "tensor_start_addr_valid",
            off,
            format!("address {a:#x} is in neither the SBUF nor the PSUM window"),
        );
    }
}

/// `addresses_in_same_sbuf_quadrant` (ASSUMPTION on the body, which no source reproduces: both in
/// SBUF with the same `get_sbuf_quadrant_id`).
#[inline(always)]
fn same_sbuf_quadrant(arch: &ArchModel, a: u32, b: u32) -> bool {
    arch.in_sbuf(a) && arch.in_sbuf(b) && arch.sbuf_quadrant(a) == arch.sbuf_quadrant(b)
}

/// The quadrant invariant of `indirect_quadrant_check_src3d/4d` on an INDEX word (marker
/// included) and a DATA word: `(byte3 & 0xE0) != 0x20` skips; DATA in PSUM passes; otherwise
/// INDEX and DATA must share an SBUF quadrant.
pub fn indirect_quadrant_ok(arch: &ArchModel, index: u32, data: u32) -> bool {
    if (index >> 24) & 0xE0 != 0x20 {
        return true;
    }
    let d = data & ADDR_MASK;
    if arch.in_psum(d) {
        return true;
    }
    same_sbuf_quadrant(arch, index & ADDR_MASK, d)
}

#[cfg(test)]
fn slot_dtype(b: &Bundle, r: DtypeRef) -> Option<WireDtype> {
    match r {
        DtypeRef::None => None,
        DtypeRef::Byte(o) => Some(WireDtype(b[o as usize])),
        DtypeRef::Lo(o) => Some(WireDtype(b[o as usize] & 0xF)),
        DtypeRef::Hi(o) => Some(WireDtype(b[o as usize] >> 4)),
    }
}

const TENSOR_RULE: [&str; 5] = [
    "",
    "tensor1d_valid",
    "tensor2d_valid",
    "tensor3d_valid",
    "tensor4d_valid",
];

/// An access-pattern slot as the rules read it: straight from the bundle bytes through the
/// field's row (offset and kind), without building a decoded [`Value`]. It reads what
/// `Field::read` would (the `(byte3 & 0x60)` selector of a MEM_PATTERN union, the ADDR4 word,
/// the counts; the marker removed from an INDEX word), and a unit test checks the two agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A TENSORnD (a plain slot, or the static arm of a MEM_PATTERN union): its rank, ADDR4
    /// word and `num_elem[0..n]` (unused entries 1).
    Static { n: u8, addr: u32, num: [u16; 4] },
    /// The INDIRECT16B/20B arm: its rank, INDEX (marker bit removed), DATA and NUM.
    Indirect {
        n: u8,
        index: u32,
        data: u32,
        num: u16,
    },
    /// A field of no access-pattern kind.
    Other,
}

/// One in each 16-bit lane.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// The low `n` 16-bit lanes (n in 0..=4).
const LANE_MASK: [u64; 5] = [0, 0xFFFF, 0xFFFF_FFFF, 0xFFFF_FFFF_FFFF, u64::MAX];

/// The count run of a rank-`n` TENSORnD at byte `o` as 16-bit lanes: lane `i` is
/// `num_elem[i]`, lanes `n..` are 1 ([`lanes_at`] of [`count_read`]).
#[inline(always)]
fn count_lanes(b: &Bundle, o: usize, n: usize) -> u64 {
    lanes_at(b, count_read(o, n))
}

/// Where the count run of a rank-`n` TENSORnD at byte `o` is read from: one eight-byte load at
/// `at` that ends inside the bundle, shifted right by `shift` bits down to the run, and the
/// mask of its `n` lanes (fields lie inside the bundle: the formats' tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CountRead {
    at: u8,
    shift: u8,
    mask: u64,
}

/// The [`CountRead`] of a rank-`n` TENSORnD at byte `o`.
const fn count_read(o: usize, n: usize) -> CountRead {
    let n = if n < 4 { n } else { 4 };
    let run = o + num_elem_offset(n, 0);
    let at = if run < 56 { run } else { 56 };
    CountRead {
        at: at as u8,
        shift: (8 * (run - at)) as u8,
        mask: LANE_MASK[n],
    }
}

/// The lanes a [`CountRead`] reads.
#[inline(always)]
fn lanes_at(b: &Bundle, r: CountRead) -> u64 {
    let at = r.at as usize;
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    let w = u64::from_le_bytes(w)
        .checked_shr(r.shift as u32)
        .unwrap_or(0);
    (w & r.mask) | (LANE_ONES & !r.mask)
}

/// The TENSORnD at byte `o`, rank `n` ([`count_lanes`] for the counts).
#[inline(always)]
fn static_at(b: &Bundle, o: usize, n: u8) -> Slot {
    let n = n.min(4);
    let lanes = count_lanes(b, o, n as usize);
    Slot::Static {
        n,
        addr: get_u32(b, o),
        num: std::array::from_fn(|i| (lanes >> (16 * i)) as u16),
    }
}

/// The slot of field `f` (fields lie inside the bundle: the formats' tests).
#[inline(always)]
fn slot_at(b: &Bundle, f: &Field) -> Slot {
    let o = f.offset as usize;
    match f.kind {
        Kind::Tensor(n) => static_at(b, o, n),
        Kind::Mem(n) if b[o + 3] & 0x60 == MARKER_BYTE3 => Slot::Indirect {
            n,
            index: get_u32(b, o) & !INDIRECT_BIT,
            data: get_u32(b, o + 4),
            num: u16::from_le_bytes([b[o + 8], b[o + 9]]),
        },
        Kind::Mem(n) => static_at(b, o, n),
        _ => Slot::Other,
    }
}

/// Whether field `f` holds the indirect arm of a MEM_PATTERN union.
#[inline(always)]
fn is_indirect_at(b: &Bundle, f: &Field) -> bool {
    matches!(slot_at(b, f), Slot::Indirect { .. })
}

/// `tensorNd_valid` and the ADDR4 rules of a TENSORnD of rank `n` with start word `addr` and
/// count lanes `lanes` ([`count_lanes`]: lanes past `n` are 1).
#[inline(always)]
fn check_static(
    c: &mut Ctx,
    off: usize,
    (n, addr, lanes): (u8, u32, u64),
    dtype: Option<WireDtype>,
    write: bool,
) {
    check_addr_inline(c, off, addr, dtype, write);
    let n = n as usize;
    // The first zero lane (SWAR: a lane's top bit survives `x - 1` and `!x` only for x == 0, and
    // a borrow only moves upwards, so the lowest flagged lane is the first zero).
    let zero = lanes.wrapping_sub(LANE_ONES) & !lanes & (LANE_ONES << 15);
    if zero != 0 {
        let i = zero.trailing_zeros() as usize / 16;
        c.fail(
            TENSOR_RULE[n],
            off + num_elem_offset(n, i),
            format!("num_elem[{i}] == 0"),
        );
    }
}

/// Element count of a decoded slot (static product, or the indirect NUM).
#[cfg(test)]
fn slot_count(v: &Value) -> Option<u64> {
    use crate::indirect::MemSlot;
    match v {
        Value::Tensor(t) | Value::Mem(MemSlot::Static(t)) => Some(t.elements()),
        Value::Mem(MemSlot::Indirect(i)) => Some(i.num as u64),
        _ => None,
    }
}

/// Element count of the slot of field `f` (static product, or the indirect NUM); `None` for a
/// field of no access-pattern kind.
#[inline(always)]
fn slot_count_at(b: &Bundle, f: &Field) -> Option<u64> {
    match slot_at(b, f) {
        // Lanes past the rank are 1.
        Slot::Static { num, .. } => Some(num.iter().fold(1u64, |p, &x| p * x as u64)),
        Slot::Indirect { num, .. } => Some(num as u64),
        Slot::Other => None,
    }
}

/// The access-pattern rules on one slot row of a plan.
#[inline(always)]
fn check_slot(c: &mut Ctx, row: &SlotRow, b: &Bundle) {
    // `slot_dtype` of the row's `DtypeRef`, without a branch on its kind.
    let code = (b[row.dtype_at as usize] >> row.dtype_shift) & row.dtype_mask;
    let dtype = (row.dtype_mask != 0).then_some(WireDtype(code));
    let (off, n) = (row.offset as usize, row.rank);
    let w = get_u32(b, off);
    if !row.union || b[off + 3] & 0x60 != MARKER_BYTE3 {
        // A plain TENSORnD, or the static arm of a MEM_PATTERN union.
        if !row.union && (w >> 24) & 0x60 == 0x20 {
            c.fail(
                "static_tensor_pattern",
                off,
                "static tensor pattern but has indirect field",
            );
        }
        check_static(c, off, (n, w, lanes_at(b, row.counts)), dtype, row.write);
        return;
    }
    // The INDIRECT16B/20B arm (`slot_at`).
    let (index, data) = (w & !INDIRECT_BIT, get_u32(b, off + 4));
    if !row.indirect_copy_src && !c.arch.has(Family::TensorIndirect) {
        c.fail(
            "static_tensor_pattern",
            off,
            format!("{} has no INDIRECT16B/20B records", c.arch.target),
        );
    }
    // mem4d_valid: the index word is validated as dtype 9 (u32).
    check_addr(c, off, index, Some(INDEX_DTYPE), false);
    check_addr(c, off + 4, data, dtype, row.write);
    let rule = if n == 3 {
        "indirect_quadrant_check_src3d"
    } else {
        "indirect_quadrant_check_src4d"
    };
    let marked = index | INDIRECT_BIT;
    if !indirect_quadrant_ok(c.arch, marked, data) {
        c.fail(
            rule,
            off,
            format!(
                "INDEX {:#x} and DATA {:#x} are not in the same SBUF quadrant",
                index & ADDR_MASK,
                data & ADDR_MASK
            ),
        );
    }
}

/// The dtype rows of a plan: each row's codes (the byte, or the two nibbles of a
/// `DTYPE_PAIR`) are looked up in one pass, and only a row that fails reaches its role's
/// diagnostic.
#[inline(always)]
fn check_dtypes(c: &mut Ctx, plan: &Plan, b: &Bundle) {
    let core = c.arch.core;
    for row in &plan.dtypes[..plan.n_dtypes as usize] {
        let off = row.offset as usize;
        let v = b[off];
        // A pair's nibbles; a single byte is read twice.
        let pair = row.role == DtypeRole::Pair;
        let (lo, hi) = if pair { (v & 0xF, v >> 4) } else { (v, v) };
        let defined = defined_on(lo, core) & defined_on(hi, core);
        let fp32r_in = row.role == DtypeRole::In && v == WIRE_FP32R;
        if defined & !fp32r_in {
            continue;
        }
        match row.role {
            DtypeRole::Threshold => c.fail(
                "d3_dropout_threshold_dtype_check",
                off,
                format!("threshold dtype {v:#04x} is not defined"),
            ),
            DtypeRole::Pair => c.fail(
                "valid_dtype",
                off,
                format!("dtype pair {v:#04x} holds an undefined code"),
            ),
            _ if !defined => c.fail(
                "valid_dtype",
                off,
                format!(
                    "{} {v:#04x} is not a defined dtype on {}",
                    row.name, c.arch.target
                ),
            ),
            _ => c.fail("valid_dtype", off, "FP32R is an output-only dtype"),
        }
    }
}

/// Per core ([`core_row`]) and wire code: `0x80 | (align - 1)` for a code defined on the core
/// (`WireDtype::defined_on`, `WireDtype::align`), 0 otherwise; compiled from the dtype table.
/// Every defined alignment is a power of two (checked here), so `a % align == 0` is
/// `a & (align - 1) == 0`.
static DTYPE_ON: [[u8; 256]; 3] = {
    let mut t = [[0u8; 256]; 3];
    let mut k = 0;
    while k < CORES.len() {
        let mut i = 0;
        while i < WIRE_DTYPES.len() {
            let d = &WIRE_DTYPES[i];
            // `defined_on` reads the row at the code's index; code 0 is never defined.
            if i == d.code as usize && d.code != 0 && core_row(d.since) <= k {
                assert!(
                    d.align.is_power_of_two() && d.align <= 0x40,
                    "a defined dtype's alignment is a power of two"
                );
                t[k][i] = 0x80 | (d.align - 1);
            }
            i += 1;
        }
        k += 1;
    }
    t
};

/// `WireDtype(code).defined_on(core).is_some()` ([`DTYPE_ON`]).
#[inline(always)]
fn defined_on(code: u8, core: CoreGen) -> bool {
    DTYPE_ON[core_row(core)][code as usize] != 0
}

/// `WireDtype(code).align(core)` less one, the mask of the address bits an aligned address
/// leaves zero ([`DTYPE_ON`]).
#[inline(always)]
fn align_mask_on(code: u8, core: CoreGen) -> Option<u32> {
    let v = DTYPE_ON[core_row(core)][code as usize];
    (v != 0).then_some((v & 0x7F) as u32)
}

/// The most dtype rows, and the most access-pattern rows, of one format (the plan builder
/// refuses a table with more at compile time). The largest formats have three of each; one
/// spare. Kept small because a bundle's check reads its plan: the plans of the ~80 layouts
/// stay a few cache lines each.
const PLAN_ROWS: usize = 4;

/// How the dtype rule reads a dtype row (by the row's kind and name, as the spec names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DtypeRole {
    /// Any other dtype byte.
    Other,
    /// An `in_dtype`: FP32R is refused (output-only).
    In,
    /// The dropout threshold dtype (its own rule).
    Threshold,
    /// A `DTYPE_PAIR`: both nibbles are checked.
    Pair,
}

/// A dtype row of a plan: where the byte is and how it is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DtypeRow {
    /// The row's byte offset.
    offset: u8,
    /// How it is checked.
    role: DtypeRole,
    /// The row's name (for the diagnostic).
    name: &'static str,
}

/// An access-pattern row of a plan (a `Src` / `Dst` row of kind TENSORnD or MEM_PATTERNnD):
/// what `check_slot` needs of the row, read off the table once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlotRow {
    /// The row's byte offset.
    offset: u8,
    /// The slot's rank `n` (1..=4).
    rank: u8,
    /// Where its count run is read from (the static arm's `num_elem[0..n]`).
    counts: CountRead,
    /// A MEM_PATTERN union (`Kind::Mem`: the mode nibble may select the indirect arm) rather
    /// than a plain TENSORnD.
    union: bool,
    /// The dtype that governs the slot (`DtypeRef`) compiled to a byte read: the byte at
    /// `dtype_at`, shifted right by `dtype_shift` and masked with `dtype_mask`; a mask of 0 is
    /// `DtypeRef::None` (no dtype rides on the bundle for this slot).
    dtype_at: u8,
    /// See `dtype_at`.
    dtype_shift: u8,
    /// See `dtype_at`.
    dtype_mask: u8,
    /// A written operand (`Role::Dst`).
    write: bool,
    /// The embedded descriptor of INDIRECT_COPY, legal without the TensorIndirect family.
    indirect_copy_src: bool,
}

const NO_DTYPE_ROW: DtypeRow = DtypeRow {
    offset: 0,
    role: DtypeRole::Other,
    name: "",
};

const NO_SLOT_ROW: SlotRow = SlotRow {
    offset: 0,
    rank: 0,
    counts: CountRead {
        at: 0,
        shift: 0,
        mask: 0,
    },
    union: false,
    dtype_at: 0,
    dtype_shift: 0,
    dtype_mask: 0,
    write: false,
    indirect_copy_src: false,
};

/// A format's field table compiled for the validator at build time (the fast path of the rules
/// is a compiled form of the same table): the bytes the rows cover (header included) for the
/// reserved-byte rule, and the dtype and access-pattern rows the rules visit, in table order,
/// each reduced to what its check reads, so that a bundle's check walks only those rows and
/// compares no names.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// [`uncovered_bytes`] of the rows' [`covered_mask`] (the header counts as covered).
    uncovered: [u64; 8],
    /// Rows of kind `Dtype` / `DtypePair`, in table order.
    dtypes: [DtypeRow; PLAN_ROWS],
    /// Number of entries of `dtypes`.
    n_dtypes: u8,
    /// Access-pattern rows (a `Src` / `Dst` role on a TENSORnD / MEM_PATTERNnD), in table order.
    slots: [SlotRow; PLAN_ROWS],
    /// Number of entries of `slots`.
    n_slots: u8,
    /// The per-op predicates ([`rules_of`]).
    rules: Option<Rules>,
}

/// The bytes the rows of `fmt` cover, header (0..4) included.
const fn covered_mask(fmt: &Format) -> u64 {
    let mut m = 0xFu64;
    let mut i = 0;
    while i < fmt.fields.len() {
        let f = &fmt.fields[i];
        // Fields lie inside the bundle (formats' tests), so the run fits the 128-bit shift.
        m |= (((1u128 << f.kind.width()) - 1) << f.offset) as u64;
        i += 1;
    }
    m
}

/// A `DtypeRef` as (byte offset, shift, mask) ([`SlotRow::dtype_at`]).
const fn dtype_read(r: DtypeRef) -> (u8, u8, u8) {
    match r {
        DtypeRef::None => (0, 0, 0),
        DtypeRef::Byte(o) => (o, 0, 0xFF),
        DtypeRef::Lo(o) => (o, 0, 0xF),
        DtypeRef::Hi(o) => (o, 4, 0xF),
    }
}

/// The plan of `fmt`.
const fn plan(fmt: &Format) -> Plan {
    let mut p = Plan {
        uncovered: uncovered_bytes(covered_mask(fmt)),
        dtypes: [NO_DTYPE_ROW; PLAN_ROWS],
        n_dtypes: 0,
        slots: [NO_SLOT_ROW; PLAN_ROWS],
        n_slots: 0,
        rules: rules_of(fmt.opcode),
    };
    let mut i = 0;
    while i < fmt.fields.len() {
        let f = &fmt.fields[i];
        if matches!(f.kind, Kind::Dtype | Kind::DtypePair) {
            assert!((p.n_dtypes as usize) < PLAN_ROWS, "too many dtype rows");
            let role = if !matches!(f.kind, Kind::Dtype) {
                DtypeRole::Pair
            } else if compute3d::same_str(f.name, formats::dropout::THRESHOLD_DTYPE.name) {
                DtypeRole::Threshold
            } else if compute3d::same_str(f.name, "in_dtype") {
                DtypeRole::In
            } else {
                DtypeRole::Other
            };
            p.dtypes[p.n_dtypes as usize] = DtypeRow {
                offset: f.offset,
                role,
                name: f.name,
            };
            p.n_dtypes += 1;
        }
        let (rank, union) = match f.kind {
            Kind::Tensor(n) => (n, false),
            Kind::Mem(n) => (n, true),
            _ => (0, false),
        };
        let (dtype, write) = match f.role {
            Role::Src(d) => (d, false),
            Role::Dst(d) => (d, true),
            Role::Plain => (DtypeRef::None, false),
        };
        if !matches!(f.role, Role::Plain) && rank != 0 {
            assert!((p.n_slots as usize) < PLAN_ROWS, "too many slot rows");
            let (dtype_at, dtype_shift, dtype_mask) = dtype_read(dtype);
            assert!(rank <= 4, "a TENSORnD / MEM_PATTERNnD row of rank past 4");
            p.slots[p.n_slots as usize] = SlotRow {
                offset: f.offset,
                rank,
                counts: count_read(f.offset as usize, rank as usize),
                union,
                dtype_at,
                dtype_shift,
                dtype_mask,
                write,
                // Fields of a format are disjoint (formats' tests): the offset names the row.
                indirect_copy_src: fmt.opcode == formats::INDIRECT_COPY.opcode
                    && f.offset == formats::indirect_copy::SRC.offset,
            };
            p.n_slots += 1;
        }
        i += 1;
    }
    p
}

/// Every layout the validator knows: [`formats::FORMATS`], then the per-target layouts of
/// `pe_dma::TARGET_LAYOUTS`.
const LAYOUT_COUNT: usize = formats::FORMATS.len() + formats::pe_dma::TARGET_LAYOUTS.len();

/// The layouts with their plans, compiled at build time, in [`LAYOUT_COUNT`] order.
static LAYOUTS: [(&Format, Plan); LAYOUT_COUNT] = {
    let f = &formats::FORMATS;
    let l = &formats::pe_dma::TARGET_LAYOUTS;
    let mut t = [(f[0], plan(f[0])); LAYOUT_COUNT];
    let mut i = 0;
    while i < LAYOUT_COUNT {
        let fmt = if i < f.len() { f[i] } else { l[i - f.len()].1 };
        t[i] = (fmt, plan(fmt));
        i += 1;
    }
    t
};

/// No layout ([`LAYOUT_ON`]).
const NO_LAYOUT: u8 = u8::MAX;
const _: () = assert!(LAYOUT_COUNT < NO_LAYOUT as usize);

/// The core generations, in [`LAYOUT_ON`] order.
const CORES: [CoreGen; 3] = [CoreGen::V2, CoreGen::V3, CoreGen::V4];

/// The row of [`LAYOUT_ON`] of a core.
const fn core_row(core: CoreGen) -> usize {
    match core {
        CoreGen::V2 => 0,
        CoreGen::V3 => 1,
        CoreGen::V4 => 2,
    }
}

/// The layout index of each opcode on each core, as `formats::by_opcode_on` picks it: the
/// core's own layout (`pe_dma::layout_on`: the first listed for the core) first, else the
/// first entry of `FORMATS` with the opcode ([`NO_LAYOUT`] when neither).
static LAYOUT_ON: [[u8; 256]; 3] = {
    let f = &formats::FORMATS;
    let l = &formats::pe_dma::TARGET_LAYOUTS;
    let mut t = [[NO_LAYOUT; 256]; 3];
    let mut k = 0;
    while k < CORES.len() {
        let mut i = 0;
        while i < f.len() {
            let op = f[i].opcode as usize;
            if t[k][op] == NO_LAYOUT {
                t[k][op] = i as u8;
            }
            i += 1;
        }
        // Backwards, so that the first listed layout of a core wins.
        let mut j = l.len();
        while j > 0 {
            j -= 1;
            if core_row(l[j].0) == k {
                t[k][l[j].1.opcode as usize] = (f.len() + j) as u8;
            }
        }
        k += 1;
    }
    t
};

/// The layout index of `op` on `arch` ([`LAYOUT_ON`]).
#[inline(always)]
fn layout_on(op: u8, arch: &ArchModel) -> Option<usize> {
    let i = LAYOUT_ON[core_row(arch.core)][op as usize];
    (i != NO_LAYOUT).then_some(i as usize)
}

/// `formats::by_opcode_on` with the format's plan (a unit test checks that the format is the
/// one `by_opcode_on` returns for every opcode and target).
#[cfg(test)]
fn format_on(op: u8, arch: &ArchModel) -> Option<(&'static Format, &'static Plan)> {
    layout_on(op, arch)
        .and_then(|i| LAYOUTS.get(i))
        .map(|(f, p)| (*f, p))
}

#[inline(always)]
fn active_range(c: &mut Ctx, b: &Bundle, f: Field) {
    let a = f.get_u8(b) as u32;
    if a == 0 || a > c.arch.partitions {
        c.fail(
            "has_valid_active_channel_range",
            f.offset as usize,
            format!("active channels {a} not in 1..={}", c.arch.partitions),
        );
    }
}

/// `start_addr_active_channels` on the source slot's static arm: start partition + active <=
/// partitions (an indirect arm is covered by the quadrant rule instead).
#[inline(always)]
fn start_active(c: &mut Ctx, b: &Bundle, src: &Field, active: Field) {
    let w = src.get_u32(b);
    if w & REG_BIT != 0 || is_indirect_at(b, src) {
        return;
    }
    let a = w & ADDR_MASK;
    // A custom model with a zero stride has one partition.
    let (rel, stride) = if c.arch.in_psum(a) {
        (
            a.wrapping_sub(c.arch.psum_base),
            c.arch.psum_partition_stride,
        )
    } else {
        (a, c.arch.sbuf_partition_stride)
    };
    let part = partition_of(rel, stride);
    let act = active.get_u8(b) as u32;
    if part + act > c.arch.partitions {
        c.fail(
            "start_addr_active_channels",
            src.offset as usize,
            format!(
                "start partition {part} + {act} active channels exceeds {}",
                c.arch.partitions
            ),
        );
    }
}

/// A format's per-op predicates: one function per rule set, picked for each layout at build
/// time ([`rules_of`], stored in its [`Plan`]), so a bundle's check dispatches once.
type Rules = fn(&mut Ctx<'_>, &Format, &Bundle);

/// The per-op predicates of `opcode`. Every offset is read from the format's `Field` constants
/// and every opcode from its `Format` static; each group module maps its own opcodes.
const fn rules_of(op: u8) -> Option<Rules> {
    use formats::*;
    // 4D-slot compute formats.
    if let Some(r) = self::compute4d::rules_of(op) {
        return Some(r);
    }
    if op == STREAM_TRANSPOSE_FWD.opcode || op == STREAM_TRANSPOSE.opcode {
        return Some(tr_rules);
    }
    if op == REG_LOAD.opcode {
        return Some(reg_load_rules);
    }
    if op == POOL_BUFFER_LOAD.opcode {
        return Some(pool_buffer_load_rules);
    }
    if op == DROPOUT.opcode {
        return Some(dropout_rules);
    }
    if op == INDIRECT_COPY.opcode {
        return Some(indirect_copy_rules);
    }
    if op == RANGE_SELECT.opcode {
        return Some(range_select_rules);
    }
    if op == DVE_READ_ACCUMULATOR.opcode {
        return Some(|c, _, b| d1_rd_rules(c, b));
    }
    if op == DMA_INDIRECT.opcode {
        return Some(|c, _, b| {
            dma_indirect_rules(c, b);
            self::pe_dma::indirect_rules(c, b);
        });
    }
    // 3D-slot compute formats.
    if let Some(r) = self::compute3d::rules_of(op) {
        return Some(r);
    }
    // PE, DMA and event formats.
    let pe = [
        LDWEIGHTS.opcode,
        MATMUL.opcode,
        DMA_DIRECT2D.opcode,
        EVENT_SEMAPHORE.opcode,
        LDWEIGHTS_MX.opcode,
        MATMUL_MX.opcode,
        QUANTIZE_MX.opcode,
    ];
    let mut i = 0;
    while i < pe.len() {
        if op == pe[i] {
            return self::pe_dma::rules_of(op);
        }
        i += 1;
    }
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
    self::more::rules_of(op)
}

/// S4D4_TR rules of 0x6A / 0x6B.
fn tr_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    use formats::*;
    let at = |f: Field| f.offset as usize;
    active_range(c, b, tr::ACTIVE);
    start_active(c, b, &tr::SRC, tr::ACTIVE);
    let s = slot_at(b, &tr::SRC);
    let (sc, dc) = (slot_count_at(b, &tr::SRC), slot_count_at(b, &tr::DST));
    if sc == Some(0) || dc == Some(0) {
        c.fail(
            "d4_tr_transpose_src_dst_count",
            at(tr::SRC),
            "element count is zero",
        );
    } else if sc != dc {
        // A seed rule (dve-datamove-encoding: dbg_is_valid_stream_transpose names it; CONFIRMED),
        // read as equal per-partition element counts of the two slots: a transpose of P
        // partitions by F elements writes F partitions by P, so only a square tile passes.
        c.fail(
            "d4_tr_same_src_dst_count",
            at(tr::SRC),
            format!(
                "src has {} and dst {} elements per partition; the seed rule                  d4_tr_same_src_dst_count requires them equal, so only a square transpose                  encodes",
                sc.unwrap_or(0),
                dc.unwrap_or(0)
            ),
        );
    }
    let op = tr::OP.get_u8(b);
    if op != 0 {
        c.fail(
            "d4_tr_op_bypass",
            at(tr::OP),
            format!("op {op:#04x} is not BYPASS"),
        );
    }
    let want = (fmt.opcode == STREAM_TRANSPOSE.opcode) as u8;
    let ch = tr::TRANSPOSE_CH.get_u8(b);
    if ch != want {
        c.fail(
            "d3_transpose_ch",
            at(tr::TRANSPOSE_CH),
            format!("d3_transpose_ch {ch} (expected {want})"),
        );
    }
    if fmt.opcode == STREAM_TRANSPOSE.opcode {
        match (tr::SRC.kind, s) {
            (_, Slot::Indirect { .. }) => c.fail(
                "stream_transpose_src_not_indirect",
                at(tr::SRC),
                "STREAM_TRANSPOSE cannot have TensorIndirect AP as src",
            ),
            // The static arm of the MEM_PATTERN union (a plain TENSORnD has no arm).
            (Kind::Mem(_), Slot::Static { num, .. }) if num[3] != 1 => c.fail(
                "instr.src_mem_pattern.num_elem[3] == 1",
                at(tr::SRC) + num_elem_offset(4, 3),
                format!("num_elem[3] == {}", num[3]),
            ),
            _ => {}
        }
    }
}

/// 0x68 reg_load rules.
fn reg_load_rules(c: &mut Ctx, _: &Format, b: &Bundle) {
    use formats::*;
    let at = |f: Field| f.offset as usize;
    active_range(c, b, reg_load::ACTIVE);
    start_active(c, b, &reg_load::SRC, reg_load::ACTIVE);
    if is_indirect_at(b, &reg_load::SRC) {
        c.fail(
            "reg_load_src_not_indirect",
            at(reg_load::SRC),
            "TODO: support POOL_BUFFER_LOAD with TensorIndirect AP once ISA supports it",
        );
    }
    let o = reg_load::OPTIONS.get_u16(b);
    if o > 1 {
        c.fail(
            "gather_valid_options",
            at(reg_load::OPTIONS),
            format!("gather_options {o} not in {{0, 1}}"),
        );
    }
}

/// 0x67 pool_buffer_load rules.
fn pool_buffer_load_rules(c: &mut Ctx, _: &Format, b: &Bundle) {
    use formats::*;
    active_range(c, b, pool_buffer_load::ACTIVE);
    start_active(c, b, &pool_buffer_load::SRC, pool_buffer_load::ACTIVE);
}

/// 0x7F dropout rules.
fn dropout_rules(c: &mut Ctx, _: &Format, b: &Bundle) {
    use formats::*;
    let at = |f: Field| f.offset as usize;
    active_range(c, b, dropout::ACTIVE);
    start_active(c, b, &dropout::SRC, dropout::ACTIVE);
    let (i, o) = (dropout::IN_DTYPE.get_u8(b), dropout::OUT_DTYPE.get_u8(b));
    if i != o {
        c.fail(
            "d3_dropout_same_src_dst_type",
            at(dropout::OUT_DTYPE),
            format!("in {i:#04x} != out {o:#04x}"),
        );
    }
    let (sc, dc) = (
        slot_count_at(b, &dropout::SRC),
        slot_count_at(b, &dropout::DST),
    );
    if sc != dc {
        c.fail(
            "d3_dropout_src_dst_count_check",
            at(dropout::SRC),
            format!("src {sc:?} vs dst {dc:?} elements"),
        );
    }
}

/// 0xE7 indirect_copy rules.
fn indirect_copy_rules(c: &mut Ctx, _: &Format, b: &Bundle) {
    use formats::*;
    let at = |f: Field| f.offset as usize;
    let a = indirect_copy::ACTIVE.get_u8(b);
    if a == 0 || !a.is_multiple_of(16) || a as u32 > c.arch.partitions {
        c.fail(
            "s_valid_s4d4_ic_active_channels",
            at(indirect_copy::ACTIVE),
            format!("active channels {a} must be a nonzero multiple of 16"),
        );
    }
    let (i, o) = (
        indirect_copy::IN_DTYPE.get_u8(b),
        indirect_copy::OUT_DTYPE.get_u8(b),
    );
    if i != o {
        c.fail(
            "s_same_in_out_dtype_indirect_copy",
            at(indirect_copy::OUT_DTYPE),
            format!("in {i:#04x} != out {o:#04x}"),
        );
    }
    if !is_indirect_at(b, &indirect_copy::SRC) {
        c.fail(
            "s4d4_ic_src_indirect",
            at(indirect_copy::SRC),
            "INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not …",
        );
    }
    let per_idx = indirect_copy::SRC_NUM_ELEM_PER_IDX.get_u8(b);
    if ![1u8, 2, 4, 8, 16, 32].contains(&per_idx) {
        c.fail(
            "s4d4_ic_num_elem_per_idx",
            at(indirect_copy::SRC_NUM_ELEM_PER_IDX),
            format!("src_num_elem_per_idx {per_idx} not in {{1,2,4,8,16,32}}"),
        );
    }
    if indirect_copy::DST_NUM_ELEM_PER_IDX.get_u8(b) != 0 {
        c.fail(
            "s4d4_ic_num_elem_per_idx",
            at(indirect_copy::DST_NUM_ELEM_PER_IDX),
            "dst_num_elem_per_idx must be 0",
        );
    }
    if indirect_copy::DST_BUFFER_SIZE.get_u16(b) != 0 {
        c.fail(
            "s4d4_ic_num_elem_per_idx",
            at(indirect_copy::DST_BUFFER_SIZE),
            "dst_buffer_size must be 0",
        );
    }
}

/// 0xBC range_select rules.
fn range_select_rules(c: &mut Ctx, _: &Format, b: &Bundle) {
    use formats::*;
    let at = |f: Field| f.offset as usize;
    use range_select as rs;
    active_range(c, b, rs::ACTIVE);
    start_active(c, b, &rs::SRC, rs::ACTIVE);
    for f in [&rs::COMP_OP0, &rs::COMP_OP1] {
        let op = f.get_u8(b);
        if !RS_COMP_OPS.contains(&op) {
            c.fail(
                "valid_rs_comp_op",
                at(*f),
                format!("comp op {op:#04x} is not IS_EQ/GT/GE/LE/LT"),
            );
        }
    }
    let op = rs::REDUCE_OP.get_u8(b);
    if op != ALU_MAX {
        c.fail(
            "s_valid_range_select_reduce_op",
            at(rs::REDUCE_OP),
            format!("reduce_op {op:#04x} is not MAX"),
        );
    }
    // No rule on +0x14: it is the raw upper bound (seed), not a fixed fill_val.
    let cmd = rs::REDUCE_CMD.get_u8(b);
    if !matches!(cmd, 0 | 2 | 3) {
        c.fail(
            "range_select_reduce_cmd",
            at(rs::REDUCE_CMD),
            format!("reduce_cmd {cmd} not IDLE/ACCUMULATE/ZERO_ACCUMULATE"),
        );
    }
    for f in [&rs::BOUND0_SRC, &rs::BOUND1_SRC] {
        let src = f.get_u8(b);
        if src > 2 {
            c.fail(
                "range_select_bound_src",
                at(*f),
                format!("bound source {src} is not an IMM_SRC"),
            );
        }
    }
    let pair = rs::IN_OUT_DTYPE.get_u8(b);
    let (lo, hi) = (WireDtype(pair & 0xF), WireDtype(pair >> 4));
    if !lo.is_float() || lo.0 == WIRE_FP32R || !hi.is_float() {
        c.fail(
            "range_select_dtype",
            at(rs::IN_OUT_DTYPE),
            format!("dtype pair {pair:#04x}: in must be float (not FP32R), out float"),
        );
    }
    let (sc, dc) = (slot_count_at(b, &rs::SRC), slot_count_at(b, &rs::DST));
    if sc != dc {
        c.fail(
            "s_same_elem_count_rs_src_dst",
            at(rs::SRC),
            format!("src {sc:?} vs dst {dc:?} elements"),
        );
    }
}

/// The D1_RD read-out rules (0x9B, and 0x24 of the same layout).
fn d1_rd_rules(c: &mut Ctx, b: &Bundle) {
    use formats::read_acc;
    active_range(c, b, read_acc::ACTIVE);
    let n = read_acc::DST_ELEMENT_COUNT.get_u32(b);
    if n != 1 {
        c.fail(
            "d1_rd_dst_element_count",
            read_acc::DST_ELEMENT_COUNT.offset as usize,
            format!("dst_element_count {n} != 1"),
        );
    }
}

/// `has_dma_indirect_valid_idx_start_addr` (seed, one paragraph) and `check_dma_indirect_indices`
/// (header). Reading of the seed (ASSUMPTION where it is terse): the index ADDR4 is
/// `src_idx_start_addr` (+48), validated by `tensor_start_addr_valid` as u32 and by
/// `start_addr_active_channels`; the secondary slot `dst_idx_start_addr` (+52) is rejected when
/// `(byte3 & 0xA0) == 0x80` (register mode without the indirect marker); `flags & 3` must be 1 or
/// 2 (the seed's load/save direction; the header enum's 0 is not accepted).
fn dma_indirect_rules(c: &mut Ctx, b: &Bundle) {
    use formats::dma_indirect::{
        DST_IDX_START_ADDR, FLAGS, IDX_NUM_ACTIVE_CHANNELS, SRC_IDX_START_ADDR,
    };
    const RULE: &str = "has_dma_indirect_valid_idx_start_addr";
    let dir = FLAGS.get_u8(b) & 3;
    if !matches!(dir, 1 | 2) {
        c.fail(
            RULE,
            FLAGS.offset as usize,
            format!("flags & 3 == {dir} (expected 1 or 2)"),
        );
    }
    let idx_at = SRC_IDX_START_ADDR.offset as usize;
    let idx = SRC_IDX_START_ADDR.get_u32(b);
    let channels = IDX_NUM_ACTIVE_CHANNELS.get_u8(b);
    let before = c.out.len();
    check_addr(c, idx_at, idx, Some(INDEX_DTYPE), false);
    for d in &mut c.out[before..] {
        d.message = format!("index ADDR4: {}", d.message);
        d.rule = RULE;
    }
    if idx & REG_BIT == 0 {
        let part = partition_of(idx & ADDR_MASK, c.arch.sbuf_partition_stride);
        if c.arch.in_sbuf(idx & ADDR_MASK) && part + channels as u32 > c.arch.partitions {
            c.fail(
                RULE,
                idx_at,
                format!(
                    "index start partition {part} + {channels} channels exceeds {}",
                    c.arch.partitions
                ),
            );
        }
    }
    if (DST_IDX_START_ADDR.get_u32(b) >> 24) as u8 & 0xA0 == 0x80 {
        c.fail(
            RULE,
            DST_IDX_START_ADDR.offset as usize,
            "secondary ADDR4 is register-mode",
        );
    }
    if channels != 128 {
        c.fail(
            "check_dma_indirect_indices",
            IDX_NUM_ACTIVE_CHANNELS.offset as usize,
            format!("idx_num_active_channels {channels} != 128"),
        );
    }
}

/// The first byte of 4..64 that is nonzero and covered by no field of `fmt` (`Format::covers`,
/// with one pass over the fields and one over the bytes).
#[cfg(test)]
fn first_reserved(fmt: &Format, b: &Bundle) -> Option<usize> {
    reserved_in(&uncovered_bytes(covered_mask(fmt)), b)
}

/// The bytes no row covers, as eight little-endian byte masks (0xFF per uncovered byte) over the
/// bundle's eight words.
const fn uncovered_bytes(covered: u64) -> [u64; 8] {
    let mut m = [0u64; 8];
    let mut i = 0;
    while i < 64 {
        if covered >> i & 1 == 0 {
            m[i / 8] |= 0xFF << (8 * (i % 8));
        }
        i += 1;
    }
    m
}

/// The first nonzero byte of `b` that `uncovered` marks: eight bytes at a time, and in the usual
/// case (no reserved byte set) one AND per word.
#[inline(always)]
fn reserved_in(uncovered: &[u64; 8], b: &Bundle) -> Option<usize> {
    let mut words = [0u64; 8];
    let mut any = 0;
    for ((w, c), u) in words.iter_mut().zip(b.chunks_exact(8)).zip(uncovered) {
        let mut x = [0u8; 8];
        x.copy_from_slice(c);
        *w = u64::from_le_bytes(x) & u;
        any |= *w;
    }
    if any == 0 {
        return None;
    }
    let k = words.iter().position(|&w| w != 0)?;
    Some(8 * k + words[k].trailing_zeros() as usize / 8)
}

/// `a % stride` and `a / stride` for a partition stride, `None` for a zero stride (a mask and a
/// shift for the power-of-two strides of every target, a division only for a custom model).
#[cfg(test)]
fn split_by_stride(a: u32, stride: u32) -> Option<(u32, u32)> {
    Some((a.checked_rem(stride)?, a.checked_div(stride)?))
}

/// The in-partition offset `a % stride`, or `a` itself for a zero stride (a model without
/// partitions): a mask for the power-of-two strides of every target (`stride & (stride - 1)`
/// is zero for those and for 0, whose mask keeps every bit), a division only for a custom model.
#[inline(always)]
fn in_partition(a: u32, stride: u32) -> u32 {
    let mask = stride.wrapping_sub(1);
    if stride & mask == 0 {
        a & mask
    } else {
        a % stride
    }
}

/// The partition `a / stride`, or 0 for a zero stride: a shift for the power-of-two strides.
#[inline(always)]
fn partition_of(a: u32, stride: u32) -> u32 {
    if stride & stride.wrapping_sub(1) == 0 {
        // A zero stride shifts by 32: no bit is left.
        a.checked_shr(stride.trailing_zeros()).unwrap_or(0)
    } else {
        a / stride
    }
}

/// Validates one bundle. Returns every failure (empty = valid).
pub fn validate_bundle(b: &Bundle, bundle: usize, arch: &ArchModel) -> Vec<Diagnostic> {
    let mut c = Ctx {
        arch,
        bundle,
        out: Vec::new(),
    };
    if b[1] != INST_WORD_LEN {
        c.fail(
            "inst_word_len",
            1,
            format!("inst_word_len {:#04x} != 0x10", b[1]),
        );
    }
    if b[2] != 0 || b[3] != 0 {
        c.fail("header_debug_zero", 2, "header bytes 2-3 must be zero");
    }
    match layout_on(b[0], arch).and_then(|i| LAYOUTS.get(i)) {
        Some((fmt, plan)) => check_layout(&mut c, fmt, plan, b),
        None => c.fail("known_opcode", 0, format!("unknown opcode {:#04x}", b[0])),
    }
    c.out
}

/// The rules of one layout past the header: the family gate, the reserved bytes, the dtype
/// and access-pattern rows of its plan, then the per-op predicates.
#[inline(always)]
fn check_layout(c: &mut Ctx, fmt: &'static Format, plan: &Plan, b: &Bundle) {
    let arch = c.arch;
    if !arch.has(fmt.family) {
        c.fail(
            "opcode_on_target",
            0,
            format!(
                "{} ({:#04x}) does not exist on {}",
                fmt.mnemonic, fmt.opcode, arch.target
            ),
        );
    }
    if let Some(i) = reserved_in(&plan.uncovered, b) {
        c.fail(
            fmt.reserved_rule,
            i,
            format!("reserved byte {i:#x} is {:#04x}", b[i]),
        );
    }
    check_dtypes(c, plan, b);
    for row in &plan.slots[..plan.n_slots as usize] {
        check_slot(c, row, b);
    }
    if let Some(rules) = plan.rules {
        rules(c, fmt, b);
    }
}

/// `mxmem1d_valid` on a 16-byte MX slot: `(byte3 & 0x60)` selects MXMEM_PATTERN1D (0x00) or
/// MXINDIRECT16B (0x20); each ADDR4 goes through `tensor_start_addr_valid`; the scale must be in
/// SBUF; the count must be nonzero; the static arm's step_dir is 0x01 or 0xFF and its reserved
/// bytes zero. Offsets in the diagnostics are slot-relative.
pub fn mxmem1d_valid(slot: &[u8; 16], arch: &ArchModel) -> Vec<Diagnostic> {
    const RULE: &str = "mxmem1d_valid";
    let mut c = Ctx {
        arch,
        bundle: 0,
        out: Vec::new(),
    };
    if !arch.has(Family::Mx) {
        c.fail(RULE, 0, format!("{} has no MX descriptors", arch.target));
        return c.out;
    }
    let nib = slot[3] & 0x60;
    if nib != 0 && nib != 0x20 {
        c.fail(
            RULE,
            3,
            format!("mode nibble {nib:#04x} selects neither MXMEM_PATTERN1D nor MXINDIRECT16B"),
        );
        return c.out;
    }
    let scale_in_sbuf = |c: &mut Ctx, off: usize, w: u32| {
        if w & REG_BIT == 0 && !arch.in_sbuf(w & ADDR_MASK) {
            c.fail(RULE, off, "MX Scale Tensor can only be in SB");
        }
    };
    match MxSlot::read(slot) {
        MxSlot::Static {
            data,
            scale,
            k_extent,
            step_dir,
            reserved,
            ..
        } => {
            check_addr(&mut c, 0, data, None, false);
            check_addr(&mut c, 4, scale, None, false);
            scale_in_sbuf(&mut c, 4, scale);
            if k_extent == 0 {
                c.fail(RULE, 8, "k_extent == 0");
            }
            if step_dir != 0x01 && step_dir != 0xFF {
                c.fail(
                    RULE,
                    0xA,
                    format!("step_dir {step_dir:#04x} is not +1 (0x01) or -1 (0xFF)"),
                );
            }
            if reserved != [0; 4] {
                c.fail(RULE, 0xC, "reserved bytes +0xC..+0xF must be zero");
            }
        }
        MxSlot::Indirect {
            index,
            data,
            scale,
            num,
            ..
        } => {
            check_addr(&mut c, 0, index, Some(INDEX_DTYPE), false);
            check_addr(&mut c, 4, data, None, false);
            check_addr(&mut c, 8, scale, None, false);
            scale_in_sbuf(&mut c, 8, scale);
            if num == 0 {
                c.fail(RULE, 0xC, "x4-NUM == 0");
            }
        }
    }
    c.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_scan_agrees_with_covers() {
        for fmt in formats::FORMATS {
            let mut all = [0u8; 64];
            for i in 0..64 {
                let mut b = [0u8; 64];
                b[i] = 0x80;
                let want = (i >= 4 && !fmt.covers(i)).then_some(i);
                assert_eq!(first_reserved(fmt, &b), want, "{} byte {i}", fmt.mnemonic);
                all[i] = 1;
            }
            // Every byte set: the first uncovered one past the header.
            let want = (4..64).find(|&i| !fmt.covers(i));
            assert_eq!(first_reserved(fmt, &all), want, "{}", fmt.mnemonic);
        }
    }

    /// A few thousand pseudo-random bundles (xorshift), every byte value likely somewhere.
    fn random_bundles() -> Vec<Bundle> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..4000)
            .map(|k| {
                let mut b = [0u8; 64];
                for byte in b.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Sparse bundles too (zero bytes are common on the wire).
                    *byte = if k % 3 == 0 && x & 3 != 0 { 0 } else { x as u8 };
                }
                b
            })
            .collect()
    }

    #[test]
    fn reserved_scan_is_the_byte_scan() {
        for fmt in formats::FORMATS {
            for b in random_bundles() {
                let want = (4..64).find(|&i| b[i] != 0 && !fmt.covers(i));
                assert_eq!(first_reserved(fmt, &b), want, "{}", fmt.mnemonic);
            }
        }
    }

    #[test]
    fn plans_are_the_tables_compiled() {
        use crate::arch::{CAYMAN, MARIANA, SUNDA};
        for arch in [&SUNDA, &CAYMAN, &MARIANA] {
            for op in 0..=255u8 {
                let want = formats::by_opcode_on(op, arch);
                let got = format_on(op, arch);
                assert_eq!(got.map(|(f, _)| f), want, "opcode {op:#04x}");
                let Some((fmt, p)) = got else { continue };
                assert!(std::ptr::eq(fmt, want.unwrap()));
                assert_eq!(p.uncovered, uncovered_bytes(covered_mask(fmt)));
                for i in 0..64 {
                    let uncovered = p.uncovered[i / 8] >> (8 * (i % 8)) & 0xFF == 0xFF;
                    assert_eq!(!uncovered, i < 4 || fmt.covers(i), "{} {i}", fmt.mnemonic);
                }
                let dtypes: Vec<DtypeRow> = fmt
                    .fields
                    .iter()
                    .filter(|f| matches!(f.kind, Kind::Dtype | Kind::DtypePair))
                    .map(|f| {
                        let role = if f.kind != Kind::Dtype {
                            DtypeRole::Pair
                        } else if f.name == formats::dropout::THRESHOLD_DTYPE.name {
                            DtypeRole::Threshold
                        } else if f.name == "in_dtype" {
                            DtypeRole::In
                        } else {
                            DtypeRole::Other
                        };
                        DtypeRow {
                            offset: f.offset,
                            role,
                            name: f.name,
                        }
                    })
                    .collect();
                assert_eq!(
                    p.dtypes[..p.n_dtypes as usize],
                    dtypes[..],
                    "{}",
                    fmt.mnemonic
                );
                let slots: Vec<SlotRow> = fmt
                    .fields
                    .iter()
                    .filter_map(|f| {
                        let (dtype, write) = match f.role {
                            Role::Src(d) => (d, false),
                            Role::Dst(d) => (d, true),
                            Role::Plain => return None,
                        };
                        let (rank, union) = match f.kind {
                            Kind::Tensor(n) => (n, false),
                            Kind::Mem(n) => (n, true),
                            _ => return None,
                        };
                        let (dtype_at, dtype_shift, dtype_mask) = match dtype {
                            DtypeRef::None => (0, 0, 0),
                            DtypeRef::Byte(o) => (o, 0, 0xFF),
                            DtypeRef::Lo(o) => (o, 0, 0xF),
                            DtypeRef::Hi(o) => (o, 4, 0xF),
                        };
                        // The compiled read is `slot_dtype`.
                        let mut b = [0u8; 64];
                        for v in [0x00u8, 0x5A, 0xA5, 0xFF] {
                            b.fill(v);
                            let got = (dtype_mask != 0)
                                .then_some(WireDtype((v >> dtype_shift) & dtype_mask));
                            assert_eq!(got, slot_dtype(&b, dtype));
                        }
                        Some(SlotRow {
                            offset: f.offset,
                            rank,
                            counts: count_read(f.offset as usize, rank as usize),
                            union,
                            dtype_at,
                            dtype_shift,
                            dtype_mask,
                            write,
                            indirect_copy_src: std::ptr::eq(fmt, &formats::INDIRECT_COPY)
                                && f.name == formats::indirect_copy::SRC.name,
                        })
                    })
                    .collect();
                assert_eq!(p.slots[..p.n_slots as usize], slots[..], "{}", fmt.mnemonic);
            }
        }
    }

    /// The compiled dtype table answers what the dtype table's own methods answer.
    #[test]
    fn dtype_table_is_the_wire_table() {
        for core in CORES {
            for code in 0..=255u8 {
                let d = WireDtype(code);
                assert_eq!(defined_on(code, core), d.defined_on(core).is_some());
                let al = d.align(core);
                assert_eq!(align_mask_on(code, core), al.map(|a| a - 1), "{code:#04x}");
                // The mask test is the division.
                if let (Some(al), Some(m)) = (al, align_mask_on(code, core)) {
                    for a in [0u32, 1, 2, 3, 4, 6, 8, 12, 16, 60, 64, 96, 0x1FFF_FFFF] {
                        assert_eq!(a & m == 0, a.is_multiple_of(al), "{a} % {al}");
                    }
                }
            }
        }
    }

    /// The compiled reads of every plan's slot rows (the count run, the governing dtype) read
    /// what the field table and the decoder read, on random bundles and on bundles one byte
    /// away from them.
    #[test]
    fn plan_rows_read_what_the_decoder_reads() {
        use crate::tensor::TensorSlot;
        let mut bundles = random_bundles();
        let edited: Vec<Bundle> = bundles
            .iter()
            .enumerate()
            .map(|(k, b)| {
                let mut e = *b;
                e[4 + k % 60] ^= 0x80;
                e
            })
            .collect();
        bundles.extend(edited);
        for (fmt, plan) in &LAYOUTS {
            for row in &plan.slots[..plan.n_slots as usize] {
                let f = fmt
                    .fields
                    .iter()
                    .find(|f| f.offset == row.offset)
                    .expect("a slot row is a field of its table");
                let dt = match f.role {
                    Role::Src(d) | Role::Dst(d) => d,
                    Role::Plain => panic!("{}: a plain row in the slot plan", f.name),
                };
                for b in &bundles {
                    let t = TensorSlot::read(&b[f.range()], row.rank as usize);
                    let want = t.num.iter().rev().fold(0u64, |w, &x| w << 16 | x as u64);
                    assert_eq!(lanes_at(b, row.counts), want, "{} {}", fmt.mnemonic, f.name);
                    let code = (b[row.dtype_at as usize] >> row.dtype_shift) & row.dtype_mask;
                    let got = (row.dtype_mask != 0).then_some(WireDtype(code));
                    assert_eq!(got, slot_dtype(b, dt), "{} {}", fmt.mnemonic, f.name);
                }
            }
        }
    }

    #[test]
    fn slot_reads_agree_with_the_decoder() {
        use crate::indirect::MemSlot;
        let bundles = random_bundles();
        let layouts = formats::pe_dma::TARGET_LAYOUTS.iter().map(|(_, f)| *f);
        for fmt in formats::FORMATS.iter().copied().chain(layouts) {
            for f in fmt.fields {
                for b in &bundles {
                    let v = f.read(b);
                    assert_eq!(slot_count_at(b, f), slot_count(&v), "{}", f.name);
                    let want = match v {
                        Value::Tensor(t) | Value::Mem(MemSlot::Static(t)) => Slot::Static {
                            n: t.n,
                            addr: t.addr,
                            num: t.num,
                        },
                        Value::Mem(MemSlot::Indirect(i)) => Slot::Indirect {
                            n: i.n,
                            index: i.index,
                            data: i.data,
                            num: i.num,
                        },
                        _ => Slot::Other,
                    };
                    assert_eq!(slot_at(b, f), want, "{} {}", fmt.mnemonic, f.name);
                    assert_eq!(
                        is_indirect_at(b, f),
                        matches!(v, Value::Mem(MemSlot::Indirect(_)))
                    );
                }
            }
        }
    }

    #[test]
    fn stride_split_is_division() {
        for stride in [0u32, 1, 3, 1 << 15, 1 << 18, 3000, 1 << 31] {
            for a in [
                0u32,
                1,
                2999,
                3000,
                0x3_FFFF,
                0x4_0000,
                0x1FF_FFFF,
                u32::MAX,
            ] {
                let want = a.checked_rem(stride).zip(a.checked_div(stride));
                assert_eq!(split_by_stride(a, stride), want, "{a} / {stride}");
                // The fast forms, with the zero-stride defaults their callers use.
                assert_eq!(in_partition(a, stride), want.map_or(a, |(r, _)| r));
                assert_eq!(partition_of(a, stride), want.map_or(0, |(_, p)| p));
            }
        }
    }

    #[test]
    fn rule_names_are_unique() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(
                RULES[i + 1..].iter().all(|s| s.name != r.name),
                "{}",
                r.name
            );
        }
    }
}
