//! Sample SB2SB_COLLECTIVE, DMA_GATHER_XPOSE, TENSOR_DEQUANTIZE and BATCH_NORM_BACK_PROP
//! instructions, and the
//! validator cases of their rules (shared by the golden, negative and property tests;
//! `negative.rs` folds the cases into its every-rule list).

use super::pe_dma::{RuleCase, sbuf_start};
use super::sb;
use sundial_codegen::arch::Target;
use sundial_codegen::bundle::Bundle;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::{generate_vec, validate::validate_bundle};

/// The sample SB2SB_COLLECTIVE: 32 partitions x 64 bf16 from sb[0]+0x100 to sb[32]+0x200,
/// `lnc_size_fmt` 1. Edited by `f`.
pub fn sb2sb(f: impl FnOnce(&mut Sb2sbCollective)) -> Instruction {
    let mut o = Sb2sbCollective {
        src: sb(0, 0x100, 32, 64, Bfloat16),
        dst: sb(32, 0x200, 32, 64, Bfloat16),
        lnc_size_fmt: 1,
    };
    f(&mut o);
    Instruction::new(Op::Sb2sbCollective(o))
}

/// The sample TENSOR_DEQUANTIZE: 16 partitions x 32 packed u32 at sb[0]+0x100 to 64 u32 at
/// sb[0]+0x1000, `dequant_fmt` 2, `group_size` 8. Edited by `f`.
pub fn dequant(f: impl FnOnce(&mut TensorDequantize)) -> Instruction {
    let mut o = TensorDequantize {
        src: sb(0, 0x100, 16, 32, Uint32),
        dst: sb(0, 0x1000, 16, 64, Uint32),
        dequant_fmt: 2,
        group_size: 8,
    };
    f(&mut o);
    Instruction::new(Op::TensorDequantize(o))
}

/// The sample BATCH_NORM_BACK_PROP: three 32 x 64 fp32 operands at sb[0]+0x0/0x400/0x800.
pub fn bn(f: impl FnOnce(&mut BatchNormBackProp)) -> Instruction {
    let mut o = BatchNormBackProp {
        in0: sb(0, 0, 32, 64, Float32),
        in1: sb(0, 0x400, 32, 64, Float32),
        dst: sb(0, 0x800, 32, 64, Float32),
    };
    f(&mut o);
    Instruction::new(Op::BatchNormBackProp(o))
}

/// The sample DMA_GATHER_XPOSE: 64 x 4 bf16 gathered from 0x1000 through a u32 index at
/// sb[0]+0x40 to 4 x 64 at 0x2_0000_0000, gather_dim Y, the index bounded by r2, completion on
/// semaphore 4 at priority 1. Edited by `f`.
pub fn gxp(f: impl FnOnce(&mut DmaGatherTranspose)) -> Instruction {
    let mut o = DmaGatherTranspose {
        src_addr: 0x1000,
        src_step: [1, 64],
        src_num: [64, 4],
        src_idx: sbuf_start(0, 0x40),
        dst_addr: 0x2_0000_0000,
        dst_step1: 128,
        dst_num: [4, 64],
        elem_size: 2,
        in_dtype: Bfloat16,
        out_dtype: Bfloat16,
        gather_dim: 1,
        src_idx_bound_reg: BoundCheckReg {
            enabled: true,
            reg: 2,
            disable_oob_error_notif: false,
        },
        dst_bound_reg: BoundCheckReg::OFF,
        semaphore: 4,
        priority_class: 1,
    };
    f(&mut o);
    Instruction::new(Op::DmaGatherTranspose(o))
}

fn base(inst: &Instruction, t: Target) -> Bundle {
    let b = generate_vec(inst, t.model()).expect("sample encodes")[0];
    assert_eq!(
        validate_bundle(&b, 0, t.model()),
        vec![],
        "sample validates"
    );
    b
}

/// A failing bundle for every rule of this group.
pub fn rule_cases() -> Vec<RuleCase> {
    use Target::*;
    let mut v = Vec::new();
    let mut add = |rule, off, t: Target, inst: &Instruction, f: &dyn Fn(&mut Bundle)| {
        let mut b = base(inst, t);
        f(&mut b);
        v.push((rule, off, t, b));
    };
    let s = sb2sb(|_| {});
    // src num_elem[0] (+16 ADDR4, +20 steps, +26 nums) = 257.
    add("sb2sb_t3d_elem_count", 16, Cayman, &s, &|b| {
        b[26..28].copy_from_slice(&257u16.to_le_bytes())
    });
    // dst num_elem[1] (+48 ADDR4, +52 steps, +58 nums: lane 1 at +60) = 5: 320 elements.
    add("sb2sb_t3d_elem_count", 48, Mariana, &s, &|b| {
        b[60..62].copy_from_slice(&5u16.to_le_bytes())
    });
    let d = dequant(|_| {});
    add("tens_dequant_dtype_uint32", 32, Cayman, &d, &|b| {
        b[32] = 0x0A
    });
    add("tens_dequant_dtype_uint32", 33, Sunda, &d, &|b| {
        b[33] = 0x08
    });
    add("tens_dequant_group_size", 36, Mariana, &d, &|b| b[36] = 4);
    let n = bn(|_| {});
    add("bn_back_prop_op_bypass", 14, Cayman, &n, &|b| b[14] = 0x04);
    let g = gxp(|_| {});
    add("dma_configs_priority", 13, Cayman, &g, &|b| b[13] = 5);
    add("valid_bound_check_reg", 15, Mariana, &g, &|b| b[15] = 0x05);
    add("valid_bound_check_reg", 51, Cayman, &g, &|b| b[51] = 0x41);
    add("addr8_valid", 23, Cayman, &g, &|b| b[23] = 0x10);
    add("addr8_valid", 46, Mariana, &g, &|b| b[46] = 0x01);
    add("check_dma_indirect_indices", 14, Cayman, &g, &|b| {
        b[14] = 64
    });
    add("dma_gather_xpose_flags", 63, Mariana, &g, &|b| b[63] = 0x05);
    // A misaligned u32 index; an index from partition 1 (1 + 128 channels).
    add("dma_gather_xpose_idx_start_addr", 36, Cayman, &g, &|b| {
        b[36] = 0x42
    });
    add("dma_gather_xpose_idx_start_addr", 36, Mariana, &g, &|b| {
        b[36..40].copy_from_slice(&(1u32 << 18).to_le_bytes())
    });
    // A malformed register-mode index (register 64).
    add("dma_gather_xpose_idx_start_addr", 36, Cayman, &g, &|b| {
        b[36..40].copy_from_slice(&0x8000_0040u32.to_le_bytes())
    });
    v
}
