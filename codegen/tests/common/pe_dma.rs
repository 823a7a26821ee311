//! Sample PE, DMA and event instructions, and the validator cases of their rules (shared by the
//! golden, negative and property tests; `negative.rs` folds the cases into its every-rule list).

use sundial_codegen::arch::Target;
use sundial_codegen::bundle::Bundle;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirUpdateMode, BirWaitMode};
use sundial_codegen::model::*;
use sundial_codegen::{generate_vec, validate::validate_bundle};

/// A static SBUF AP with one free dim.
pub fn sb1(p: u32, off: u32, parts: u32, num: u16, d: BirDtype) -> AccessPattern {
    AccessPattern::Static(StaticAp::sbuf(p, off, parts, [Dim::new(1, num)], d))
}

/// A static PSUM AP with one free dim.
pub fn ps1(p: u32, off: u32, parts: u32, num: u16, d: BirDtype) -> AccessPattern {
    AccessPattern::Static(StaticAp::psum(p, off, parts, [Dim::new(1, num)], d))
}

/// The sample Matmul: K = 64 bf16 rows, N = 32 columns, M = 128; single-group accumulation;
/// a wait on semaphore 5 (>= 7). Edited by `f`.
pub fn mm(f: impl FnOnce(&mut Matmul)) -> Instruction {
    let mut m = Matmul {
        weights: sb1(0, 0x100, 64, 32, Bfloat16),
        moving: sb1(0, 0x200, 64, 128, Bfloat16),
        dst: ps1(0, 0, 32, 128, Float32),
        fp32_mode: PeFp32Mode::None,
        perf_opt: PerfOptMode::None,
        quant_offset: 0,
        psum_accumulate_flags: 3,
        psum_zero_region: 0,
        transpose: false,
    };
    f(&mut m);
    Instruction::new(Op::Matmul(m)).with_sync(SyncInfo {
        wait: Some(SyncWait {
            mode: BirWaitMode::SemGeImm,
            sem: 5,
            value: 7,
        }),
        update: None,
    })
}

/// The sample DMA_DIRECT2D: 512 bf16 bytes from an SoC SBUF address to HBM, completion on
/// semaphore 3, an update (inc) of semaphore 9. Edited by `f`.
pub fn d2d(f: impl FnOnce(&mut DmaDirect2d)) -> Instruction {
    let mut d = DmaDirect2d {
        src: DmaPattern2d {
            addr: 0x20_0000_0000,
            step: [1, 64],
            num: [64, 4],
            elem_size: 2,
        },
        dst: DmaPattern2d {
            addr: 0x1_0000_0000,
            step: [1, 128],
            num: [128, 2],
            elem_size: 2,
        },
        in_dtype: Bfloat16,
        out_dtype: Bfloat16,
        compute_op: DgeComputeOp::None,
        src_bound_reg: BoundCheckReg::OFF,
        dst_bound_reg: BoundCheckReg {
            enabled: true,
            reg: 5,
            disable_oob_error_notif: false,
        },
        completion: DmaCompletion {
            semaphore: 3,
            sem_increment: 1,
            priority_class: 2,
        },
    };
    f(&mut d);
    Instruction::new(Op::DmaDirect2d(d)).with_sync(SyncInfo {
        wait: None,
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemInc,
            sem: 9,
            value: 0,
        }),
    })
}

/// The sample DMA_INDIRECT1D: a 16-element fp32 gather through an index at sb[0]+0x40.
pub fn dind(f: impl FnOnce(&mut DmaIndirect)) -> Instruction {
    let mut d = DmaIndirect {
        direction: DmaIndirectDirection::Load,
        idx_bound_is_err: true,
        non_unique_dst_idx: false,
        src: DmaPattern1d {
            addr: 0x1000,
            step: 1,
            num: 16,
            elem_size: 4,
        },
        dst: DmaPattern1d {
            addr: 0x2000,
            step: 1,
            num: 16,
            elem_size: 4,
        },
        src_idx: sbuf_start(0, 0x40),
        dst_idx: sbuf_start(0, 0),
        in_dtype: Float32,
        out_dtype: Float32,
        src_idx_bound_reg: BoundCheckReg {
            enabled: true,
            reg: 2,
            disable_oob_error_notif: false,
        },
        dst_idx_bound_reg: BoundCheckReg::OFF,
        compute_op: DgeComputeOp::None,
        completion: DmaCompletion {
            semaphore: 4,
            sem_increment: 1,
            priority_class: 1,
        },
    };
    f(&mut d);
    Instruction::new(Op::DmaIndirect(d))
}

/// An SBUF start.
pub fn sbuf_start(partition: u32, offset: u32) -> Start {
    Start::Imm(MemLoc {
        space: Space::Sbuf,
        partition,
        offset,
    })
}

/// The sample EventSemaphore: wait sem 1 >= 4, wait sem 2 >= r7, add 10 to sem 3.
pub fn es(f: impl FnOnce(&mut EventSemaphore)) -> Instruction {
    let mut e = EventSemaphore {
        wait0: Some(SyncWait {
            mode: BirWaitMode::SemGeImm,
            sem: 1,
            value: 4,
        }),
        wait1: Some(SyncWait {
            mode: BirWaitMode::SemGeReg,
            sem: 2,
            value: 7,
        }),
        update: Some(SyncUpdate {
            mode: BirUpdateMode::SemAddImm,
            sem: 3,
            value: 10,
        }),
    };
    f(&mut e);
    Instruction::new(Op::EventSemaphore(e))
}

/// One validator case: (rule, byte offset, target, bundle).
pub type RuleCase = (&'static str, usize, Target, Bundle);

fn base(inst: &Instruction, t: Target, k: usize) -> Bundle {
    let b = generate_vec(inst, t.model()).expect("sample encodes")[k];
    assert_eq!(
        validate_bundle(&b, 0, t.model()),
        vec![],
        "sample validates"
    );
    b
}

fn put32(b: &mut Bundle, off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}

/// A failing bundle for every rule of this group.
pub fn rule_cases() -> Vec<RuleCase> {
    use Target::*;
    let mut v = Vec::new();
    let mut add = |rule, off, t: Target, inst: &Instruction, k, f: &dyn Fn(&mut Bundle)| {
        let mut b = base(inst, t, k);
        f(&mut b);
        v.push((rule, off, t, b));
    };
    let m = mm(|_| {});
    add("pe_active_rows_cols", 0x26, Cayman, &m, 0, &|b| b[0x26] = 0);
    add("pe_active_rows_cols", 0x27, Mariana, &m, 1, &|b| {
        b[0x27] = 200
    });
    add("pe_group_mask", 0x2C, Cayman, &m, 1, &|b| b[0x2C] = 0x20);
    add("pe_group_mask", 0x2D, Sunda, &m, 0, &|b| b[0x2D] = 0x40);
    add("matmul_operand_space", 0x10, Cayman, &m, 1, &|b| {
        put32(b, 0x10, 0x0200_0000)
    });
    add("matmul_operand_space", 0x30, Mariana, &m, 1, &|b| {
        put32(b, 0x30, 0x0000_0100)
    });
    add("psum_accumulate_flags_valid", 0x2B, Cayman, &m, 1, &|b| {
        b[0x2B] = 5
    });
    add("psum_zero_region_valid", 0x2F, Cayman, &m, 1, &|b| {
        b[0x2F] = 1
    });
    add("psum_zero_region_valid", 0x2F, Mariana, &m, 1, &|b| {
        b[0x2F] = 4
    });
    add("matmul_fp32_mode", 0x21, Sunda, &m, 1, &|b| b[0x21] = 1);
    add("matmul_fp32_mode", 0x21, Mariana, &m, 1, &|b| {
        b[0x20] = 0x0A
    });
    add("matmul_xbus_sel", 0x2E, Cayman, &m, 1, &|b| b[0x2E] = 0x10);
    let d = d2d(|_| {});
    add("addr8_valid", 23, Sunda, &d, 0, &|b| b[23] = 0x10);
    add("addr8_valid", 46, Cayman, &d, 0, &|b| b[46] = 0x01);
    add("dma_configs_priority", 12, Sunda, &d, 0, &|b| b[12] = 5);
    add("dge_compute_op", 15, Mariana, &d, 0, &|b| b[15] = 5);
    add("valid_bound_check_reg", 38, Sunda, &d, 0, &|b| b[38] = 0x05);
    add("dma_shape_reg", 32, Sunda, &d, 0, &|b| b[23] = 0x40);
    add("dma_memcpy_size", 32, Sunda, &d, 0, &|b| b[36] = 4);
    let i = dind(|_| {});
    let mut noerr = i.clone();
    if let Op::DmaIndirect(o) = &mut noerr.op {
        o.src_idx_bound_reg.disable_oob_error_notif = true;
    }
    add("s_valid_idx_bound_check_reg", 58, Sunda, &noerr, 0, &|b| {
        b[15] = 0x01
    });
    add("valid_bound_check_reg", 59, Cayman, &i, 0, &|b| {
        b[59] = 0x03
    });
    add("dma_indirect_num_elem", 28, Sunda, &i, 0, &|b| {
        b[28..30].copy_from_slice(&4097u16.to_le_bytes())
    });
    add("dma_indirect_num_elem", 44, Sunda, &i, 0, &|b| b[39] = 0x40);
    add("dma_indirect_dims", 15, Sunda, &i, 0, &|b| b[15] |= 0x10);
    add("dma_indirect_dims", 15, Mariana, &i, 0, &|b| {
        b[23] = 0x40;
        b[28] = 0;
        b[15] |= 0x40; // a scatter dim on a load
    });
    add("addr8_valid", 22, Mariana, &i, 0, &|b| b[22] = 1);
    add("dma_configs_priority", 61, Sunda, &i, 0, &|b| b[61] = 0x09);
    add("dge_compute_op", 60, Sunda, &i, 0, &|b| b[60] = 7);
    let e = es(|_| {});
    add("event_semaphore_modes", 4, Sunda, &e, 0, &|b| b[4] = 0x01);
    add("event_semaphore_modes", 0x20, Cayman, &e, 0, &|b| {
        b[0x20] = 0x04
    });
    add("event_semaphore_modes", 0x22, Mariana, &e, 0, &|b| {
        b[0x22] = 0x03
    });
    v
}

/// A static SBUF AP with no free dims (a scale start).
pub fn sb0(p: u32, off: u32, parts: u32, d: BirDtype) -> StaticAp {
    StaticAp::sbuf(p, off, parts, [], d)
}

/// The sample QuantizeMx (mariana): 32 partitions x 64 bf16 to fp8e4 data at sb[0]+0x4000 with
/// scales at sb[0]+0x8000.
pub fn qmx(f: impl FnOnce(&mut QuantizeMx)) -> Instruction {
    let mut q = QuantizeMx {
        src: sb1(0, 0x100, 32, 64, Bfloat16),
        dst: sb1(0, 0x4000, 32, 64, Float8e4),
        dst_scale: sb0(0, 0x8000, 32, Float8E8m0fnu).into(),
    };
    f(&mut q);
    Instruction::new(Op::QuantizeMx(q))
}

/// The sample MatmulMx (mariana): static fp8e4 weights (scale at partition 3), a 16-index
/// indirect fp8e5 moving operand (scale at partition 5), K = 32, N = 64, a wait on sem 2 >= r3.
pub fn mmx(f: impl FnOnce(&mut MatmulMx)) -> Instruction {
    let index = sb0(0, 0x3000, 32, Uint32);
    let ind = |data: StaticAp| {
        AccessPattern::TensorIndirect(IndirectAp {
            data,
            index: index.clone(),
            num_indirect_indices: 16,
            index_arg_id: 0,
        })
    };
    let mut m = MatmulMx {
        weights: sb1(0, 0x1000, 32, 64, Float8e4),
        weights_scale: sb0(3, 0x100, 32, Float8E8m0fnu).into(),
        moving: ind(sb0(0, 0x2000, 32, Float8e5)),
        moving_scale: ind(sb0(5, 0x40, 32, Float8E8m0fnu)),
        dst: ps1(0, 0, 64, 32, Float32),
        psum_accumulate_flags: 1,
        psum_zero_region: 1,
    };
    f(&mut m);
    Instruction::new(Op::MatmulMx(m)).with_sync(SyncInfo {
        wait: Some(SyncWait {
            mode: BirWaitMode::SemGeReg,
            sem: 2,
            value: 3,
        }),
        update: None,
    })
}

/// Failing bundles for the MX rules (mariana).
pub fn mx_rule_cases() -> Vec<RuleCase> {
    let t = Target::Mariana;
    let mut v = Vec::new();
    let mut add = |rule, off, inst: &Instruction, k, f: &dyn Fn(&mut Bundle)| {
        let mut b = base(inst, t, k);
        f(&mut b);
        v.push((rule, off, t, b));
    };
    let q = qmx(|_| {});
    add("quantize_mx_active_channels", 0x21, &q, 0, &|b| {
        b[0x21] = 48
    });
    add("quantize_mx_dtypes", 0x22, &q, 0, &|b| b[0x22] = 0x0A);
    add("quantize_mx_dtypes", 0x22, &q, 0, &|b| b[0x23] = 0x06);
    add("quantize_mx_src_sbuf", 0x10, &q, 0, &|b| {
        put32(b, 0x10, 0x0200_0000)
    });
    add("mxmem1d_valid", 0x3A, &q, 0, &|b| b[0x3A] = 0x02); // step_dir
    let m = mmx(|_| {});
    add("mxmem1d_valid", 0x1C, &m, 1, &|b| b[0x1C..0x1E].fill(0)); // NUM 0
    add("pe_active_rows_cols", 0x26, &m, 0, &|b| b[0x26] = 0);
    add("pe_group_mask", 0x2D, &m, 1, &|b| b[0x2D] = 0x10);
    add("psum_accumulate_flags_valid", 0x2B, &m, 1, &|b| b[0x2B] = 7);
    add("psum_zero_region_valid", 0x2F, &m, 1, &|b| b[0x2F] = 9);
    add("matmul_operand_space", 0x30, &m, 1, &|b| b[0x33] = 0);
    v
}
