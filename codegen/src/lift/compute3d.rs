//! Lifting of the 3D-slot compute formats: one S3S3D3_TT, S3D3_TS, S3D3_TS_SELECT or 0x24
//! bundle (or the {0x9a, 0x9b} pair) back to its instruction, read through the field constants
//! of `formats::compute3d`. As for the other ops, rebuilding is total and the re-encoding check
//! in `lift` rejects whatever the encoder would not have written.
//!
//! What the bytes cannot tell apart, and the form returned:
//!
//! * The engine of 0x41/0x51/0x43/0x53 and of the bf16 opcodes: the op's default (Vector). Only
//!   the GpSimd int32 form (0x41 with an integer-band override ALU byte) lifts to `Engine::GpSimd`.
//! * Inline immediates: `ImmOperand::Fp32` on every TENSOR_SCALAR opcode but 0x53, `Int` on
//!   0x53; on 0x98 `Fp32` when `dtype` is a float dtype, else `Int`; the predicate as `Int`.
//! * CopyPredicated vs CastPredicated is the opcode itself (it follows from the dtypes).
//! * Every operand takes the bundle's active-channels byte as its partition count (the
//!   destinations and the second TENSOR_TENSOR operand carry none); the 0x9b read-out of 0x9a
//!   takes its own.

use super::{byte, dtype, int, mem_ap, tensor_ap};
use crate::arch::ArchModel;
use crate::bundle::Bundle;
use crate::dtype::WireDtype;
use crate::enums::{
    ActivationFunc, BirAccumulation, BirAluOp, accum_from_wire, activation_takes_imm, alu_from_wire,
};
use crate::fields::Field;
use crate::formats::compute3d::{self as c3, act, ts, tss, tt};
use crate::formats::read_acc as rd;
use crate::isa::{self, SelectQuery};
use crate::model::*;

/// The instruction of one sequence whose first bundle is a format of this group.
pub(super) fn lift(g: &[&Bundle], arch: &ArchModel) -> Instruction {
    let a = g[0];
    let op = a[0];
    if c3::is_tt(op) {
        tensor_tensor(a, arch)
    } else if c3::is_ts(op) {
        Instruction::new(Op::TensorScalar(tensor_scalar(g, arch)))
    } else if op == c3::TENSOR_SCALAR_SELECT.opcode {
        Instruction::new(Op::TensorScalarSelect(select(a, arch)))
    } else if op == c3::ACTIVATE.opcode {
        Instruction::new(Op::Activation(activation(a, arch)))
    } else {
        Instruction::new(Op::ActivationReadAccumulator(ActivationReadAccumulator {
            dst: read_out(a, arch),
        }))
    }
}

fn alu(f: Field, b: &Bundle, arch: &ArchModel) -> BirAluOp {
    // No BIR op for the byte: a placeholder the re-encoding check reports at this byte.
    alu_from_wire(byte(f, b), arch.core).unwrap_or(BirAluOp::Bypass)
}

fn tensor_tensor(a: &Bundle, arch: &ArchModel) -> Instruction {
    let parts = byte(tt::ACTIVE, a) as u32;
    let pair = byte(tt::IN0_IN1_DTYPE, a);
    let ap =
        |f: Field, code: u8| AccessPattern::Static(tensor_ap(f, a, parts, dtype(code, arch), arch));
    let (in0, in1, dst) = (
        ap(tt::SRC0, pair & 0xF),
        ap(tt::SRC1, pair >> 4),
        ap(tt::DST, byte(tt::OUT_DTYPE, a)),
    );
    let op = a[0];
    if op == c3::COPY_PREDICATED.opcode || op == c3::CAST_PREDICATED.opcode {
        return Instruction::new(Op::CopyPredicated(CopyPredicated {
            mask: in0,
            src: in1,
            dst,
        }));
    }
    let alu_byte = byte(tt::OP, a);
    // 0x41 with an integer-band override byte is the GpSimd int32 form.
    let int = (op == c3::TENSOR_TENSOR_ARITH.opcode)
        .then(|| isa::gpsimd_int32_op(alu_byte, arch.target))
        .flatten();
    let (engine, alu_op) = match int {
        Some(o) => (Engine::GpSimd, o),
        None => (Engine::Vector, alu(tt::OP, a, arch)),
    };
    let mut inst = Instruction::new(Op::TensorTensor(TensorTensor {
        in0,
        in1,
        dst,
        op: alu_op,
    }));
    inst.engine = engine;
    inst
}

fn tensor_scalar(g: &[&Bundle], arch: &ArchModel) -> TensorScalar {
    let a = g[0];
    let op = a[0];
    let parts = byte(ts::ACTIVE, a) as u32;
    let int_form = op == c3::TENSOR_SCALAR_BITVEC.opcode;
    let imm = |s: Field, v: Field| immediate(byte(s, a), int(v, a) as u32, int_form);
    let rev = byte(ts::REVERSE_OPERANDS, a);
    // The form whose ISA row (in either ALU class) dispatches to this opcode; none (an opcode
    // of the layout no form selects) lifts as the plain form.
    let forms = [
        TsForm::Plain,
        TsForm::Transpose,
        TsForm::CacheReduce {
            reduce_res: read_out(g.get(1).copied().unwrap_or(a), arch),
        },
        TsForm::CacheCumulative,
        TsForm::Exponential,
    ];
    let selects = |f: &TsForm| {
        [false, true].into_iter().any(|bitvec| {
            let (row, transpose) = isa::tensor_scalar_row(f, bitvec);
            let q = SelectQuery {
                transpose,
                ..SelectQuery::new(arch.target).on_engine(Engine::Vector)
            };
            isa::dispatch(row, &q, |_| true).is_ok_and(|d| d.opcodes.first() == Some(&op))
        })
    };
    let form = forms.into_iter().find(selects).unwrap_or(TsForm::Plain);
    TensorScalar {
        src: mem_ap(ts::SRC, a, parts, dtype(byte(ts::IN_DTYPE, a), arch), arch),
        dst: AccessPattern::Static(tensor_ap(
            ts::DST,
            a,
            parts,
            dtype(byte(ts::OUT_DTYPE, a), arch),
            arch,
        )),
        op0: alu(ts::OP0, a, arch),
        op1: alu(ts::OP1, a, arch),
        reverse0: rev & 1 != 0,
        reverse1: rev & 2 != 0,
        imm0: imm(ts::IMM0_SRC, ts::IMM0),
        imm1: imm(ts::IMM1_SRC, ts::IMM1),
        accumulate: accum_from_wire(byte(ts::ACCUMULATOR_CMD, a)).unwrap_or(BirAccumulation::Idle),
        form,
    }
}

/// A scalar operand from its `IMM_SRC` byte and value word; an unknown source byte lifts as an
/// inline value (the re-encoding then reports the byte).
fn immediate(src: u8, v: u32, int: bool) -> ImmOperand {
    match src {
        1 => ImmOperand::Ptr(v),
        2 => ImmOperand::Reg(v as u8),
        _ if int => ImmOperand::Int(v),
        _ => ImmOperand::Fp32(f32::from_bits(v)),
    }
}

/// An ACTIVATE 0x21 bundle. Immediates lift as `Fp32` when inline; `bias_src_n` is inverted
/// back to an `IMM_SRC`; the accumulate byte 3 (which both BIR `Idle` and `ZeroAccumulate`
/// write) lifts as `Idle`; an unknown function byte lifts as Identity and an unknown accumulate
/// byte as Idle (the re-encoding check reports the byte).
fn activation(a: &Bundle, arch: &ArchModel) -> Activation {
    let parts = byte(act::ACTIVE, a) as u32;
    let imm = |s: u8, v: Field| immediate(s, int(v, a) as u32, false);
    let code = byte(act::ACTIVATION_FUNC, a);
    let bias_src = crate::ops::invert_imm_src(byte(act::BIAS_SRC_N, a));
    let accumulate = match byte(act::ACCUMULATOR_CMD, a) {
        3 => BirAccumulation::Idle,
        w => accum_from_wire(w).unwrap_or(BirAccumulation::Idle),
    };
    Activation {
        src: mem_ap(
            act::SRC,
            a,
            parts,
            dtype(byte(act::IN_DTYPE, a), arch),
            arch,
        ),
        dst: AccessPattern::Static(tensor_ap(
            act::DST,
            a,
            parts,
            dtype(byte(act::OUT_DTYPE, a), arch),
            arch,
        )),
        func: ActivationFunc::from_wire(code).unwrap_or(ActivationFunc::Identity),
        bias: imm(bias_src, act::BIAS),
        scale: imm(byte(act::SCALE_SRC, a), act::SCALE_VALUE),
        imm: activation_takes_imm(code).then(|| imm(byte(act::IMM_SRC, a), act::IMM)),
        accumulate,
    }
}

fn select(a: &Bundle, arch: &ArchModel) -> TensorScalarSelect {
    let parts = byte(tss::ACTIVE, a) as u32;
    let code = byte(tss::DTYPE, a);
    let d = dtype(code, arch);
    let float = WireDtype(code).is_float();
    TensorScalarSelect {
        src: AccessPattern::Static(tensor_ap(tss::SRC, a, parts, d, arch)),
        dst: AccessPattern::Static(tensor_ap(tss::DST, a, parts, d, arch)),
        reversed_pred: byte(tss::REVERSED_PRED, a) != 0,
        pred_imm_dtype: dtype(byte(tss::PRED_IMM_DTYPE, a), arch),
        scalar: immediate(
            byte(tss::SRC1_IMM_SRC, a),
            int(tss::SRC1_IMM, a) as u32,
            !float,
        ),
        pred: immediate(
            byte(tss::PRED_IMM_SRC, a),
            int(tss::PRED_IMM, a) as u32,
            true,
        ),
    }
}

/// The destination of a D1_RD read-out (0x9b or 0x24).
fn read_out(b: &Bundle, arch: &ArchModel) -> AccessPattern {
    AccessPattern::Static(tensor_ap(
        rd::DST,
        b,
        byte(rd::ACTIVE, b) as u32,
        dtype(byte(rd::DTYPE, b), arch),
        arch,
    ))
}
