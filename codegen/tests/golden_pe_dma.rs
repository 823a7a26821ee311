//! Golden (instruction, hex, text) triples of the PE, DMA and event formats, the hex written by
//! hand from the field tables of bundle-layouts §4.5 / §4.13 / §5 / §3b-3c (offsets noted per
//! row). Each is checked in every direction: encode == hex, the target's disassembly == text,
//! the target's assembly of the text == hex, the validators accept it, COLLECT reports the
//! opcodes, and the hex lifts back to the instruction (every sample is in canonical form).

mod common;

use common::pe_dma::*;
use common::{hex, to_hex};
use sundial_codegen::arch::Target;
use sundial_codegen::decode::decode_on;
use sundial_codegen::model::Instruction;
use sundial_codegen::text::{assemble_on, format_decoded};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{OpcodeSet, collect, decode_instructions, generate_vec, run_isa_checks};

fn golden(target: Target, inst: &Instruction, expected: &[(&str, &str)]) {
    let arch = target.model();
    let got = generate_vec(inst, arch).expect("encodes");
    assert_eq!(got.len(), expected.len(), "bundle count");
    let mut set = OpcodeSet::default();
    collect(inst, arch, &mut set).unwrap();
    for (i, ((h, t), b)) in expected.iter().zip(&got).enumerate() {
        assert_eq!(to_hex(b), to_hex(&hex(h)), "bundle {i} bytes");
        assert_eq!(
            &format_decoded(&decode_on(b, arch).unwrap()),
            t,
            "bundle {i} text"
        );
        assert_eq!(
            assemble_on(t, arch).unwrap(),
            vec![*b],
            "bundle {i} assembles"
        );
        assert_eq!(validate_bundle(b, i, arch), vec![], "bundle {i} validates");
        assert!(set.contains(b[0]));
    }
    assert_eq!(run_isa_checks(inst, arch, 0).unwrap(), vec![]);
    let bytes: Vec<u8> = expected.iter().flat_map(|(h, _)| hex(h)).collect();
    assert_eq!(
        decode_instructions(&bytes, arch).unwrap(),
        vec![inst.clone()]
    );
}

#[test]
fn matmul_v3_layout_on_cayman() {
    golden(
        Target::Cayman,
        &mm(|_| {}),
        &[
            (
                // +0 opcode 0x01, len 0x10 | +4 wait 05 sem 05, no update | +8 value 7
                // +0x10 TENSOR3D sb[0]+0x100, steps 1,1,1, nums 32,1,1
                // +0x20 in bf16 (06), +0x22 transpose 0, +0x23 perf none, +0x26 K=64, +0x27 N=32
                // +0x2C row_grp 0x3 (64 rows from partition 0), +0x2D col_grp 0x1 (32 from 0):
                // the header's masks (conflict #14; the CC LUT gives the same here)
                "01100000 05050000 07000000 00000000
                 00010000 01000100 01002000 01000100
                 06000000 00004020 00000000 03010000
                 00000000 00000000 00000000 00000000",
                "ldweights wait_mode=sem_ge_imm wait_idx=5 update_mode=none update_idx=0 \
                 semaphore_value=7 src_mem_pattern=t3d(sb[0]+0x100;1,1,1;32,1,1) in_dtype=bf16 \
                 transpose_mode=0 perf_opt=none num_active_rows=64 num_active_cols=32 row_grp=3 \
                 col_grp=1",
            ),
            (
                // +0 0x02, no sync band (+4..+0xF zero) | +0x10 moving sb[0]+0x200, nums 128
                // +0x20 bf16, fp32_mode none, perf none, quant 0, K 0x40, N 0x20
                // +0x2B flags 3 (single), row 3, col 1, xbus 0x01 (col 0x1), zero region 0
                // +0x30 PSUM ps[0]+0 = 0x02000000, nums 128
                "02100000 00000000 00000000 00000000
                 00020000 01000100 01008000 01000100
                 06000000 00004020 00000003 03010100
                 00000002 01000100 01008000 01000100",
                "matmul src_mem_pattern=t3d(sb[0]+0x200;1,1,1;128,1,1) in_dtype=bf16 \
                 fp32_mode=none perf_opt=none quant_offset=0 num_active_rows=64 \
                 num_active_cols=32 psum_accumulate_flags=3 row_grp=3 col_grp=1 xbus_sel=1 \
                 psum_zero_region=0 dst_mem_pattern=t3d(ps[0]+0x0;1,1,1;128,1,1)",
            ),
        ],
    );
}

#[test]
fn matmul_v4_layout_on_mariana() {
    // Transposed weights, fp32 moving operand (fp32_mode low_high), upper PSUM half, zero
    // region 2: exercises the v4-only bytes (+0x28 out dtype, +0x2F LD_WEIGHT_FLAGS).
    let inst = mm(|m| {
        m.transpose = true;
        m.moving = sb1(64, 0, 64, 16, sundial_codegen::dtype::BirDtype::Float32);
        m.weights = sb1(64, 0x40, 64, 64, sundial_codegen::dtype::BirDtype::Float32);
        m.dst = ps1(64, 0x800, 64, 16, sundial_codegen::dtype::BirDtype::Float32);
        m.fp32_mode = sundial_codegen::model::PeFp32Mode::LowHigh;
        m.psum_zero_region = 2;
        m.psum_accumulate_flags = 6;
    });
    golden(
        Target::Mariana,
        &inst,
        &[
            (
                // +0x10 sb[64]+0x40 = 64<<18 | 0x40 = 0x01000040, nums 64
                // +0x20 fp32 (0x0a), K 0x40, N 0x40; row 0xC (partitions 64..128), col 0xC
                // +0x2F LD_WEIGHT_FLAGS xpose_mode = 1
                "01100000 05050000 07000000 00000000
                 40000001 01000100 01004000 01000100
                 0a000000 00004040 00000000 0c0c0001
                 00000000 00000000 00000000 00000000",
                "ldweights_v4 wait_mode=sem_ge_imm wait_idx=5 update_mode=none update_idx=0 \
                 semaphore_value=7 bg_xpose_mode=0 src_mem_pattern=t3d(sb[64]+0x40;1,1,1;64,1,1) \
                 in_dtype=fp32 transpose_mode=0 perf_opt=none num_active_rows=64 \
                 num_active_cols=64 row_grp=12 col_grp=12 flags=1",
            ),
            (
                // +0x10 sb[64]+0 = 0x01000000, nums 16 | +0x21 fp32_mode 3, +0x23..+0x25
                // reserved on v4 (our assumption: perf_opt / quant_offset are v3-only)
                // +0x28 out fp32 0x0a, +0x2A flags 0, +0x2B accumulate 6, row 0xC, col 0xC,
                // +0x2E reserved on v4, +0x2F zero region 2
                // +0x30 ps[64]+0x800 = 0x02000000 + 64<<15 + 0x800 = 0x02200800
                "02100000 00000000 00000000 00000000
                 00000001 01000100 01001000 01000100
                 0a030000 00004040 0a000006 0c0c0002
                 00082002 01000100 01001000 01000100",
                "matmul_v4 src_mem_pattern=t3d(sb[64]+0x0;1,1,1;16,1,1) in_dtype=fp32 \
                 fp32_mode=low_high num_active_rows=64 num_active_cols=64 out_dtype=fp32 flags=0 psum_accumulate_flags=6 row_grp=12 \
                 col_grp=12 psum_zero_region=2 dst_mem_pattern=t3d(ps[64]+0x800;1,1,1;16,1,1)",
            ),
        ],
    );
}

#[test]
fn dma_direct2d_addr8_48bit_assumption() {
    golden(
        Target::Sunda,
        &d2d(|_| {}),
        &[(
            // +4 no wait, update sem_inc (0x13) sem 9, value not written
            // +12 dma_configs 2, semaphore 3, sem_increment 1, compute_op none
            // +16 ADDR8 0x2000000000 (marker byte 7 = 0x00 IMM; the 48-bit immediate in bytes
            // 0..5 is our assumption), +24 steps 1, 64, +32 nums 64, 4,
            // +36 elem 2, +38 src bound inert, +39 dst bound enabled r5 = 0x85
            // +40 ADDR8 0x100000000, +48 steps 1, 128, +56 nums 128, 2, +60 elem 2, +62/+63 bf16
            "b8100000 00001309 00000000 02030100
             00000000 20000000 01000000 40000000
             40000400 02000085 00000000 01000000
             01000000 80000000 80000200 02000606",
            "dma_direct2d wait_mode=none wait_idx=0 update_mode=sem_inc update_idx=9 \
             semaphore_value=0 dma_configs=2 semaphore=3 sem_increment=1 compute_op=none \
             src_start_addr=0x2000000000 src_step_elem[0]=1 src_step_elem[1]=64 \
             src_num_elem[0]=64 src_num_elem[1]=4 src_elem_size=2 src_bound_reg=0 \
             dst_bound_reg=133 dst_start_addr=0x100000000 dst_step_elem[0]=1 \
             dst_step_elem[1]=128 dst_num_elem[0]=128 dst_num_elem[1]=2 dst_elem_size=2 \
             in_dtype=bf16 out_dtype=bf16",
        )],
    );
}

#[test]
fn dma_indirect_addr8_48bit_assumption() {
    golden(
        Target::Sunda,
        &dind(|_| {}),
        &[(
            // +12 semaphore 4, sem_increment 1, idx channels 128, flags 0x05 (load | bound err)
            // +16 src 0x1000, step 1, num 16, elem 4 | +32 dst 0x2000, step 1, num 16, elem 4
            // +48 src idx sb[0]+0x40, +52 dst idx sb[0]+0 | +56 fp32 fp32, +58 bound r2 enabled
            // (0x82), +59 inert, +60 compute none, +61 priority 1
            "bb100000 00000000 00000000 04018005
             00100000 00000000 01000000 10000400
             00200000 00000000 01000000 10000400
             40000000 00000000 0a0a8200 00010000",
            "dma_indirect wait_mode=none wait_idx=0 update_mode=none update_idx=0 \
             semaphore_value=0 semaphore=4 sem_increment=1 idx_num_active_channels=128 flags=5 \
             src_start_addr=0x1000 src_step_elem=1 src_num_elem=16 src_elem_size=4 \
             dst_start_addr=0x2000 dst_step_elem=1 dst_num_elem=16 dst_elem_size=4 \
             src_idx_start_addr=sb[0]+0x40 dst_idx_start_addr=sb[0]+0x0 in_dtype=fp32 \
             out_dtype=fp32 src_idx_bound_reg=130 dst_idx_bound_reg=0 compute_op=0 dma_configs=1",
        )],
    );
}

#[test]
fn event_semaphore_update_through_the_lut() {
    // Conflict #9 settled for the LUT: sem_add_imm is 0x15 at +0x22 (the identity form would
    // write 1). This golden pins that choice.
    golden(
        Target::Mariana,
        &es(|_| {}),
        &[(
            // +4 wait0 0x05 sem 1, +8 value 4 | +0x20 wait1 0x85 sem 2, +0x22 update 0x15 sem 3,
            // +0x24 wait1 value 7, +0x28 update value 10
            "a0100000 05010000 04000000 00000000
             00000000 00000000 00000000 00000000
             85021503 07000000 0a000000 00000000
             00000000 00000000 00000000 00000000",
            "event_semaphore wait_mode=sem_ge_imm wait_idx=1 semaphore_value=4 \
             events_extended.wait_mode=sem_ge_reg events_extended.wait_idx=2 \
             events_extended.update_mode=sem_add_imm events_extended.update_idx=3 \
             events_extended.wait_value=7 events_extended.update_value=10",
        )],
    );
}

#[test]
fn instruction_text() {
    assert_eq!(
        es(|e| e.wait1 = None).to_string(),
        "event_semaphore wait0=SemGeImm:1:4 wait1=- update=SemAddImm:3:10"
    );
    assert_eq!(
        d2d(|_| {}).to_string(),
        "dma_direct2d src=0x2000000000[1:64,64:4]x2 dst=0x100000000[1:128,128:2]x2 \
         in_dtype=Bfloat16 out_dtype=Bfloat16 compute_op=None src_bound_reg=- dst_bound_reg=r5 \
         semaphore=3 sem_increment=1 priority_class=2 update=SemInc:9:0"
    );
    assert!(
        mm(|_| {})
            .to_string()
            .starts_with("matmul weights=Bfloat16@sb[0]+0x100/64[1:32] ")
    );
}

#[test]
fn quantize_mx() {
    golden(
        Target::Mariana,
        &qmx(|_| {}),
        &[(
            // +0x10 TENSOR3D sb[0]+0x100, nums 64 | +0x21 channels 32, +0x22 bf16, +0x23 fp8e4
            // +0x30 MXMEM_PATTERN1D: data sb[0]+0x4000, scale ((0<<18)&0xFF800000)+0x8000,
            // k_extent 64 (fp8e4 is not an x4 dtype), step_dir +1, scale part 0
            "e3100000 00000000 00000000 00000000
             00010000 01000100 01004000 01000100
             0020060e 00000000 00000000 00000000
             00400000 00800000 40000100 00000000",
            "quantize_mx wait_mode=none wait_idx=0 update_mode=none update_idx=0 \
             semaphore_value=0 src_mem_pattern=t3d(sb[0]+0x100;1,1,1;64,1,1) \
             num_active_channels=32 in_dtype=bf16 out_dtype=fp8e4 \
             dst_mem_pattern=mx1d(sb[0]+0x4000;sb[0]+0x8000;64;0x01;0)",
        )],
    );
}

#[test]
fn matmul_mx() {
    golden(
        Target::Mariana,
        &mmx(|_| {}),
        &[
            (
                // +4 wait 0x85 (ge reg) sem 2, +8 register 3
                // +0x10 MXMEM_PATTERN1D data sb[0]+0x1000, scale (3<<18 & 0xFF800000) + 0x100,
                // k 64, step +1, scale part 3 | +0x20 fp8e4, +0x26 K 32, +0x27 N 64,
                // +0x2C row 0x1, +0x2D col 0x0F (CC constant)
                "09100000 85020000 03000000 00000000
                 00100000 00010000 40000103 00000000
                 0e000000 00002040 00000000 010f0000
                 00000000 00000000 00000000 00000000",
                "ldweights_mx wait_mode=sem_ge_reg wait_idx=2 update_mode=none update_idx=0 \
                 semaphore_value=3 src_mem_pattern=mx1d(sb[0]+0x1000;sb[0]+0x100;64;0x01;3) \
                 in_dtype=fp8e4 num_active_rows=32 num_active_cols=64 row_grp=1 col_grp=15",
            ),
            (
                // +0x10 MXINDIRECT16B: index sb[0]+0x3000 | bit 29, data sb[0]+0x2000, scale
                // 0x40 (partition 5 masked out of the word), x4-NUM 16, spare 0, part 5
                // +0x20 fp8e5, K 32, N 64, +0x28 out fp32, +0x2B flags 1, row 1, col 0x0F,
                // +0x2F zero region 1 | +0x30 ps[0]+0, nums 32
                "0a100000 00000000 00000000 00000000
                 00300020 00200000 40000000 10000005
                 0f000000 00002040 0a000001 010f0001
                 00000002 01000100 01002000 01000100",
                "matmul_mx src_mem_pattern=mxi16b(sb[0]+0x3000;sb[0]+0x2000;sb[0]+0x40;16;5) \
                 in_dtype=fp8e5 num_active_rows=32 num_active_cols=64 out_dtype=fp32 \
                 psum_accumulate_flags=1 row_grp=1 col_grp=15 psum_zero_region=1 \
                 dst_mem_pattern=t3d(ps[0]+0x0;1,1,1;32,1,1)",
            ),
        ],
    );
}
