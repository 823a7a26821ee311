//! Golden (instruction, hex, text) triples of the 3D-slot compute formats, transcribed by hand
//! from bundle-layouts §4.1 (S3S3D3_TT), §4.2 (S3D3_TS), §4.11 (S3D3_TS_SELECT), §4.13
//! (D1_RD) and §4.0 / conflict #12 / §4x.2 (ACTIVATE 0x21, four offsets assumed: its goldens
//! say so). Each triple is checked both ways: encode == hex, disassemble(hex) == text,
//! assemble(text) == hex, the validators accept it, COLLECT reports its opcodes, and the hex
//! lifts back to the instruction itself (every sample is in canonical form).
//!
//! The recurring pieces, by row:
//! * header: opcode, `inst_word_len` 0x10, two zero bytes; EVENTS +0x04..+0x0B zero unless a
//!   test says otherwise.
//! * ADDR4 of SBUF (0, off): `off` little-endian (partition << 18 is 0).
//! * a TENSOR3D of one free dim (1, 64): steps 1,1,1 then nums 64,1,1 (the 4+4N rule, spare
//!   slots {1,1}): `0100 0100 0100 4000 0100 0100`.
//! * wire dtypes (§4x.4): fp32 0x0a, bf16 0x06, int32 0x08, u32 0x09, u8 0x03.

mod common;

use common::compute3d::*;
use common::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::{
    ActivationFunc, BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode,
};
use sundial_codegen::model::*;
use sundial_codegen::text::{assemble, disassemble};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{OpcodeSet, collect, decode_instructions, generate_vec, run_isa_checks};

const EV0: &str = "wait_mode=none wait_idx=0 update_mode=none update_idx=0 semaphore_value=0";
/// The 1x64 TENSOR3D body (after the ADDR4).
const T3: &str = "0100 0100 0100 4000 0100 0100";

fn t3(addr: &str) -> String {
    format!("t3d({addr};1,1,1;64,1,1)")
}

/// Checks one instruction against its expected (hex, text) bundles; it lifts to itself.
fn golden(target: Target, inst: &Instruction, expected: &[(String, String)]) {
    golden_lifting_to(target, inst, expected, inst);
}

/// [`golden`] for an instruction that is not in canonical form: it lifts to `canonical`.
fn golden_lifting_to(
    target: Target,
    inst: &Instruction,
    expected: &[(String, String)],
    canonical: &Instruction,
) {
    let arch = target.model();
    let got = generate_vec(inst, arch).expect("encodes");
    assert_eq!(got.len(), expected.len(), "bundle count");
    let mut set = OpcodeSet::default();
    collect(inst, arch, &mut set).unwrap();
    for (i, ((h, t), b)) in expected.iter().zip(&got).enumerate() {
        assert_eq!(to_hex(b), to_hex(&hex(h)), "bundle {i} bytes");
        assert_eq!(&disassemble(b).unwrap(), t, "bundle {i} text");
        assert_eq!(assemble(t).unwrap(), vec![*b], "bundle {i} assemble");
        assert_eq!(validate_bundle(b, i, arch), vec![], "bundle {i} validates");
        assert!(set.contains(b[0]), "COLLECT has {:#x}", b[0]);
    }
    assert_eq!(set.iter().count(), expected.len(), "COLLECT is exact");
    assert_eq!(run_isa_checks(inst, arch, 0).unwrap(), vec![]);
    let bytes: Vec<u8> = got.concat();
    assert_eq!(
        decode_instructions(&bytes, arch).unwrap(),
        vec![canonical.clone()],
        "lifts to the canonical instruction"
    );
}

/// The hex of an S3S3D3_TT bundle over the three sample slots (src0 0x0, src1 0x400, dst 0x800)
/// with control band `band` (+0x0C pair, +0x0D out, +0x0E op, +0x0F channels).
fn tt_hex(opcode: &str, band: &str) -> String {
    format!("{opcode}100000 00000000 00000000 {band} 00000000 {T3} 00040000 {T3} 00080000 {T3}")
}

/// The text of the same bundle.
fn tt_text(mnemonic: &str, pair: &str, out: &str, op: &str) -> String {
    format!(
        "{mnemonic} {EV0} in0_in1_dtype={pair} out_dtype={out} op={op} num_active_channels=32 \
         src0_mem_pattern={} src1_mem_pattern={} dst_mem_pattern={}",
        t3("sb[0]+0x0"),
        t3("sb[0]+0x400"),
        t3("sb[0]+0x800")
    )
}

#[test]
fn tensor_tensor_arith_0x41() {
    // +0x0C fp32:fp32 = 0xaa, +0x0D fp32, +0x0E ADD 0x04, +0x0F 32 partitions.
    golden(
        Target::Cayman,
        &tt(BirAluOp::Add, Float32),
        &[(
            tt_hex("41", "aa0a0420"),
            tt_text("tensor_tensor_arith", "fp32:fp32", "fp32", "add"),
        )],
    );
}

#[test]
fn tensor_tensor_bitvec_0x51() {
    // BITWISE_AND 0x0a selects the bitvec opcode; int32 0x08 in both nibbles.
    golden(
        Target::Sunda,
        &tt(BirAluOp::BitwiseAnd, Int32),
        &[(
            tt_hex("51", "88080a20"),
            tt_text("tensor_tensor_bitvec", "i32:i32", "i32", "bitwise_and"),
        )],
    );
}

#[test]
fn bf16_opcodes_on_sunda_assumed_op_byte() {
    // isa-table row 10: bf16 add/mult/sub on sunda -> 0x8a/0x8b/0x8f. The op byte holding the
    // op's own code (0x04/0x06/0x05) is this crate's ASSUMPTION (no source says).
    for (op, opcode, mnemonic, alu, name) in [
        (BirAluOp::Add, "8a", "tensor_tensor_add_bf16", "04", "add"),
        (
            BirAluOp::Mult,
            "8b",
            "tensor_tensor_mult_bf16",
            "06",
            "mult",
        ),
        (
            BirAluOp::Subtract,
            "8f",
            "tensor_tensor_sub_bf16",
            "05",
            "subtract",
        ),
    ] {
        golden(
            Target::Sunda,
            &tt(op, Bfloat16),
            &[(
                tt_hex(opcode, &format!("6606{alu}20")),
                tt_text(mnemonic, "bf16:bf16", "bf16", name),
            )],
        );
    }
    // Past sunda the same instruction is the ordinary 0x41.
    golden(
        Target::Cayman,
        &tt(BirAluOp::Add, Bfloat16),
        &[(
            tt_hex("41", "66060420"),
            tt_text("tensor_tensor_arith", "bf16:bf16", "bf16", "add"),
        )],
    );
}

#[test]
fn gpsimd_int32_forms_are_0x41_with_an_integer_alu_byte() {
    // Seed (compiler-map-emit-to-opcode, engine rule): int32 add/subtract/multiply on GpSimd is
    // "TENSOR_TENSOR_ARITH 0x41 on POOL", the opcode unchanged by the engine. The ALU byte is the
    // integer band CC forces (bundle-layouts 4x.1): ADD_INT 0xC4, MULT_INT 0xC5 on every target;
    // SUBTRACT_INT 0xC6 from CoreV3 on. Band +0x0C..+0x0F: dtypes i32:i32 (0x88), out i32 (0x08),
    // the ALU byte, 32 channels (0x20).
    for t in Target::ALL {
        golden(
            t,
            &tt_gpsimd(BirAluOp::Add, Int32),
            &[(
                tt_hex("41", "8808c420"),
                tt_text("tensor_tensor_arith", "i32:i32", "i32", "add_int"),
            )],
        );
        golden(
            t,
            &tt_gpsimd(BirAluOp::Mult, Int32),
            &[(
                tt_hex("41", "8808c520"),
                tt_text("tensor_tensor_arith", "i32:i32", "i32", "mult_int"),
            )],
        );
    }
    golden(
        Target::Cayman,
        &tt_gpsimd(BirAluOp::Subtract, Int32),
        &[(
            tt_hex("41", "8808c620"),
            tt_text("tensor_tensor_arith", "i32:i32", "i32", "subtract_int"),
        )],
    );
    // CoreV2 has no SUBTRACT_INT override (CC gives add and mult only): the plain byte, and
    // then 0x41 does not carry the engine, so the bundle lifts to the default engine (Vector).
    golden_lifting_to(
        Target::Sunda,
        &tt_gpsimd(BirAluOp::Subtract, Int32),
        &[(
            tt_hex("41", "88080520"),
            tt_text("tensor_tensor_arith", "i32:i32", "i32", "subtract"),
        )],
        &tt(BirAluOp::Subtract, Int32),
    );
    // An op without an override keeps its ordinary byte.
    golden_lifting_to(
        Target::Cayman,
        &tt_gpsimd(BirAluOp::Max, Int32),
        &[(
            tt_hex("41", "88080820"),
            tt_text("tensor_tensor_arith", "i32:i32", "i32", "max"),
        )],
        &tt(BirAluOp::Max, Int32),
    );
}

#[test]
fn copy_and_cast_predicated_0x72_0x99() {
    // +0x0C lo = mask u8 0x3, hi = data fp32 0xa -> 0xa3; op byte BYPASS; channels from the data.
    golden(
        Target::Cayman,
        &pred(Float32),
        &[(
            tt_hex("72", "a30a0020"),
            tt_text("copy_predicated", "u8:fp32", "fp32", "bypass"),
        )],
    );
    golden(
        Target::Cayman,
        &pred(Bfloat16),
        &[(
            tt_hex("99", "a3060020"),
            tt_text("cast_predicated", "u8:fp32", "bf16", "bypass"),
        )],
    );
}

/// The hex of an S3D3_TS bundle: +0x0C accumulator_cmd, src 0x0 @+0x10, band +0x20..+0x2F,
/// dst 0x400 @+0x30.
fn ts_hex(opcode: &str, events: &str, acc: &str, band: &str) -> String {
    format!("{opcode}100000 {events} {acc}000000 00000000 {T3} {band} 00040000 {T3}")
}

#[allow(clippy::too_many_arguments)]
fn ts_text(
    mnemonic: &str,
    ev: &str,
    acc: &str,
    dt: &str,
    imm0_src: &str,
    ops: (&str, &str),
    rev: u8,
    imm1_src: &str,
    imms: (&str, &str),
) -> String {
    format!(
        "{mnemonic} {ev} accumulator_cmd={acc} src_mem_pattern={} in_dtype={dt} out_dtype={dt} \
         num_active_channels=32 imm0_src={imm0_src} op0={} op1={} reverse_operands={rev} \
         imm1_src={imm1_src} imm0={} imm1={} dst_mem_pattern={}",
        t3("sb[0]+0x0"),
        ops.0,
        ops.1,
        imms.0,
        imms.1,
        t3("sb[0]+0x400")
    )
}

const NO_EVENTS: &str = "00000000 00000000";

#[test]
fn tensor_scalar_arith_0x43() {
    // +0x20 in fp32, +0x21 out fp32, +0x22 32, +0x23 imm0_src INST 0; +0x24 MULT 06, +0x25 ADD
    // 04, +0x26 reverse0 = 1, +0x27 imm1_src PTR 1; +0x28 2.0f = 0x40000000; +0x2C 0x100.
    golden(
        Target::Cayman,
        &ts(|_| {}),
        &[(
            ts_hex("43", NO_EVENTS, "00", "0a0a2000 06040101 00000040 00010000"),
            ts_text(
                "tensor_scalar_arith",
                EV0,
                "idle",
                "fp32",
                "inst",
                ("mult", "add"),
                1,
                "ptr",
                ("0x40000000", "0x100"),
            ),
        )],
    );
}

#[test]
fn tensor_scalar_bitvec_0x53_takes_integer_immediates() {
    // AND 0x0a / BYPASS; imm0 inline int 0xff, imm1 register 3 (IMM_SRC 2).
    let inst = ts(|t| {
        t.src = sb(0, 0, 32, 64, Int32);
        t.dst = sb(0, 0x400, 32, 64, Int32);
        t.op0 = BirAluOp::BitwiseAnd;
        t.op1 = BirAluOp::Bypass;
        t.reverse0 = false;
        t.imm0 = ImmOperand::Int(0xFF);
        t.imm1 = ImmOperand::Reg(3);
    });
    golden(
        Target::Cayman,
        &inst,
        &[(
            ts_hex("53", NO_EVENTS, "00", "08082000 0a000002 ff000000 03000000"),
            ts_text(
                "tensor_scalar_bitvec",
                EV0,
                "idle",
                "i32",
                "inst",
                ("bitwise_and", "bypass"),
                0,
                "reg_ptr",
                ("0xff", "0x3"),
            ),
        )],
    );
}

#[test]
fn tensor_scalar_transpose_0x93_and_cumulative_0xe6() {
    // 0x93: ADD 1.0 (0x3f800000), op1 BYPASS with 0.0, both inline.
    let tr = ts(|t| {
        t.form = TsForm::Transpose;
        t.op0 = BirAluOp::Add;
        t.op1 = BirAluOp::Bypass;
        t.reverse0 = false;
        t.imm0 = ImmOperand::Fp32(1.0);
        t.imm1 = ImmOperand::Fp32(0.0);
    });
    golden(
        Target::Mariana,
        &tr,
        &[(
            ts_hex("93", NO_EVENTS, "00", "0a0a2000 04000000 0000803f 00000000"),
            ts_text(
                "tensor_scalar_transpose",
                EV0,
                "idle",
                "fp32",
                "inst",
                ("add", "bypass"),
                0,
                "inst",
                ("0x3f800000", "0x0"),
            ),
        )],
    );
    // 0xe6 with BIR AddAccumulate -> ACCUM_CMD ACCUMULATE 2 (§4x.3).
    let cum = ts(|t| {
        t.form = TsForm::CacheCumulative;
        t.accumulate = BirAccumulation::AddAccumulate;
    });
    golden(
        Target::Sunda,
        &cum,
        &[(
            ts_hex("e6", NO_EVENTS, "02", "0a0a2000 06040101 00000040 00010000"),
            ts_text(
                "tensor_scalar_cache_cumulative",
                EV0,
                "accumulate",
                "fp32",
                "inst",
                ("mult", "add"),
                1,
                "ptr",
                ("0x40000000", "0x100"),
            ),
        )],
    );
}

#[test]
fn exponential_0x30_on_mariana() {
    // SUBTRACT 0x05 with imm0 by pointer 0x40, op1 BYPASS.
    let inst = ts(|t| {
        t.form = TsForm::Exponential;
        t.op0 = BirAluOp::Subtract;
        t.op1 = BirAluOp::Bypass;
        t.reverse0 = false;
        t.imm0 = ImmOperand::Ptr(0x40);
        t.imm1 = ImmOperand::Fp32(0.0);
    });
    golden(
        Target::Mariana,
        &inst,
        &[(
            ts_hex("30", NO_EVENTS, "00", "0a0a2001 05000000 40000000 00000000"),
            ts_text(
                "exponential",
                EV0,
                "idle",
                "fp32",
                "ptr",
                ("subtract", "bypass"),
                0,
                "inst",
                ("0x40", "0x0"),
            ),
        )],
    );
}

#[test]
fn cache_reduce_0x9a_with_its_0x9b_read_out_and_sync() {
    // Wait (GE imm 0x05, sem 2, value 5) on the 0x9a; update (sem_inc 0x13, sem 3, no value) on
    // the 0x9b. ZeroAccumulate -> ACCUM_CMD 3. The 0x9b (D1_RD): +0x1C count 1, +0x20 fp32,
    // +0x22 32 channels, TENSOR1D @+0x2C = ADDR4 0xC00, step 1, num 1.
    let mut inst = ts_reduce();
    inst.sync = SyncInfo {
        wait: Some(SyncWait {
            mode: BirWaitMode::SemGeImm,
            sem: 2,
            value: 5,
        }),
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemInc,
            sem: 3,
            value: 0,
        }),
    };
    let ev = "wait_mode=sem_ge_imm wait_idx=2 update_mode=none update_idx=0 semaphore_value=5";
    golden(
        Target::Cayman,
        &inst,
        &[
            (
                ts_hex(
                    "9a",
                    "05020000 05000000",
                    "03",
                    "0a0a2000 06040100 00000040 00000000",
                ),
                ts_text(
                    "tensor_scalar_cache_reduce",
                    ev,
                    "zero_accumulate",
                    "fp32",
                    "inst",
                    ("mult", "add"),
                    1,
                    "inst",
                    ("0x40000000", "0x0"),
                ),
            ),
            (
                "9b100000 00001303 00000000 00000000 00000000 00000000 00000000 01000000 \
                 0a002000 00000000 00000000 000c0000 01000100 00000000 00000000 00000000"
                    .into(),
                "dve_read_accumulator wait_mode=none wait_idx=0 update_mode=sem_inc \
                 update_idx=3 semaphore_value=0 dst_element_count=1 dtype=fp32 negated=0 \
                 num_active_channels=32 dst_mem_pattern=t1d(sb[0]+0xc00;1;1)"
                    .into(),
            ),
        ],
    );
}

#[test]
fn tensor_scalar_select_0x98() {
    // +0x20 reversed 1, +0x21 32, +0x22 fp32, +0x23 pred dtype u32 0x09, +0x26 scalar INST,
    // +0x27 pred PTR; +0x28 0.5f = 0x3f000000; +0x2C 0x200.
    golden(
        Target::Cayman,
        &tss(|_| {}),
        &[(
            format!(
                "98100000 00000000 00000000 00000000 00000000 {T3} \
                 01200a09 00000001 0000003f 00020000 00040000 {T3}"
            ),
            format!(
                "tensor_scalar_select {EV0} src0_mem_pattern={} reversed_pred=1 \
                 num_active_channels=32 dtype=fp32 pred_imm_dtype=u32 src1_imm_src=inst \
                 pred_imm_src=ptr src1_imm=0x3f000000 pred_imm=0x200 dst_mem_pattern={}",
                t3("sb[0]+0x0"),
                t3("sb[0]+0x400")
            ),
        )],
    );
}

#[test]
fn activation_read_accumulator_0x24() {
    // D1_RD (§4.13): +0x1C count 1, +0x20 fp32, +0x21 negated 0, +0x22 32, TENSOR1D @+0x2C.
    golden(
        Target::Sunda,
        &act_read(),
        &[(
            "24100000 00000000 00000000 00000000 00000000 00000000 00000000 01000000 \
             0a002000 00000000 00000000 00080000 01000100 00000000 00000000 00000000"
                .into(),
            format!(
                "activation_read_accumulator {EV0} dst_element_count=1 dtype=fp32 negated=0 \
                 num_active_channels=32 dst_mem_pattern=t1d(sb[0]+0x800;1;1)"
            ),
        )],
    );
}

// ACTIVATE 0x21 (family A, bundle-layouts §4.0; header immediates of conflict #12; function
// byte §4x.2). PINS AN ASSUMPTION: the in_dtype +0x20, out_dtype +0x21, channels +0x22 and
// accumulator_cmd +0x0E offsets are this crate's analogy (ACTIVATE2 / TENSOR_SCALAR), no
// source places them on 0x21.

#[test]
fn activate_0x21_pins_assumed_offsets() {
    // +0x0C imm_src INST 0, +0x0D scale_src INST 0, +0x0E accumulate: Idle writes
    // ZERO_ACCUMULATE 3 (CC), +0x0F bias_src_n PTR = 0 (inverted polarity); src TENSOR3D at
    // +0x10; +0x20 fp32 0a, +0x21 bf16 06, +0x22 32, +0x23 gelu = 23 = 0x17; +0x24 scale 2.0f
    // 0x40000000, +0x28 bias pointer 0x100, +0x2C imm 0; dst TENSOR3D at +0x30.
    golden(
        Target::Sunda,
        &act(|_| {}),
        &[(
            format!(
                "21100000 00000000 00000000 00000300 00000000 {T3} \
                 0a062017 00000040 00010000 00000000 00040000 {T3}"
            ),
            format!(
                "activate {EV0} imm_src=inst scale_src=inst accumulator_cmd=zero_accumulate \
                 bias_src_n=ptr src_mem_pattern={} in_dtype=fp32 out_dtype=bf16 \
                 num_active_channels=32 activation_func=gelu scale_value=0x40000000 bias=0x100 \
                 imm=0x0 dst_mem_pattern={}",
                t3("sb[0]+0x0"),
                t3("sb[0]+0x400")
            ),
        )],
    );
}

#[test]
fn activate_0x21_prelu_with_second_immediate_and_accumulate() {
    // Prelu = wire 4 takes the second immediate (CC gate): +0x0C imm_src INST, +0x2C 0.25f =
    // 0x3e800000. Scale from register 3 (+0x0D REG_PTR 2, +0x24 3); bias inline -1.0f
    // (+0x0F IMM_SRC_N inline = 1, +0x28 0xbf800000); AddAccumulate -> ACCUMULATE 2 at +0x0E
    // (assumed offset); fp32 in and out.
    let inst = act(|a| {
        a.dst = sb(0, 0x400, 32, 64, Float32);
        a.func = ActivationFunc::Prelu;
        a.imm = Some(ImmOperand::Fp32(0.25));
        a.scale = ImmOperand::Reg(3);
        a.bias = ImmOperand::Fp32(-1.0);
        a.accumulate = BirAccumulation::AddAccumulate;
    });
    golden(
        Target::Cayman,
        &inst,
        &[(
            format!(
                "21100000 00000000 00000000 00020201 00000000 {T3} \
                 0a0a2004 03000000 000080bf 0000803e 00040000 {T3}"
            ),
            format!(
                "activate {EV0} imm_src=inst scale_src=reg_ptr accumulator_cmd=accumulate \
                 bias_src_n=inst src_mem_pattern={} in_dtype=fp32 out_dtype=fp32 \
                 num_active_channels=32 activation_func=prelu scale_value=0x3 bias=0xbf800000 \
                 imm=0x3e800000 dst_mem_pattern={}",
                t3("sb[0]+0x0"),
                t3("sb[0]+0x400")
            ),
        )],
    );
}

#[test]
fn activate_zero_accumulate_writes_the_idle_byte() {
    // CC: BIR Idle and ZeroAccumulate both write 3, so ZeroAccumulate lifts as Idle.
    let inst = act(|a| a.accumulate = BirAccumulation::ZeroAccumulate);
    let b = generate_vec(&inst, Target::Sunda.model()).unwrap();
    assert_eq!(b[0][0x0E], 3);
    assert_eq!(
        decode_instructions(&b.concat(), Target::Sunda.model()).unwrap(),
        vec![act(|_| {})]
    );
}

#[test]
fn instruction_text() {
    assert_eq!(
        tt_gpsimd(BirAluOp::Add, Int32).to_string(),
        "tensor_tensor engine=GpSimd in0=Int32@sb[0]+0x0/32[1:64] in1=Int32@sb[0]+0x400/32[1:64] \
         dst=Int32@sb[0]+0x800/32[1:64] op=Add"
    );
    assert_eq!(
        ts_reduce().to_string(),
        "tensor_scalar form=cache_reduce src=Float32@sb[0]+0x0/32[1:64] \
         dst=Float32@sb[0]+0x400/32[1:64] op0=Mult op1=Add reverse0=true reverse1=false \
         imm0=imm:2.0 imm1=imm:0.0 accumulate=ZeroAccumulate reduce_res=Float32@sb[0]+0xc00/32[]"
    );
    assert_eq!(
        tss(|t| t.pred = ImmOperand::Int(1)).to_string(),
        "tensor_scalar_select src=Float32@sb[0]+0x0/32[1:64] dst=Float32@sb[0]+0x400/32[1:64] \
         reversed_pred=true pred_imm_dtype=Uint32 scalar=imm:0.5 pred=int:0x1"
    );
    assert_eq!(
        pred(Bfloat16).to_string(),
        "copy_predicated mask=Uint8@sb[0]+0x0/32[1:64] src=Float32@sb[0]+0x400/32[1:64] \
         dst=Bfloat16@sb[0]+0x800/32[1:64]"
    );
    assert_eq!(
        act(|a| a.func = ActivationFunc::Copy).to_string(),
        "activation src=Float32@sb[0]+0x0/32[1:64] dst=Bfloat16@sb[0]+0x400/32[1:64] func=copy \
         bias=ptr:0x100 scale=imm:2.0 accumulate=Idle"
    );
    assert_eq!(
        act(|a| {
            a.func = ActivationFunc::Copy;
            a.imm = Some(ImmOperand::Fp32(1.0));
        })
        .to_string(),
        "activation src=Float32@sb[0]+0x0/32[1:64] dst=Bfloat16@sb[0]+0x400/32[1:64] func=copy \
         bias=ptr:0x100 scale=imm:2.0 accumulate=Idle imm=imm:1.0"
    );
    assert_eq!(
        act_read().to_string(),
        "activation_read_accumulator dst=Float32@sb[0]+0x800/32[]"
    );
}

#[test]
fn tensor_scalar_indirect_source_on_mariana() {
    // v4+ MEM_PATTERN3D union: the INDIRECT16B record at +0x10 (INDEX 0x200 with the 0x20
    // marker on byte 3, DATA 0x1000, NUM 64, six inert zero bytes).
    let inst = ts(|t| t.src = ind(0, 0x200, 0, 0x1000, 32, 64, Float32));
    // Lifting's canonical indirect AP: no dims on data or index, index uint32, arg 0.
    let canonical = ts(|t| {
        t.src = AccessPattern::TensorIndirect(IndirectAp {
            data: StaticAp::sbuf(0, 0x1000, 32, [], Float32),
            index: StaticAp::sbuf(0, 0x200, 32, [], Uint32),
            num_indirect_indices: 64,
            index_arg_id: 0,
        })
    });
    golden_lifting_to(
        Target::Mariana,
        &inst,
        &[(
            format!(
                "43100000 00000000 00000000 00000000 00020020 00100000 4000 000000000000 \
                 0a0a2000 06040101 00000040 00010000 00040000 {T3}"
            ),
            format!(
                "tensor_scalar_arith {EV0} accumulator_cmd=idle \
                 src_mem_pattern=i16b(sb[0]+0x200;sb[0]+0x1000;64) in_dtype=fp32 out_dtype=fp32 \
                 num_active_channels=32 imm0_src=inst op0=mult op1=add reverse_operands=1 \
                 imm1_src=ptr imm0=0x40000000 imm1=0x100 dst_mem_pattern={}",
                t3("sb[0]+0x400")
            ),
        )],
        &canonical,
    );
}
