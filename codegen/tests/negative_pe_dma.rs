//! Negative tests of the PE, DMA and event encoders (one per error), the target-layout check of
//! the stream assembler, and the lifting errors of their sequences. The validator rules' failing
//! bundles are in `common::pe_dma::rule_cases` (run by `negative.rs` with every other rule).

mod common;

use common::pe_dma::*;
use sundial_codegen::arch::{CAYMAN, MARIANA, SUNDA, Target};
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::{BirUpdateMode, BirWaitMode};
use sundial_codegen::model::*;
use sundial_codegen::text::{assemble_on, assemble_stream};
use sundial_codegen::{
    DecodeError, EncodeError, SequenceProblem, decode_instructions, generate_vec,
};

fn err(inst: &Instruction, t: Target) -> EncodeError {
    generate_vec(inst, t.model()).expect_err("must fail")
}

#[test]
fn matmul_encoder_errors() {
    use Target::*;
    // col_grp 0x8 (PSUM quadrant 3) has no xbus_sel on the v3 layout; mariana has no xbus byte.
    let q3 = mm(|m| m.dst = ps1(96, 0, 32, 128, Float32));
    assert!(matches!(err(&q3, Cayman), EncodeError::Unpinned { .. }));
    assert_eq!(
        err(&q3, Cayman).to_string(),
        "matmul: unpinned: xbus_sel of col_grp 0x8 (PSUM quadrant 3: the header table says NOT SUPPORTED)"
    );
    assert!(generate_vec(&q3, &MARIANA).is_ok());
    // Codes no source gives: a perf mode, a v3 transpose, a mariana quant_offset.
    let unpinned = |i: Instruction, t| matches!(err(&i, t), EncodeError::Unpinned { .. });
    assert!(unpinned(
        mm(|m| m.perf_opt = PerfOptMode::DoubleRow),
        Mariana
    ));
    assert!(unpinned(mm(|m| m.transpose = true), Sunda));
    assert!(unpinned(mm(|m| m.quant_offset = 1), Mariana));
    assert!(generate_vec(&mm(|m| m.quant_offset = 1), &CAYMAN).is_ok());
    let upd = mm(|_| {}).with_sync(SyncInfo {
        wait: None,
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemInc,
            sem: 1,
            value: 0,
        }),
    });
    assert_eq!(err(&upd, Sunda), EncodeError::MatmulSyncUpdate);
    assert_eq!(
        err(&mm(|m| m.psum_accumulate_flags = 5), Cayman),
        EncodeError::PsumAccumulateFlags(5)
    );
    assert_eq!(
        err(&mm(|m| m.psum_zero_region = 1), Cayman),
        EncodeError::PsumZeroRegion {
            value: 1,
            target: Cayman
        }
    );
    assert_eq!(
        err(&mm(|m| m.psum_zero_region = 4), Mariana),
        EncodeError::PsumZeroRegion {
            value: 4,
            target: Mariana
        }
    );
    let shape = |m: Instruction| matches!(err(&m, Sunda), EncodeError::MatmulShape(_));
    assert!(shape(mm(|m| m.weights = sb1(0, 0x100, 32, 32, Bfloat16))));
    assert!(shape(mm(|m| m.weights = sb1(0, 0x100, 64, 200, Bfloat16))));
    assert!(shape(mm(|m| m.dst = ps1(0, 0, 16, 128, Float32))));
    assert_eq!(
        err(&mm(|m| m.weights = ps1(0, 0x100, 64, 32, Bfloat16)), Sunda),
        EncodeError::MatmulSpace("weights")
    );
    assert_eq!(
        err(&mm(|m| m.dst = sb1(0, 0, 32, 128, Float32)), Sunda),
        EncodeError::MatmulSpace("dst")
    );
    let reg = mm(|m| {
        m.moving = AccessPattern::Static(StaticAp {
            start: Start::Reg(3),
            partitions: 64,
            dims: [Dim::new(1, 128)].into(),
            dtype: Bfloat16,
            parent: 0,
        })
    });
    assert_eq!(err(&reg, Sunda), EncodeError::MatmulSpace("moving"));
    assert_eq!(
        err(&mm(|m| m.dst = ps1(0, 0, 32, 128, Bfloat16)), Sunda),
        EncodeError::MatmulDstDtype(Bfloat16)
    );
    assert_eq!(
        err(&mm(|m| m.moving = sb1(0, 0x200, 64, 128, Float32)), Sunda),
        EncodeError::Fp32Mode {
            mode: PeFp32Mode::None,
            dtype: Float32
        }
    );
    assert_eq!(
        err(&mm(|m| m.fp32_mode = PeFp32Mode::Low), Sunda),
        EncodeError::Fp32Mode {
            mode: PeFp32Mode::Low,
            dtype: Bfloat16
        }
    );
    assert_eq!(
        err(&mm(|m| m.weights = sb1(16, 0x100, 64, 32, Bfloat16)), Sunda),
        EncodeError::PeGroup { start: 16, end: 80 }
    );
    let ind = common::ind(0, 0x200, 0, 0x1000, 64, 32, Bfloat16);
    assert!(matches!(
        err(&mm(|m| m.weights = ind), Mariana),
        EncodeError::StaticOnly(_)
    ));
    let mut wrong_engine = mm(|_| {});
    wrong_engine.engine = Engine::Vector;
    assert!(matches!(
        err(&wrong_engine, Sunda),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn dma_encoder_errors() {
    use Target::*;
    assert_eq!(
        err(&d2d(|d| d.src.addr = 1 << 48), Sunda),
        EncodeError::Addr8OutOfRange(1 << 48)
    );
    assert_eq!(
        err(&d2d(|d| d.dst.num[1] = 3), Sunda),
        EncodeError::DmaMemcpySize { src: 512, dst: 768 }
    );
    // A compute DMA is not a memcpy: the sizes may differ.
    assert!(
        generate_vec(
            &d2d(|d| {
                d.dst.num[1] = 3;
                d.compute_op = DgeComputeOp::Add;
            }),
            &SUNDA
        )
        .is_ok()
    );
    assert_eq!(
        err(&d2d(|d| d.src.num[0] = 0), Cayman),
        EncodeError::DmaZero("src_num_elem")
    );
    assert_eq!(
        err(&d2d(|d| d.dst.elem_size = 0), Cayman),
        EncodeError::DmaZero("dst_elem_size")
    );
    assert_eq!(
        err(&d2d(|d| d.completion.priority_class = 5), Sunda),
        EncodeError::DmaPriorityClass(5)
    );
    let r64 = BoundCheckReg {
        enabled: true,
        reg: 64,
        disable_oob_error_notif: false,
    };
    assert_eq!(
        err(&d2d(|d| d.src_bound_reg = r64), Sunda),
        EncodeError::BoundCheckReg(r64)
    );
    let off_with_reg = BoundCheckReg {
        enabled: false,
        reg: 3,
        disable_oob_error_notif: false,
    };
    assert_eq!(
        err(&dind(|d| d.dst_idx_bound_reg = off_with_reg), Sunda),
        EncodeError::BoundCheckReg(off_with_reg)
    );
    let noerr = BoundCheckReg {
        enabled: true,
        reg: 2,
        disable_oob_error_notif: true,
    };
    assert_eq!(
        err(
            &dind(|d| {
                d.src_idx_bound_reg = noerr;
                d.idx_bound_is_err = false;
            }),
            Sunda
        ),
        EncodeError::BoundCheckReg(noerr)
    );
    assert_eq!(
        err(&dind(|d| d.src.num = 4097), Sunda),
        EncodeError::DmaIndirectNum(4097)
    );
    assert_eq!(
        err(&dind(|d| d.dst.num = 0), Sunda),
        EncodeError::DmaZero("dst_num_elem")
    );
    assert_eq!(
        err(&dind(|d| d.dst.addr = u64::MAX), Mariana),
        EncodeError::Addr8OutOfRange(u64::MAX)
    );
    let idx = |d: Instruction| matches!(err(&d, Sunda), EncodeError::DmaIndirectIndex(_));
    assert!(idx(dind(|d| d.src_idx = sbuf_start(0, 0x42))));
    assert!(idx(dind(|d| d.src_idx = sbuf_start(1, 0))));
    assert!(idx(dind(|d| d.dst_idx = Start::Reg(3))));
    // A register index vector is legal.
    assert!(generate_vec(&dind(|d| d.src_idx = Start::Reg(3)), &SUNDA).is_ok());
    assert_eq!(
        err(&dind(|d| d.completion.priority_class = 7), Sunda),
        EncodeError::DmaPriorityClass(7)
    );
}

#[test]
fn event_semaphore_errors() {
    let with_sync = es(|_| {}).with_sync(SyncInfo {
        wait: Some(SyncWait {
            mode: BirWaitMode::SemGeImm,
            sem: 1,
            value: 1,
        }),
        update: None,
    });
    assert_eq!(
        err(&with_sync, Target::Sunda),
        EncodeError::EventSemaphoreSync
    );
    // Any engine issues it.
    let mut on_pe = es(|_| {});
    on_pe.engine = Engine::Tensor;
    assert!(generate_vec(&on_pe, &CAYMAN).is_ok());
}

#[test]
fn stream_assembler_refuses_the_other_layout() {
    let v3 = "matmul src_mem_pattern=t3d(sb[0]+0x200;1,1,1;128,1,1) in_dtype=bf16 \
              fp32_mode=none perf_opt=none quant_offset=0 num_active_rows=64 num_active_cols=32 \
              psum_accumulate_flags=3 row_grp=3 col_grp=1 xbus_sel=1 psum_zero_region=0 \
              dst_mem_pattern=t3d(ps[0]+0x0;1,1,1;128,1,1)";
    assert!(assemble_on(v3, &CAYMAN).is_ok());
    let e = assemble_on(&format!("# x\n  {v3}"), &MARIANA).unwrap_err();
    assert_eq!((e.line, e.col), (2, 3));
    assert_eq!(
        e.msg,
        "`matmul` is not the mariana layout of opcode 0x02; write `matmul_v4`"
    );
    assert!(assemble_stream(v3, &MARIANA).is_err());
}

#[test]
fn lifting_errors() {
    let b: Vec<u8> = generate_vec(&mm(|_| {}), &CAYMAN).unwrap().concat();
    // A MATMUL without its LDWEIGHTS, an LDWEIGHTS without its MATMUL.
    assert!(matches!(
        decode_instructions(&b[64..], &CAYMAN),
        Err(DecodeError::Sequence {
            problem: SequenceProblem::Orphan(0x02),
            ..
        })
    ));
    assert!(matches!(
        decode_instructions(&b[..64], &CAYMAN),
        Err(DecodeError::Sequence {
            problem: SequenceProblem::Unpaired {
                opcode: 0x01,
                expected: 0x02,
                found: None
            },
            ..
        })
    ));
    // Cayman bytes read with mariana's layout: xbus_sel (+0x2E) is reserved there.
    assert!(decode_instructions(&b, &MARIANA).is_err());
    // A sync band byte on MATMUL is not encoder output.
    let mut c = b.clone();
    c[64 + 6] = 0x13;
    assert!(matches!(
        decode_instructions(&c, &CAYMAN),
        Err(DecodeError::Sequence {
            bundle: 1,
            offset: 70,
            ..
        })
    ));
}

#[test]
fn mx_encoder_errors() {
    use Target::*;
    // MX is mariana-only.
    for t in [Sunda, Cayman] {
        assert!(matches!(
            err(&qmx(|_| {}), t),
            EncodeError::NotOnTarget { .. }
        ));
        assert!(matches!(
            err(&mmx(|_| {}), t),
            EncodeError::NotOnTarget { .. }
        ));
    }
    let q = |f: fn(&mut QuantizeMx)| matches!(err(&qmx(f), Mariana), EncodeError::QuantizeMx(_));
    assert!(q(|o| o.src = sb1(0, 0x100, 48, 64, Bfloat16)));
    assert!(q(|o| o.src = sb1(0, 0x100, 32, 64, Float32)));
    assert!(q(|o| o.dst = sb1(0, 0x4000, 32, 64, Bfloat16)));
    assert!(q(|o| o.src = ps1(0, 0x100, 32, 64, Bfloat16)));
    assert_eq!(
        err(&qmx(|o| o.src = sb1(0, 0x100, 48, 64, Bfloat16)), Mariana).to_string(),
        "quantize_mx: num_active_channels must be 32, 64, 96 or 128"
    );
    // The MX scale rules of the shared resolver.
    assert_eq!(
        err(
            &qmx(|o| o.dst_scale = ps1(0, 0, 32, 1, Float8E8m0fnu)),
            Mariana
        ),
        EncodeError::MxScaleNotSbuf
    );
    let m = |f: fn(&mut MatmulMx)| err(&mmx(f), Mariana);
    assert!(matches!(
        m(|o| o.weights = sb1(0, 0x1000, 64, 64, Float8e4)),
        EncodeError::MatmulShape(_)
    ));
    assert_eq!(
        m(|o| o.dst = ps1(0, 0, 64, 32, Bfloat16)),
        EncodeError::MatmulDstDtype(Bfloat16)
    );
    assert_eq!(
        m(|o| o.psum_accumulate_flags = 7),
        EncodeError::PsumAccumulateFlags(7)
    );
    assert_eq!(
        m(|o| o.dst = sb1(0, 0, 64, 32, Float32)),
        EncodeError::MatmulSpace("dst")
    );
    assert_eq!(
        m(|o| o.weights = sb1(8, 0x1000, 32, 64, Float8e4)),
        EncodeError::PeGroup { start: 8, end: 40 }
    );
    // The moving scale lost its indirection: MX assert #3.
    assert_eq!(
        m(|o| o.moving_scale = sb0(5, 0x40, 32, Float8E8m0fnu).into()),
        EncodeError::MxScaleNotIndirect
    );
    let upd = mmx(|_| {}).with_sync(SyncInfo {
        wait: None,
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemDec,
            sem: 0,
            value: 0,
        }),
    });
    assert_eq!(err(&upd, Mariana), EncodeError::MatmulSyncUpdate);
}

#[test]
fn mx_lifting_errors() {
    let b: Vec<u8> = generate_vec(&mmx(|_| {}), &MARIANA).unwrap().concat();
    assert!(matches!(
        decode_instructions(&b[64..], &MARIANA),
        Err(DecodeError::Sequence {
            problem: SequenceProblem::Orphan(0x0A),
            ..
        })
    ));
    assert!(matches!(
        decode_instructions(&b[..64], &MARIANA),
        Err(DecodeError::Sequence {
            problem: SequenceProblem::Unpaired { opcode: 0x09, .. },
            ..
        })
    ));
    // MX bundles do not lift on cayman (no MX family there).
    assert!(decode_instructions(&b, &CAYMAN).is_err());
}

#[test]
fn fp32r_inputs() {
    // An fp32r moving operand is the fp32 tag with fp32_mode High (CC word 0x020A at +0x20).
    let ok = mm(|m| {
        m.moving = sb1(0, 0x200, 64, 128, Float32r);
        m.fp32_mode = PeFp32Mode::High;
    });
    let b = generate_vec(&ok, &CAYMAN).unwrap();
    assert_eq!((b[1][0x20], b[1][0x21]), (0x0A, 0x02));
    let lifted = decode_instructions(&b.concat(), &CAYMAN).unwrap();
    let Op::Matmul(l) = &lifted[0].op else {
        panic!("a matmul")
    };
    assert_eq!(l.moving.dtype(), Float32);
    let low = mm(|m| {
        m.moving = sb1(0, 0x200, 64, 128, Float32r);
        m.fp32_mode = PeFp32Mode::Low;
    });
    assert_eq!(
        err(&low, Target::Cayman),
        EncodeError::Fp32Mode {
            mode: PeFp32Mode::Low,
            dtype: Float32r
        }
    );
    // FP32R is output-only in every other in_dtype field.
    assert_eq!(
        err(&d2d(|d| d.in_dtype = Float32r), Target::Sunda),
        EncodeError::DtypeNotEncodable(Float32r)
    );
    assert_eq!(
        err(&dind(|d| d.in_dtype = Float32r), Target::Sunda),
        EncodeError::DtypeNotEncodable(Float32r)
    );
    assert_eq!(
        err(
            &mmx(|m| m.weights = sb1(0, 0x1000, 32, 64, Float32r)),
            Target::Mariana
        ),
        EncodeError::DtypeNotEncodable(Float32r)
    );
}

#[test]
fn mx_slot_text_errors() {
    let line = |slot: &str| {
        format!(
            "quantize_mx wait_mode=none wait_idx=0 update_mode=none update_idx=0 \
             semaphore_value=0 src_mem_pattern=t3d(sb[0]+0x100;1,1,1;64,1,1) \
             num_active_channels=32 in_dtype=bf16 out_dtype=fp8e4 dst_mem_pattern={slot}"
        )
    };
    assert!(assemble_on(&line("mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x01;0)"), &MARIANA).is_ok());
    for bad in [
        "mx2d(sb[0]+0x4000;sb[0]+0x8000;64;0x01;0)",
        "mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x01;0",
        "mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x01)",
        "mx1d(sb[0]+0x4000;sb[0]+0x8000;70000;0x01;0)",
        "mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x100;0)",
        "mx1d(sb[0]+0x4000!ind;sb[0]+0x8000;64;0x01;0)",
        "mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x01;0;rsv=12)",
        "mxi16b(sb[0]+0x3000!ind;sb[0]+0x2000;sb[0]+0x40;16;5)",
        "mxi16b(sb[0]+0x3000;sb[0]+0x2000;sb[0]+0x40;16;5;junk=00)",
    ] {
        let e = assemble_on(&line(bad), &MARIANA).unwrap_err();
        assert_eq!(e.line, 1, "{bad}: {e}");
    }
}
