//! Bundle validators as a list of named rules (the `dbg_is_valid_*` / `*_valid` predicates of
//! the ISA checker). A failure names the rule, the bundle index and the byte offset of the field
//! it concerns. [`RULES`] lists every rule with its source; names are the spec's where the spec
//! names the predicate, otherwise a local name marked as such.
//!
//! What is checked: the header; the reserved bytes; dtype codes; every access-pattern slot
//! (`tensor_start_addr_valid`, `tensorNd_valid`, the indirect arm and its quadrant invariant);
//! the per-op predicates below; the MX descriptor selector `mxmem1d_valid` (on a 16-byte slot,
//! and on the MX slots of 0x09 / 0x0A / 0xE3); and DMA_INDIRECT1D's index rules.
//!
//! What is not checked (the spec gives only a name, no semantics): `s4d4_tr_same_src_dst_count`
//! (beyond `d4_tr_same_src_dst_count`), `d4_gt_same_src_dst`, `s_gather_index_dtype`,
//! `gload_*` (they belong to REG_LOAD 0x4A), `threshold_imm_ptr`'s bank range,
//! the lane values of a shuffle map, and the pair-level checks that
//! look at both halves of a micro-pair (each bundle is validated on its own).

use crate::addr4::{ADDR_MASK, REG_BIT, get_u32};
use crate::arch::{ArchModel, CoreGen, Family};
use crate::bundle::{Bundle, INST_WORD_LEN};
use crate::dtype::{WIRE_FP32R, WireDtype};
use crate::enums::{ALU_MAX, RS_COMP_OPS};
use crate::fields::{DtypeRef, Field, Kind, Role, Value};
use crate::formats::{self, Format};
use crate::indirect::{MemSlot, MxSlot};
use crate::tensor::TensorSlot;

// PE, DMA and event rules.
mod pe_dma;

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
    "range_select_fill_val", Seed, "fill_val == -FLT_MAX (the spec's assert)";
    "range_select_reduce_cmd", Header, "reduce_cmd in {IDLE, ACCUMULATE, ZERO_ACCUMULATE}";
    "range_select_bound_src", Header, "bound sources are IMM_SRC codes";
    "range_select_dtype", Header, "in (lo) is float and not FP32R; out (hi) is float";
    "d1_rd_dst_element_count", Header, "dve_read_accumulator dst_element_count == 1";
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
}

/// Collects failures for one bundle.
struct Ctx<'a> {
    arch: &'a ArchModel,
    bundle: usize,
    out: Vec<Diagnostic>,
}

impl Ctx<'_> {
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
fn check_addr(c: &mut Ctx, off: usize, w: u32, dtype: Option<WireDtype>, write: bool) {
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
        match d.align(arch.core) {
            None => c.fail(
                "addr_aligned_dtype",
                off,
                format!("dtype {:#04x} has no alignment defined", d.0),
            ),
            Some(al) if !a.is_multiple_of(al) => c.fail(
                "addr_aligned_dtype",
                off,
                format!("address {a:#x} not {al}-byte aligned"),
            ),
            _ => {}
        }
    }
    if arch.in_psum(a) {
        // A custom model with a zero stride has no partitions: the whole offset is checked.
        let rel = a - arch.psum_base;
        let in_part = rel.checked_rem(arch.psum_partition_stride).unwrap_or(rel);
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
        let in_part = a.checked_rem(arch.sbuf_partition_stride).unwrap_or(a);
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

fn check_static(c: &mut Ctx, off: usize, t: &TensorSlot, dtype: Option<WireDtype>, write: bool) {
    check_addr(c, off, t.addr, dtype, write);
    let n = t.n as usize;
    if let Some(i) = t.num[..n].iter().position(|&x| x == 0) {
        c.fail(
            TENSOR_RULE[n],
            off + 4 + 2 * n + 2 * i,
            format!("num_elem[{i}] == 0"),
        );
    }
}

/// Element count of a decoded slot (static product, or the indirect NUM).
fn slot_count(v: &Value) -> Option<u64> {
    match v {
        Value::Tensor(t) | Value::Mem(MemSlot::Static(t)) => Some(t.elements()),
        Value::Mem(MemSlot::Indirect(i)) => Some(i.num as u64),
        _ => None,
    }
}

fn check_slot(c: &mut Ctx, fmt: &Format, b: &Bundle, f: &Field) {
    let (dt, write) = match f.role {
        Role::Src(d) => (d, false),
        Role::Dst(d) => (d, true),
        Role::Plain => return,
    };
    let dtype = slot_dtype(b, dt);
    let off = f.offset as usize;
    match f.read(b) {
        Value::Tensor(t) => {
            if (t.addr >> 24) & 0x60 == 0x20 {
                c.fail(
                    "static_tensor_pattern",
                    off,
                    "static tensor pattern but has indirect field",
                );
            }
            check_static(c, off, &t, dtype, write);
        }
        Value::Mem(MemSlot::Static(t)) => check_static(c, off, &t, dtype, write),
        Value::Mem(MemSlot::Indirect(i)) => {
            let is_ic = fmt.opcode == 0xE7 && f.name == "src_mem_pattern";
            if !is_ic && !c.arch.has(Family::TensorIndirect) {
                c.fail(
                    "static_tensor_pattern",
                    off,
                    format!("{} has no INDIRECT16B/20B records", c.arch.target),
                );
            }
            // mem4d_valid: the index word is validated as dtype 9 (u32).
            check_addr(c, off, i.index, Some(WireDtype(0x09)), false);
            check_addr(c, off + 4, i.data, dtype, write);
            let rule = if i.n == 3 {
                "indirect_quadrant_check_src3d"
            } else {
                "indirect_quadrant_check_src4d"
            };
            let marked = i.index | crate::addr4::INDIRECT_BIT;
            if !indirect_quadrant_ok(c.arch, marked, i.data) {
                c.fail(
                    rule,
                    off,
                    format!(
                        "INDEX {:#x} and DATA {:#x} are not in the same SBUF quadrant",
                        i.index & ADDR_MASK,
                        i.data & ADDR_MASK
                    ),
                );
            }
        }
        _ => {}
    }
}

fn check_dtypes(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    let core = c.arch.core;
    for f in fmt.fields {
        let off = f.offset as usize;
        match (f.kind, f.name) {
            (Kind::Dtype, "threshold_dtype") if WireDtype(b[off]).defined_on(core).is_none() => {
                c.fail(
                    "d3_dropout_threshold_dtype_check",
                    off,
                    format!("threshold dtype {:#04x} is not defined", b[off]),
                );
            }
            (Kind::Dtype, "threshold_dtype") => {}
            (Kind::Dtype, name) => {
                let d = WireDtype(b[off]);
                if d.defined_on(core).is_none() {
                    c.fail(
                        "valid_dtype",
                        off,
                        format!(
                            "{name} {:#04x} is not a defined dtype on {}",
                            d.0, c.arch.target
                        ),
                    );
                } else if name == "in_dtype" && d.0 == WIRE_FP32R {
                    c.fail("valid_dtype", off, "FP32R is an output-only dtype");
                }
            }
            (Kind::DtypePair, _) => {
                let (lo, hi) = (WireDtype(b[off] & 0xF), WireDtype(b[off] >> 4));
                if lo.defined_on(core).is_none() || hi.defined_on(core).is_none() {
                    c.fail(
                        "valid_dtype",
                        off,
                        format!("dtype pair {:#04x} holds an undefined code", b[off]),
                    );
                }
            }
            _ => {}
        }
    }
}

fn active_range(c: &mut Ctx, b: &Bundle, off: usize) {
    let a = b[off] as u32;
    if a == 0 || a > c.arch.partitions {
        c.fail(
            "has_valid_active_channel_range",
            off,
            format!("active channels {a} not in 1..={}", c.arch.partitions),
        );
    }
}

/// `start_addr_active_channels` on the source slot's static arm: start partition + active <=
/// partitions (an indirect arm is covered by the quadrant rule instead).
fn start_active(c: &mut Ctx, b: &Bundle, src: &Field, active_off: usize) {
    let w = get_u32(b, src.offset as usize);
    if w & REG_BIT != 0 || matches!(src.read(b), Value::Mem(MemSlot::Indirect(_))) {
        return;
    }
    let a = w & ADDR_MASK;
    // A custom model with a zero stride has one partition.
    let part = if c.arch.in_psum(a) {
        (a - c.arch.psum_base)
            .checked_div(c.arch.psum_partition_stride)
            .unwrap_or(0)
    } else {
        a.checked_div(c.arch.sbuf_partition_stride).unwrap_or(0)
    };
    let act = b[active_off] as u32;
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

fn op_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    use formats::*;
    match fmt.opcode {
        0x6A | 0x6B => {
            active_range(c, b, 0x22);
            start_active(c, b, &tr::SRC, 0x22);
            let (s, d) = (tr::SRC.read(b), tr::DST.read(b));
            let (sc, dc) = (slot_count(&s), slot_count(&d));
            if sc == Some(0) || dc == Some(0) {
                c.fail(
                    "d4_tr_transpose_src_dst_count",
                    0x0C,
                    "element count is zero",
                );
            } else if sc != dc {
                c.fail(
                    "d4_tr_same_src_dst_count",
                    0x0C,
                    format!("src {sc:?} vs dst {dc:?} elements"),
                );
            }
            if b[0x24] != 0 {
                c.fail(
                    "d4_tr_op_bypass",
                    0x24,
                    format!("op {:#04x} is not BYPASS", b[0x24]),
                );
            }
            let want = (fmt.opcode == 0x6B) as u8;
            if b[0x26] != want {
                c.fail(
                    "d3_transpose_ch",
                    0x26,
                    format!("d3_transpose_ch {} (expected {want})", b[0x26]),
                );
            }
            if fmt.opcode == 0x6B {
                match s {
                    Value::Mem(MemSlot::Indirect(_)) => c.fail(
                        "stream_transpose_src_not_indirect",
                        0x0C,
                        "STREAM_TRANSPOSE cannot have TensorIndirect AP as src",
                    ),
                    Value::Mem(MemSlot::Static(t)) if t.num[3] != 1 => c.fail(
                        "instr.src_mem_pattern.num_elem[3] == 1",
                        0x1E,
                        format!("num_elem[3] == {}", t.num[3]),
                    ),
                    _ => {}
                }
            }
        }
        0x68 => {
            active_range(c, b, 0x22);
            start_active(c, b, &reg_load::SRC, 0x22);
            if matches!(reg_load::SRC.read(b), Value::Mem(MemSlot::Indirect(_))) {
                c.fail(
                    "reg_load_src_not_indirect",
                    0x0C,
                    "TODO: support POOL_BUFFER_LOAD with TensorIndirect AP once ISA supports it",
                );
            }
            let o = u16::from_le_bytes([b[0x24], b[0x25]]);
            if o > 1 {
                c.fail(
                    "gather_valid_options",
                    0x24,
                    format!("gather_options {o} not in {{0, 1}}"),
                );
            }
        }
        0x67 => {
            active_range(c, b, 0x22);
            start_active(c, b, &pool_buffer_load::SRC, 0x22);
        }
        0x7F => {
            active_range(c, b, 0x22);
            start_active(c, b, &dropout::SRC, 0x22);
            if b[0x20] != b[0x21] {
                c.fail(
                    "d3_dropout_same_src_dst_type",
                    0x21,
                    format!("in {:#04x} != out {:#04x}", b[0x20], b[0x21]),
                );
            }
            let (sc, dc) = (
                slot_count(&dropout::SRC.read(b)),
                slot_count(&dropout::DST.read(b)),
            );
            if sc != dc {
                c.fail(
                    "d3_dropout_src_dst_count_check",
                    0x10,
                    format!("src {sc:?} vs dst {dc:?} elements"),
                );
            }
        }
        0xE7 => {
            let a = b[0x22];
            if a == 0 || !a.is_multiple_of(16) || a as u32 > c.arch.partitions {
                c.fail(
                    "s_valid_s4d4_ic_active_channels",
                    0x22,
                    format!("active channels {a} must be a nonzero multiple of 16"),
                );
            }
            if b[0x20] != b[0x21] {
                c.fail(
                    "s_same_in_out_dtype_indirect_copy",
                    0x21,
                    format!("in {:#04x} != out {:#04x}", b[0x20], b[0x21]),
                );
            }
            if !matches!(indirect_copy::SRC.read(b), Value::Mem(MemSlot::Indirect(_))) {
                c.fail("s4d4_ic_src_indirect", 0x0C, "INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not …");
            }
            if ![1u8, 2, 4, 8, 16, 32].contains(&b[0x23]) {
                c.fail(
                    "s4d4_ic_num_elem_per_idx",
                    0x23,
                    format!("src_num_elem_per_idx {} not in {{1,2,4,8,16,32}}", b[0x23]),
                );
            }
            if b[0x24] != 0 {
                c.fail(
                    "s4d4_ic_num_elem_per_idx",
                    0x24,
                    "dst_num_elem_per_idx must be 0",
                );
            }
            if b[0x28] | b[0x29] != 0 {
                c.fail(
                    "s4d4_ic_num_elem_per_idx",
                    0x28,
                    "dst_buffer_size must be 0",
                );
            }
        }
        0xBC => {
            active_range(c, b, 0x0C);
            start_active(c, b, &range_select::SRC, 0x0C);
            for o in [0x24, 0x25] {
                if !RS_COMP_OPS.contains(&b[o]) {
                    c.fail(
                        "valid_rs_comp_op",
                        o,
                        format!("comp op {:#04x} is not IS_EQ/GT/GE/LE/LT", b[o]),
                    );
                }
            }
            if b[0x0F] != ALU_MAX {
                c.fail(
                    "s_valid_range_select_reduce_op",
                    0x0F,
                    format!("reduce_op {:#04x} is not MAX", b[0x0F]),
                );
            }
            if get_u32(b, 0x14) != 0xFF7F_FFFF {
                c.fail(
                    "range_select_fill_val",
                    0x14,
                    "fill_val in RangeSelect must be float MAX_NEG",
                );
            }
            if !matches!(b[0x0E], 0 | 2 | 3) {
                c.fail(
                    "range_select_reduce_cmd",
                    0x0E,
                    format!("reduce_cmd {} not IDLE/ACCUMULATE/ZERO_ACCUMULATE", b[0x0E]),
                );
            }
            for o in [0x26, 0x27] {
                if b[o] > 2 {
                    c.fail(
                        "range_select_bound_src",
                        o,
                        format!("bound source {} is not an IMM_SRC", b[o]),
                    );
                }
            }
            let (lo, hi) = (WireDtype(b[0x0D] & 0xF), WireDtype(b[0x0D] >> 4));
            if !lo.is_float() || lo.0 == WIRE_FP32R || !hi.is_float() {
                c.fail(
                    "range_select_dtype",
                    0x0D,
                    format!(
                        "dtype pair {:#04x}: in must be float (not FP32R), out float",
                        b[0x0D]
                    ),
                );
            }
            let (sc, dc) = (
                slot_count(&range_select::SRC.read(b)),
                slot_count(&range_select::DST.read(b)),
            );
            if sc != dc {
                c.fail(
                    "s_same_elem_count_rs_src_dst",
                    0x18,
                    format!("src {sc:?} vs dst {dc:?} elements"),
                );
            }
        }
        0x9B => {
            active_range(c, b, 0x22);
            if get_u32(b, 0x1C) != 1 {
                c.fail(
                    "d1_rd_dst_element_count",
                    0x1C,
                    format!("dst_element_count {} != 1", get_u32(b, 0x1C)),
                );
            }
        }
        0xBB => {
            dma_indirect_rules(c, b);
            crate::validate::pe_dma::rules(c, fmt, b);
        }
        // PE, DMA and event formats.
        0x01 | 0x02 | 0xB8 | 0xA0 | 0x09 | 0x0A | 0xE3 => crate::validate::pe_dma::rules(c, fmt, b),
        _ => {}
    }
}

/// `has_dma_indirect_valid_idx_start_addr` (seed, one paragraph) and `check_dma_indirect_indices`
/// (header). Reading of the seed (ASSUMPTION where it is terse): the index ADDR4 is
/// `src_idx_start_addr` (+48), validated by `tensor_start_addr_valid` as u32 and by
/// `start_addr_active_channels`; the secondary slot `dst_idx_start_addr` (+52) is rejected when
/// `(byte3 & 0xA0) == 0x80` (register mode without the indirect marker); `flags & 3` must be 1 or
/// 2 (the seed's load/save direction; the header enum's 0 is not accepted).
fn dma_indirect_rules(c: &mut Ctx, b: &Bundle) {
    const RULE: &str = "has_dma_indirect_valid_idx_start_addr";
    if !matches!(b[15] & 3, 1 | 2) {
        c.fail(
            RULE,
            15,
            format!("flags & 3 == {} (expected 1 or 2)", b[15] & 3),
        );
    }
    let idx = get_u32(b, 48);
    let before = c.out.len();
    check_addr(c, 48, idx, Some(WireDtype(0x09)), false);
    for d in &mut c.out[before..] {
        d.message = format!("index ADDR4: {}", d.message);
        d.rule = RULE;
    }
    if idx & REG_BIT == 0 {
        let part = (idx & ADDR_MASK)
            .checked_div(c.arch.sbuf_partition_stride)
            .unwrap_or(0);
        if c.arch.in_sbuf(idx & ADDR_MASK) && part + b[14] as u32 > c.arch.partitions {
            c.fail(
                RULE,
                48,
                format!(
                    "index start partition {part} + {} channels exceeds {}",
                    b[14], c.arch.partitions
                ),
            );
        }
    }
    if b[55] & 0xA0 == 0x80 {
        c.fail(RULE, 52, "secondary ADDR4 is register-mode");
    }
    if b[14] != 128 {
        c.fail(
            "check_dma_indirect_indices",
            14,
            format!("idx_num_active_channels {} != 128", b[14]),
        );
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
    let Some(fmt) = formats::by_opcode_on(b[0], arch) else {
        c.fail("known_opcode", 0, format!("unknown opcode {:#04x}", b[0]));
        return c.out;
    };
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
    if let Some(i) = (4..64).find(|&i| b[i] != 0 && !fmt.covers(i)) {
        c.fail(
            fmt.reserved_rule,
            i,
            format!("reserved byte {i:#x} is {:#04x}", b[i]),
        );
    }
    check_dtypes(&mut c, fmt, b);
    for f in fmt.fields {
        check_slot(&mut c, fmt, b, f);
    }
    op_rules(&mut c, fmt, b);
    c.out
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
            check_addr(&mut c, 0, index, Some(WireDtype(0x09)), false);
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
