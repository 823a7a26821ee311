//! Validator rules of SB2SB_COLLECTIVE 0xBF, DMA_GATHER_XPOSE 0xF1, TENSOR_DEQUANTIZE 0x7B and
//! BATCH_NORM_BACK_PROP 0x65. DMA_GATHER_XPOSE reuses the PE/DMA group's ADDR8, DMA_CONFIGS and
//! BOUND_CHECK_REG rules (`validate::pe_dma`) and DMA_INDIRECT1D's index-channel rule name.
//! Offsets come from the field constants of `formats::more` (and `formats::compute3d::tt` for
//! 0x65); the rule names are listed in [`super::RULES`].
//!
//! Not checked (the sources give no semantics): the codes of `lnc_size_fmt` and `dequant_fmt`,
//! and the element-count and partition rules of TENSOR_TENSOR on 0x65 (the digest says only that
//! 0x65 shares the struct with its op forced BYPASS).

use super::{Ctx, Rules, active_range, slot_count_at, start_active};
use crate::addr4::{ADDR_MASK, REG_BIT};
use crate::bundle::Bundle;
use crate::dtype::{BirDtype, bir_to_wire};
use crate::formats::compute3d::tt;
use crate::formats::more::{
    self as m, DEQUANT_GROUP_SIZES, GATHER_XPOSE_DIM_MASK, GATHER_XPOSE_IDX_CHANNELS,
    SB2SB_MAX_ELEMENTS, collective as co, dequant as dq, gather_xpose as gx,
};

/// The rules of an opcode of this group (`None` for any other opcode).
pub(super) const fn rules_of(op: u8) -> Option<Rules> {
    if op == m::SB2SB_COLLECTIVE.opcode {
        Some(|c, _, b| sb2sb_rules(c, b))
    } else if op == m::TENSOR_DEQUANTIZE.opcode {
        Some(|c, _, b| dequant_rules(c, b))
    } else if op == m::DMA_GATHER_XPOSE.opcode {
        Some(|c, _, b| gather_xpose_rules(c, b))
    } else if op == m::BATCH_NORM_BACK_PROP.opcode {
        Some(|c, _, b| bn_back_prop_rules(c, b))
    } else {
        None
    }
}

fn sb2sb_rules(c: &mut Ctx, b: &Bundle) {
    active_range(c, b, co::ACTIVE);
    start_active(c, b, &co::SRC, co::ACTIVE);
    for f in [&co::SRC, &co::DST] {
        if let Some(n) = slot_count_at(b, f)
            && n > SB2SB_MAX_ELEMENTS
        {
            c.fail(
                "sb2sb_t3d_elem_count",
                f.offset as usize,
                format!("{} element count {n} > {SB2SB_MAX_ELEMENTS}", f.name),
            );
        }
    }
}

fn dequant_rules(c: &mut Ctx, b: &Bundle) {
    active_range(c, b, dq::ACTIVE);
    start_active(c, b, &dq::SRC, dq::ACTIVE);
    let u32w = bir_to_wire(BirDtype::Uint32, c.arch.core).0;
    for f in [&dq::IN_DTYPE, &dq::OUT_DTYPE] {
        let v = f.get_u8(b);
        if v != u32w {
            c.fail(
                "tens_dequant_dtype_uint32",
                f.offset as usize,
                format!("{} {v:#04x} is not UINT32 ({u32w:#04x})", f.name),
            );
        }
    }
    let g = dq::GROUP_SIZE.get_u8(b);
    if !DEQUANT_GROUP_SIZES.contains(&g) {
        c.fail(
            "tens_dequant_group_size",
            dq::GROUP_SIZE.offset as usize,
            format!("group_size {g} not in {{0, 8}}"),
        );
    }
}

fn bn_back_prop_rules(c: &mut Ctx, b: &Bundle) {
    active_range(c, b, tt::ACTIVE);
    start_active(c, b, &tt::SRC0, tt::ACTIVE);
    let alu = tt::OP.get_u8(b);
    if alu != 0 {
        c.fail(
            "bn_back_prop_op_bypass",
            tt::OP.offset as usize,
            format!("op {alu:#04x}: BATCH_NORM_BACK_PROP's op is forced BYPASS"),
        );
    }
}

fn gather_xpose_rules(c: &mut Ctx, b: &Bundle) {
    use super::pe_dma::{addr8, bound, configs};
    configs(c, b, gx::DMA_CONFIGS);
    bound(c, b, gx::SRC_IDX_BOUND_REG);
    bound(c, b, gx::DST_BOUND_REG);
    addr8(c, b, gx::SRC_START_ADDR);
    addr8(c, b, gx::DST_START_ADDR);
    let ch = gx::IDX_NUM_ACTIVE_CHANNELS.get_u8(b);
    if ch != GATHER_XPOSE_IDX_CHANNELS {
        c.fail(
            "check_dma_indirect_indices",
            gx::IDX_NUM_ACTIVE_CHANNELS.offset as usize,
            format!("idx_num_active_channels {ch} != {GATHER_XPOSE_IDX_CHANNELS}"),
        );
    }
    // The index vector as DMA_INDIRECT1D's: a valid u32 ADDR4 (register-mode allowed) whose
    // 128 index channels fit below the last partition when it is in SBUF.
    const RULE: &str = "dma_gather_xpose_idx_start_addr";
    let at = gx::SRC_IDX_START_ADDR.offset as usize;
    let idx = gx::SRC_IDX_START_ADDR.get_u32(b);
    let before = c.out.len();
    super::check_addr(c, at, idx, Some(super::INDEX_DTYPE), false);
    for d in &mut c.out[before..] {
        d.message = format!("index ADDR4: {}", d.message);
        d.rule = RULE;
    }
    if idx & REG_BIT == 0 && c.arch.in_sbuf(idx & ADDR_MASK) {
        let stride = c.arch.sbuf_partition_stride;
        let part = super::partition_of(idx & ADDR_MASK, stride);
        if part + GATHER_XPOSE_IDX_CHANNELS as u32 > c.arch.partitions {
            c.fail(
                RULE,
                at,
                format!("index start partition {part} + 128 channels exceeds the partitions"),
            );
        }
    }
    let flags = gx::FLAGS.get_u8(b);
    if flags & !GATHER_XPOSE_DIM_MASK != 0 {
        c.fail(
            "dma_gather_xpose_flags",
            gx::FLAGS.offset as usize,
            format!("flags {flags:#04x}: only gather_dim (bits 0-1) may be set"),
        );
    }
}
