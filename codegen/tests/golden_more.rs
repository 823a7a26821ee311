//! Golden (instruction, hex, text) triples of SB2SB_COLLECTIVE 0xBF, DMA_GATHER_XPOSE 0xF1,
//! TENSOR_DEQUANTIZE 0x7B and BATCH_NORM_BACK_PROP 0x65, the hex written by hand from
//! bundle-layouts §4.13 (S3D3_COLLECTIVE, S3D3_TENS_DEQUANT), §5 (DMA_GATHER_XPOSE) and §4.1
//! (S3S3D3_TT, slot order of conflict #2 as settled for the header: src0@16, src1@32, dst@48). Each is checked in every direction: encode == hex, disassembly ==
//! text, assembly of the text == hex, the validators accept it, COLLECT reports the opcode, the
//! ISA checks pass and the hex lifts back to the instruction (every sample is canonical).
//!
//! Recurring pieces: header = opcode, `inst_word_len` 0x10, two zero bytes; EVENTS +4..+11 zero;
//! an SBUF ADDR4 (P, off) is `P << 18 | off` little-endian; a TENSOR3D of one free dim (1, N) is
//! the ADDR4, steps 1,1,1, nums N,1,1 (the 4+4N rule); wire dtypes bf16 0x06, u32 0x09, fp32
//! 0x0a (§4x.4).

mod common;

use common::more::*;
use common::{hex, to_hex};
use sundial_codegen::arch::Target;
use sundial_codegen::decode::decode_on;
use sundial_codegen::model::Instruction;
use sundial_codegen::text::{assemble_on, format_decoded};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{OpcodeSet, collect, decode_instructions, generate_vec, run_isa_checks};

const EV0: &str = "wait_mode=none wait_idx=0 update_mode=none update_idx=0 semaphore_value=0";

fn golden(target: Target, inst: &Instruction, h: &str, text: &str) {
    let arch = target.model();
    let got = generate_vec(inst, arch).expect("encodes");
    assert_eq!(got.len(), 1, "bundle count");
    let b = &got[0];
    assert_eq!(to_hex(b), to_hex(&hex(h)), "bytes");
    assert_eq!(&format_decoded(&decode_on(b, arch).unwrap()), text, "text");
    assert_eq!(assemble_on(text, arch).unwrap(), vec![*b], "assembles");
    assert_eq!(validate_bundle(b, 0, arch), vec![], "validates");
    let mut set = OpcodeSet::default();
    collect(inst, arch, &mut set).unwrap();
    assert!(set.contains(b[0]));
    assert_eq!(run_isa_checks(inst, arch, 0).unwrap(), vec![]);
    assert_eq!(
        decode_instructions(&hex(h), arch).unwrap(),
        vec![inst.clone()]
    );
}

#[test]
fn sb2sb_collective_0xbf() {
    let h = "bf100000 00000000 00000000
             0606 0000
             00010000 0100 0100 0100 4000 0100 0100
             01 20 0000 00000000 00000000 00000000
             00028000 0100 0100 0100 4000 0100 0100";
    // +0 0xbf | +4..+11 EVENTS zero | +12 in_dtype bf16, +13 out_dtype bf16, +14..15 reserved0
    // +16 src TENSOR3D sb[0]+0x100, steps 1,1,1, nums 64,1,1
    // +32 lnc_size_fmt 1, +33 num_active_channels 32, +34..47 reserved1
    // +48 dst TENSOR3D sb[32]+0x200 (32 << 18 | 0x200 = 0x00800200), nums 64,1,1
    // cayman and mariana (the seed's LNC=2 path; sunda has no SB2SB_COLLECTIVE).
    for t in [Target::Cayman, Target::Mariana] {
        golden(
            t,
            &sb2sb(|_| {}),
            h,
            &format!(
                "sb2sb_collective {EV0} in_dtype=bf16 out_dtype=bf16 \
                 src_mem_pattern=t3d(sb[0]+0x100;1,1,1;64,1,1) lnc_size_fmt=1 \
                 num_active_channels=32 dst_mem_pattern=t3d(sb[32]+0x200;1,1,1;64,1,1)"
            ),
        );
    }
}

#[test]
fn tensor_dequantize_0x7b() {
    let h = "7b100000 00000000 00000000
             00010000 0100 0100 0100 2000 0100 0100
             00000000
             09 09 10 02 08 000000 00000000
             00100000 0100 0100 0100 4000 0100 0100
             00000000";
    // +0 0x7b | +4..+11 EVENTS zero
    // +12 src TENSOR3D sb[0]+0x100, steps 1,1,1, nums 32,1,1 | +28..31 reserved0
    // +32 in_dtype u32, +33 out_dtype u32, +34 num_active_channels 16, +35 dequant_fmt 2,
    // +36 group_size 8, +37..43 reserved1
    // +44 dst TENSOR3D sb[0]+0x1000, nums 64,1,1 | +60..63 reserved2
    golden(
        Target::Cayman,
        &dequant(|_| {}),
        h,
        &format!(
            "tensor_dequantize {EV0} src_mem_pattern=t3d(sb[0]+0x100;1,1,1;32,1,1) in_dtype=u32 \
             out_dtype=u32 num_active_channels=16 dequant_fmt=2 group_size=8 \
             dst_mem_pattern=t3d(sb[0]+0x1000;1,1,1;64,1,1)"
        ),
    );
}

#[test]
fn batch_norm_back_prop_0x65() {
    let h = "65100000 00000000 00000000
             aa 0a 00 20
             00000000 0100 0100 0100 4000 0100 0100
             00040000 0100 0100 0100 4000 0100 0100
             00080000 0100 0100 0100 4000 0100 0100";
    // +0 0x65 | +4..+11 EVENTS zero
    // +12 in0_in1_dtype fp32:fp32 (0xaa), +13 out_dtype fp32, +14 op BYPASS (forced), +15 32
    // +16 src0 sb[0]+0x0, +32 src1 sb[0]+0x400, +48 dst sb[0]+0x800 (header slot order)
    golden(
        Target::Sunda,
        &bn(|_| {}),
        h,
        &format!(
            "batch_norm_back_prop {EV0} in0_in1_dtype=fp32:fp32 out_dtype=fp32 op=bypass \
             num_active_channels=32 src0_mem_pattern=t3d(sb[0]+0x0;1,1,1;64,1,1) \
             src1_mem_pattern=t3d(sb[0]+0x400;1,1,1;64,1,1) \
             dst_mem_pattern=t3d(sb[0]+0x800;1,1,1;64,1,1)"
        ),
    );
}

#[test]
fn dma_gather_xpose_0xf1_assumed_dtype_nibbles() {
    let h = "f1100000 00000000 00000000
             04 01 80 82
             00100000 00000000
             01000000 40000000
             4000 0400
             40000000
             00000000 02000000
             000000 00
             80000000
             0400 4000
             0200 66 01";
    // +0 0xf1 | +4..+11 EVENTS zero
    // +12 semaphore 4, +13 dma_configs priority 1, +14 idx_num_active_channels 128,
    // +15 src_idx_bound_reg enabled r2 = 0x80 | 2
    // +16 src ADDR8 immediate 0x1000 (marker byte 7 = 0x00)
    // +24 src_step_elem[0] 1, +28 src_step_elem[1] 64 | +32 src_num_elem 64, 4
    // +36 src_idx_start_addr ADDR4 sb[0]+0x40
    // +40 dst ADDR8 0x2_0000_0000 | +48..50 reserved, +51 dst_bound_reg inert
    // +52 dst_step_elem_1 128 | +56 dst_num_elem 4, 64
    // +60 elem_size 2, +62 dtype bf16:bf16 (lo = in, hi = out: ASSUMPTION), +63 gather_dim Y 1
    for t in [Target::Cayman, Target::Mariana] {
        golden(
            t,
            &gxp(|_| {}),
            h,
            &format!(
                "dma_gather_xpose {EV0} semaphore=4 dma_configs=1 idx_num_active_channels=128 \
                 src_idx_bound_reg=130 src_start_addr=0x1000 src_step_elem[0]=1 \
                 src_step_elem[1]=64 src_num_elem[0]=64 src_num_elem[1]=4 \
                 src_idx_start_addr=sb[0]+0x40 dst_start_addr=0x200000000 dst_bound_reg=0 \
                 dst_step_elem_1=128 dst_num_elem[0]=4 dst_num_elem[1]=64 elem_size=2 \
                 dtype=bf16:bf16 flags=1"
            ),
        );
    }
}
