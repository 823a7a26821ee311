//! Lifting of SB2SB_COLLECTIVE 0xBF -> `Sb2sbCollective`, TENSOR_DEQUANTIZE 0x7B ->
//! `TensorDequantize` and BATCH_NORM_BACK_PROP 0x65 -> `BatchNormBackProp`, read through the
//! field constants of `formats::more` (and `formats::compute3d::tt`). Every operand takes the
//! bundle's `num_active_channels` as its partition count (the destinations and the second 0x65
//! operand carry none); the engine is the op's default. As elsewhere, rebuilding is total and the
//! re-encoding check rejects whatever the encoder would not have written (an op byte other than
//! BYPASS on 0x65, a dtype other than UINT32 on 0x7B, ...).

use super::{byte, dtype, tensor_ap};
use crate::arch::ArchModel;
use crate::bundle::Bundle;
use crate::fields::Field;
use crate::formats::compute3d::tt;
use crate::formats::more::{self as m, collective as co, dequant as dq};
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
