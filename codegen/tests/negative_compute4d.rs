//! Negative tests of the 4D-slot compute formats: every encoder error their encoders return
//! (each triggered, never a panic), every validator rule of the group (one mutated bundle each,
//! and a check that the group's rules are all covered and listed in `RULES`), and the lifting
//! and assembler errors on their bundles.

mod common;
#[path = "compute4d/cases.rs"]
mod compute4d_cases;

use std::collections::BTreeSet;

use common::*;
use compute4d_cases::*;
use sundial_codegen::arch::{ArchModel, CAYMAN, Family, FamilySet, MARIANA, SUNDA, Target};
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::BirAluOp;
use sundial_codegen::model::*;
use sundial_codegen::text::assemble;
use sundial_codegen::validate::{RULES, validate_bundle};
use sundial_codegen::{
    DecodeError, EncodeError, SequenceProblem, decode_instructions, generate_vec,
};

fn err(inst: &Instruction, arch: &ArchModel) -> EncodeError {
    generate_vec(inst, arch).expect_err("must fail")
}

/// `inst` with its op edited by `f`.
fn with(inst: Instruction, f: impl FnOnce(&mut Op)) -> Instruction {
    let mut i = inst;
    f(&mut i.op);
    i
}

#[test]
fn tensor_reduce_op_errors() {
    // No wire byte for BIR average (the converter errors).
    let i = with(reduce_arith(), |o| {
        if let Op::TensorReduceArith(r) = o {
            r.op = BirAluOp::Average;
        }
    });
    assert_eq!(
        err(&i, &SUNDA),
        EncodeError::AluNotEncodable(BirAluOp::Average)
    );
    // A bitvec op on the arith opcode, an arith op on the bitvec opcode.
    let i = with(reduce_arith(), |o| {
        if let Op::TensorReduceArith(r) = o {
            r.op = BirAluOp::BitwiseOr;
        }
    });
    let e = err(&i, &SUNDA);
    assert_eq!(
        e,
        EncodeError::ReduceOpClass {
            op: BirAluOp::BitwiseOr,
            opcode: 0x42
        }
    );
    assert_eq!(
        e.to_string(),
        "ALU op BitwiseOr is not in the ALU class of opcode 0x42"
    );
    let i = with(reduce_bitvec(), |o| {
        if let Op::TensorReduceBitvec(r) = o {
            r.op = BirAluOp::Add;
        }
    });
    assert_eq!(
        err(&i, &MARIANA),
        EncodeError::ReduceOpClass {
            op: BirAluOp::Add,
            opcode: 0x52
        }
    );
}

#[test]
fn element_count_errors() {
    let i = with(copy(), |o| {
        if let Op::TensorCopy(c) = o {
            c.dst = sb(32, 0x40, 32, 63, Bfloat16);
        }
    });
    let e = err(&i, &CAYMAN);
    assert_eq!(
        e,
        EncodeError::ElementCountMismatch {
            what: "S4D4_TR src and dst",
            left: 64,
            right: 63
        }
    );
    assert_eq!(
        e.to_string(),
        "S4D4_TR src and dst: element counts 64 and 63 must agree"
    );
    let i = with(reciprocal(), |o| {
        if let Op::Reciprocal(r) = o {
            r.src = sb(0, 0, 4, 9, Float32);
        }
    });
    assert!(matches!(
        err(&i, &MARIANA),
        EncodeError::ElementCountMismatch {
            left: 9,
            right: 8,
            ..
        }
    ));
    // CrossLaneReduce: ALL needs a one-element destination, PARTITIONS the source's count.
    let i = with(cross_lane_bitvec(), |o| {
        if let Op::CrossLaneReduceBitvec(r) = o {
            r.dst = sbd(0, 0x200, 1, [Dim::new(1, 2)], Int32);
        }
    });
    assert_eq!(
        err(&i, &MARIANA),
        EncodeError::ElementCountMismatch {
            what: "S4D4_CR reduce_axis and dst",
            left: 1,
            right: 2
        }
    );
    let i = with(cross_lane_arith(), |o| {
        if let Op::CrossLaneReduceArith(r) = o {
            r.axis = CrossLaneAxis::All;
        }
    });
    assert!(matches!(
        err(&i, &CAYMAN),
        EncodeError::ElementCountMismatch {
            left: 1,
            right: 16,
            ..
        }
    ));
    // Iota: d4d count == dst count.
    let i = with(iota(), |o| {
        if let Op::Iota(io) = o {
            io.pattern.dims = Dims::from([Dim::new(1, 31)]);
        }
    });
    assert_eq!(
        err(&i, &SUNDA),
        EncodeError::ElementCountMismatch {
            what: "D4_IOTA d4d and dst",
            left: 31,
            right: 32
        }
    );
    // AffineSelect: mask vs src, src vs dst.
    let i = with(affine_select(), |o| {
        if let Op::AffineSelect(a) = o {
            a.mask.dims = Dims::from([Dim::new(-1, 64)]);
        }
    });
    assert!(matches!(
        err(&i, &MARIANA),
        EncodeError::ElementCountMismatch {
            what: "S2D2_TS_AS mask and src",
            ..
        }
    ));
    let i = with(affine_select(), |o| {
        if let Op::AffineSelect(a) = o {
            a.dst = sb(0, 0x200, 128, 64, Float32);
        }
    });
    assert!(matches!(
        err(&i, &MARIANA),
        EncodeError::ElementCountMismatch {
            what: "S2D2_TS_AS src and dst",
            ..
        }
    ));
}

#[test]
fn cross_lane_op_class_errors() {
    let i = with(cross_lane_arith(), |o| {
        if let Op::CrossLaneReduceArith(r) = o {
            r.op = CrossLaneReduceOp::BitwiseOr;
        }
    });
    let e = err(&i, &CAYMAN);
    assert_eq!(
        e,
        EncodeError::CrossLaneOpClass {
            op: CrossLaneReduceOp::BitwiseOr,
            opcode: 0x7C
        }
    );
    assert_eq!(
        e.to_string(),
        "cross-lane reduce op BitwiseOr belongs to the other opcode than 0x7c"
    );
    let i = with(cross_lane_bitvec(), |o| {
        if let Op::CrossLaneReduceBitvec(r) = o {
            r.op = CrossLaneReduceOp::Max;
        }
    });
    assert!(matches!(
        err(&i, &MARIANA),
        EncodeError::CrossLaneOpClass { opcode: 0x7D, .. }
    ));
}

#[test]
fn memset_count_overflow() {
    let i = with(memset(), |o| {
        if let Op::Memset(m) = o {
            m.dst = sbd(
                0,
                0,
                1,
                [Dim::new(1, 65535), Dim::new(1, 65535), Dim::new(1, 65535)],
                Float32,
            );
        }
    });
    let e = err(&i, &CAYMAN);
    assert_eq!(e, EncodeError::ElementCountOverflow(65535u64.pow(3)));
    assert_eq!(
        e.to_string(),
        "element count 281462092005375 does not fit the u32 field"
    );
}

#[test]
fn affine_select_dtype_nibbles() {
    // fp4 is wire 0x10 on mariana: no DTYPE_PAIR nibble holds it.
    let i = with(affine_select(), |o| {
        if let Op::AffineSelect(a) = o {
            a.src = sb(0, 0, 128, 128, Float4E2m1fnX4);
        }
    });
    assert_eq!(
        err(&i, &MARIANA),
        EncodeError::DtypeNotEncodable(Float4E2m1fnX4)
    );
    let i = with(affine_select(), |o| {
        if let Op::AffineSelect(a) = o {
            a.dst = sb(0, 0x200, 128, 128, Float4E2m1fnX4);
        }
    });
    assert_eq!(
        err(&i, &MARIANA),
        EncodeError::DtypeNotEncodable(Float4E2m1fnX4)
    );
}

#[test]
fn plain_tensor_slots_refuse_indirect_patterns() {
    let indirect = ind(0, 0x200, 0, 0x1000, 16, 16, Float32);
    let cases: Vec<(Instruction, &str)> = vec![
        (
            with(pool(), |o| {
                if let Op::Pool(p) = o {
                    p.src = indirect.clone();
                }
            }),
            "pool src_mem_pattern",
        ),
        (
            with(pool(), |o| {
                if let Op::Pool(p) = o {
                    p.dst = indirect.clone();
                }
            }),
            "pool dst_mem_pattern",
        ),
        (
            with(cross_lane_arith(), |o| {
                if let Op::CrossLaneReduceArith(r) = o {
                    r.src = indirect.clone();
                }
            }),
            "cross_lane_reduce src_mem_pattern",
        ),
        (
            with(cross_lane_arith(), |o| {
                if let Op::CrossLaneReduceArith(r) = o {
                    r.dst = indirect.clone();
                }
            }),
            "cross_lane_reduce dst_mem_pattern",
        ),
        (
            with(iota(), |o| {
                if let Op::Iota(i) = o {
                    i.dst = indirect.clone();
                }
            }),
            "iota dst_mem_pattern",
        ),
        (
            with(memset(), |o| {
                if let Op::Memset(m) = o {
                    m.dst = indirect.clone();
                }
            }),
            "memset dst_mem_pattern",
        ),
        (
            with(affine_select(), |o| {
                if let Op::AffineSelect(a) = o {
                    a.src = indirect.clone();
                }
            }),
            "tensor_scalar_affine_select src_mem_pattern",
        ),
        (
            with(affine_select(), |o| {
                if let Op::AffineSelect(a) = o {
                    a.dst = indirect.clone();
                }
            }),
            "tensor_scalar_affine_select dst_mem_pattern",
        ),
    ];
    for (inst, slot) in cases {
        assert_eq!(err(&inst, &MARIANA), EncodeError::StaticOnly(slot));
    }
}

#[test]
fn s4d4_tr_slots_take_indirect_records_on_mariana_only() {
    let i = with(copy(), |o| {
        if let Op::TensorCopy(c) = o {
            c.src = ind(0, 0x200, 0, 0x1000, 32, 64, Bfloat16);
        }
    });
    let b = generate_vec(&i, &MARIANA).unwrap();
    assert_eq!(b[0][0x0F] & 0x20, 0x20);
    assert_eq!(validate_bundle(&b[0], 0, &MARIANA), vec![]);
    assert_eq!(
        err(&i, &SUNDA),
        EncodeError::NotOnTarget {
            target: Target::Sunda,
            family: Family::TensorIndirect
        }
    );
}

#[test]
fn generator_pattern_errors() {
    // A zero count in a generated dim is refused like an access pattern's.
    let i = with(iota(), |o| {
        if let Op::Iota(io) = o {
            io.pattern.dims = Dims::from([Dim::new(1, 0)]);
            io.dst = sbd(0, 0, 64, [Dim::new(1, 0)], Int32);
        }
    });
    assert_eq!(err(&i, &SUNDA), EncodeError::ZeroNumElem);
}

#[test]
fn family_and_engine_gates() {
    const NONE: FamilySet = FamilySet::of(&[]);
    let bare = ArchModel {
        families: NONE,
        ..SUNDA.clone()
    };
    for (_, inst) in samples() {
        let fam = inst.op.kind().info().family;
        assert_eq!(
            err(&inst, &bare),
            EncodeError::NotOnTarget {
                target: Target::Sunda,
                family: fam
            }
        );
        // Every engine the op may not run on (its ISA-table row's list) is refused.
        let kind = inst.op.kind();
        for e in Engine::ALL.into_iter().filter(|&e| !kind.runs_on(e)) {
            let mut other = inst.clone();
            other.engine = e;
            assert_eq!(
                err(&other, &SUNDA),
                EncodeError::EngineMismatch {
                    op: inst.op.kind().info().name,
                    engine: e
                }
            );
        }
    }
}

/// Memset runs on Vector or GpSimd (seed: "Memset engine can only be Vector or GpSIMD or
/// Unknown", isa-table §1 row 21) and tensor_copy on Vector, Scalar or GpSimd (isa-table §1
/// row 22, "poly"): the encoder accepts every engine the ISA table lists, with the same bytes
/// (the engine is the queue, not a field), and refuses the others.
#[test]
fn memset_and_tensor_copy_run_on_every_engine_of_their_isa_row() {
    let memset = Instruction::new(Op::Memset(Memset {
        dst: sb(0, 0x80, 32, 64, Float32),
        fill_value: 1.0f32.to_bits(),
    }));
    let copy = Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0x40, 32, 64, Bfloat16),
        dst: sb(0, 0x8040, 32, 64, Bfloat16),
    }));
    let cast = Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0x40, 32, 64, Bfloat16),
        dst: sb(0, 0x8000, 32, 64, Float32),
    }));
    let cases = [
        (&memset, &[Engine::Vector, Engine::GpSimd][..], 0x49),
        (
            &copy,
            &[Engine::Vector, Engine::Scalar, Engine::GpSimd][..],
            0x46,
        ),
        (
            &cast,
            &[Engine::Vector, Engine::Scalar, Engine::GpSimd][..],
            0x47,
        ),
    ];
    for (inst, legal, opcode) in cases {
        let on_vector = generate_vec(inst, &CAYMAN).expect("encodes on Vector");
        assert_eq!(on_vector[0][0], opcode);
        for e in Engine::ALL {
            let mut other = inst.clone();
            other.engine = e;
            if legal.contains(&e) {
                assert_eq!(
                    generate_vec(&other, &CAYMAN),
                    Ok(on_vector.clone()),
                    "{e:?}"
                );
            } else {
                assert_eq!(
                    err(&other, &CAYMAN),
                    EncodeError::EngineMismatch {
                        op: inst.op.kind().info().name,
                        engine: e
                    },
                    "{e:?}"
                );
            }
        }
    }
}

/// Rule `gpsimd_no_psum` on memset and tensor_copy: GpSimd cannot reach PSUM (CC: "GPSIMD
/// engine cannot access PSUM"), so a PSUM destination (memset, tensor_copy) or source
/// (tensor_copy) on GpSimd is refused before any byte is written; the same instruction on
/// Vector encodes (Vector reaches PSUM).
#[test]
fn gpsimd_memset_and_tensor_copy_refuse_psum_operands() {
    let psum =
        |num: u16, d| AccessPattern::Static(StaticAp::psum(0, 0x100, 32, [Dim::new(1, num)], d));
    let memset = Instruction::new(Op::Memset(Memset {
        dst: psum(64, Float32),
        fill_value: 1.0f32.to_bits(),
    }));
    let copy_to_psum = Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0x40, 32, 64, Float32),
        dst: psum(64, Float32),
    }));
    let copy_from_psum = Instruction::new(Op::TensorCopy(TensorCopy {
        src: psum(64, Float32),
        dst: sb(0, 0x40, 32, 64, Bfloat16),
    }));
    for (inst, op, operand) in [
        (&memset, "memset", "dst"),
        (&copy_to_psum, "tensor_copy", "dst"),
        (&copy_from_psum, "tensor_copy", "src"),
    ] {
        assert!(
            generate_vec(inst, &CAYMAN).is_ok(),
            "{op} {operand} on Vector"
        );
        let mut pool = inst.clone();
        pool.engine = Engine::GpSimd;
        for arch in [&SUNDA, &CAYMAN, &MARIANA] {
            let e = err(&pool, arch);
            assert_eq!(
                e,
                EncodeError::GpsimdPsum { op, operand },
                "{}",
                arch.target
            );
            assert_eq!(
                e.to_string(),
                format!(
                    "GPSIMD engine cannot access PSUM: {op} operand {operand} (rule: gpsimd_no_psum)"
                )
            );
        }
        // RUN_ISA_CHECKS refuses it as well (the encoder's assert runs in every filling mode).
        assert_eq!(
            sundial_codegen::run_isa_checks(&pool, &CAYMAN, 0),
            Err(EncodeError::GpsimdPsum { op, operand })
        );
    }
}

// ---------------------------------------------------------------- validator rules

#[test]
fn every_rule_of_the_group_has_a_failing_case() {
    let mut seen = BTreeSet::new();
    for c in rule_cases() {
        let d = validate_bundle(&c.bundle, 5, c.target.model());
        assert!(
            d.iter()
                .any(|x| x.rule == c.rule && x.offset == c.offset && x.bundle == 5),
            "rule {} at {:#x} not reported: {d:?}",
            c.rule,
            c.offset
        );
        seen.insert(c.rule);
    }
    let listed: BTreeSet<&str> = RULES.iter().map(|r| r.name).collect();
    for r in GROUP_RULES {
        assert!(listed.contains(r), "{r} is not in RULES");
        assert!(seen.contains(r), "{r} has no failing case");
    }
}

#[test]
fn sample_bundles_are_rejected_on_a_target_without_the_family() {
    const NONE: FamilySet = FamilySet::of(&[]);
    let bare = ArchModel {
        families: NONE,
        ..CAYMAN.clone()
    };
    for (t, inst) in samples() {
        let b = generate_vec(&inst, t.model()).unwrap()[0];
        let d = validate_bundle(&b, 0, &bare);
        assert!(d.iter().any(|x| x.rule == "opcode_on_target"), "{d:?}");
    }
}

// ---------------------------------------------------------------- lifting / assembler

fn lift_problem(bytes: &[u8], arch: &ArchModel) -> (usize, SequenceProblem) {
    match decode_instructions(bytes, arch) {
        Err(DecodeError::Sequence {
            offset, problem, ..
        }) => (offset, problem),
        other => panic!("expected a sequence error, got {other:?}"),
    }
}

#[test]
fn lifting_reports_bytes_the_model_cannot_hold() {
    // A reserved S4D4_TR byte (+0x27).
    let mut b = generate_vec(&reduce_arith(), &SUNDA).unwrap()[0];
    b[0x27] = 1;
    assert_eq!(
        lift_problem(&b, &SUNDA),
        (
            0x27,
            SequenceProblem::Differs {
                expected: 0,
                found: 1
            }
        )
    );
    // mask_enable on a reduce (the model has no value for it; the encoder writes 0).
    let mut b = generate_vec(&reduce_arith(), &SUNDA).unwrap()[0];
    b[0x26] = 1;
    assert_eq!(lift_problem(&b, &SUNDA).0, 0x26);
    // negated 2 lifts to `true`, which encodes as 1.
    let mut b = generate_vec(&reduce_arith(), &SUNDA).unwrap()[0];
    b[0x23] = 2;
    assert_eq!(
        lift_problem(&b, &SUNDA),
        (
            0x23,
            SequenceProblem::Differs {
                expected: 1,
                found: 2
            }
        )
    );
    // A bitvec reduce op on 0x7C: the lifted instruction does not encode.
    let mut b = generate_vec(&cross_lane_arith(), &CAYMAN).unwrap()[0];
    b[0x23] = 3;
    assert_eq!(
        lift_problem(&b, &CAYMAN),
        (
            0,
            SequenceProblem::NotEncodable(EncodeError::CrossLaneOpClass {
                op: CrossLaneReduceOp::BitwiseOr,
                opcode: 0x7C
            })
        )
    );
    // An unknown pool function lifts to the placeholder Max; re-encoding runs the ISA check
    // (GENERATE validates what it hands out), where the average's 1/N scale fails the
    // max-pooling scale rule at the scale's byte.
    let mut b = generate_vec(&pool(), &SUNDA).unwrap()[0];
    b[0x24] = 7;
    let (at, problem) = lift_problem(&b, &SUNDA);
    assert_eq!(at, 0x28);
    assert!(
        matches!(&problem, SequenceProblem::NotEncodable(EncodeError::IsaCheck(d)) if d.rule == "pool_max_scale"),
        "{problem:?}"
    );
    // A memset element count the destination does not have.
    let mut b = generate_vec(&memset(), &CAYMAN).unwrap()[0];
    b[0x1C] = 1;
    assert_eq!(lift_problem(&b, &CAYMAN).0, 0x1C);
    // An iota whose pattern count no longer matches the destination.
    let mut b = generate_vec(&iota(), &SUNDA).unwrap()[0];
    b[0x18] = 7;
    assert!(matches!(
        lift_problem(&b, &SUNDA),
        (
            0,
            SequenceProblem::NotEncodable(EncodeError::ElementCountMismatch { .. })
        )
    ));
}

#[test]
fn assembler_rejects_malformed_generator_patterns() {
    let line = |pat: &str| {
        format!(
            "iota wait_mode=none wait_idx=0 update_mode=none update_idx=0 semaphore_value=0 \
             src_data_pattern={pat} out_dtype=i32 num_active_channels=1 channel_multiplier=0 \
             dst_mem_pattern=t4d(sb[0]+0x0;1,1,1,1;1,1,1,1)"
        )
    };
    assert!(assemble(&line("d4d(0;1,1,1,1;1,1,1,1)")).is_ok());
    for bad in [
        "d4d(0;1,1,1;1,1,1,1)",
        "d4d(x;1,1,1,1;1,1,1,1)",
        "d4d(0;1,1,1,1;1,1,1,70000)",
        "d4d(0;1,1,1,1)",
        "t4d(sb[0]+0x0;1,1,1,1;1,1,1,1)",
    ] {
        let e = assemble(&line(bad)).unwrap_err();
        assert_eq!(e.line, 1, "{bad}");
        assert!(
            e.msg.contains("d4d") || e.msg.contains("bad"),
            "{bad}: {}",
            e.msg
        );
    }
}

#[test]
fn copy_with_op_dim_x_is_valid_but_not_encoder_output() {
    // The header accepts op_dim UNUSED or X on Copy/Cast; the encoder writes UNUSED (CC
    // "+0x25 = 0"), so the X form validates but does not lift.
    let mut b = generate_vec(&copy(), &CAYMAN).unwrap()[0];
    b[0x25] = 0x02;
    assert_eq!(validate_bundle(&b, 0, &CAYMAN), vec![]);
    assert_eq!(
        lift_problem(&b, &CAYMAN),
        (
            0x25,
            SequenceProblem::Differs {
                expected: 0,
                found: 2
            }
        )
    );
}
