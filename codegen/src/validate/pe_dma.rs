//! Validator rules of the PE, MX, DMA and event formats (LDWEIGHTS 0x01, MATMUL 0x02, the MX
//! formats 0x09 / 0x0A / 0xE3, DMA_DIRECT2D
//! 0xB8, DMA_INDIRECT1D 0xBB beyond the seed's index rule, EVENT_SEMAPHORE 0xA0). Offsets come
//! from the field constants of `formats::pe_dma` / `formats::dma_indirect`; the layout of a PE
//! bundle is the target's (`formats::by_opcode_on`).

use super::{Ctx, Rules};
use crate::addr4::{ADDR_MASK, REG_BIT, get_u32};
use crate::arch::CoreGen;
use crate::bundle::Bundle;
use crate::enums::BirUpdateMode;
use crate::enums::BirWaitMode;
use crate::fields::Field;
use crate::formats::pe_dma::{
    ADDR8_MARKERS, ADDR8_SHAPE_REG, DMA_INDIRECT_MAX_NUM, FP32_IN_DTYPES, PE_GROUP_MASKS,
    PSUM_ACCUMULATE_FLAGS, QUANTIZE_MX_CHANNELS, QUANTIZE_MX_IN_DTYPES, QUANTIZE_MX_OUT_DTYPES,
    psum_zero_region_max, xbus_sel_of,
};
use crate::formats::pe_dma::{
    BC_DISABLE_OOB_ERROR_NOTIF, BC_ENABLED, DMA_FLAGS_DIRECTION, DMA_FLAGS_GATHER_DIM_SHIFT,
    DMA_FLAGS_IDX_BOUND_IS_ERR, DMA_FLAGS_SCATTER_DIM_SHIFT,
};
use crate::formats::{
    Format, dma_direct2d as d2, dma_indirect as di, event_semaphore as es, events, ldweights as lw,
    matmul as mm, mx_pe, quantize_mx as qm,
};
use crate::model::DmaIndirectDirection;

#[inline(always)]
fn at(b: &Bundle, f: Field) -> u8 {
    b[f.offset as usize]
}

#[inline(always)]
fn u16_at(b: &Bundle, f: Field) -> u16 {
    let o = f.offset as usize;
    u16::from_le_bytes([b[o], b[o + 1]])
}

/// The rules of an opcode of this group (`None` for any other opcode; the rules of a PE
/// bundle read the target's layout, which they are handed).
pub(super) const fn rules_of(op: u8) -> Option<Rules> {
    use crate::formats::{
        DMA_DIRECT2D, DMA_INDIRECT, EVENT_SEMAPHORE, LDWEIGHTS, LDWEIGHTS_MX, MATMUL, MATMUL_MX,
        QUANTIZE_MX,
    };
    // The per-target PE layouts share their opcodes with these (`pe_dma::TARGET_LAYOUTS`).
    if op == LDWEIGHTS.opcode || op == MATMUL.opcode {
        Some(pe_rules)
    } else if op == DMA_DIRECT2D.opcode {
        Some(|c, _, b| direct2d_rules(c, b))
    } else if op == DMA_INDIRECT.opcode {
        Some(|c, _, b| indirect_rules(c, b))
    } else if op == EVENT_SEMAPHORE.opcode {
        Some(|c, _, b| event_rules(c, b))
    } else if op == LDWEIGHTS_MX.opcode || op == MATMUL_MX.opcode {
        Some(mx_pe_rules)
    } else if op == QUANTIZE_MX.opcode {
        Some(|c, _, b| quantize_rules(c, b))
    } else {
        None
    }
}

fn pe_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    let mm_bundle = fmt.opcode == crate::formats::MATMUL.opcode;
    // References to the rows (a copy of a row is 64 bytes).
    let (rows, cols, row, col, src) = if mm_bundle {
        (
            &mm::NUM_ACTIVE_ROWS,
            &mm::NUM_ACTIVE_COLS,
            &mm::ROW_GRP,
            &mm::COL_GRP,
            &mm::SRC,
        )
    } else {
        (
            &lw::NUM_ACTIVE_ROWS,
            &lw::NUM_ACTIVE_COLS,
            &lw::ROW_GRP,
            &lw::COL_GRP,
            &lw::SRC,
        )
    };
    for f in [rows, cols] {
        let v = at(b, *f) as u32;
        if v == 0 || v > c.arch.partitions {
            c.fail(
                "pe_active_rows_cols",
                f.offset as usize,
                format!("{} {v} not in 1..={}", f.name, c.arch.partitions),
            );
        }
    }
    for f in [row, col] {
        if !PE_GROUP_MASKS.contains(&at(b, *f)) {
            c.fail(
                "pe_group_mask",
                f.offset as usize,
                format!("{} {:#04x} is not a quadrant group mask", f.name, at(b, *f)),
            );
        }
    }
    let w = get_u32(b, src.offset as usize);
    if w & REG_BIT == 0 && c.arch.in_psum(w & ADDR_MASK) {
        c.fail(
            "matmul_operand_space",
            src.offset as usize,
            "PE source operands are SBUF only",
        );
    }
    if !mm_bundle {
        return;
    }
    let d = get_u32(b, mm::DST.offset as usize);
    if d & REG_BIT == 0 && !c.arch.in_psum(d & ADDR_MASK) {
        c.fail(
            "matmul_operand_space",
            mm::DST.offset as usize,
            "the MATMUL result is PSUM only",
        );
    }
    let flags = at(b, mm::PSUM_ACCUMULATE_FLAGS);
    if !PSUM_ACCUMULATE_FLAGS.contains(&flags) {
        c.fail(
            "psum_accumulate_flags_valid",
            mm::PSUM_ACCUMULATE_FLAGS.offset as usize,
            format!("psum_accumulate_flags {flags} not in {{0, 1, 2, 3, 4, 6}}"),
        );
    }
    let v4 = c.arch.core == CoreGen::V4;
    let zr = at(b, mm::PSUM_ZERO_REGION);
    if zr > psum_zero_region_max(c.arch.core) {
        c.fail(
            "psum_zero_region_valid",
            mm::PSUM_ZERO_REGION.offset as usize,
            format!("psum_zero_region {zr} not valid on {}", c.arch.target),
        );
    }
    let (mode, dt) = (at(b, mm::FP32_MODE), at(b, mm::IN_DTYPE));
    let fp32 = FP32_IN_DTYPES.contains(&dt);
    if mode > 3 || fp32 == (mode == 0) {
        c.fail(
            "matmul_fp32_mode",
            mm::FP32_MODE.offset as usize,
            format!("fp32_mode {mode} with in_dtype {dt:#04x} (fp32 inputs need 1..=3, others 0)"),
        );
    }
    if !v4 {
        let want = xbus_sel_of(at(b, mm::COL_GRP));
        let x = at(b, mm::XBUS_SEL);
        if want != Some(x) {
            c.fail(
                "matmul_xbus_sel",
                mm::XBUS_SEL.offset as usize,
                format!(
                    "xbus_sel {x:#04x} does not match col_grp {:#04x}",
                    at(b, mm::COL_GRP)
                ),
            );
        }
    }
}

/// `addr8_valid` on the ADDR8 at `f`: a known marker; an immediate fits 48 bits (ASSUMPTION).
#[inline(always)]
pub(super) fn addr8(c: &mut Ctx, b: &Bundle, f: Field) {
    let o = f.offset as usize;
    let marker = b[o + 7] & 0xFC;
    if !ADDR8_MARKERS.contains(&(marker & 0xF0)) {
        c.fail(
            "addr8_valid",
            o + 7,
            format!("ADDR8 marker {marker:#04x} is not a DMA marker"),
        );
    } else if marker == 0 && (b[o + 6] != 0 || b[o + 7] & 0x03 != 0) {
        c.fail(
            "addr8_valid",
            o + 6,
            "ADDR8 immediate past the 48-bit address field (assumption)",
        );
    }
}

#[inline(always)]
fn shape_reg(b: &Bundle, f: Field) -> bool {
    b[f.offset as usize + 7] & ADDR8_SHAPE_REG != 0
}

#[inline(always)]
pub(super) fn configs(c: &mut Ctx, b: &Bundle, f: Field) {
    let v = at(b, f);
    if v & 0x07 > 4 || v & 0xF8 != 0 {
        c.fail(
            "dma_configs_priority",
            f.offset as usize,
            format!("dma_configs {v:#04x}: priority_class 0..=4, reserved bits zero"),
        );
    }
}

#[inline(always)]
fn compute_op(c: &mut Ctx, b: &Bundle, f: Field) {
    if at(b, f) > 4 {
        c.fail(
            "dge_compute_op",
            f.offset as usize,
            format!("compute_op {} is not a DGE_COMPUTE_OP", at(b, f)),
        );
    }
}

/// BOUND_CHECK_REG: fully inert or enabled (bit 7).
#[inline(always)]
pub(super) fn bound(c: &mut Ctx, b: &Bundle, f: Field) {
    let v = at(b, f);
    if v != 0 && v & BC_ENABLED == 0 {
        c.fail(
            "valid_bound_check_reg",
            f.offset as usize,
            format!("{} {v:#04x} is neither inert nor enabled", f.name),
        );
    }
}

fn direct2d_rules(c: &mut Ctx, b: &Bundle) {
    configs(c, b, d2::DMA_CONFIGS);
    compute_op(c, b, d2::COMPUTE_OP);
    bound(c, b, d2::SRC_BOUND_REG);
    bound(c, b, d2::DST_BOUND_REG);
    let sides = [
        (
            d2::SRC_START_ADDR,
            d2::SRC_NUM_ELEM0,
            d2::SRC_NUM_ELEM1,
            d2::SRC_STEP_ELEM1,
            d2::SRC_ELEM_SIZE,
        ),
        (
            d2::DST_START_ADDR,
            d2::DST_NUM_ELEM0,
            d2::DST_NUM_ELEM1,
            d2::DST_STEP_ELEM1,
            d2::DST_ELEM_SIZE,
        ),
    ];
    let mut bytes = [None; 2];
    for (i, (addr, n0, n1, s1, size)) in sides.into_iter().enumerate() {
        addr8(c, b, addr);
        let (a, bb) = (u16_at(b, n0), u16_at(b, n1));
        if shape_reg(b, addr) {
            if a != 0 || bb != 0 || get_u32(b, s1.offset as usize) != 0 {
                c.fail(
                    "dma_shape_reg",
                    n0.offset as usize,
                    "shape-from-register needs num_elem == 0 and step_elem[1] == 0",
                );
            }
        } else {
            bytes[i] = Some(a as u64 * bb as u64 * u16_at(b, size) as u64);
        }
    }
    if at(b, d2::COMPUTE_OP) == 0
        && let [Some(s), Some(d)] = bytes
        && s != d
    {
        c.fail(
            "dma_memcpy_size",
            d2::SRC_NUM_ELEM0.offset as usize,
            format!("memcpy moves {s} source bytes but {d} destination bytes"),
        );
    }
}

pub(super) fn indirect_rules(c: &mut Ctx, b: &Bundle) {
    configs(c, b, di::DMA_CONFIGS);
    compute_op(c, b, di::COMPUTE_OP);
    let flags = at(b, di::FLAGS);
    for f in [&di::SRC_IDX_BOUND_REG, &di::DST_IDX_BOUND_REG] {
        bound(c, b, *f);
        if at(b, *f) & BC_DISABLE_OOB_ERROR_NOTIF != 0 && flags & DMA_FLAGS_IDX_BOUND_IS_ERR == 0 {
            c.fail(
                "s_valid_idx_bound_check_reg",
                f.offset as usize,
                "bc_disable_oob_error_notif needs flags.idx_bound_is_err",
            );
        }
    }
    for (addr, num) in [
        (&di::SRC_START_ADDR, &di::SRC_NUM_ELEM),
        (&di::DST_START_ADDR, &di::DST_NUM_ELEM),
    ] {
        addr8(c, b, *addr);
        let n = u16_at(b, *num);
        let ok = if shape_reg(b, *addr) {
            n == 0
        } else {
            n <= DMA_INDIRECT_MAX_NUM
        };
        if !ok {
            c.fail(
                "dma_indirect_num_elem",
                num.offset as usize,
                format!("num_elem {n}: <= {DMA_INDIRECT_MAX_NUM}, or 0 with a shape register"),
            );
        }
    }
    // flags: gather_dim bits 4-5, scatter_dim bits 6-7. An immediate (not shape-register) side
    // indexes along X only; a load never scatters, a save never gathers.
    let (gather, scatter) = (
        (flags >> DMA_FLAGS_GATHER_DIM_SHIFT) & 3,
        flags >> DMA_FLAGS_SCATTER_DIM_SHIFT,
    );
    let dir = flags & DMA_FLAGS_DIRECTION;
    let (load, save) = (
        DmaIndirectDirection::Load as u8,
        DmaIndirectDirection::Save as u8,
    );
    let bad_gather = gather != 0 && (!shape_reg(b, di::SRC_START_ADDR) || dir == save);
    let bad_scatter = scatter != 0 && (!shape_reg(b, di::DST_START_ADDR) || dir == load);
    if bad_gather || bad_scatter {
        c.fail(
            "dma_indirect_dims",
            di::FLAGS.offset as usize,
            format!(
                "flags {flags:#04x}: gather_dim {gather} / scatter_dim {scatter} must be X (0)"
            ),
        );
    }
}

fn event_rules(c: &mut Ctx, b: &Bundle) {
    for f in [&events::WAIT_MODE, &es::EXT_WAIT_MODE] {
        let m = at(b, *f);
        if m != 0 && BirWaitMode::from_wire(m).is_none() {
            c.fail(
                "event_semaphore_modes",
                f.offset as usize,
                format!("wait mode {m:#04x}: only sem_ge_imm / sem_ge_reg are supported (CC)"),
            );
        }
    }
    let u = at(b, es::EXT_UPDATE_MODE);
    if u != 0 && BirUpdateMode::from_wire(u).is_none() {
        c.fail(
            "event_semaphore_modes",
            es::EXT_UPDATE_MODE.offset as usize,
            format!("update mode {u:#04x} is not in the update LUT"),
        );
    }
}

/// `mxmem1d_valid` on the MX slot at `f`, its diagnostics moved to the bundle's offsets.
fn mx_slot(c: &mut Ctx, b: &Bundle, f: Field) {
    let o = f.offset as usize;
    let mut slot = [0u8; 16];
    slot.copy_from_slice(&b[o..o + 16]);
    for mut d in super::mxmem1d_valid(&slot, c.arch) {
        d.bundle = c.bundle;
        d.offset += o;
        c.out.push(d);
    }
}

fn mx_pe_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    mx_slot(c, b, mx_pe::SRC);
    for f in [&mx_pe::NUM_ACTIVE_ROWS, &mx_pe::NUM_ACTIVE_COLS] {
        let v = at(b, *f) as u32;
        if v == 0 || v > c.arch.partitions {
            c.fail(
                "pe_active_rows_cols",
                f.offset as usize,
                format!("{} {v} not in 1..={}", f.name, c.arch.partitions),
            );
        }
    }
    for f in [&mx_pe::ROW_GRP, &mx_pe::COL_GRP] {
        if !PE_GROUP_MASKS.contains(&at(b, *f)) {
            c.fail(
                "pe_group_mask",
                f.offset as usize,
                format!("{} {:#04x} is not a quadrant group mask", f.name, at(b, *f)),
            );
        }
    }
    if fmt.opcode != crate::formats::MATMUL_MX.opcode {
        return;
    }
    let flags = at(b, mx_pe::PSUM_ACCUMULATE_FLAGS);
    if !PSUM_ACCUMULATE_FLAGS.contains(&flags) {
        c.fail(
            "psum_accumulate_flags_valid",
            mx_pe::PSUM_ACCUMULATE_FLAGS.offset as usize,
            format!("psum_accumulate_flags {flags} not in {{0, 1, 2, 3, 4, 6}}"),
        );
    }
    let zr = at(b, mx_pe::PSUM_ZERO_REGION);
    if zr > psum_zero_region_max(c.arch.core) {
        c.fail(
            "psum_zero_region_valid",
            mx_pe::PSUM_ZERO_REGION.offset as usize,
            format!("psum_zero_region {zr} not valid on {}", c.arch.target),
        );
    }
    let d = get_u32(b, mx_pe::DST.offset as usize);
    if d & REG_BIT == 0 && !c.arch.in_psum(d & ADDR_MASK) {
        c.fail(
            "matmul_operand_space",
            mx_pe::DST.offset as usize,
            "the MATMUL_MX result is PSUM only",
        );
    }
}

fn quantize_rules(c: &mut Ctx, b: &Bundle) {
    mx_slot(c, b, qm::DST);
    let a = at(b, qm::ACTIVE);
    if !QUANTIZE_MX_CHANNELS.contains(&a) || a as u32 > c.arch.partitions {
        c.fail(
            "quantize_mx_active_channels",
            qm::ACTIVE.offset as usize,
            format!("num_active_channels {a} not in {{32, 64, 96, 128}}"),
        );
    }
    let (i, o) = (at(b, qm::IN_DTYPE), at(b, qm::OUT_DTYPE));
    if !QUANTIZE_MX_IN_DTYPES.contains(&i) || !QUANTIZE_MX_OUT_DTYPES.contains(&o) {
        c.fail(
            "quantize_mx_dtypes",
            qm::IN_DTYPE.offset as usize,
            format!("in {i:#04x} must be bf16/fp16, out {o:#04x} fp8 e4/e5"),
        );
    }
    // The source's data word: the slot's first word, or the indirect record's DATA word.
    let off = qm::SRC.offset as usize;
    let w0 = get_u32(b, off);
    let data = if (w0 >> 24) & 0x60 == 0x20 {
        get_u32(b, off + 4)
    } else {
        w0
    };
    if data & REG_BIT == 0 && c.arch.in_psum(data & ADDR_MASK) {
        c.fail(
            "quantize_mx_src_sbuf",
            off,
            "the QuantizeMx source is SBUF only",
        );
    }
}
