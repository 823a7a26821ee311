//! Lifting of SB2SB_COLLECTIVE 0xBF -> `Sb2sbCollective`, DMA_GATHER_XPOSE 0xF1 ->
//! `DmaGatherTranspose` (its `dtype` pair as in = low nibble, out = high), TENSOR_DEQUANTIZE
//! 0x7B -> `TensorDequantize` and BATCH_NORM_BACK_PROP 0x65 -> `BatchNormBackProp`, read
//! through the field constants of `formats::more` (and `formats::compute3d::tt`). Every operand
//! takes the bundle's `num_active_channels` as its partition count (the destinations and the
//! second 0x65 operand carry none); the engine is the op's default. As elsewhere, rebuilding is total and the
//! re-encoding check rejects whatever the encoder would not have written (an op byte other than
//! BYPASS on 0x65, a dtype other than UINT32 on 0x7B, ...).

use super::{byte, dtype, dword, int, start, tensor_ap};
use crate::arch::ArchModel;
use crate::bundle::Bundle;
use crate::fields::Field;
use crate::formats::compute3d::tt;
use crate::formats::more::{
    self as m, GATHER_XPOSE_DIM_MASK, collective as co, dequant as dq, gather_xpose as gx,
};
use crate::model::*;

/// The instruction of one bundle of this group.
pub(super) fn lift(a: &Bundle, arch: &ArchModel) -> Instruction {
    let ap = |f: Field, parts: u32, code: u8| {
        AccessPattern::Static(tensor_ap(f, a, parts, dtype(code, arch), arch))
    };
    let op = a[0];
    if op == m::SB2SB_COLLECTIVE.opcode {
        let parts = byte(co::ACTIVE, a) as u32;
        Instruction::new(Op::Sb2sbCollective(Sb2sbCollective {
            src: ap(co::SRC, parts, byte(co::IN_DTYPE, a)),
            dst: ap(co::DST, parts, byte(co::OUT_DTYPE, a)),
            lnc_size_fmt: byte(co::LNC_SIZE_FMT, a),
        }))
    } else if op == m::TENSOR_DEQUANTIZE.opcode {
        let parts = byte(dq::ACTIVE, a) as u32;
        Instruction::new(Op::TensorDequantize(TensorDequantize {
            src: ap(dq::SRC, parts, byte(dq::IN_DTYPE, a)),
            dst: ap(dq::DST, parts, byte(dq::OUT_DTYPE, a)),
            dequant_fmt: byte(dq::DEQUANT_FMT, a),
            group_size: byte(dq::GROUP_SIZE, a),
        }))
    } else if op == m::DMA_GATHER_XPOSE.opcode {
        Instruction::new(Op::DmaGatherTranspose(gather_transpose(a, arch)))
    } else {
        let parts = byte(tt::ACTIVE, a) as u32;
        let pair = byte(tt::IN0_IN1_DTYPE, a);
        Instruction::new(Op::BatchNormBackProp(BatchNormBackProp {
            in0: ap(tt::SRC0, parts, pair & 0xF),
            in1: ap(tt::SRC1, parts, pair >> 4),
            dst: ap(tt::DST, parts, byte(tt::OUT_DTYPE, a)),
        }))
    }
}

fn gather_transpose(a: &Bundle, arch: &ArchModel) -> DmaGatherTranspose {
    let i32_of = |f: Field| int(f, a) as u32 as i32;
    let u16_of = |f: Field| int(f, a) as u16;
    let pair = byte(gx::DTYPE, a);
    DmaGatherTranspose {
        src_addr: int(gx::SRC_START_ADDR, a),
        src_step: [i32_of(gx::SRC_STEP_ELEM0), i32_of(gx::SRC_STEP_ELEM1)],
        src_num: [u16_of(gx::SRC_NUM_ELEM0), u16_of(gx::SRC_NUM_ELEM1)],
        src_idx: start(dword(a, gx::SRC_IDX_START_ADDR.offset as usize), arch),
        dst_addr: int(gx::DST_START_ADDR, a),
        dst_step1: i32_of(gx::DST_STEP_ELEM1),
        dst_num: [u16_of(gx::DST_NUM_ELEM0), u16_of(gx::DST_NUM_ELEM1)],
        elem_size: u16_of(gx::ELEM_SIZE),
        in_dtype: dtype(pair & 0xF, arch),
        out_dtype: dtype(pair >> 4, arch),
        gather_dim: byte(gx::FLAGS, a) & GATHER_XPOSE_DIM_MASK,
        src_idx_bound_reg: BoundCheckReg::from_byte(byte(gx::SRC_IDX_BOUND_REG, a)),
        dst_bound_reg: BoundCheckReg::from_byte(byte(gx::DST_BOUND_REG, a)),
        semaphore: byte(gx::SEMAPHORE, a),
        priority_class: byte(gx::DMA_CONFIGS, a),
    }
}
