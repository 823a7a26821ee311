//! Seed facts that no other test would notice if they changed: the src3d/src4d quadrant rule's
//! `(byte3 & 0xE0) == 0x20` gate and its DATA-in-PSUM pass, the StreamTranspose narrow/wide
//! boundary at 31/32 destination partitions, and the two lowerings the seeds leave unpinned
//! (the dropout's RNG seed setter, IndirectSaveAccumulate), which must be refused, not invented.

mod common;

use common::*;
use sundial_codegen::arch::{MARIANA, Target};
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::validate::{indirect_quadrant_ok, validate_bundle};
use sundial_codegen::{
    CodeGen, CodeGenMode, EncodeError, OpcodeSet, bundle_count, collect, generate, generate_vec,
    run_isa_checks,
};

/// SBUF ADDR4 word of (partition, offset).
fn sbuf(p: u32, off: u32) -> u32 {
    p << 18 | off
}

const MARKER: u32 = 0x2000_0000;

#[test]
fn quadrant_gate_is_byte3_and_0xe0_equal_0x20() {
    let a = &MARIANA;
    // Marker set, register bit clear: checked. Partition 64 puts address bit 24 in byte 3
    // (byte 3 = 0x21), so a gate on the whole byte (== 0x20) would wrongly skip this one.
    let index = sbuf(64, 0x100) | MARKER;
    assert_eq!(index >> 24, 0x21);
    assert!(!indirect_quadrant_ok(a, index, sbuf(0, 0x100)));
    assert!(indirect_quadrant_ok(a, index, sbuf(70, 0x100)));
    // Marker and register bit (INDIRECT_REG, byte 3 = 0xA0): `& 0xE0` is 0xA0, skipped; a gate
    // on `& 0x60` would check it and fail the quadrant test.
    let reg = 0xA000_0005;
    assert!(indirect_quadrant_ok(a, reg, sbuf(100, 0)));
    // No marker: not a gather descriptor, skipped.
    assert!(indirect_quadrant_ok(a, sbuf(0, 0x100), sbuf(100, 0)));
}

#[test]
fn quadrant_rule_passes_data_in_psum() {
    let a = &MARIANA;
    // INDEX in SBUF quadrant 0, DATA in PSUM: passes (the seed's `cmp eax,3FFFFFh` arm) although
    // the two are in no common SBUF quadrant.
    let index = sbuf(5, 0x100) | MARKER;
    for data in [0x0200_0000, 0x0200_0000 + (3 << 15) + 0x40, 0x023F_FFF0] {
        assert!(indirect_quadrant_ok(a, index, data), "{data:#x}");
    }
    // Just below the PSUM window is SBUF partition 127 (quadrant 3): checked, and fails.
    assert!(!indirect_quadrant_ok(a, index, sbuf(127, 0x100)));
    // End to end: a dropout whose indirect DATA is in PSUM encodes and validates; the same
    // DATA in another SBUF quadrant is refused by GENERATE's ISA check.
    let dropout = |data: StaticAp| {
        Instruction::new(Op::Dropout(Dropout {
            src: AccessPattern::TensorIndirect(IndirectAp {
                data,
                index: StaticAp::sbuf(5, 0x100, 32, [], Uint32),
                num_indirect_indices: 64,
                index_arg_id: 0,
            }),
            dst: sb(64, 0x100, 32, 64, Float32),
            threshold_imm_ptr: 1,
            threshold_dtype: Float32,
            rng_mode: 0,
            rng_seed: None,
        }))
    };
    let b = generate_vec(&dropout(StaticAp::psum(2, 0x40, 32, [], Float32)), a).unwrap();
    assert_eq!(validate_bundle(&b[0], 0, a), vec![]);
    let e = generate_vec(&dropout(StaticAp::sbuf(40, 0x40, 32, [], Float32)), a).unwrap_err();
    assert!(
        matches!(&e, EncodeError::IsaCheck(d) if d.rule == "indirect_quadrant_check_src3d"),
        "{e}"
    );
}

fn transpose(dst_partitions: u32) -> Instruction {
    Instruction::new(Op::StreamTranspose(StreamTranspose {
        src: sb(0, 0, 16, 16, Float32),
        dst: sb(32, 0, dst_partitions, 16, Float32),
        mask: identity_mask(),
    }))
}

#[test]
fn transpose_is_narrow_up_to_31_and_wide_from_32_partitions() {
    // Seed: `cmp ebx,0x1f` on the dst partition size; <= 31 emits {0x6B}, >= 32 {0x6B, 0x69}.
    for t in Target::ALL {
        for (parts, opcodes) in [
            (1, &[0x6b][..]),
            (31, &[0x6b]),
            (32, &[0x6b, 0x69]),
            (33, &[0x6b, 0x69]),
        ] {
            let inst = transpose(parts);
            assert_eq!(bundle_count(&inst), opcodes.len(), "{parts}");
            let b = generate_vec(&inst, t.model()).unwrap();
            let got: Vec<u8> = b.iter().map(|x| x[0]).collect();
            assert_eq!(got, opcodes, "{parts} partitions on {t}");
            let mut set = OpcodeSet::default();
            collect(&inst, t.model(), &mut set).unwrap();
            let mut want = opcodes.to_vec();
            want.sort();
            assert_eq!(set.iter().collect::<Vec<_>>(), want);
        }
    }
}

/// A StreamTranspose of a 16-partition by 8-element tile into 8 partitions by 16: the seed's
/// `d4_tr_same_src_dst_count` (named by dbg_is_valid_stream_transpose) wants equal element
/// counts, so GENERATE refuses it through the ISA check and the message says it is the seed
/// rule; the square 16 by 16 tile encodes.
#[test]
fn non_square_transpose_is_refused_by_the_seed_count_rule() {
    let tile = |parts: u32, src: u16, dst: u16| {
        Instruction::new(Op::StreamTranspose(StreamTranspose {
            src: sb(0, 0, parts, src, Float32),
            dst: sb(0, 0x4000, parts, dst, Float32),
            mask: (0..32).collect(),
        }))
    };
    let e = generate_vec(&tile(16, 8, 16), &MARIANA).unwrap_err();
    let EncodeError::IsaCheck(d) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(d.rule, "d4_tr_same_src_dst_count");
    assert!(
        d.message.contains("8") && d.message.contains("16") && d.message.contains("seed rule"),
        "{}",
        d.message
    );
    assert!(e.to_string().contains("square"), "{e}");
    assert!(generate_vec(&tile(16, 16, 16), &MARIANA).is_ok());
}

fn seeded_dropout() -> Instruction {
    Instruction::new(Op::Dropout(Dropout {
        src: sb(0, 0x100, 64, 128, Bfloat16),
        dst: sb(64, 0x100, 64, 128, Bfloat16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: Some(sb(0, 0x8000, 64, 6, Uint32)),
    }))
}

fn is_unpinned(e: &EncodeError, op: &str) -> bool {
    matches!(e, EncodeError::Unpinned { op: o, .. } if o.contains(op))
        && e.to_string().contains(": unpinned: ")
}

#[test]
fn dropout_seed_setter_is_refused_as_unpinned_in_every_mode() {
    let inst = seeded_dropout();
    for t in Target::ALL {
        let arch = t.model();
        let e = generate_vec(&inst, arch).unwrap_err();
        assert!(is_unpinned(&e, "PseudoSetRngSeed"), "{e}");
        // The fast path declines and the reference gives the same error, with room or without.
        let mut out = [[0u8; 64]; 2];
        assert_eq!(generate(&inst, arch, &mut out), Err(e.clone()));
        assert_eq!(run_isa_checks(&inst, arch, 0), Err(e.clone()));
        assert_eq!(
            collect(&inst, arch, &mut OpcodeSet::default()),
            Err(e.clone())
        );
        let mut g = CodeGen::new(arch, CodeGenMode::Generate);
        assert_eq!(g.visit(&inst), Err(e));
        assert!(g.bundles.is_empty());
    }
    // Without a seed the dropout is its single, pinned 0x7F bundle.
    let mut plain = seeded_dropout();
    if let Op::Dropout(d) = &mut plain.op {
        d.rng_seed = None;
    }
    assert_eq!(generate_vec(&plain, &MARIANA).unwrap().len(), 1);
    assert!(
        seeded_dropout()
            .to_string()
            .ends_with("rng_mode=1 rng_seed=Uint32@sb[0]+0x8000/64[1:6]")
    );
}

#[test]
fn indirect_save_accumulate_is_refused_as_unpinned_but_collects_0xca() {
    let inst = Instruction::new(Op::IndirectSaveAccumulate(IndirectSaveAccumulate {
        data: sb(0, 0, 16, 64, Float32),
        index: sb(0, 0x4000, 16, 64, Uint32),
        dst: sb(0, 0x8000, 16, 64, Float32),
    }));
    assert_eq!(inst.engine, Engine::GpSimd);
    for t in Target::ALL {
        let arch = t.model();
        let e = generate_vec(&inst, arch).unwrap_err();
        assert!(is_unpinned(&e, "indirect_save_accumulate (0xca)"), "{e}");
        assert_eq!(run_isa_checks(&inst, arch, 0), Err(e));
        let mut set = OpcodeSet::default();
        collect(&inst, arch, &mut set).unwrap();
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![0xca]);
    }
    assert_eq!(
        inst.to_string(),
        "indirect_save_accumulate data=Float32@sb[0]+0x0/16[1:64] \
         index=Uint32@sb[0]+0x4000/16[1:64] dst=Float32@sb[0]+0x8000/16[1:64]"
    );
}
