//! Lifting of the 4D-slot compute formats: one bundle per instruction.
//!
//! Canonical forms (beyond those of the parent module):
//!
//! * Every destination takes the bundle's active-channels byte as its partition count, except
//!   CrossLaneReduce's, which is one partition (the reduction's output; the wire does not carry
//!   it).
//! * TensorCopy: 0x46 lifts to equal dtypes. A 0x47 Cast whose two wire dtypes are equal lifts to
//!   a destination dtype that shares the wire code but differs in BIR (`float8_e4m3fn` for
//!   `fp8e4`, `float8e5`'s x4 form for `fp8e5`, `float8_e8m0fnu` for `u8`, fp4-x4 for `u16` on
//!   V2/V3); for a code with one BIR dtype (e.g. `fp32`) no instruction emits such a Cast, and
//!   the re-encoding check reports byte 0.
//! * Generator patterns (DATA4D) lift like access-pattern dims: outermost first, unit lanes
//!   dropped.
//! * Control bytes with no model value (an unknown ALU op, pool function, reduce op or axis, fill
//!   mode) lift to a placeholder that the re-encoding check then reports.

use super::{byte, dims, dtype, int, mem_ap, tensor_ap};
use crate::arch::ArchModel;
use crate::bundle::Bundle;
use crate::dtype::{BirDtype, bir_to_wire};
use crate::enums::{BirAluOp, alu_from_wire};
use crate::fields::{Field, Value};
use crate::formats::compute4d::opcode::*;
use crate::formats::compute4d::{affine_select as af, cr, iota as io, memset as ms, pool, tr4d};
use crate::formats::tr;
use crate::model::*;
use crate::tensor::TensorSlot;

/// The opcodes lifted here.
pub(super) const OPCODES: [u8; 11] = crate::formats::compute4d::opcode::ALL;

fn pattern(f: Field, b: &Bundle) -> GenPattern {
    match f.read(b) {
        Value::Data4d(d) => GenPattern {
            base: d.base,
            dims: dims(&TensorSlot {
                n: 4,
                addr: 0,
                step: d.step,
                num: d.num,
            }),
        },
        _ => GenPattern {
            base: 0,
            dims: Dims::new(),
        },
    }
}

/// A BIR dtype other than `d` with the same wire code on this core, if any.
fn twin(d: BirDtype, arch: &ArchModel) -> Option<BirDtype> {
    let code = bir_to_wire(d, arch.core);
    BirDtype::ALL
        .into_iter()
        .find(|&o| o != d && bir_to_wire(o, arch.core) == code)
}

/// Rebuilds the op of one bundle of this group.
pub(super) fn lift(a: &Bundle, arch: &ArchModel) -> Op {
    let opcode = a[0];
    match opcode {
        TENSOR_REDUCE_ARITH | TENSOR_REDUCE_BITVEC | COPY | CAST | RECIPROCAL => {
            let parts = byte(tr::ACTIVE, a) as u32;
            let src = mem_ap(tr::SRC, a, parts, dtype(byte(tr::IN_DTYPE, a), arch), arch);
            let mut dst = mem_ap(tr::DST, a, parts, dtype(byte(tr::OUT_DTYPE, a), arch), arch);
            match opcode {
                COPY => Op::TensorCopy(TensorCopy { src, dst }),
                CAST => {
                    if src.dtype() == dst.dtype()
                        && let Some(t) = twin(dst.dtype(), arch)
                    {
                        set_dtype(&mut dst, t);
                    }
                    Op::TensorCopy(TensorCopy { src, dst })
                }
                RECIPROCAL => Op::Reciprocal(Reciprocal { src, dst }),
                _ => {
                    let r = TensorReduce {
                        src,
                        dst,
                        op: alu_from_wire(byte(tr4d::OP, a), arch.core).unwrap_or(BirAluOp::Add),
                        axis: BirAxisList::from_wire(byte(tr4d::OP_DIM, a))
                            .unwrap_or(BirAxisList::X),
                        negated: byte(tr4d::NEGATED, a) != 0,
                    };
                    if opcode == TENSOR_REDUCE_ARITH {
                        Op::TensorReduceArith(r)
                    } else {
                        Op::TensorReduceBitvec(r)
                    }
                }
            }
        }
        POOL => {
            let parts = byte(pool::ACTIVE, a) as u32;
            Op::Pool(Pool {
                src: tensor_ap(
                    pool::SRC,
                    a,
                    parts,
                    dtype(byte(pool::IN_DTYPE, a), arch),
                    arch,
                )
                .into(),
                dst: tensor_ap(
                    pool::DST,
                    a,
                    parts,
                    dtype(byte(pool::OUT_DTYPE, a), arch),
                    arch,
                )
                .into(),
                func: PoolFunc::from_wire(byte(pool::POOL_FUNC, a)).unwrap_or(PoolFunc::Max),
                pool_scale: f32::from_bits(int(pool::POOL_SCALE, a) as u32),
            })
        }
        CROSS_LANE_REDUCE_ARITH | CROSS_LANE_REDUCE_BITVEC => {
            let parts = byte(cr::ACTIVE, a) as u32;
            let r = CrossLaneReduce {
                src: tensor_ap(cr::SRC, a, parts, dtype(byte(cr::IN_DTYPE, a), arch), arch).into(),
                dst: tensor_ap(cr::DST, a, 1, dtype(byte(cr::OUT_DTYPE, a), arch), arch).into(),
                op: CrossLaneReduceOp::from_wire(byte(cr::REDUCE_OP, a))
                    .unwrap_or(CrossLaneReduceOp::Add),
                axis: CrossLaneAxis::from_wire(byte(cr::REDUCE_AXIS, a))
                    .unwrap_or(CrossLaneAxis::All),
                scale: f32::from_bits(int(cr::SCALE, a) as u32),
            };
            if opcode == CROSS_LANE_REDUCE_ARITH {
                Op::CrossLaneReduceArith(r)
            } else {
                Op::CrossLaneReduceBitvec(r)
            }
        }
        IOTA => Op::Iota(Iota {
            pattern: pattern(io::PATTERN, a),
            dst: tensor_ap(
                io::DST,
                a,
                byte(io::ACTIVE, a) as u32,
                dtype(byte(io::OUT_DTYPE, a), arch),
                arch,
            )
            .into(),
            channel_multiplier: int(io::CHANNEL_MULTIPLIER, a) as u32 as i32,
        }),
        MEMSET => Op::Memset(Memset {
            dst: tensor_ap(
                ms::DST,
                a,
                byte(ms::ACTIVE, a) as u32,
                dtype(byte(ms::DTYPE, a), arch),
                arch,
            )
            .into(),
            fill_value: int(ms::FILL_VALUE, a) as u32,
        }),
        _ => {
            let parts = byte(af::ACTIVE, a) as u32;
            let pair = byte(af::IN_OUT_DTYPE, a);
            Op::AffineSelect(AffineSelect {
                src: tensor_ap(af::SRC, a, parts, dtype(pair & 0xF, arch), arch).into(),
                dst: tensor_ap(af::DST, a, parts, dtype(pair >> 4, arch), arch).into(),
                mask: pattern(af::MASK, a),
                fill_mode: AffineCmp::from_wire(byte(af::FILL_MODE, a))
                    .unwrap_or(AffineCmp::GreaterThan),
                fill_reg: byte(af::FILL_REG, a),
                channel_multiplier: int(af::CHANNEL_MULTIPLIER, a) as u32 as i32,
            })
        }
    }
}

fn set_dtype(ap: &mut AccessPattern, d: BirDtype) {
    match ap {
        AccessPattern::Static(s) => s.dtype = d,
        AccessPattern::TensorIndirect(i) => i.data.dtype = d,
    }
}
