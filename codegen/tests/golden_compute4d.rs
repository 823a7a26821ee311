//! Golden (instruction, hex, text) triples of the 4D-slot compute formats, transcribed by hand
//! from the field tables (bundle-layouts §4.3 S4D4_TR, §4.4 S4D4_CR, §4.7 Pool / Reciprocal, §4.8
//! D4_IOTA, §4.10 S2D2_TS_AS, §7 Memset; row offsets noted per bundle). Each triple is checked in
//! every direction: encode == hex, disassemble(hex) == text, assemble(text) == hex, the validators
//! accept it, COLLECT reports the opcode, RUN_ISA_CHECKS is clean, and the hex lifts back to the
//! instruction itself (every sample is in canonical form).
//!
//! Hex rows are 16 bytes: +0x00, +0x10, +0x20, +0x30. TENSOR4D = ADDR4, four i16 steps, four u16
//! counts, innermost lane first; spare lanes {1, 1}.

mod common;
#[path = "compute4d/cases.rs"]
mod compute4d_cases;

use common::*;
use compute4d_cases::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::text::{assemble, disassemble};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{OpcodeSet, collect, decode_instructions, generate_vec, run_isa_checks};

const EV0: &str = "wait_mode=none wait_idx=0 update_mode=none update_idx=0 semaphore_value=0";

/// Checks one single-bundle instruction against its expected hex and text.
fn golden(target: Target, inst: &Instruction, h: &str, text: &str) {
    let arch = target.model();
    let got = generate_vec(inst, arch).expect("encodes");
    assert_eq!(got.len(), 1, "one bundle");
    let b = got[0];
    let want = hex(h);
    assert_eq!(to_hex(&b), to_hex(&want), "bytes");
    assert_eq!(disassemble(&b).unwrap(), text, "text");
    assert_eq!(assemble(text).unwrap(), vec![b], "assemble");
    assert_eq!(validate_bundle(&b, 0, arch), vec![], "validates");
    let mut set = OpcodeSet::default();
    collect(inst, arch, &mut set).unwrap();
    assert_eq!(set.iter().collect::<Vec<_>>(), vec![b[0]], "COLLECT");
    assert_eq!(run_isa_checks(inst, arch, 0).unwrap(), vec![]);
    assert_eq!(
        decode_instructions(&want, arch).unwrap(),
        vec![inst.clone()],
        "lifts to itself"
    );
}

#[test]
fn tensor_reduce_arith() {
    golden(
        Target::Sunda,
        &reduce_arith(),
        // src @+0x0C: 0x100, steps (1,16,1,1), nums (16,4,1,1); +0x20 fp32 fp32, 16 channels,
        // negated 1; +0x24 op add 0x04, op_dim X = AxisListType 0 + 2; dst @+0x2C 0x400 [4].
        "42100000 00000000 00000000 00010000
         01001000 01000100 10000400 01000100
         0a0a1001 04020000 00000000 00040000
         01000100 01000100 04000100 01000100",
        &format!(
            "tensor_reduce_arith {EV0} src_mem_pattern=t4d(sb[0]+0x100;1,16,1,1;16,4,1,1) \
             in_dtype=fp32 out_dtype=fp32 num_active_channels=16 negated=1 op=add op_dim=x \
             mask_enable=0 dst_mem_pattern=t4d(sb[0]+0x400;1,1,1,1;4,1,1,1)"
        ),
    );
}

#[test]
fn tensor_reduce_bitvec() {
    golden(
        Target::Mariana,
        &reduce_bitvec(),
        // +0x20 i32 i32, 8 channels; +0x24 bitwise_or 0x0b, op_dim XY 0x03; dst at partition 8
        // (8 << 18 = 0x200000) with no dims (all lanes {1,1}).
        "52100000 00000000 00000000 00000000
         01000100 01000100 20000100 01000100
         08080800 0b030000 00000000 00002000
         01000100 01000100 01000100 01000100",
        &format!(
            "tensor_reduce_bitvec {EV0} src_mem_pattern=t4d(sb[0]+0x0;1,1,1,1;32,1,1,1) \
             in_dtype=i32 out_dtype=i32 num_active_channels=8 negated=0 op=bitwise_or op_dim=xy \
             mask_enable=0 dst_mem_pattern=t4d(sb[8]+0x0;1,1,1,1;1,1,1,1)"
        ),
    );
}

#[test]
fn copy_with_equal_dtypes() {
    golden(
        Target::Cayman,
        &copy(),
        // CC visitInstTensorCopy: opcode 0x46 + 0; +0x20/+0x21 bf16; +0x22 32; +0x25 = 0;
        // dst ADDR4 (32 << 18) + 0x40 = 0x800040.
        "46100000 00000000 00000000 40000000
         01000100 01000100 40000100 01000100
         06062000 00000000 00000000 40008000
         01000100 01000100 40000100 01000100",
        &format!(
            "copy {EV0} src_mem_pattern=t4d(sb[0]+0x40;1,1,1,1;64,1,1,1) in_dtype=bf16 \
             out_dtype=bf16 num_active_channels=32 negated=0 op=bypass op_dim=unused \
             mask_enable=0 dst_mem_pattern=t4d(sb[32]+0x40;1,1,1,1;64,1,1,1)"
        ),
    );
}

#[test]
fn cast_when_dtypes_differ() {
    golden(
        Target::Sunda,
        &cast(),
        // opcode 0x46 + 1; +0x20 bf16 0x06, +0x21 fp32 0x0a.
        "47100000 00000000 00000000 40000000
         01000100 01000100 40000100 01000100
         060a2000 00000000 00000000 40008000
         01000100 01000100 40000100 01000100",
        &format!(
            "cast {EV0} src_mem_pattern=t4d(sb[0]+0x40;1,1,1,1;64,1,1,1) in_dtype=bf16 \
             out_dtype=fp32 num_active_channels=32 negated=0 op=bypass op_dim=unused \
             mask_enable=0 dst_mem_pattern=t4d(sb[32]+0x40;1,1,1,1;64,1,1,1)"
        ),
    );
}

#[test]
fn cast_between_bir_dtypes_of_one_wire_code_lifts_as_cast() {
    // float8e4 and float8_e4m3fn are both wire fp8e4: the bytes say Cast with equal dtypes, and
    // lifting picks the second BIR dtype of the code for the destination (canonical form).
    let inst = Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0, 4, 16, Float8e4),
        dst: sb(4, 0, 4, 16, Float8E4m3fn),
    }));
    let arch = Target::Cayman.model();
    let b = generate_vec(&inst, arch).unwrap();
    assert_eq!((b[0][0], b[0][0x20], b[0][0x21]), (0x47, 0x0e, 0x0e));
    assert_eq!(decode_instructions(&b[0], arch).unwrap(), vec![inst]);
    // A Cast whose wire code has one BIR dtype (fp32) is not encoder output.
    let mut c = generate_vec(&copy(), arch).unwrap()[0];
    c[0] = 0x47;
    assert!(decode_instructions(&c, arch).is_err());
}

#[test]
fn reciprocal_into_psum() {
    golden(
        Target::Mariana,
        &reciprocal(),
        // §4.7: +0x20/+0x21 dtypes, +0x22 lane, +0x25 = 0; dst PSUM 0x2000000 + (1 << 15) + 0x100.
        "48100000 00000000 00000000 00000000
         01000100 01000100 08000100 01000100
         0a0a0400 00000000 00000000 00810002
         01000100 01000100 08000100 01000100",
        &format!(
            "reciprocal {EV0} src_mem_pattern=t4d(sb[0]+0x0;1,1,1,1;8,1,1,1) in_dtype=fp32 \
             out_dtype=fp32 num_active_channels=4 negated=0 op=bypass op_dim=unused \
             mask_enable=0 dst_mem_pattern=t4d(ps[1]+0x100;1,1,1,1;8,1,1,1)"
        ),
    );
}

#[test]
fn pool_average() {
    golden(
        Target::Sunda,
        &pool(),
        // §4.7 S4D4_PL: +0x24 Avg -> 2, +0x25 mode 3, +0x28 f32 0.125 = 0x3E000000.
        "45100000 00000000 00000000 00000000
         01000800 01000100 08000400 01000100
         0a0a1000 02030000 0000003e 00080000
         01000100 01000100 04000100 01000100",
        &format!(
            "pool {EV0} src_mem_pattern=t4d(sb[0]+0x0;1,8,1,1;8,4,1,1) in_dtype=fp32 \
             out_dtype=fp32 num_active_channels=16 pool_func=avg pool_mode=3 pool_scale=0.125 \
             dst_mem_pattern=t4d(sb[0]+0x800;1,1,1,1;4,1,1,1)"
        ),
    );
}

#[test]
fn cross_lane_reduce_arith_average() {
    golden(
        Target::Cayman,
        &cross_lane_arith(),
        // §4.4 S4D4_CR: +0x22 128, +0x23 AVERAGE 1, +0x24 PARTITIONS 1, +0x28 1/128 = 0x3C000000.
        "7c100000 00000000 00000000 00000000
         01000100 01000100 10000100 01000100
         0a0a8001 01000000 0000003c 00100000
         01000100 01000100 10000100 01000100",
        &format!(
            "cross_lane_reduce_arith {EV0} src_mem_pattern=t4d(sb[0]+0x0;1,1,1,1;16,1,1,1) \
             in_dtype=fp32 out_dtype=fp32 num_active_channels=128 reduce_op=average \
             reduce_axis=partitions scale=0.0078125 dst_mem_pattern=t4d(sb[0]+0x1000;1,1,1,1;16,1,1,1)"
        ),
    );
}

#[test]
fn cross_lane_reduce_bitvec_xor_all() {
    golden(
        Target::Mariana,
        &cross_lane_bitvec(),
        // +0x23 BITWISE_XOR 5, +0x24 ALL 0, +0x28 1.0 = 0x3F800000; dst one element.
        "7d100000 00000000 00000000 00000000
         01000100 01000100 08000100 01000100
         08082005 00000000 0000803f 00020000
         01000100 01000100 01000100 01000100",
        &format!(
            "cross_lane_reduce_bitvec {EV0} src_mem_pattern=t4d(sb[0]+0x0;1,1,1,1;8,1,1,1) \
             in_dtype=i32 out_dtype=i32 num_active_channels=32 reduce_op=bitwise_xor \
             reduce_axis=all scale=1.0 dst_mem_pattern=t4d(sb[0]+0x200;1,1,1,1;1,1,1,1)"
        ),
    );
}

#[test]
fn iota_pattern() {
    golden(
        Target::Sunda,
        &iota(),
        // §4.8 D4_IOTA: DATA4D @+0x0C base -5 = 0xFFFFFFFB, steps (1,8,1,1) @+0x10, nums
        // (8,4,1,1) @+0x18; +0x20 reserved; +0x21 i32; +0x22 64; +0x24 channel_multiplier 32.
        "7e100000 00000000 00000000 fbffffff
         01000800 01000100 08000400 01000100
         00084000 20000000 00000000 00000000
         01000800 01000100 08000400 01000100",
        &format!(
            "iota {EV0} src_data_pattern=d4d(-5;1,8,1,1;8,4,1,1) out_dtype=i32 \
             num_active_channels=64 channel_multiplier=32 \
             dst_mem_pattern=t4d(sb[0]+0x0;1,8,1,1;8,4,1,1)"
        ),
    );
    assert_eq!(
        iota().to_string(),
        "iota pattern=-5[8:4,1:8] dst=Int32@sb[0]+0x0/64[8:4,1:8] channel_multiplier=32"
    );
}

#[test]
fn memset_with_a_wait() {
    golden(
        Target::Cayman,
        &memset(),
        // Sync +0x04 sem_ge_imm 0x05, +0x05 sem 2, +0x08 threshold 9. §7 Memset: +0x1C
        // dst_element_count 128, +0x20 fp32, +0x22 32, +0x28 fill 1.0f, dst TENSOR4D @+0x2C
        // (conflict #11) 0x80, steps (1,64,1,1), nums (64,2,1,1).
        "49100000 05020000 09000000 00000000
         00000000 00000000 00000000 80000000
         0a002000 00000000 0000803f 80000000
         01004000 01000100 40000200 01000100",
        "memset wait_mode=sem_ge_imm wait_idx=2 update_mode=none update_idx=0 semaphore_value=9 \
         dst_element_count=128 dtype=fp32 num_active_channels=32 fill_value=0x3f800000 \
         dst_mem_pattern=t4d(sb[0]+0x80;1,64,1,1;64,2,1,1)",
    );
}

#[test]
fn affine_select_causal_row() {
    golden(
        Target::Mariana,
        &affine_select(),
        // §4.10 S2D2_TS_AS: +0x0C 128, +0x0D fp32:fp32 0xAA, +0x0E ge 1, +0x0F reg 3; DATA4D
        // @+0x10 base 0, steps (-1,1,1,1) @+0x14, nums (128,1,1,1) @+0x1C; src TENSOR2D @+0x24;
        // dst TENSOR2D @+0x30 0x200; +0x3C channel_multiplier 1.
        "92100000 00000000 00000000 80aa0103
         00000000 ffff0100 01000100 80000100
         01000100 00000000 01000100 80000100
         00020000 01000100 80000100 01000000",
        &format!(
            "tensor_scalar_affine_select {EV0} num_active_channels=128 in_out_dtype=fp32:fp32 \
             fill_mode=ge fill_reg=3 mask_pattern=d4d(0;-1,1,1,1;128,1,1,1) \
             src_mem_pattern=t2d(sb[0]+0x0;1,1;128,1) dst_mem_pattern=t2d(sb[0]+0x200;1,1;128,1) \
             channel_multiplier=1"
        ),
    );
    assert_eq!(
        affine_select().to_string(),
        "tensor_scalar_affine_select src=Float32@sb[0]+0x0/128[1:128] \
         dst=Float32@sb[0]+0x200/128[1:128] mask=0[-1:128] fill_mode=GreaterThanEq fill_reg=3 \
         channel_multiplier=1"
    );
}

#[test]
fn instruction_text_of_the_reduce_and_pool_forms() {
    assert_eq!(
        reduce_arith().to_string(),
        "tensor_reduce_arith src=Float32@sb[0]+0x100/16[16:4,1:16] dst=Float32@sb[0]+0x400/16[1:4] \
         op=Add axis=X negated=true"
    );
    assert_eq!(
        cross_lane_arith().to_string(),
        "cross_lane_reduce_arith src=Float32@sb[0]+0x0/128[1:16] dst=Float32@sb[0]+0x1000/1[1:16] \
         op=Average axis=Partitions scale=0.0078125"
    );
    assert_eq!(
        memset().to_string(),
        "memset dst=Float32@sb[0]+0x80/32[64:2,1:64] fill_value=0x3f800000 wait=SemGeImm:2:9"
    );
}

#[test]
fn every_sample_is_gated_on_every_target() {
    // The families are on all three targets (header structs identical across generations).
    for (_, inst) in samples() {
        for t in Target::ALL {
            assert!(generate_vec(&inst, t.model()).is_ok(), "{inst} on {t}");
        }
    }
}
