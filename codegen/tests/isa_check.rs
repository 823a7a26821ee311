//! GENERATE hands out only bundles the ISA check accepts (the seed's GENERATE blocks run
//! `runISACheck` before the write), and every entry point that allocates or loops per bundle
//! refuses an instruction past the bundle cap before doing either. Lifting, which re-encodes
//! through GENERATE, reports a failed ISA check at the failing rule's bundle and byte.

mod common;

use common::*;
use sundial_codegen::arch::{MARIANA, SUNDA};
use sundial_codegen::bundle::MAX_BUNDLES_PER_INSTRUCTION;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::{
    CodeGen, CodeGenMode, DecodeError, EncodeError, SequenceProblem, decode_instructions, generate,
    generate_reference, generate_stream, generate_vec, run_isa_checks,
};

/// The regression case: an IndirectCopy over 8 channels with `num_elem_per_idx = 3`, which the
/// encoder fills without complaint and the validator rejects on two rules.
fn bad_copy() -> Instruction {
    Instruction::new(Op::IndirectCopy(IndirectCopy {
        src: ind(0, 0x100, 0, 0x2000, 8, 64, Bfloat16),
        dst: sb(16, 0, 8, 64, Bfloat16),
        num_elem_per_idx: 3,
        src_buffer_size: 256,
    }))
}

#[test]
fn generate_refuses_an_indirect_copy_the_validator_rejects() {
    let inst = bad_copy();
    // RUN_ISA_CHECKS names both rules.
    let d = run_isa_checks(&inst, &SUNDA, 0).unwrap();
    let rules: Vec<_> = d.iter().map(|x| (x.rule, x.offset)).collect();
    assert_eq!(
        rules,
        vec![
            ("s_valid_s4d4_ic_active_channels", 0x22),
            ("s4d4_ic_num_elem_per_idx", 0x23)
        ]
    );
    // Every GENERATE entry point returns the first one as the error and hands out nothing.
    let want = EncodeError::IsaCheck(d[0].clone());
    assert_eq!(generate_vec(&inst, &SUNDA), Err(want.clone()));
    assert_eq!(
        want.to_string(),
        "ISA check failed: bundle 0 (byte offset 0x22): rule s_valid_s4d4_ic_active_channels: \
         active channels 8 must be a nonzero multiple of 16"
    );
    let mut out = [[0u8; 64]; 1];
    assert_eq!(generate(&inst, &SUNDA, &mut out), Err(want.clone()));
    assert_eq!(
        generate_reference(&inst, &SUNDA, &mut out),
        Err(want.clone())
    );
    let good = Instruction::new(Op::Dropout(Dropout {
        src: sb(0, 0x100, 64, 128, Bfloat16),
        dst: sb(64, 0x100, 64, 128, Bfloat16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    }));
    let mut out = [[0u8; 64]; 2];
    assert_eq!(
        generate_stream(&[good.clone(), inst.clone()], &SUNDA, &mut out),
        Err((1, want.clone()))
    );
    let mut g = CodeGen::new(&SUNDA, CodeGenMode::Generate);
    g.visit(&good).unwrap();
    assert_eq!(g.visit(&inst), Err(want));
    assert_eq!(
        g.bundles.len(),
        1,
        "the refused instruction left nothing behind"
    );
    // Only the channel count wrong: the second rule alone.
    let mut one = bad_copy();
    if let Op::IndirectCopy(c) = &mut one.op {
        c.num_elem_per_idx = 4;
    }
    assert!(matches!(
        generate_vec(&one, &SUNDA),
        Err(EncodeError::IsaCheck(d)) if d.rule == "s_valid_s4d4_ic_active_channels"
    ));
}

#[test]
fn generate_refuses_a_dropout_whose_dtypes_differ() {
    // The encoder writes both dtypes as given; the validator's d3_dropout_same_src_dst_type
    // rejects the pair, so GENERATE does too (fast path and reference alike).
    let inst = Instruction::new(Op::Dropout(Dropout {
        src: sb(0, 0x100, 64, 128, Bfloat16),
        dst: sb(64, 0x100, 64, 128, Float16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    }));
    let mut a = [[0u8; 64]; 1];
    let mut b = [[0u8; 64]; 1];
    let e = generate(&inst, &MARIANA, &mut a).unwrap_err();
    assert_eq!(generate_reference(&inst, &MARIANA, &mut b), Err(e.clone()));
    assert!(matches!(e, EncodeError::IsaCheck(d) if d.rule == "d3_dropout_same_src_dst_type"));
}

/// A Gather over 65535^3 indices: 2^47 chunks, far past the cap (it would need 70 TB).
fn huge_gather() -> Instruction {
    Instruction::new(Op::Gather(Gather {
        data: sb(0, 0, 16, 64, Float32),
        index: sbd(
            0,
            0x4000,
            16,
            [Dim::new(1, 65535), Dim::new(1, 65535), Dim::new(1, 65535)],
            Uint32,
        ),
        dst: sb(0, 0x8000, 16, 100, Float32),
    }))
}

fn too_many(e: Result<impl std::fmt::Debug, EncodeError>) -> bool {
    matches!(
        e,
        Err(EncodeError::TooManyBundles { needed, limit })
            if limit == MAX_BUNDLES_PER_INSTRUCTION && needed > limit
    )
}

#[test]
fn codegen_generate_refuses_a_huge_gather_before_allocating() {
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::Generate);
    assert!(too_many(g.visit(&huge_gather())));
    assert!(g.bundles.is_empty() && g.bundles.capacity() == 0);
}

#[test]
fn run_isa_checks_refuses_a_huge_gather_before_looping() {
    assert!(too_many(run_isa_checks(&huge_gather(), &MARIANA, 0)));
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::RunIsaChecks);
    assert!(too_many(g.visit(&huge_gather())));
    assert!(g.diagnostics.is_empty());
    assert!(too_many(generate_vec(&huge_gather(), &MARIANA)));
}

#[test]
fn lifting_reports_a_failed_isa_check_at_its_byte() {
    // Valid IndirectCopy bytes, then num_elem_per_idx patched to 3 in the second instruction:
    // the lifted instruction re-encodes, but GENERATE's ISA check refuses it, and the error
    // names the bundle and the byte of the failing rule.
    let mut good = bad_copy();
    if let Op::IndirectCopy(c) = &mut good.op {
        c.src = ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16);
        c.dst = sb(16, 0, 16, 64, Bfloat16);
        c.num_elem_per_idx = 4;
    }
    let one = generate_vec(&good, &SUNDA).unwrap().concat();
    let mut bytes = [&one[..], &one[..]].concat();
    bytes[64 + 0x23] = 3;
    match decode_instructions(&bytes, &SUNDA) {
        Err(DecodeError::Sequence {
            bundle: 1,
            offset,
            problem: SequenceProblem::NotEncodable(EncodeError::IsaCheck(d)),
        }) => {
            assert_eq!(offset, 64 + 0x23);
            assert_eq!(d.rule, "s4d4_ic_num_elem_per_idx");
        }
        other => panic!("expected an ISA-check lifting error, got {other:?}"),
    }
}
