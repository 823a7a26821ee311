//! Negative tests of the SB2SB_COLLECTIVE, DMA_GATHER_XPOSE, TENSOR_DEQUANTIZE and
//! BATCH_NORM_BACK_PROP encoders
//! (one per error) and the lifting errors of bytes they would not write. The validator rules'
//! failing bundles are in `common::more::rule_cases` (run by `negative.rs` with every rule).

mod common;

use common::more::*;
use common::{ind, sb};
use sundial_codegen::arch::{CAYMAN, MARIANA, SUNDA, Target};
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::{
    DecodeError, EncodeError, SequenceProblem, decode_instructions, generate_vec,
};

fn err(inst: &Instruction, t: Target) -> EncodeError {
    generate_vec(inst, t.model()).expect_err("must fail")
}

#[test]
fn sb2sb_encoder_errors() {
    use Target::*;
    // 4 x 65 = 260 source elements, past the header's 256.
    let big = sb2sb(|o| {
        o.src = AccessPattern::Static(StaticAp::sbuf(
            0,
            0,
            32,
            [Dim::new(80, 4), Dim::new(1, 65)],
            Bfloat16,
        ))
    });
    assert_eq!(
        err(&big, Cayman),
        EncodeError::Sb2sbElementCount {
            slot: "src_mem_pattern",
            count: 260
        }
    );
    assert_eq!(
        err(&big, Cayman).to_string(),
        "sb2sb_collective src_mem_pattern: t3d element count 260 > 256"
    );
    let big_dst = sb2sb(|o| o.dst = sb(32, 0, 32, 257, Bfloat16));
    assert!(matches!(
        err(&big_dst, Mariana),
        EncodeError::Sb2sbElementCount {
            slot: "dst_mem_pattern",
            count: 257
        }
    ));
    // 256 is the limit, inclusive.
    assert!(generate_vec(&sb2sb(|o| o.src = sb(0, 0, 32, 256, Bfloat16)), &MARIANA).is_ok());
    // FP32R is output-only.
    assert_eq!(
        err(&sb2sb(|o| o.src = sb(0, 0, 32, 64, Float32r)), Cayman),
        EncodeError::DtypeNotEncodable(Float32r)
    );
    assert!(matches!(
        err(
            &sb2sb(|o| o.src = ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16)),
            Mariana
        ),
        EncodeError::StaticOnly(_)
    ));
    assert_eq!(
        err(&sb2sb(|o| o.src = sb(0, 0, 0, 64, Bfloat16)), Cayman),
        EncodeError::PartitionCount(0)
    );
    // Not on sunda (the seed's gpsimd_dma path is an LNC=2 mode).
    assert!(matches!(
        err(&sb2sb(|_| {}), Sunda),
        EncodeError::NotOnTarget {
            target: Sunda,
            family: sundial_codegen::arch::Family::Sb2sbCollective
        }
    ));
    // The op runs on GpSimd only.
    let mut vec_engine = sb2sb(|_| {});
    vec_engine.engine = Engine::Vector;
    assert!(matches!(
        err(&vec_engine, Cayman),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn dequant_encoder_errors() {
    assert_eq!(
        err(
            &dequant(|o| o.src = sb(0, 0, 16, 32, Float32)),
            Target::Cayman
        ),
        EncodeError::DequantDtype(Float32)
    );
    assert_eq!(
        err(&dequant(|o| o.dst = sb(0, 0, 16, 32, Int32)), Target::Sunda),
        EncodeError::DequantDtype(Int32)
    );
    assert_eq!(
        err(&dequant(|o| o.group_size = 4), Target::Mariana),
        EncodeError::DequantGroupSize(4)
    );
    assert_eq!(
        EncodeError::DequantGroupSize(4).to_string(),
        "tensor_dequantize: group_size 4 not in {0, 8}"
    );
    assert!(generate_vec(&dequant(|o| o.group_size = 0), &SUNDA).is_ok());
    let mut on_vector = dequant(|_| {});
    on_vector.engine = Engine::Vector;
    assert!(matches!(
        err(&on_vector, Target::Sunda),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn bn_back_prop_encoder_errors() {
    // A dtype whose wire code does not fit the DTYPE_PAIR nibble (mariana's FP4_EXP2 0x10).
    assert_eq!(
        err(
            &bn(|o| o.in1 = sb(0, 0x400, 32, 64, Float4E2m1fnX4)),
            Target::Mariana
        ),
        EncodeError::DtypeNotEncodable(Float4E2m1fnX4)
    );
    assert!(matches!(
        err(
            &bn(|o| o.dst = ind(0, 0x100, 0, 0x2000, 16, 64, Float32)),
            Target::Mariana
        ),
        EncodeError::StaticOnly(_)
    ));
    let mut on_pool = bn(|_| {});
    on_pool.engine = Engine::GpSimd;
    assert!(matches!(
        err(&on_pool, Target::Cayman),
        EncodeError::EngineMismatch { .. }
    ));
}

/// Bytes the encoders would not write are refused by the lifting check at the byte.
#[test]
fn lifting_refuses_what_the_encoders_do_not_write() {
    let at = |inst: &Instruction, arch, f: &dyn Fn(&mut [u8; 64])| {
        let mut b = generate_vec(inst, arch).unwrap()[0];
        f(&mut b);
        match decode_instructions(&b, arch) {
            Err(DecodeError::Sequence {
                offset, problem, ..
            }) => (offset, problem),
            other => panic!("{other:?}"),
        }
    };
    // 0x65 with an ALU op: the encoder forces BYPASS.
    let (off, p) = at(&bn(|_| {}), &CAYMAN, &|b| b[14] = 4);
    assert_eq!(off, 14);
    assert!(matches!(
        p,
        SequenceProblem::Differs {
            expected: 0,
            found: 4
        }
    ));
    // 0x7B with an fp32 out dtype: not encodable.
    let (_, p) = at(&dequant(|_| {}), &SUNDA, &|b| b[33] = 0x0A);
    assert!(matches!(
        p,
        SequenceProblem::NotEncodable(EncodeError::DequantDtype(Float32))
    ));
    // 0xBF with 257 source elements.
    let (_, p) = at(&sb2sb(|_| {}), &MARIANA, &|b| {
        b[26..28].copy_from_slice(&257u16.to_le_bytes())
    });
    assert!(matches!(
        p,
        SequenceProblem::NotEncodable(EncodeError::Sb2sbElementCount { .. })
    ));
}

#[test]
fn gather_xpose_encoder_errors() {
    use Target::*;
    assert_eq!(
        err(&gxp(|o| o.src_num[1] = 0), Cayman),
        EncodeError::DmaZero("src_num_elem")
    );
    assert_eq!(
        err(&gxp(|o| o.dst_num[0] = 0), Mariana),
        EncodeError::DmaZero("dst_num_elem")
    );
    assert_eq!(
        err(&gxp(|o| o.elem_size = 0), Cayman),
        EncodeError::DmaZero("elem_size")
    );
    assert_eq!(
        err(&gxp(|o| o.gather_dim = 4), Cayman),
        EncodeError::GatherXposeDim(4)
    );
    assert_eq!(
        err(&gxp(|o| o.dst_addr = 1 << 48), Mariana),
        EncodeError::Addr8OutOfRange(1 << 48)
    );
    assert!(matches!(
        err(
            &gxp(|o| o.src_idx = common::pe_dma::sbuf_start(0, 0x42)),
            Cayman
        ),
        EncodeError::DmaIndirectIndex(_)
    ));
    assert!(matches!(
        err(
            &gxp(|o| o.src_idx = common::pe_dma::sbuf_start(1, 0)),
            Cayman
        ),
        EncodeError::DmaIndirectIndex(_)
    ));
    let bad = BoundCheckReg {
        enabled: true,
        reg: 64,
        disable_oob_error_notif: false,
    };
    assert_eq!(
        err(&gxp(|o| o.dst_bound_reg = bad), Cayman),
        EncodeError::BoundCheckReg(bad)
    );
    assert_eq!(
        err(&gxp(|o| o.priority_class = 5), Mariana),
        EncodeError::DmaPriorityClass(5)
    );
    assert_eq!(
        err(&gxp(|o| o.in_dtype = Float32r), Cayman),
        EncodeError::DtypeNotEncodable(Float32r)
    );
    // NC-v3+: not on sunda.
    assert!(matches!(
        err(&gxp(|_| {}), Sunda),
        EncodeError::NotOnTarget { target: Sunda, .. }
    ));
    // A register-mode index is accepted.
    assert!(generate_vec(&gxp(|o| o.src_idx = Start::Reg(7)), &CAYMAN).is_ok());
}
