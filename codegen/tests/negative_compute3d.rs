//! Negative tests of the 3D-slot compute formats: every encoder error their encoders return,
//! every validator rule of theirs (the cases of `common::compute3d`, also counted by the
//! all-rules meta-test in `negative.rs`), and the lifting errors of their sequences.

mod common;

use common::compute3d::*;
use common::*;
use sundial_codegen::arch::{CAYMAN, Family, MARIANA, SUNDA, Target};
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::{ActivationFunc, BirAccumulation, BirAluOp};
use sundial_codegen::model::*;
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{
    DecodeError, EncodeError, OpcodeSet, SequenceProblem, collect, decode_instructions,
    generate_vec, run_isa_checks,
};

fn err(inst: &Instruction, t: Target) -> EncodeError {
    generate_vec(inst, t.model()).unwrap_err()
}

fn psum(num: u16) -> AccessPattern {
    AccessPattern::Static(StaticAp::psum(0, 0, 32, [Dim::new(1, num)], Int32))
}

fn with_tt(mut inst: Instruction, f: impl FnOnce(&mut TensorTensor)) -> Instruction {
    if let Op::TensorTensor(o) = &mut inst.op {
        f(o);
    }
    inst
}

fn with_tss(f: impl FnOnce(&mut TensorScalarSelect)) -> Instruction {
    tss(f)
}

#[test]
fn tensor_tensor_encoder_errors() {
    use Target::*;
    // CC assert: GpSimd operands never in PSUM.
    let p = with_tt(tt_gpsimd(BirAluOp::Add, Int32), |o| o.dst = psum(64));
    assert_eq!(
        err(&p, Cayman),
        EncodeError::GpsimdPsum {
            op: "tensor_tensor",
            operand: "dst"
        }
    );
    assert_eq!(
        err(&p, Cayman).to_string(),
        "GPSIMD engine cannot access PSUM: tensor_tensor operand dst (rule: gpsimd_no_psum)"
    );
    // Raw DIVIDE is not a 0x41 op; average has no wire byte at all.
    assert_eq!(
        err(&tt(BirAluOp::Divide, Float32), Cayman),
        EncodeError::AluNotEncodable(BirAluOp::Divide)
    );
    assert_eq!(
        err(&tt(BirAluOp::Average, Float32), Sunda),
        EncodeError::AluNotEncodable(BirAluOp::Average)
    );
    // fp4 (wire 0x10 on mariana) does not fit a DTYPE_PAIR nibble.
    let fp4 = with_tt(tt(BirAluOp::Add, Float32), |o| {
        o.in1 = sb(0, 0x400, 32, 64, Float4E2m1fnX4)
    });
    assert_eq!(
        err(&fp4, Mariana),
        EncodeError::DtypeNotEncodable(Float4E2m1fnX4)
    );
    // TENSOR3D slots of S3S3D3_TT have no indirect arm.
    let ind = with_tt(tt(BirAluOp::Add, Float32), |o| {
        o.in0 = common::ind(0, 0x200, 0, 0x1000, 32, 64, Float32)
    });
    assert_eq!(
        err(&ind, Mariana),
        EncodeError::StaticOnly("tensor_tensor src0_mem_pattern")
    );
    // Engines: TensorTensor runs on Vector or GpSimd only.
    let mut scalar = tt(BirAluOp::Add, Float32);
    scalar.engine = Engine::Scalar;
    assert!(matches!(
        err(&scalar, Cayman),
        EncodeError::EngineMismatch { .. }
    ));
    // A zero partition count.
    let zero = with_tt(tt(BirAluOp::Add, Float32), |o| {
        o.in0 = sb(0, 0, 0, 64, Float32)
    });
    assert_eq!(err(&zero, Cayman), EncodeError::PartitionCount(0));
    // CopyPredicated: the same slot checks.
    let mut cp = pred(Float32);
    if let Op::CopyPredicated(o) = &mut cp.op {
        o.dst = common::ind(0, 0x200, 0, 0x1000, 32, 64, Float32);
    }
    assert_eq!(
        err(&cp, Mariana),
        EncodeError::StaticOnly("copy_predicated dst_mem_pattern")
    );
}

#[test]
fn tensor_scalar_encoder_errors() {
    use Target::*;
    assert_eq!(
        err(&ts(|t| t.imm0 = ImmOperand::Int(1)), Cayman),
        EncodeError::ImmKind {
            field: "imm0",
            expected: "fp32"
        }
    );
    let bitvec_fp = ts(|t| {
        t.op0 = BirAluOp::BitwiseOr;
        t.op1 = BirAluOp::Bypass;
        t.imm0 = ImmOperand::Fp32(1.0);
    });
    assert_eq!(
        err(&bitvec_fp, Cayman),
        EncodeError::ImmKind {
            field: "imm0",
            expected: "an integer"
        }
    );
    assert_eq!(
        err(
            &ts(|t| t.accumulate = BirAccumulation::ZeroAccumulate),
            Cayman
        ),
        EncodeError::AccumulateNotIdle
    );
    assert_eq!(
        err(&ts(|t| t.op1 = BirAluOp::BitwiseXor), Cayman),
        EncodeError::AluClassMix(BirAluOp::Mult, BirAluOp::BitwiseXor)
    );
    assert_eq!(
        err(&ts(|t| t.op0 = BirAluOp::ElemwiseMul), Cayman),
        EncodeError::AluNotEncodable(BirAluOp::ElemwiseMul)
    );
    // BIR Accumulate has no ACCUM_CMD (§4x.3).
    let acc = ts(|t| {
        t.form = TsForm::CacheCumulative;
        t.accumulate = BirAccumulation::Accumulate;
    });
    assert_eq!(
        err(&acc, Sunda),
        EncodeError::AccumNotEncodable(BirAccumulation::Accumulate)
    );
    assert_eq!(
        err(&ts(|t| t.imm1 = ImmOperand::Reg(64)), Cayman),
        EncodeError::RegisterOutOfRange(64)
    );
    // EXPONENTIAL is mariana-only, in GENERATE and in COLLECT.
    let exp = ts(|t| t.form = TsForm::Exponential);
    let off = EncodeError::NotOnTarget {
        target: Target::Cayman,
        family: Family::Exponential,
    };
    assert_eq!(err(&exp, Cayman), off);
    assert_eq!(collect(&exp, &CAYMAN, &mut OpcodeSet::default()), Err(off));
    assert!(generate_vec(&exp, &MARIANA).is_ok());
    // Only the plain form runs off the Vector engine.
    let mut gp = ts_reduce();
    gp.engine = Engine::GpSimd;
    assert!(matches!(
        err(&gp, Cayman),
        EncodeError::EngineMismatch { .. }
    ));
    let mut plain = ts(|_| {});
    plain.engine = Engine::Scalar;
    assert!(generate_vec(&plain, &CAYMAN).is_ok());
    // An indirect source needs mariana; the dst and read-out slots are static only.
    let ind = ts(|t| t.src = common::ind(0, 0x200, 0, 0x1000, 32, 64, Float32));
    assert_eq!(
        err(&ind, Cayman),
        EncodeError::NotOnTarget {
            target: Target::Cayman,
            family: Family::TensorIndirect
        }
    );
    assert!(generate_vec(&ind, &MARIANA).is_ok());
    let ind_dst = ts(|t| t.dst = common::ind(0, 0x200, 0, 0x1000, 32, 64, Float32));
    assert_eq!(
        err(&ind_dst, Mariana),
        EncodeError::StaticOnly("tensor_scalar dst_mem_pattern")
    );
    let mut res = ts_reduce();
    if let Op::TensorScalar(TensorScalar {
        form: TsForm::CacheReduce { reduce_res },
        ..
    }) = &mut res.op
    {
        *reduce_res = common::ind(0, 0x200, 0, 0x1000, 32, 1, Float32);
    }
    assert_eq!(
        err(&res, Mariana),
        EncodeError::StaticOnly("read_accumulator dst_mem_pattern")
    );
    // RUN_ISA_CHECKS reports encoder errors as errors.
    assert_eq!(
        run_isa_checks(&ts(|t| t.imm1 = ImmOperand::Reg(64)), &SUNDA, 0),
        Err(EncodeError::RegisterOutOfRange(64))
    );
}

#[test]
fn select_and_read_accumulator_encoder_errors() {
    use Target::*;
    assert_eq!(
        err(
            &with_tss(|t| t.dst = sb(0, 0x400, 32, 64, Bfloat16)),
            Cayman
        ),
        EncodeError::SingleDtype("tensor_scalar_select dtype")
    );
    assert_eq!(
        err(&with_tss(|t| t.pred = ImmOperand::Int(2)), Cayman),
        EncodeError::PredImmNotBool(2)
    );
    assert_eq!(
        err(&with_tss(|t| t.pred = ImmOperand::Fp32(1.0)), Cayman),
        EncodeError::ImmKind {
            field: "pred_imm",
            expected: "an integer"
        }
    );
    // A float dtype takes an fp32 scalar; an integer dtype an integer one.
    assert_eq!(
        err(&with_tss(|t| t.scalar = ImmOperand::Int(1)), Cayman),
        EncodeError::ImmKind {
            field: "src1_imm",
            expected: "fp32"
        }
    );
    let int_sel = with_tss(|t| {
        t.src = sb(0, 0, 32, 64, Int32);
        t.dst = sb(0, 0x400, 32, 64, Int32);
    });
    assert_eq!(
        err(&int_sel, Cayman),
        EncodeError::ImmKind {
            field: "src1_imm",
            expected: "an integer"
        }
    );
    assert_eq!(
        err(
            &with_tss(|t| t.src = common::ind(0, 0x200, 0, 0x1000, 32, 64, Float32)),
            Mariana
        ),
        EncodeError::StaticOnly("tensor_scalar_select src0_mem_pattern")
    );
    let mut rd = act_read();
    if let Op::ActivationReadAccumulator(o) = &mut rd.op {
        o.dst = sbd(0, 0x800, 200, [], Float32);
    }
    assert_eq!(err(&rd, Sunda), EncodeError::PartitionCount(200));
    let mut vec_rd = act_read();
    vec_rd.engine = Engine::Vector;
    assert!(matches!(
        err(&vec_rd, Sunda),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn activation_encoder_errors() {
    use Target::*;
    // Mariana's ISA case is ACTIVATE2 0x25, whose slot offsets no source gives.
    match err(&act(|_| {}), Mariana) {
        EncodeError::Unpinned { op, missing } => {
            assert_eq!(op, "activation");
            assert!(missing.starts_with("ACTIVATE2"), "{missing}");
        }
        e => panic!("expected unpinned, got {e:?}"),
    }
    assert_eq!(
        err(&act(|a| a.imm = Some(ImmOperand::Fp32(1.0))), Sunda),
        EncodeError::ActivationImm {
            func: "gelu",
            takes: false
        }
    );
    assert_eq!(
        err(&act(|a| a.func = ActivationFunc::Prelu), Sunda),
        EncodeError::ActivationImm {
            func: "prelu",
            takes: true
        }
    );
    assert_eq!(
        err(&act(|a| a.accumulate = BirAccumulation::Accumulate), Sunda),
        EncodeError::AccumNotEncodable(BirAccumulation::Accumulate)
    );
    assert_eq!(
        err(&act(|a| a.bias = ImmOperand::Int(1)), Sunda),
        EncodeError::ImmKind {
            field: "bias",
            expected: "fp32"
        }
    );
    assert_eq!(
        err(&act(|a| a.scale = ImmOperand::Reg(64)), Sunda),
        EncodeError::RegisterOutOfRange(64)
    );
    assert_eq!(
        err(&act(|a| a.src = sb(0, 0, 32, 64, Float32r)), Sunda),
        EncodeError::DtypeNotEncodable(Float32r)
    );
    let mut vec_act = act(|_| {});
    vec_act.engine = Engine::Vector;
    assert!(matches!(
        err(&vec_act, Sunda),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn bf16_opcodes_exist_on_sunda_only() {
    // Validating a sunda 0x8b for cayman: the format's family is absent there.
    let b = generate_vec(&tt(BirAluOp::Mult, Bfloat16), &SUNDA).unwrap()[0];
    assert_eq!(b[0], 0x8b);
    let d = validate_bundle(&b, 0, &CAYMAN);
    assert!(d.iter().any(|x| x.rule == "opcode_on_target"), "{d:?}");
    // 0x30 likewise off mariana.
    let e = generate_vec(&ts(|t| t.form = TsForm::Exponential), &MARIANA).unwrap()[0];
    let d = validate_bundle(&e, 0, &SUNDA);
    assert!(d.iter().any(|x| x.rule == "opcode_on_target"), "{d:?}");
}

#[test]
fn every_rule_of_the_group_fires() {
    for c in rule_cases() {
        let d = validate_bundle(&c.bundle, 5, c.target.model());
        assert!(
            d.iter()
                .any(|x| x.rule == c.rule && x.offset == c.offset && x.bundle == 5),
            "rule {} at {:#x} not reported: {d:?}",
            c.rule,
            c.offset
        );
    }
}

fn lift_err(bytes: &[u8], t: Target) -> (usize, usize, SequenceProblem) {
    match decode_instructions(bytes, t.model()) {
        Err(DecodeError::Sequence {
            bundle,
            offset,
            problem,
        }) => (bundle, offset, problem),
        other => panic!("expected a sequence error, got {other:?}"),
    }
}

#[test]
fn lifting_rejects_what_the_encoders_do_not_write() {
    use Target::*;
    let pair = generate_vec(&ts_reduce(), &CAYMAN).unwrap();
    // A 0x9a without its 0x9b, and a 0x9b on its own.
    let (k, off, p) = lift_err(&pair[0], Cayman);
    assert_eq!((k, off), (1, 64));
    assert_eq!(
        p,
        SequenceProblem::Unpaired {
            opcode: 0x9a,
            expected: 0x9b,
            found: None
        }
    );
    let (k, _, p) = lift_err(&pair[1], Cayman);
    assert_eq!((k, p.clone()), (0, SequenceProblem::Orphan(0x9b)));
    assert!(p.to_string().contains("0xbc or 0x9a"), "{p}");
    // The sunda bf16 0x8a read on cayman: the instruction it lifts to encodes as 0x41.
    let bf = generate_vec(&tt(BirAluOp::Add, Bfloat16), &SUNDA).unwrap()[0];
    let (_, off, p) = lift_err(&bf, Cayman);
    assert_eq!(off, 0);
    assert_eq!(
        p,
        SequenceProblem::Differs {
            expected: 0x41,
            found: 0x8a
        }
    );
    // A 0x43 carrying a bitvec op encodes as 0x53.
    let mut b = generate_vec(&ts(|_| {}), &CAYMAN).unwrap()[0];
    // (both immediates by pointer, so their kind does not decide the outcome)
    b[0x24] = 0x0a;
    b[0x25] = 0;
    b[0x23] = 1;
    b[0x27] = 1;
    let (_, off, p) = lift_err(&b, Cayman);
    assert_eq!(off, 0);
    assert!(
        matches!(p, SequenceProblem::Differs { expected: 0x53, .. }),
        "{p:?}"
    );
    // A reserved TENSOR_SCALAR byte (+0x0D) is not encoder output.
    let mut b = generate_vec(&ts(|_| {}), &CAYMAN).unwrap()[0];
    b[0x0D] = 1;
    assert_eq!(lift_err(&b, Cayman).1, 0x0D);
    // A non-boolean reversed_pred.
    let mut b = generate_vec(&tss(|_| {}), &CAYMAN).unwrap()[0];
    b[0x20] = 2;
    assert_eq!(lift_err(&b, Cayman).1, 0x20);
    // An inline predicate of 2 does not encode at all.
    let mut b = generate_vec(&tss(|t| t.pred = ImmOperand::Int(0)), &CAYMAN).unwrap()[0];
    b[0x2C] = 2;
    assert_eq!(
        lift_err(&b, Cayman).2,
        SequenceProblem::NotEncodable(EncodeError::PredImmNotBool(2))
    );
}
