//! Negative tests: every spec assert (an `Err` with the spec's string, never a panic), every
//! other encoder error, every validator rule (one mutated bundle each, and a check that the
//! list covers all of `RULES`), and the decoder / assembler errors.

mod common;
// 4D-slot compute samples and rule cases.
#[path = "compute4d/cases.rs"]
mod compute4d_cases;

use std::collections::BTreeSet;

use common::*;
use sundial_codegen::arch::{ArchModel, CAYMAN, Family, FamilySet, MARIANA, SUNDA, Target};
use sundial_codegen::bundle::Bundle;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode};
use sundial_codegen::indirect::*;
use sundial_codegen::model::*;
use sundial_codegen::text::{StreamError, assemble, assemble_stream, disassemble_stream};
use sundial_codegen::validate::{RULES, mxmem1d_valid, validate_bundle};
use sundial_codegen::{
    DecodeError, EncodeError, OpcodeSet, SequenceProblem, collect, decode_instructions, generate,
    generate_append, generate_vec,
};

// ---------------------------------------------------------------- instruction builders

fn shuffle(src: AccessPattern, mask: Vec<u8>) -> Instruction {
    Instruction::new(Op::StreamShuffle(StreamShuffle {
        src,
        dst: sb(8, 0, 8, 32, Bfloat16),
        mask,
    }))
}

fn transpose(src: AccessPattern, dst_parts: u32, mask: Vec<u8>) -> Instruction {
    Instruction::new(Op::StreamTranspose(StreamTranspose {
        src,
        dst: sb(32, 0, dst_parts, 16, Float32),
        mask,
    }))
}

fn gather(data: AccessPattern, index: AccessPattern) -> Instruction {
    Instruction::new(Op::Gather(Gather {
        data,
        index,
        dst: sb(0, 0x8000, 16, 100, Float32),
    }))
}

fn dropout(src: AccessPattern) -> Instruction {
    Instruction::new(Op::Dropout(Dropout {
        src,
        dst: sb(64, 0x100, 64, 128, Bfloat16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    }))
}

fn icopy(src: AccessPattern) -> Instruction {
    Instruction::new(Op::IndirectCopy(IndirectCopy {
        src,
        dst: sb(16, 0, 16, 64, Bfloat16),
        num_elem_per_idx: 1,
        src_buffer_size: 256,
    }))
}

/// A dropout whose wait threshold (2) and update value (3) collide in the shared +0x08 dword.
fn sync_value_conflict() -> Instruction {
    dropout(sb(0, 0, 64, 128, Bfloat16)).with_sync(SyncInfo {
        wait: Some(SyncWait {
            mode: BirWaitMode::SemGeImm,
            sem: 1,
            value: 2,
        }),
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemWrImm,
            sem: 1,
            value: 3,
        }),
    })
}

/// A Gather over 2^48 indices: it would lower to 2^40 bundles.
fn huge_gather() -> Instruction {
    gather(
        sb(0, 0, 16, 64, Float32),
        sbd(
            0,
            0x4000,
            16,
            [Dim::new(1, 65535), Dim::new(1, 65535), Dim::new(1, 65535)],
            Uint32,
        ),
    )
}

fn err(inst: &Instruction, arch: &ArchModel) -> EncodeError {
    generate_vec(inst, arch).expect_err("must fail")
}

fn with_index_start(mut ap: AccessPattern, s: Start) -> AccessPattern {
    if let AccessPattern::TensorIndirect(i) = &mut ap {
        i.index.start = s;
    }
    ap
}

fn with_data_start(mut ap: AccessPattern, s: Start) -> AccessPattern {
    if let AccessPattern::TensorIndirect(i) = &mut ap {
        i.data.start = s;
    }
    ap
}

fn mx(d: BirDtype, parent: InstId, arg: u32, num: u32) -> AccessPattern {
    AccessPattern::TensorIndirect(IndirectAp {
        data: StaticAp::sbuf(1, 0x80, 32, [], d).with_parent(parent),
        index: StaticAp::sbuf(0, 0, 32, [], Uint32),
        num_indirect_indices: num,
        index_arg_id: arg,
    })
}

// ---------------------------------------------------------------- spec asserts

#[test]
fn assert_indices_dynamic_offset() {
    let ap = with_index_start(ind(0, 0x200, 0, 0x1000, 64, 128, Bfloat16), Start::Reg(3));
    let e = err(&dropout(ap.clone()), &MARIANA);
    assert_eq!(e, EncodeError::IndicesDynamicOffset);
    assert_eq!(
        e.to_string(),
        "TODO: support Tensor Indirect Indices AP to have dynamic offset"
    );
    assert_eq!(
        assign_access_4d(&mut [0; 20], &ap, &MARIANA),
        Err(EncodeError::IndicesDynamicOffset)
    );
    let data = with_index_start(mx(Float8E4m3fnX4, 7, 1, 4), Start::Reg(3));
    let e =
        assign_indirect_pattern_for_mx(&mut [0; 16], &data, &mx(Float8E8m0fnu, 7, 1, 4), &MARIANA);
    assert_eq!(e, Err(EncodeError::IndicesDynamicOffset));
}

#[test]
fn assert_data_dynamic_offset() {
    let ap = with_data_start(ind(0, 0x200, 0, 0x1000, 64, 128, Bfloat16), Start::Reg(9));
    let e = assign_access_3d(&mut [0; 16], &ap, &MARIANA).unwrap_err();
    assert_eq!(
        e.to_string(),
        "TODO: support Tensor Indirect Data AP to have dynamic offset"
    );
    let data = with_data_start(mx(Float8E4m3fnX4, 7, 1, 4), Start::Reg(1));
    let e =
        assign_indirect_pattern_for_mx(&mut [0; 16], &data, &mx(Float8E8m0fnu, 7, 1, 4), &MARIANA);
    assert_eq!(e, Err(EncodeError::DataDynamicOffset));
}

#[test]
fn assert_mx_scale_dynamic_offset() {
    let scale = with_data_start(mx(Float8E8m0fnu, 7, 1, 4), Start::Reg(2));
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float8E4m3fnX4, 7, 1, 4),
        &scale,
        &MARIANA,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "TODO: support MX scale AP to have dynamic offset"
    );
}

#[test]
fn assert_mx_parent_mismatch() {
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float8E4m3fnX4, 7, 1, 4),
        &mx(Float8E8m0fnu, 8, 1, 4),
        &MARIANA,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "MX DataAP and ScaleAP are not from the same parent instruction"
    );
}

#[test]
fn assert_mx_data_not_indirect() {
    let data = AccessPattern::Static(StaticAp::sbuf(1, 0, 32, [], Float8E4m3fnX4).with_parent(7));
    let e =
        assign_indirect_pattern_for_mx(&mut [0; 16], &data, &mx(Float8E8m0fnu, 7, 1, 4), &MARIANA)
            .unwrap_err();
    assert_eq!(e.to_string(), "DataAP must be a Tensor Indirect AP");
}

#[test]
fn assert_mx_scale_not_indirect() {
    let scale = AccessPattern::Static(StaticAp::sbuf(1, 0, 32, [], Float8E8m0fnu).with_parent(7));
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float8E4m3fnX4, 7, 1, 4),
        &scale,
        &MARIANA,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "If the argument of matmult MX is indirect, the corresponding scale should also have indirection"
    );
}

#[test]
fn assert_mx_scale_indirection_mismatch() {
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float8E4m3fnX4, 7, 1, 4),
        &mx(Float8E8m0fnu, 7, 2, 4),
        &MARIANA,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Furthermore, the corresponding scale must have exactly the same indirection as the argument"
    );
}

#[test]
fn assert_mask_size() {
    let e = err(
        &shuffle(sb(0, 0, 8, 32, Bfloat16), (0..31).collect()),
        &MARIANA,
    );
    assert_eq!(e.to_string(), "Mask.size() == 32");
    // The wide transpose needs the mask too; the narrow one does not.
    assert_eq!(
        err(&transpose(sb(0, 0, 32, 16, Float32), 32, vec![]), &MARIANA),
        EncodeError::MaskSize
    );
    assert!(generate_vec(&transpose(sb(0, 0, 16, 16, Float32), 16, vec![]), &MARIANA).is_ok());
}

#[test]
fn assert_stream_transpose_indirect_src() {
    let e = err(
        &transpose(ind(0, 0, 0, 0x100, 16, 16, Float32), 16, vec![]),
        &MARIANA,
    );
    assert_eq!(
        e.to_string(),
        "STREAM_TRANSPOSE cannot have TensorIndirect AP as src"
    );
}

#[test]
fn assert_stream_transpose_num_elem3() {
    let four = [
        Dim::new(1, 2),
        Dim::new(2, 2),
        Dim::new(4, 2),
        Dim::new(8, 2),
    ];
    let e = err(
        &transpose(sbd(0, 0, 16, four, Float32), 16, vec![]),
        &MARIANA,
    );
    assert_eq!(e.to_string(), "instr.src_mem_pattern.num_elem[3] == 1");
}

#[test]
fn assert_pool_buffer_load_indirect() {
    let e = err(
        &gather(
            ind(0, 0, 0, 0x100, 16, 16, Float32),
            sb(0, 0x4000, 16, 100, Uint32),
        ),
        &MARIANA,
    );
    assert_eq!(
        e.to_string(),
        "TODO: support POOL_BUFFER_LOAD with TensorIndirect AP once ISA supports it"
    );
    let e = err(
        &gather(
            sb(0, 0, 16, 64, Float32),
            ind(0, 0, 0, 0x100, 16, 16, Uint32),
        ),
        &MARIANA,
    );
    assert_eq!(e, EncodeError::PoolBufferLoadIndirect);
}

#[test]
fn assert_indirect_copy_static_src() {
    let e = err(&icopy(sb(0, 0, 16, 64, Bfloat16)), &SUNDA);
    assert_eq!(
        e.to_string(),
        "INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not …"
    );
}

#[test]
fn range_select_upper_bound_is_raw() {
    // The seed's +0x14 is the upper bound as given: -1.0 encodes (the header's forced -FLT_MAX
    // fill_val is not the seed's field).
    let b = generate_vec(&rsel(|r| r.upper_bound = -1.0), &CAYMAN).unwrap();
    assert_eq!(&b[0][0x14..0x18], &(-1.0f32).to_bits().to_le_bytes());
    assert_eq!(validate_bundle(&b[0], 0, &CAYMAN), vec![]);
}

#[test]
fn assert_in_num_eles_eq_out() {
    let e = err(&rsel(|r| r.dst = sb(0, 0x400, 32, 32, Float32)), &CAYMAN);
    assert_eq!(e.to_string(), "inNumEles == outNumEles");
}

#[test]
fn guard_transpose_zero_count() {
    let e = err(
        &shuffle(ind(0, 0, 0, 0x100, 8, 0, Bfloat16), (0..32).collect()),
        &MARIANA,
    );
    assert_eq!(e, EncodeError::TransposeZeroCount);
}

// ---------------------------------------------------------------- other encoder errors

#[test]
fn family_and_engine_gates() {
    let rs = rsel(|_| {});
    assert_eq!(
        err(&rs, &MARIANA),
        EncodeError::NotOnTarget {
            target: Target::Mariana,
            family: Family::RangeSelect
        }
    );
    assert_eq!(
        err(&rs, &SUNDA),
        EncodeError::NotOnTarget {
            target: Target::Sunda,
            family: Family::RangeSelect
        }
    );
    assert!(collect(&rs, &SUNDA, &mut OpcodeSet::default()).is_err());
    let d = dropout(ind(0, 0x200, 0, 0x1000, 64, 128, Bfloat16));
    assert_eq!(
        err(&d, &CAYMAN),
        EncodeError::NotOnTarget {
            target: Target::Cayman,
            family: Family::TensorIndirect
        }
    );
    let mut slot = [0u8; 16];
    assert!(matches!(
        assign_indirect_pattern_for_mx(
            &mut slot,
            &mx(Float8E4m3fnX4, 7, 1, 4),
            &mx(Float8E8m0fnu, 7, 1, 4),
            &CAYMAN
        ),
        Err(EncodeError::NotOnTarget {
            family: Family::Mx,
            ..
        })
    ));
    let mut g = dropout(sb(0, 0, 64, 128, Bfloat16));
    g.engine = Engine::GpSimd;
    assert!(matches!(
        err(&g, &SUNDA),
        EncodeError::EngineMismatch { .. }
    ));
}

#[test]
fn access_pattern_errors() {
    let four = [
        Dim::new(1, 2),
        Dim::new(2, 2),
        Dim::new(4, 2),
        Dim::new(8, 2),
    ];
    assert_eq!(
        err(&dropout(sbd(0, 0, 64, four, Bfloat16)), &SUNDA),
        EncodeError::TooManyDims { n: 3, found: 4 }
    );
    assert_eq!(
        err(&dropout(sb(0, 0, 64, 0, Bfloat16)), &SUNDA),
        EncodeError::ZeroNumElem
    );
    assert!(matches!(
        err(&dropout(sb(0, 192 * 1024, 64, 8, Bfloat16)), &SUNDA),
        EncodeError::AddressOutsideWindow { .. }
    ));
    // The same offset is legal where the partition is 256 KiB.
    assert!(generate_vec(&dropout(sb(0, 192 * 1024, 64, 128, Bfloat16)), &MARIANA).is_ok());
    assert_eq!(
        err(&dropout(sb(1, u32::MAX, 64, 8, Bfloat16)), &SUNDA),
        EncodeError::AddressOutOfU32
    );
    let reg = AccessPattern::Static(StaticAp {
        start: Start::Reg(64),
        ..StaticAp::sbuf(0, 0, 64, [], Bfloat16)
    });
    assert_eq!(
        err(&dropout(reg), &SUNDA),
        EncodeError::RegisterOutOfRange(64)
    );
    assert_eq!(
        err(&dropout(sb(0, 0, 0, 8, Bfloat16)), &SUNDA),
        EncodeError::PartitionCount(0)
    );
    assert_eq!(
        err(&dropout(sb(0, 0, 129, 8, Bfloat16)), &SUNDA),
        EncodeError::PartitionCount(129)
    );
    let rs = rsel(|r| r.src = ind(0, 0, 0, 0x100, 32, 64, Float32));
    assert!(matches!(err(&rs, &CAYMAN), EncodeError::StaticOnly(_)));
}

#[test]
fn mx_errors() {
    // x4 count overflowing the u16 field.
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float4E2m1fnX4, 7, 1, 20000),
        &mx(Float8E8m0fnu, 7, 1, 4),
        &MARIANA,
    );
    assert_eq!(e, Err(EncodeError::CountOverflow(80000)));
    // Scale in PSUM.
    let mut scale = mx(Float8E8m0fnu, 7, 1, 4);
    if let AccessPattern::TensorIndirect(i) = &mut scale {
        i.data = StaticAp::psum(0, 0, 1, [], Float8E8m0fnu).with_parent(7);
    }
    let e = assign_indirect_pattern_for_mx(
        &mut [0; 16],
        &mx(Float8E4m3fnX4, 7, 1, 4),
        &scale,
        &MARIANA,
    );
    assert_eq!(
        e.map_err(|e| e.to_string()),
        Err("MX Scale Tensor can only be in SB".into())
    );
    // Static MX needs 1-D, step +-1.
    let d2 = AccessPattern::Static(StaticAp::sbuf(0, 0, 1, [Dim::new(2, 4)], Float8E4m3fnX4));
    let sc = AccessPattern::Static(StaticAp::sbuf(0, 0, 1, [], Float8E8m0fnu));
    assert_eq!(
        assign_access_for_mx(&mut [0; 16], &d2, &sc, &MARIANA),
        Err(EncodeError::MxStaticShape)
    );
}

#[test]
fn field_encoding_errors() {
    assert_eq!(
        err(&rsel(|r| r.comp_op0 = BirAluOp::Add), &CAYMAN),
        EncodeError::AluNotEncodable(BirAluOp::Add)
    );
    assert_eq!(
        err(
            &rsel(|r| r.reduce_cmd = BirAccumulation::Accumulate),
            &CAYMAN
        ),
        EncodeError::AccumNotEncodable(BirAccumulation::Accumulate)
    );
    // A CoreV4 model that had RangeSelect: fp4 (wire 0x10) does not fit a DTYPE_PAIR nibble.
    const WITH_RS: FamilySet = FamilySet::of(&[Family::RangeSelect]);
    let v4rs = ArchModel {
        families: WITH_RS,
        ..MARIANA.clone()
    };
    let e = err(&rsel(|r| r.src = sb(0, 0, 32, 64, Float4E2m1fnX4)), &v4rs);
    assert_eq!(e, EncodeError::DtypeNotEncodable(Float4E2m1fnX4));
    // Wait threshold and update value collide in the shared +0x08 dword.
    let inst = sync_value_conflict();
    assert_eq!(
        err(&inst, &SUNDA),
        EncodeError::SyncValueConflict { wait: 2, update: 3 }
    );
    // A Gather over 2^48 indices would lower to 2^40 bundles: refused before allocating.
    let huge = huge_gather();
    assert!(matches!(
        generate_vec(&huge, &MARIANA),
        Err(EncodeError::TooManyBundles { limit: 65536, .. })
    ));
    let mut small = [[0u8; 64]; 1];
    let e = generate(&rsel(|_| {}), &CAYMAN, &mut small);
    assert_eq!(
        e,
        Err(EncodeError::OutputFull {
            needed: 2,
            available: 1
        })
    );
}

/// `generate_append` (how a stream is emitted): a failed instruction leaves the stream as it
/// was, whether it fails before the stream grows (too many bundles) or while encoding (an
/// encoder assert); a good one appends exactly GENERATE's bundles.
#[test]
fn generate_append_keeps_the_stream_on_failure() {
    let good = rsel(|_| {});
    let mut stream = generate_vec(&good, &CAYMAN).unwrap();
    let before = stream.clone();
    let conflict = sync_value_conflict();
    assert_eq!(
        generate_append(&conflict, &SUNDA, &mut stream),
        Err(EncodeError::SyncValueConflict { wait: 2, update: 3 })
    );
    assert_eq!(stream, before);
    let huge = huge_gather();
    assert!(matches!(
        generate_append(&huge, &MARIANA, &mut stream),
        Err(EncodeError::TooManyBundles { limit: 65536, .. })
    ));
    assert_eq!(stream, before);
    assert_eq!(
        generate_append(&good, &CAYMAN, &mut stream),
        Ok(before.len())
    );
    assert_eq!(stream, [before.clone(), before].concat());
}

// ---------------------------------------------------------------- validator rules

fn base(inst: &Instruction, t: Target, k: usize) -> Bundle {
    generate_vec(inst, t.model()).unwrap()[k]
}

struct Case {
    rule: &'static str,
    offset: usize,
    target: Target,
    bundle: Bundle,
}

fn put32(b: &mut Bundle, off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let mut add = |rule, offset, target, inst: &Instruction, k: usize, f: &dyn Fn(&mut Bundle)| {
        let mut b = base(inst, target, k);
        assert_eq!(
            validate_bundle(&b, 0, target.model()),
            vec![],
            "base of {rule} must be valid"
        );
        f(&mut b);
        v.push(Case {
            rule,
            offset,
            target,
            bundle: b,
        });
    };
    use Target::*;
    let dr = dropout(sb(0, 0x100, 64, 128, Bfloat16));
    let dri = dropout(ind(0, 0x200, 0, 0x1000, 64, 128, Bfloat16));
    let tr = transpose(sb(0, 0, 16, 16, Float32), 16, vec![]);
    let sh = shuffle(sb(0, 0, 8, 32, Bfloat16), (0..32).collect());
    let ga = gather(sb(0, 0, 16, 100, Float32), sb(0, 0x4000, 16, 100, Uint32));
    let ic = icopy(ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16));
    let rs = rsel(|_| {});
    add("known_opcode", 0, Sunda, &dr, 0, &|b| b[0] = 0xFF);
    add("inst_word_len", 1, Sunda, &dr, 0, &|b| b[1] = 0x11);
    add("header_debug_zero", 2, Sunda, &dr, 0, &|b| b[2] = 1);
    add("reserved_zero", 0x3C, Cayman, &rs, 0, &|b| b[0x3C] = 1);
    add("d4_tr_reserved_z", 0x27, Sunda, &tr, 0, &|b| b[0x27] = 1);
    add("d4_gt_reserved_z", 0x23, Sunda, &ga, 0, &|b| b[0x23] = 1);
    add("d3_dropout_reserved_zero", 0x0C, Sunda, &dr, 0, &|b| {
        b[0x0C] = 1
    });
    add("valid_dtype", 0x20, Sunda, &dr, 0, &|b| b[0x20] = 0x1F);
    add("valid_dtype", 0x20, Sunda, &tr, 0, &|b| b[0x20] = 0x0B); // FP32R as input
    add("tensor_start_addr_valid", 0x10, Sunda, &dr, 0, &|b| {
        b[0x13] = 0x03
    });
    add("tensor_start_addr_valid", 0x10, Sunda, &dr, 0, &|b| {
        b[0x13] = 0x60
    }); // dead nibble
    add("tensor_start_addr_valid", 0x30, Sunda, &dr, 0, &|b| {
        put32(b, 0x30, 0x0200_0000)
    }); // PSUM write, bf16
    add("tensor_start_addr_valid", 0x10, Sunda, &dr, 0, &|b| {
        put32(b, 0x10, 0x8000_0100)
    }); // malformed register
    add("addr_aligned_dtype", 0x10, Sunda, &dr, 0, &|b| {
        b[0x10] = 0x01
    });
    add("addr_in_sbuf_partition", 0x10, Sunda, &dr, 0, &|b| {
        b[0x12] = 0x03
    });
    add("addr_in_psum_partition", 0x30, Sunda, &dr, 0, &|b| {
        put32(b, 0x30, 0x0200_4000)
    });
    add("start_addr_active_channels", 0x10, Sunda, &dr, 0, &|b| {
        put32(b, 0x10, 100 << 18)
    });
    add("tensor1d_valid", 0x32, Cayman, &rs, 1, &|b| b[0x32] = 0);
    add("tensor2d_valid", 0x20, Cayman, &rs, 0, &|b| b[0x20] = 0);
    add("tensor3d_valid", 0x1A, Sunda, &dr, 0, &|b| b[0x1A] = 0);
    add("tensor4d_valid", 0x18, Sunda, &ga, 0, &|b| b[0x18] = 0);
    add("static_tensor_pattern", 0x18, Cayman, &rs, 0, &|b| {
        b[0x1B] = 0x20
    }); // TENSOR2D has no indirect arm
    add(
        "indirect_quadrant_check_src3d",
        0x10,
        Mariana,
        &dri,
        0,
        &|b| put32(b, 0x14, 40 << 18),
    );
    add("indirect_quadrant_check_src4d", 0x0C, Sunda, &ic, 0, &|b| {
        put32(b, 0x10, 40 << 18)
    });
    add(
        "has_valid_active_channel_range",
        0x22,
        Sunda,
        &dr,
        0,
        &|b| b[0x22] = 0,
    );
    add(
        "has_valid_active_channel_range",
        0x22,
        Sunda,
        &dr,
        0,
        &|b| b[0x22] = 129,
    );
    add("d4_tr_same_src_dst_count", 0x0C, Sunda, &tr, 0, &|b| {
        b[0x38] = 17
    });
    add(
        "d4_tr_transpose_src_dst_count",
        0x0C,
        Mariana,
        &sh,
        0,
        &|b| {
            // turn the source into an INDIRECT20B record with NUM 0
            b[0x0F] |= 0x20;
            b[0x14] = 0;
            b[0x15] = 0;
            b[0x16..0x20].fill(0);
        },
    );
    add("d4_tr_op_bypass", 0x24, Sunda, &tr, 0, &|b| b[0x24] = 0x04);
    add("d3_transpose_ch", 0x26, Sunda, &tr, 0, &|b| b[0x26] = 0);
    add("d3_transpose_ch", 0x26, Sunda, &sh, 0, &|b| b[0x26] = 1);
    add(
        "instr.src_mem_pattern.num_elem[3] == 1",
        0x1E,
        Sunda,
        &tr,
        0,
        &|b| b[0x1E] = 2,
    );
    add(
        "stream_transpose_src_not_indirect",
        0x0C,
        Mariana,
        &tr,
        0,
        &|b| b[0x0F] |= 0x20,
    );
    add("reg_load_src_not_indirect", 0x0C, Mariana, &ga, 0, &|b| {
        b[0x0F] |= 0x20
    });
    add("gather_valid_options", 0x24, Sunda, &ga, 0, &|b| {
        b[0x24] = 2
    });
    add("d3_dropout_same_src_dst_type", 0x21, Sunda, &dr, 0, &|b| {
        b[0x21] = 0x07
    });
    add(
        "d3_dropout_src_dst_count_check",
        0x10,
        Sunda,
        &dr,
        0,
        &|b| b[0x3A] = 64,
    );
    add(
        "d3_dropout_threshold_dtype_check",
        0x24,
        Sunda,
        &dr,
        0,
        &|b| b[0x24] = 0x1F,
    );
    add(
        "s_same_in_out_dtype_indirect_copy",
        0x21,
        Sunda,
        &ic,
        0,
        &|b| b[0x21] = 0x07,
    );
    add(
        "s_valid_s4d4_ic_active_channels",
        0x22,
        Sunda,
        &ic,
        0,
        &|b| b[0x22] = 8,
    );
    add("s4d4_ic_src_indirect", 0x0C, Sunda, &ic, 0, &|b| {
        b[0x0F] = 0
    });
    add("s4d4_ic_num_elem_per_idx", 0x23, Sunda, &ic, 0, &|b| {
        b[0x23] = 3
    });
    add("s4d4_ic_num_elem_per_idx", 0x24, Sunda, &ic, 0, &|b| {
        b[0x24] = 1
    });
    add("s4d4_ic_num_elem_per_idx", 0x28, Sunda, &ic, 0, &|b| {
        b[0x28] = 1
    });
    add("s_same_elem_count_rs_src_dst", 0x18, Cayman, &rs, 0, &|b| {
        b[0x38] = 32
    });
    add("valid_rs_comp_op", 0x24, Cayman, &rs, 0, &|b| {
        b[0x24] = 0x04
    });
    add(
        "s_valid_range_select_reduce_op",
        0x0F,
        Cayman,
        &rs,
        0,
        &|b| b[0x0F] = 0x09,
    );
    add("range_select_reduce_cmd", 0x0E, Cayman, &rs, 0, &|b| {
        b[0x0E] = 1
    });
    add("range_select_bound_src", 0x26, Cayman, &rs, 0, &|b| {
        b[0x26] = 3
    });
    add("range_select_dtype", 0x0D, Cayman, &rs, 0, &|b| {
        b[0x0D] = 0x88
    });
    add("d1_rd_dst_element_count", 0x1C, Cayman, &rs, 1, &|b| {
        b[0x1C] = 2
    });
    // Rules without an encoder-produced base bundle.
    let rs_on_mariana = base(&rs, Cayman, 0);
    // An INDIRECT16B record (mariana-only) in a bundle validated for cayman.
    let dri_b = base(
        &dropout(ind(0, 0x200, 0, 0x1000, 64, 128, Bfloat16)),
        Mariana,
        0,
    );
    v.push(Case {
        rule: "static_tensor_pattern",
        offset: 0x10,
        target: Cayman,
        bundle: dri_b,
    });
    v.push(Case {
        rule: "opcode_on_target",
        offset: 0,
        target: Mariana,
        bundle: rs_on_mariana,
    });
    let dma: Bundle = hex("bb100000 00000000 00000000 00008001
         00100000 00000000 01000000 10000400
         00200000 00000000 01000000 10000400
         40000000 00000000 0a0a0000 00000000")
    .try_into()
    .unwrap();
    assert_eq!(validate_bundle(&dma, 0, &SUNDA), vec![]);
    let mut m = |off: usize, f: &dyn Fn(&mut Bundle), rule: &'static str| {
        let mut b = dma;
        f(&mut b);
        v.push(Case {
            rule,
            offset: off,
            target: Sunda,
            bundle: b,
        });
    };
    m(15, &|b| b[15] = 0, "has_dma_indirect_valid_idx_start_addr");
    m(15, &|b| b[15] = 3, "has_dma_indirect_valid_idx_start_addr");
    m(
        48,
        &|b| b[48] = 0x42,
        "has_dma_indirect_valid_idx_start_addr",
    ); // misaligned u32 index
    m(
        48,
        &|b| put32(b, 48, 1 << 18),
        "has_dma_indirect_valid_idx_start_addr",
    ); // partition 1 + 128
    m(
        52,
        &|b| put32(b, 52, 0x8000_0003),
        "has_dma_indirect_valid_idx_start_addr",
    ); // register secondary
    m(14, &|b| b[14] = 64, "check_dma_indirect_indices");
    // 4D-slot compute formats.
    for c in compute4d_cases::rule_cases() {
        v.push(Case {
            rule: c.rule,
            offset: c.offset,
            target: c.target,
            bundle: c.bundle,
        });
    }
    // PE, DMA and event rules.
    let pe = common::pe_dma::rule_cases().into_iter();
    // (The `more` group (0xBF, 0xF1, 0x7B, 0x65) rules follow them.)
    let pe = pe.chain(common::more::rule_cases());
    for (rule, offset, target, bundle) in pe.chain(common::pe_dma::mx_rule_cases()) {
        v.push(Case {
            rule,
            offset,
            target,
            bundle,
        });
    }
    v
}

#[test]
fn every_validator_rule_has_a_failing_case() {
    let mut seen = BTreeSet::new();
    for c in cases() {
        let d = validate_bundle(&c.bundle, 3, c.target.model());
        assert!(
            d.iter()
                .any(|x| x.rule == c.rule && x.offset == c.offset && x.bundle == 3),
            "rule {} at {:#x} not reported: {d:?}",
            c.rule,
            c.offset
        );
        seen.insert(c.rule);
    }
    // mxmem1d_valid works on a 16-byte slot (no bundle format carries one).
    let mut slot = [0u8; 16];
    let data = mx(Float8E4m3fnX4, 7, 1, 4);
    assign_indirect_pattern_for_mx(&mut slot, &data, &mx(Float8E8m0fnu, 7, 1, 4), &MARIANA)
        .unwrap();
    assert_eq!(mxmem1d_valid(&slot, &MARIANA), vec![]);
    let bad = |slot: [u8; 16], f: &dyn Fn(&mut [u8; 16]), off: usize, arch: &ArchModel| {
        let mut s = slot;
        f(&mut s);
        let d = mxmem1d_valid(&s, arch);
        assert!(
            d.iter()
                .any(|x| x.rule == "mxmem1d_valid" && x.offset == off),
            "{d:?}"
        );
    };
    bad(slot, &|s| s[3] = 0x40, 3, &MARIANA); // nibble 0x40 selects neither arm
    bad(slot, &|s| s[3] = 0x60, 3, &MARIANA);
    bad(slot, &|s| s[0xB] = 0x02, 8, &MARIANA); // scale moved to PSUM
    bad(slot, &|s| s[0xC] = 0, 0xC, &MARIANA); // NUM 0
    bad(slot, &|_| {}, 0, &CAYMAN); // no MX on cayman
    let mut st = [0u8; 16];
    let sd = AccessPattern::Static(StaticAp::sbuf(
        1,
        0x80,
        32,
        [Dim::new(1, 64)],
        Float8E4m3fnX4,
    ));
    let ss = AccessPattern::Static(StaticAp::sbuf(3, 0, 32, [], Float8E8m0fnu));
    assign_access_for_mx(&mut st, &sd, &ss, &MARIANA).unwrap();
    bad(st, &|s| s[0xA] = 2, 0xA, &MARIANA); // step_dir
    bad(st, &|s| s[0xD] = 1, 0xC, &MARIANA); // reserved
    bad(st, &|s| s[8..10].fill(0), 8, &MARIANA); // k_extent 0
    seen.insert("mxmem1d_valid");
    // 3D-slot compute formats (their cases live in common::compute3d).
    for c in common::compute3d::rule_cases() {
        let d = validate_bundle(&c.bundle, 3, c.target.model());
        assert!(
            d.iter().any(|x| x.rule == c.rule && x.offset == c.offset),
            "rule {} at {:#x} not reported: {d:?}",
            c.rule,
            c.offset
        );
        seen.insert(c.rule);
    }

    let all: BTreeSet<&str> = RULES.iter().map(|r| r.name).collect();
    let missing: Vec<_> = all.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "rules without a negative test: {missing:?}"
    );
}

// ---------------------------------------------------------------- decoder / assembler / stream

#[test]
fn truncated_stream_reports_the_offset() {
    let b = base(&dropout(sb(0, 0x100, 64, 128, Bfloat16)), Target::Sunda, 0);
    let mut bytes = b.to_vec();
    bytes.extend_from_slice(&b[..10]);
    let e = disassemble_stream(&bytes, &SUNDA).unwrap_err();
    assert_eq!(
        e,
        vec![StreamError::Decode(DecodeError::Truncated {
            offset: 64,
            trailing: 10
        })]
    );
    assert_eq!(
        e[0].render("x.bin"),
        "x.bin: truncated input: 10 trailing bytes at byte offset 0x40 (bundles are 64 bytes)"
    );
}

/// The encoding of `insts` on `arch`.
fn stream_of(insts: &[Instruction], arch: &ArchModel) -> Vec<u8> {
    insts
        .iter()
        .flat_map(|i| generate_vec(i, arch).unwrap())
        .flatten()
        .collect()
}

/// The (bundle, offset, problem) of a lifting error.
fn lift_err(bytes: &[u8], arch: &ArchModel) -> (usize, usize, SequenceProblem) {
    match decode_instructions(bytes, arch) {
        Err(DecodeError::Sequence {
            bundle,
            offset,
            problem,
        }) => (bundle, offset, problem),
        other => panic!("expected a sequence error, got {other:?}"),
    }
}

#[test]
fn lifting_rejects_broken_sequences() {
    let drop = dropout(sb(0, 0x100, 64, 128, Bfloat16));
    let shuf = shuffle(sb(0, 0, 8, 32, Bfloat16), (0..32).collect());
    let d = stream_of(std::slice::from_ref(&drop), &MARIANA);
    let s = stream_of(std::slice::from_ref(&shuf), &MARIANA);

    // A 0x69 without its 0x6A: the shuffle's second half alone, after a dropout.
    let bytes = [&d[..], &s[64..]].concat();
    assert_eq!(
        lift_err(&bytes, &MARIANA),
        (1, 64, SequenceProblem::Orphan(0x69))
    );
    // A truncated pair: the 0x6A at the end of the input, then before a dropout.
    let bytes = [&d[..], &s[..64]].concat();
    let e = decode_instructions(&bytes, &MARIANA).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bundle 2 (byte offset 0x80): 0x6a stream_transpose_fwd must be followed by 0x69 \
         stream_shuffle, found the end of the input"
    );
    let bytes = [&s[..64], &d[..]].concat();
    assert_eq!(
        lift_err(&bytes, &MARIANA),
        (
            1,
            64,
            SequenceProblem::Unpaired {
                opcode: 0x6A,
                expected: 0x69,
                found: Some(0x7F)
            }
        )
    );

    // Gather: a chain that starts with the continuation flag set, a 0x68 without its 0x67, a
    // chain one chunk short, and a 0x67 on its own.
    let g = stream_of(
        &[Instruction::new(Op::Gather(Gather {
            data: sb(0, 0, 16, 4096, Float32),
            index: sb(0, 0x4000, 16, 1000, Uint32),
            dst: sb(0, 0x8000, 16, 1000, Float32),
        }))],
        &MARIANA,
    );
    assert_eq!(g.len(), 4 * 64);
    let bytes = [&d[..], &g[128..]].concat();
    assert_eq!(
        lift_err(&bytes, &MARIANA),
        (1, 64 + 0x24, SequenceProblem::Continuation(1))
    );
    let bytes = [&g[..64], &d[..]].concat();
    assert!(matches!(
        lift_err(&bytes, &MARIANA),
        (
            1,
            64,
            SequenceProblem::Unpaired {
                opcode: 0x68,
                expected: 0x67,
                found: Some(0x7F)
            }
        )
    ));
    assert_eq!(
        lift_err(&g[..128], &MARIANA),
        (
            0,
            0,
            SequenceProblem::ChunkCount {
                needed: 2,
                found: 1
            }
        )
    );
    assert_eq!(
        lift_err(&[&d[..], &g[64..128]].concat(), &MARIANA),
        (1, 64, SequenceProblem::Orphan(0x67))
    );

    // A reserved byte, and a field the model cannot hold (the 0x6A transpose flag), are
    // reported where re-encoding departs from the input.
    let mut bytes = d.clone();
    bytes[0x0C] = 1;
    assert_eq!(
        lift_err(&bytes, &MARIANA),
        (
            0,
            0x0C,
            SequenceProblem::Differs {
                expected: 0,
                found: 1
            }
        )
    );
    let mut bytes = [&d[..], &s[..]].concat();
    bytes[64 + 0x26] = 1;
    assert_eq!(lift_err(&bytes, &MARIANA).0, 1);
    // Bytes that decode to an instruction GENERATE's ISA check rejects: a comparison op the
    // wire has but RangeSelect does not take (0x04), and a reduce command outside
    // {IDLE, ACCUMULATE, ZERO_ACCUMULATE} (1).
    let rs = stream_of(&[rsel(|_| {})], &CAYMAN);
    let mut bytes = rs.clone();
    bytes[0x0E] = 1;
    assert!(matches!(
        lift_err(&bytes, &CAYMAN),
        (0, 0, SequenceProblem::NotEncodable(_))
    ));
    assert_eq!(decode_instructions(&rs, &CAYMAN).unwrap().len(), 1);

    // An unknown opcode, a format no instruction emits, and a truncated input.
    let mut bytes = d.clone();
    bytes[0] = 0x00;
    assert_eq!(
        lift_err(&bytes, &MARIANA),
        (0, 0, SequenceProblem::UnknownOpcode(0x00))
    );
    // 0xBB is emitted by DmaIndirect now: a dropout body under its opcode does not encode.
    bytes[0] = 0xBB;
    assert!(matches!(
        lift_err(&bytes, &MARIANA),
        (0, 0, SequenceProblem::NotEncodable(_))
    ));
    assert_eq!(
        decode_instructions(&d[..60], &MARIANA),
        Err(DecodeError::Truncated {
            offset: 0,
            trailing: 60
        })
    );
    assert_eq!(decode_instructions(&[], &MARIANA), Ok(vec![]));
}

#[test]
fn invalid_bundle_in_a_stream_gives_diagnostics_and_no_text() {
    let good = base(&dropout(sb(0, 0x100, 64, 128, Bfloat16)), Target::Sunda, 0);
    let mut bad = good;
    bad[0x21] = 0x07;
    let bytes = [good, bad, [0u8; 64]].concat();
    let e = disassemble_stream(&bytes, &SUNDA).unwrap_err();
    let r: Vec<String> = e.iter().map(|x| x.render("f")).collect();
    assert!(r.contains(&"f: bundle 1 (byte offset 0x61): rule d3_dropout_same_src_dst_type: in 0x06 != out 0x07".into()), "{r:?}");
    assert!(
        r.contains(
            &"f: bundle 2 (byte offset 0x80): rule known_opcode: unknown opcode 0x00".into()
        ),
        "{r:?}"
    );
}

#[test]
fn assembler_errors_carry_line_and_column() {
    let good = sundial_codegen::text::disassemble(&base(
        &dropout(sb(0, 0x100, 64, 128, Bfloat16)),
        Target::Sunda,
        0,
    ))
    .unwrap();
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (
            "frobnicate a=1".into(),
            1,
            1,
            "unknown mnemonic `frobnicate`",
        ),
        (
            format!("\n{good} bogus=1"),
            2,
            good.len() + 2,
            "dropout has no field `bogus`",
        ),
        (
            format!("{good} rng_mode=2"),
            1,
            good.len() + 2,
            "field `rng_mode` given twice",
        ),
        (
            good.replace(" rng_mode=1", ""),
            1,
            good.len() - 10,
            "missing field(s): rng_mode",
        ),
        (
            good.replace("rng_mode=1", "rng_mode=300"),
            1,
            good.find("rng_mode").unwrap() + 10,
            "does not fit",
        ),
        (
            good.replace("in_dtype=bf16", "in_dtype=bf17"),
            1,
            good.find("in_dtype").unwrap() + 10,
            "unknown dtype",
        ),
        (
            good.replace("t3d(sb[0]", "t3d(sb[200]"),
            1,
            good.find("src_mem").unwrap() + 17,
            "partition must be < 128",
        ),
        (
            good.replace("in_dtype=bf16", "in_dtype:bf16"),
            1,
            good.find("in_dtype").unwrap() + 1,
            "expected `field=value`",
        ),
    ];
    for (text, line, col, msg) in cases {
        let e = assemble(&text).unwrap_err();
        assert_eq!((e.line, e.col), (line, col), "{e}");
        assert!(e.msg.contains(msg), "{e}");
    }
    // assemble_stream validates what it assembled.
    let bad = good.replace("out_dtype=bf16", "out_dtype=fp16");
    let e = assemble_stream(&bad, &SUNDA).unwrap_err();
    assert!(matches!(&e[0], StreamError::Diag(d) if d.rule == "d3_dropout_same_src_dst_type"));
}
