//! Sample instructions of the 4D-slot compute ops (shared by their golden, negative and property
//! tests) and one failing bundle per validator rule of the group, which `negative.rs` also runs
//! for its every-rule-has-a-case check.
#![allow(dead_code)]

use crate::common::*;
use sundial_codegen::arch::Target;
use sundial_codegen::bundle::Bundle;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::BirAluOp;
use sundial_codegen::generate_vec;
use sundial_codegen::model::*;
use sundial_codegen::validate::validate_bundle;

/// TensorReduce 0x42: add over X of a [16:4, 1:16] fp32 source, negated.
pub fn reduce_arith() -> Instruction {
    Instruction::new(Op::TensorReduceArith(TensorReduce {
        src: sbd(0, 0x100, 16, [Dim::new(16, 4), Dim::new(1, 16)], Float32),
        dst: sbd(0, 0x400, 16, [Dim::new(1, 4)], Float32),
        op: BirAluOp::Add,
        axis: BirAxisList::X,
        negated: true,
    }))
}

/// TensorReduce 0x52: bitwise or over XY of int32.
pub fn reduce_bitvec() -> Instruction {
    Instruction::new(Op::TensorReduceBitvec(TensorReduce {
        src: sb(0, 0, 8, 32, Int32),
        dst: sbd(8, 0, 8, [], Int32),
        op: BirAluOp::BitwiseOr,
        axis: BirAxisList::XY,
        negated: false,
    }))
}

/// TensorCopy with equal dtypes: 0x46 Copy.
pub fn copy() -> Instruction {
    Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0x40, 32, 64, Bfloat16),
        dst: sb(32, 0x40, 32, 64, Bfloat16),
    }))
}

/// TensorCopy bf16 -> fp32: 0x47 Cast.
pub fn cast() -> Instruction {
    Instruction::new(Op::TensorCopy(TensorCopy {
        src: sb(0, 0x40, 32, 64, Bfloat16),
        dst: sb(32, 0x40, 32, 64, Float32),
    }))
}

/// Reciprocal 0x48 into PSUM.
pub fn reciprocal() -> Instruction {
    Instruction::new(Op::Reciprocal(Reciprocal {
        src: sb(0, 0, 4, 8, Float32),
        dst: AccessPattern::Static(StaticAp::psum(1, 0x100, 4, [Dim::new(1, 8)], Float32)),
    }))
}

/// Pool 0x45: average over 8 of a [8:4, 1:8] source, scale 1/8.
pub fn pool() -> Instruction {
    Instruction::new(Op::Pool(Pool {
        src: sbd(0, 0, 16, [Dim::new(8, 4), Dim::new(1, 8)], Float32),
        dst: sb(0, 0x800, 16, 4, Float32),
        func: PoolFunc::Avg,
        pool_scale: 0.125,
    }))
}

/// CrossLaneReduce 0x7C: average of 128 partitions, scale 1/128.
pub fn cross_lane_arith() -> Instruction {
    Instruction::new(Op::CrossLaneReduceArith(CrossLaneReduce {
        src: sb(0, 0, 128, 16, Float32),
        dst: sbd(0, 0x1000, 1, [Dim::new(1, 16)], Float32),
        op: CrossLaneReduceOp::Average,
        axis: CrossLaneAxis::Partitions,
        scale: 1.0 / 128.0,
    }))
}

/// CrossLaneReduce 0x7D: xor of everything into one element.
pub fn cross_lane_bitvec() -> Instruction {
    Instruction::new(Op::CrossLaneReduceBitvec(CrossLaneReduce {
        src: sb(0, 0, 32, 8, Int32),
        dst: sbd(0, 0x200, 1, [], Int32),
        op: CrossLaneReduceOp::BitwiseXor,
        axis: CrossLaneAxis::All,
        scale: 1.0,
    }))
}

/// Iota 0x7E: base -5, [8:4, 1:8], channel multiplier 32.
pub fn iota() -> Instruction {
    Instruction::new(Op::Iota(Iota {
        pattern: GenPattern {
            base: -5,
            dims: Dims::from([Dim::new(8, 4), Dim::new(1, 8)]),
        },
        dst: sbd(0, 0, 64, [Dim::new(8, 4), Dim::new(1, 8)], Int32),
        channel_multiplier: 32,
    }))
}

/// Memset 0x49: 1.0 into a [64:2, 1:64] fp32 destination, after a semaphore wait.
pub fn memset() -> Instruction {
    Instruction::new(Op::Memset(Memset {
        dst: sbd(0, 0x80, 32, [Dim::new(64, 2), Dim::new(1, 64)], Float32),
        fill_value: 1.0f32.to_bits(),
    }))
    .with_sync(SyncInfo {
        wait: Some(SyncWait {
            mode: sundial_codegen::enums::BirWaitMode::SemGeImm,
            sem: 2,
            value: 9,
        }),
        update: None,
    })
}

/// TensorScalarAffineSelect 0x92: keep where 0 - i >= 0 (a causal-mask row).
pub fn affine_select() -> Instruction {
    Instruction::new(Op::AffineSelect(AffineSelect {
        src: sb(0, 0, 128, 128, Float32),
        dst: sb(0, 0x200, 128, 128, Float32),
        mask: GenPattern {
            base: 0,
            dims: Dims::from([Dim::new(-1, 128)]),
        },
        fill_mode: AffineCmp::GreaterThanEq,
        fill_reg: 3,
        channel_multiplier: 1,
    }))
}

/// Every sample with the target its golden uses.
pub fn samples() -> Vec<(Target, Instruction)> {
    use Target::*;
    vec![
        (Sunda, reduce_arith()),
        (Mariana, reduce_bitvec()),
        (Cayman, copy()),
        (Sunda, cast()),
        (Mariana, reciprocal()),
        (Sunda, pool()),
        (Cayman, cross_lane_arith()),
        (Mariana, cross_lane_bitvec()),
        (Sunda, iota()),
        (Cayman, memset()),
        (Mariana, affine_select()),
    ]
}

/// One rule failure: the rule, the byte offset it must be reported at, the target, the bundle.
pub struct RuleCase {
    /// Rule name.
    pub rule: &'static str,
    /// Offset of the diagnostic.
    pub offset: usize,
    /// Target validated for.
    pub target: Target,
    /// The mutated bundle.
    pub bundle: Bundle,
}

fn put32(b: &mut Bundle, off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}

/// One mutated encoder bundle per rule of the group (and per opcode where a rule spans several).
pub fn rule_cases() -> Vec<RuleCase> {
    use Target::*;
    let mut v = Vec::new();
    let mut add = |rule, offset, target: Target, inst: &Instruction, f: &dyn Fn(&mut Bundle)| {
        let mut b = generate_vec(inst, target.model()).unwrap()[0];
        assert_eq!(
            validate_bundle(&b, 0, target.model()),
            vec![],
            "base of {rule} must be valid"
        );
        f(&mut b);
        v.push(RuleCase {
            rule,
            offset,
            target,
            bundle: b,
        });
    };
    let (ra, rb, cp, ca, rc) = (
        reduce_arith(),
        reduce_bitvec(),
        copy(),
        cast(),
        reciprocal(),
    );
    add("tensor_reduce_op_class", 0x24, Sunda, &ra, &|b| {
        b[0x24] = 0x0b
    });
    add("tensor_reduce_op_class", 0x24, Sunda, &ra, &|b| {
        b[0x24] = 0x07
    });
    add("tensor_reduce_op_class", 0x24, Mariana, &rb, &|b| {
        b[0x24] = 0x04
    });
    add("tensor_reduce_op_dim", 0x25, Sunda, &ra, &|b| b[0x25] = 0);
    add("tensor_reduce_op_dim", 0x25, Mariana, &rb, &|b| b[0x25] = 6);
    add("s4d4_tr_copy_same_dtype", 0x21, Cayman, &cp, &|b| {
        b[0x21] = 0x07
    });
    add("s4d4_tr_copy_cast_bypass", 0x23, Cayman, &cp, &|b| {
        b[0x23] = 1
    });
    add("s4d4_tr_copy_cast_bypass", 0x24, Sunda, &ca, &|b| {
        b[0x24] = 0x04
    });
    add("s4d4_tr_copy_cast_bypass", 0x25, Sunda, &ca, &|b| {
        b[0x25] = 0x03
    });
    add("s4d4_tr_copy_cast_bypass", 0x26, Cayman, &cp, &|b| {
        b[0x26] = 1
    });
    // The shared S4D4_TR rules on the new opcodes.
    add("d4_tr_same_src_dst_count", 0x0C, Mariana, &rc, &|b| {
        b[0x38] = 9
    });
    add("d4_tr_transpose_src_dst_count", 0x0C, Sunda, &ra, &|b| {
        b[0x18] = 0;
        b[0x19] = 0;
    });
    add("d4_tr_reserved_z", 0x28, Cayman, &cp, &|b| b[0x28] = 1);
    add("has_valid_active_channel_range", 0x22, Mariana, &rc, &|b| {
        b[0x22] = 0
    });
    let pl = pool();
    add("pool_func", 0x24, Sunda, &pl, &|b| b[0x24] = 3);
    add("pool_mode", 0x25, Sunda, &pl, &|b| b[0x25] = 0);
    add("pool_max_scale", 0x28, Sunda, &pl, &|b| b[0x24] = 1);
    let (xa, xb) = (cross_lane_arith(), cross_lane_bitvec());
    add("s4d4_cr_reduce_op", 0x23, Cayman, &xa, &|b| b[0x23] = 3);
    add("s4d4_cr_reduce_op", 0x23, Mariana, &xb, &|b| b[0x23] = 0);
    add("s4d4_cr_reduce_op", 0x23, Mariana, &xb, &|b| b[0x23] = 6);
    add("s4d4_cr_reduce_axis", 0x24, Cayman, &xa, &|b| b[0x24] = 2);
    add("s4d4_cr_sbuf_only", 0x0C, Cayman, &xa, &|b| {
        put32(b, 0x0C, 0x0200_0000)
    });
    add("s4d4_cr_sbuf_only", 0x2C, Mariana, &xb, &|b| {
        put32(b, 0x2C, 0x0200_0200)
    });
    add("s4d4_cr_dst_count", 0x2C, Cayman, &xa, &|b| b[0x38] = 8);
    add("s4d4_cr_dst_count", 0x2C, Mariana, &xb, &|b| b[0x38] = 2);
    add("start_addr_active_channels", 0x0C, Cayman, &xa, &|b| {
        put32(b, 0x0C, 1 << 18)
    });
    let io = iota();
    add("d4_iota_count", 0x0C, Sunda, &io, &|b| b[0x18] = 9);
    add("reserved_zero", 0x20, Sunda, &io, &|b| b[0x20] = 1);
    let ms = memset();
    add("memset_dst_element_count", 0x1C, Cayman, &ms, &|b| {
        b[0x1C] = 127
    });
    add("tensor4d_valid", 0x38, Cayman, &ms, &|b| b[0x38] = 0);
    let af = affine_select();
    add("s2d2_ts_as_count", 0x10, Mariana, &af, &|b| b[0x1C] = 64);
    add("s2d2_ts_as_count", 0x10, Mariana, &af, &|b| b[0x3A] = 2);
    add("s2d2_ts_as_fill_mode", 0x0E, Mariana, &af, &|b| b[0x0E] = 4);
    add("s2d2_ts_as_dtype", 0x0D, Mariana, &af, &|b| b[0x0D] = 0xAB);
    add("static_tensor_pattern", 0x24, Mariana, &af, &|b| {
        b[0x27] = 0x20
    });
    v
}

/// The rules this group adds to `validate::RULES`.
pub const GROUP_RULES: [&str; 16] = [
    "tensor_reduce_op_class",
    "tensor_reduce_op_dim",
    "s4d4_tr_copy_same_dtype",
    "s4d4_tr_copy_cast_bypass",
    "pool_func",
    "pool_mode",
    "pool_max_scale",
    "s4d4_cr_reduce_op",
    "s4d4_cr_reduce_axis",
    "s4d4_cr_sbuf_only",
    "s4d4_cr_dst_count",
    "d4_iota_count",
    "memset_dst_element_count",
    "s2d2_ts_as_count",
    "s2d2_ts_as_fill_mode",
    "s2d2_ts_as_dtype",
];
