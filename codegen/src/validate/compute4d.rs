//! Validator rules of the 4D-slot compute formats (S4D4_TR 0x42 / 0x52 / 0x46 / 0x47 / 0x48,
//! S4D4_PL 0x45, S4D4_CR 0x7C / 0x7D, D4_IOTA 0x7E, Memset 0x49, S2D2_TS_AS 0x92). Every offset
//! is read through the field constants of `formats::compute4d`; the rule names are listed in
//! `validate::RULES`.

use super::{Ctx, Rules, active_range, slot_count_at, start_active};
use crate::addr4::{ADDR_MASK, REG_BIT, get_u32};
use crate::bundle::Bundle;
use crate::dtype::WIRE_FP32R;
use crate::enums::{POOL_MODE, SUBDIM_UNUSED, SUBDIM_X, is_arith_reduce_op, is_bitvec_reduce_op};
use crate::fields::{Field, Kind, Value};
use crate::formats::compute4d::opcode::*;
use crate::formats::compute4d::{affine_select as af, cr, iota as io, memset as ms, pool, tr4d};
use crate::formats::tr;
use crate::model::{CrossLaneAxis, CrossLaneReduceOp, PoolFunc};

#[inline(always)]
fn byte(f: &Field, b: &Bundle) -> u8 {
    b[f.offset as usize]
}

/// The u32 of a 4-byte integer-like field (what `Field::read` gives as `Value::Int`), else 0.
#[inline(always)]
fn dword(f: &Field, b: &Bundle) -> u32 {
    match f.kind {
        Kind::U32 | Kind::Hex32 | Kind::I32 | Kind::F32 => get_u32(b, f.offset as usize),
        _ => match f.read(b) {
            Value::Int(x) => x as u32,
            _ => 0,
        },
    }
}

/// The ADDR4 word of a plain TENSORnD field.
#[inline(always)]
fn start_word(f: &Field, b: &Bundle) -> u32 {
    match f.kind {
        Kind::Tensor(_) => get_u32(b, f.offset as usize),
        _ => 0,
    }
}

/// The element count of a DATA4D field: the product of its four u16 counts at +12.
#[inline(always)]
fn d4d_count(f: &Field, b: &Bundle) -> Option<u64> {
    match f.kind {
        Kind::Data4d => {
            let o = f.offset as usize + 12;
            Some((0..4).fold(1u64, |p, i| {
                p * u16::from_le_bytes([b[o + 2 * i], b[o + 2 * i + 1]]) as u64
            }))
        }
        _ => None,
    }
}

/// The per-op rules of an opcode of this group (`None` for any other opcode).
pub(super) const fn rules_of(opcode: u8) -> Option<Rules> {
    match opcode {
        TENSOR_REDUCE_ARITH | TENSOR_REDUCE_BITVEC | COPY | CAST | RECIPROCAL => {
            Some(|c, f, b| s4d4_tr(c, f.opcode, b))
        }
        POOL => Some(|c, _, b| pool_rules(c, b)),
        CROSS_LANE_REDUCE_ARITH | CROSS_LANE_REDUCE_BITVEC => {
            Some(|c, f, b| cross_lane(c, f.opcode, b))
        }
        IOTA => Some(|c, _, b| iota_rules(c, b)),
        MEMSET => Some(|c, _, b| memset_rules(c, b)),
        AFFINE_SELECT => Some(|c, _, b| affine_select_rules(c, b)),
        _ => None,
    }
}

fn s4d4_tr(c: &mut Ctx, opcode: u8, b: &Bundle) {
    let act = tr::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &tr::SRC, act);
    let (sc, dc) = (slot_count_at(b, &tr::SRC), slot_count_at(b, &tr::DST));
    let src_off = tr::SRC.offset as usize;
    let reduce = opcode == TENSOR_REDUCE_ARITH || opcode == TENSOR_REDUCE_BITVEC;
    if sc == Some(0) || dc == Some(0) {
        c.fail(
            "d4_tr_transpose_src_dst_count",
            src_off,
            "element count is zero",
        );
    } else if !reduce && sc != dc {
        // A reduce folds its op_dim axes; only the element-wise ops keep the count.
        c.fail(
            "d4_tr_same_src_dst_count",
            src_off,
            format!("src {sc:?} vs dst {dc:?} elements"),
        );
    }
    let (op, neg, dim, mask) = (
        byte(&tr4d::OP, b),
        byte(&tr4d::NEGATED, b),
        byte(&tr4d::OP_DIM, b),
        byte(&tr4d::MASK_ENABLE, b),
    );
    if reduce {
        let ok = if opcode == TENSOR_REDUCE_ARITH {
            is_arith_reduce_op(op)
        } else {
            is_bitvec_reduce_op(op)
        };
        if !ok {
            c.fail(
                "tensor_reduce_op_class",
                tr4d::OP.offset as usize,
                format!("op {op:#04x} is not in the ALU class of {opcode:#04x}"),
            );
        }
        if !(0x02..=0x05).contains(&dim) {
            c.fail(
                "tensor_reduce_op_dim",
                tr4d::OP_DIM.offset as usize,
                format!("op_dim {dim:#04x} is not X..XYZW"),
            );
        }
    }
    if opcode == COPY && byte(&tr::IN_DTYPE, b) != byte(&tr::OUT_DTYPE, b) {
        c.fail(
            "s4d4_tr_copy_same_dtype",
            tr::OUT_DTYPE.offset as usize,
            format!(
                "copy in {:#04x} != out {:#04x}",
                byte(&tr::IN_DTYPE, b),
                byte(&tr::OUT_DTYPE, b)
            ),
        );
    }
    if opcode == COPY || opcode == CAST {
        let bad = [
            (&tr4d::NEGATED, neg != 0),
            (&tr4d::OP, op != 0),
            (&tr4d::OP_DIM, dim != SUBDIM_UNUSED && dim != SUBDIM_X),
            (&tr4d::MASK_ENABLE, mask != 0),
        ];
        for (f, is_bad) in bad {
            if is_bad {
                c.fail(
                    "s4d4_tr_copy_cast_bypass",
                    f.offset as usize,
                    format!("{} {:#04x} not allowed on Copy/Cast", f.name, byte(f, b)),
                );
            }
        }
    }
}

fn pool_rules(c: &mut Ctx, b: &Bundle) {
    let act = pool::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &pool::SRC, act);
    let func = byte(&pool::POOL_FUNC, b);
    if PoolFunc::from_wire(func).is_none() {
        c.fail(
            "pool_func",
            pool::POOL_FUNC.offset as usize,
            format!("pool_func {func} is not max (1) or avg (2)"),
        );
    }
    let mode = byte(&pool::POOL_MODE, b);
    if mode != POOL_MODE {
        c.fail(
            "pool_mode",
            pool::POOL_MODE.offset as usize,
            format!("pool_mode {mode} != {POOL_MODE}"),
        );
    }
    let scale = dword(&pool::POOL_SCALE, b);
    if func == PoolFunc::Max.wire() && scale != 1.0f32.to_bits() {
        c.fail(
            "pool_max_scale",
            pool::POOL_SCALE.offset as usize,
            format!("max pooling scale {scale:#010x} is not 1.0"),
        );
    }
}

fn cross_lane(c: &mut Ctx, opcode: u8, b: &Bundle) {
    let act = cr::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &cr::SRC, act);
    let op = byte(&cr::REDUCE_OP, b);
    let ok = CrossLaneReduceOp::from_wire(op)
        .is_some_and(|o| o.is_bitvec() == (opcode == CROSS_LANE_REDUCE_BITVEC));
    if !ok {
        c.fail(
            "s4d4_cr_reduce_op",
            cr::REDUCE_OP.offset as usize,
            format!("reduce_op {op} is not a reduce op of {opcode:#04x}"),
        );
    }
    let axis_byte = byte(&cr::REDUCE_AXIS, b);
    let axis = CrossLaneAxis::from_wire(axis_byte);
    if axis.is_none() {
        c.fail(
            "s4d4_cr_reduce_axis",
            cr::REDUCE_AXIS.offset as usize,
            format!("reduce_axis {axis_byte} is not ALL or PARTITIONS"),
        );
    }
    for f in [&cr::SRC, &cr::DST] {
        let w = start_word(f, b);
        if w & REG_BIT == 0 && c.arch.in_psum(w & ADDR_MASK) {
            c.fail(
                "s4d4_cr_sbuf_only",
                f.offset as usize,
                format!("{} is in PSUM; cross-lane reduce is SBUF only", f.name),
            );
        }
    }
    let (sc, dc) = (slot_count_at(b, &cr::SRC), slot_count_at(b, &cr::DST));
    if let (Some(axis), Some(sc), Some(dc)) = (axis, sc, dc) {
        let want = crate::ops::cross_lane_dst_count(axis, sc);
        if dc != want {
            c.fail(
                "s4d4_cr_dst_count",
                cr::DST.offset as usize,
                format!("dst has {dc} elements, {axis:?} needs {want}"),
            );
        }
    }
}

fn iota_rules(c: &mut Ctx, b: &Bundle) {
    let act = io::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &io::DST, act);
    let (p, d) = (d4d_count(&io::PATTERN, b), slot_count_at(b, &io::DST));
    if p != d {
        c.fail(
            "d4_iota_count",
            io::PATTERN.offset as usize,
            format!("d4d {p:?} vs dst {d:?} elements"),
        );
    }
}

fn memset_rules(c: &mut Ctx, b: &Bundle) {
    let act = ms::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &ms::DST, act);
    let n = dword(&ms::DST_ELEMENT_COUNT, b) as u64;
    let d = slot_count_at(b, &ms::DST);
    if Some(n) != d {
        c.fail(
            "memset_dst_element_count",
            ms::DST_ELEMENT_COUNT.offset as usize,
            format!("dst_element_count {n} vs dst {d:?} elements"),
        );
    }
}

fn affine_select_rules(c: &mut Ctx, b: &Bundle) {
    let act = af::ACTIVE;
    active_range(c, b, act);
    start_active(c, b, &af::SRC, act);
    let m = d4d_count(&af::MASK, b);
    let (s, d) = (slot_count_at(b, &af::SRC), slot_count_at(b, &af::DST));
    if m != s || s != d {
        c.fail(
            "s2d2_ts_as_count",
            af::MASK.offset as usize,
            format!("mask {m:?}, src {s:?}, dst {d:?} elements"),
        );
    }
    let mode = byte(&af::FILL_MODE, b);
    if mode > 3 {
        c.fail(
            "s2d2_ts_as_fill_mode",
            af::FILL_MODE.offset as usize,
            format!("fill_mode {mode} is not an AFFINE_SELECT_CMP"),
        );
    }
    if byte(&af::IN_OUT_DTYPE, b) & 0xF == WIRE_FP32R {
        c.fail(
            "s2d2_ts_as_dtype",
            af::IN_OUT_DTYPE.offset as usize,
            "FP32R is an output-only dtype",
        );
    }
}
