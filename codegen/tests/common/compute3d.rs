//! Sample instructions of the 3D-slot compute formats and one failing bundle per validator rule
//! of theirs (shared by `negative_compute3d.rs` and the all-rules meta-test in `negative.rs`).

use super::{sb, sbd};
use sundial_codegen::arch::Target;
use sundial_codegen::bundle::Bundle;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{ActivationFunc, BirAccumulation, BirAluOp};
use sundial_codegen::generate_vec;
use sundial_codegen::model::*;
use sundial_codegen::validate::validate_bundle;

/// TensorTensor over three 32-partition, 64-element SBUF operands at 0x0 / 0x400 / 0x800.
pub fn tt(op: BirAluOp, d: BirDtype) -> Instruction {
    Instruction::new(Op::TensorTensor(TensorTensor {
        in0: sb(0, 0, 32, 64, d),
        in1: sb(0, 0x400, 32, 64, d),
        dst: sb(0, 0x800, 32, 64, d),
        op,
    }))
}

/// [`tt`] on the GpSimd engine.
pub fn tt_gpsimd(op: BirAluOp, d: BirDtype) -> Instruction {
    let mut i = tt(op, d);
    i.engine = Engine::GpSimd;
    i
}

/// CopyPredicated: a uint8 mask at 0x0, fp32 data at 0x400, the destination at 0x800 in `dst`.
pub fn pred(dst: BirDtype) -> Instruction {
    Instruction::new(Op::CopyPredicated(CopyPredicated {
        mask: sb(0, 0, 32, 64, Uint8),
        src: sb(0, 0x400, 32, 64, Float32),
        dst: sb(0, 0x800, 32, 64, dst),
    }))
}

/// The sample TensorScalar: fp32 src at 0x0, dst at 0x400, `(2.0 * t) + [ptr 0x100]`, edited
/// by `f`.
pub fn ts(f: impl FnOnce(&mut TensorScalar)) -> Instruction {
    let mut t = TensorScalar {
        src: sb(0, 0, 32, 64, Float32),
        dst: sb(0, 0x400, 32, 64, Float32),
        op0: BirAluOp::Mult,
        op1: BirAluOp::Add,
        reverse0: true,
        reverse1: false,
        imm0: ImmOperand::Fp32(2.0),
        imm1: ImmOperand::Ptr(0x100),
        accumulate: BirAccumulation::Idle,
        form: TsForm::Plain,
    };
    f(&mut t);
    Instruction::new(Op::TensorScalar(t))
}

/// The cache-reduce TensorScalar (0x9a + 0x9b, read-out to SBUF 0xC00).
pub fn ts_reduce() -> Instruction {
    ts(|t| {
        t.form = TsForm::CacheReduce {
            reduce_res: sbd(0, 0xC00, 32, [], Float32),
        };
        t.accumulate = BirAccumulation::ZeroAccumulate;
        t.imm1 = ImmOperand::Fp32(0.0);
    })
}

/// The sample TensorScalarSelect: fp32, reversed, scalar 0.5, predicate by pointer 0x200.
pub fn tss(f: impl FnOnce(&mut TensorScalarSelect)) -> Instruction {
    let mut t = TensorScalarSelect {
        src: sb(0, 0, 32, 64, Float32),
        dst: sb(0, 0x400, 32, 64, Float32),
        reversed_pred: true,
        pred_imm_dtype: Uint32,
        scalar: ImmOperand::Fp32(0.5),
        pred: ImmOperand::Ptr(0x200),
    };
    f(&mut t);
    Instruction::new(Op::TensorScalarSelect(t))
}

/// The sample Activation: gelu of fp32 src at 0x0 into bf16 dst at 0x400, scale inline 2.0,
/// bias a per-partition pointer 0x100, no accumulation; edited by `f`.
pub fn act(f: impl FnOnce(&mut Activation)) -> Instruction {
    let mut a = Activation {
        src: sb(0, 0, 32, 64, Float32),
        dst: sb(0, 0x400, 32, 64, Bfloat16),
        func: ActivationFunc::Gelu,
        bias: ImmOperand::Ptr(0x100),
        scale: ImmOperand::Fp32(2.0),
        imm: None,
        accumulate: BirAccumulation::Idle,
    };
    f(&mut a);
    Instruction::new(Op::Activation(a))
}

/// ActivationReadAccumulator to a 32-partition fp32 vector at SBUF 0x800.
pub fn act_read() -> Instruction {
    Instruction::new(Op::ActivationReadAccumulator(ActivationReadAccumulator {
        dst: sbd(0, 0x800, 32, [], Float32),
    }))
}

/// One validator case: the rule, the byte offset it must report, the target, the bundle.
pub struct RuleCase {
    /// Rule name.
    pub rule: &'static str,
    /// Offset the diagnostic names.
    pub offset: usize,
    /// Target to validate for.
    pub target: Target,
    /// The failing bundle.
    pub bundle: Bundle,
}

/// A failing bundle for every rule of the group: an encoder-produced, valid bundle with one
/// edit.
pub fn rule_cases() -> Vec<RuleCase> {
    use Target::*;
    let mut v = Vec::new();
    let mut add = |rule, offset, target: Target, inst: &Instruction, f: &dyn Fn(&mut Bundle)| {
        let mut b = generate_vec(inst, target.model()).unwrap()[0];
        assert_eq!(
            validate_bundle(&b, 0, target.model()),
            vec![],
            "base of {rule} must be valid"
        );
        f(&mut b);
        v.push(RuleCase {
            rule,
            offset,
            target,
            bundle: b,
        });
    };
    let arith = tt(BirAluOp::Add, Float32);
    let bitvec = tt(BirAluOp::BitwiseAnd, Int32);
    let bf16 = tt(BirAluOp::Add, Bfloat16);
    let int = tt_gpsimd(BirAluOp::Add, Int32);
    let copy = pred(Float32);
    let plain = ts(|_| {});
    let bv = ts(|t| {
        t.src = sb(0, 0, 32, 64, Int32);
        t.dst = sb(0, 0x400, 32, 64, Int32);
        t.op0 = BirAluOp::BitwiseAnd;
        t.op1 = BirAluOp::Bypass;
        t.imm0 = ImmOperand::Int(0xFF);
        t.imm1 = ImmOperand::Int(0);
    });
    let cum = ts(|t| t.form = TsForm::CacheCumulative);
    let sel = tss(|_| {});
    let sel_inline = tss(|t| t.pred = ImmOperand::Int(1));
    add("tt_in_dtype_not_fp32r", 0x0C, Cayman, &arith, &|b| {
        b[0x0C] = 0xAB
    });
    add("tt_same_elem_count", 0x10, Cayman, &arith, &|b| {
        b[0x2A] = 32
    });
    add("tt_valid_partitions", 0x10, Cayman, &arith, &|b| {
        b[0x20..0x24].copy_from_slice(&(40u32 << 18).to_le_bytes())
    });
    add("tt_valid_partitions", 0x10, Cayman, &arith, &|b| {
        // both sources in PSUM (fp32, 4-byte aligned)
        b[0x10..0x14].copy_from_slice(&0x0200_0000u32.to_le_bytes());
        b[0x20..0x24].copy_from_slice(&0x0200_0400u32.to_le_bytes());
    });
    add("tt_arith_op", 0x0E, Cayman, &arith, &|b| b[0x0E] = 0x07); // raw DIVIDE
    add("tt_arith_op", 0x0E, Cayman, &arith, &|b| b[0x0E] = 0x0A); // bitwise_and
    add("tt_bitvec_op", 0x0E, Cayman, &bitvec, &|b| b[0x0E] = 0x04);
    add("tt_bitvec_dtype", 0x0C, Cayman, &bitvec, &|b| {
        b[0x0C] = 0x98
    }); // src1 u32
    add("tt_bitvec_dtype", 0x0C, Cayman, &bitvec, &|b| {
        // all fp32: the out dtype is not an integer
        b[0x0C] = 0xAA;
        b[0x0D] = 0x0A;
    });
    add("tt_wide_variant", 0x0E, Sunda, &bf16, &|b| b[0x0E] = 0x06); // 0x8a with mult
    add("tt_wide_variant", 0x0E, Sunda, &bf16, &|b| {
        // 0x8a (bf16 add) with fp32 operands
        b[0x0C] = 0xAA;
        b[0x0D] = 0x0A;
    });
    add("tt_gpsimd_no_psum", 0x10, Mariana, &int, &|b| {
        b[0x30..0x34].copy_from_slice(&0x0200_0000u32.to_le_bytes())
    });
    add("tt_predicated_op_bypass", 0x0E, Cayman, &copy, &|b| {
        b[0x0E] = 0x04
    });
    add("copy_predicated_same_dtype", 0x0D, Cayman, &copy, &|b| {
        b[0x0D] = 0x09
    });
    add(
        "ts_op0_bypass_implies_op1_bypass",
        0x25,
        Cayman,
        &plain,
        &|b| b[0x24] = 0,
    );
    add("ts_valid_alu_op", 0x24, Cayman, &plain, &|b| b[0x24] = 0x1E);
    add("ts_valid_alu_op", 0x25, Cayman, &plain, &|b| b[0x25] = 0xE2);
    add("ts_bitvec_op", 0x24, Cayman, &bv, &|b| b[0x24] = 0x04);
    add("ts_imm_src", 0x27, Cayman, &plain, &|b| b[0x27] = 3);
    add("ts_reverse_operands", 0x26, Cayman, &plain, &|b| {
        b[0x26] = 4
    });
    add("ts_accumulator_cmd", 0x0C, Cayman, &plain, &|b| b[0x0C] = 3);
    add("ts_accumulator_cmd", 0x0C, Cayman, &cum, &|b| b[0x0C] = 5);
    add("tss_reversed_pred", 0x20, Cayman, &sel, &|b| b[0x20] = 2);
    add("tss_imm_src", 0x26, Cayman, &sel, &|b| b[0x26] = 3);
    add(
        "tss_pred_imm_inline_bool",
        0x2C,
        Cayman,
        &sel_inline,
        &|b| b[0x2C] = 2,
    );
    add("tss_pred_imm_dtype", 0x23, Cayman, &sel, &|b| {
        b[0x23] = 0x05
    }); // u16 for fp32
    add("tss_pred_imm_dtype", 0x23, Cayman, &sel, &|b| {
        b[0x23] = 0x0A
    }); // a float
    let activation = act(|_| {});
    add("act_imm_src", 0x0C, Sunda, &activation, &|b| b[0x0C] = 3);
    add("act_imm_src", 0x0D, Sunda, &activation, &|b| b[0x0D] = 7);
    add("act_imm_src", 0x0F, Sunda, &activation, &|b| b[0x0F] = 3);
    add("act_accumulator_cmd", 0x0E, Sunda, &activation, &|b| {
        b[0x0E] = 5
    });
    add("act_func_known", 0x23, Sunda, &activation, &|b| b[0x23] = 0);
    add("act_func_known", 0x23, Sunda, &activation, &|b| {
        b[0x23] = 0x82
    });
    // gelu takes no second immediate
    add("act_imm_gate", 0x0C, Sunda, &activation, &|b| b[0x0C] = 1);
    add("act_imm_gate", 0x2C, Sunda, &activation, &|b| b[0x2C] = 1);
    add(
        "has_valid_active_channel_range",
        0x22,
        Sunda,
        &activation,
        &|b| b[0x22] = 0,
    );
    add("valid_dtype", 0x20, Sunda, &activation, &|b| b[0x20] = 0x0B); // FP32R in
    v
}
