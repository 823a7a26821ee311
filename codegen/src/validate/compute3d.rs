//! Validator rules of the 3D-slot compute formats (S3S3D3_TT, S3D3_TS, S3D3_TS_SELECT and the
//! 0x24 D1_RD read-out). Every offset and opcode comes from the `formats::compute3d` field
//! constants and format statics; the rule names are listed in [`super::RULES`].
//!
//! Not checked (the sources give no semantics): the bitvec dtype rules of 0x51 (integer out,
//! equal dtypes except for shifts), int-op signedness on 0x41, register-id range of a
//! register-sourced immediate, and the ranges of EXPONENTIAL's or the cache forms' operands.

use super::{
    Ctx, Rules, active_range, d1_rd_rules, same_sbuf_quadrant, slot_count_at, start_active,
};
use crate::addr4::{ADDR_MASK, REG_BIT, SHAPE_BIT, get_u32};
use crate::arch::Family;
use crate::bundle::Bundle;
use crate::dtype::{BirDtype, WIRE_FP32R, WireDtype, bir_to_wire};
use crate::enums::{ActivationFunc, activation_takes_imm, alu_from_wire};
use crate::fields::Field;
use crate::formats::Format;
use crate::formats::compute3d::{self as c3, act, ts, tss, tt};
use crate::isa::{self, SelectQuery};
use crate::model::Engine;

/// The layout class of an opcode of the group: what `c3::is_tt` / `c3::is_ts` answer, compiled
/// at build time from the group's formats (a format has the S3S3D3_TT or S3D3_TS layout when its
/// rows are those of 0x41 or 0x43), so the per-bundle dispatch is one table load instead of a
/// comparison of field tables. A unit test checks the table against `is_tt` / `is_ts`.
static LAYOUT: [Layout; 256] = {
    let mut t = [Layout::Other; 256];
    let mut i = 0;
    while i < c3::GROUP.len() {
        let f = c3::GROUP[i];
        let op = f.opcode as usize;
        if matches!(t[op], Layout::Other) {
            if same_rows(f.fields, c3::TENSOR_TENSOR_ARITH.fields) {
                t[op] = Layout::Tt;
            } else if same_rows(f.fields, c3::TENSOR_SCALAR_ARITH.fields) {
                t[op] = Layout::Ts;
            }
        }
        i += 1;
    }
    t
};

/// The two shared layouts of the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// S3S3D3_TT.
    Tt,
    /// S3D3_TS.
    Ts,
    /// Neither.
    Other,
}

/// Whether two field tables have the same rows (name, offset, width and role kind), in order.
const fn same_rows(a: &[Field], b: &[Field]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let (x, y) = (&a[i], &b[i]);
        if x.offset != y.offset
            || x.kind.width() != y.kind.width()
            || !same_str(x.name, y.name)
            || !same_str(x.meaning, y.meaning)
        {
            return false;
        }
        i += 1;
    }
    true
}

/// `a == b` for strings, in a const context.
pub(super) const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The rules of an opcode of this group (`None` for any other opcode).
pub(super) const fn rules_of(op: u8) -> Option<Rules> {
    match LAYOUT[op as usize] {
        Layout::Tt => Some(tt_rules),
        Layout::Ts => Some(ts_rules),
        Layout::Other if op == c3::TENSOR_SCALAR_SELECT.opcode => Some(|c, _, b| tss_rules(c, b)),
        Layout::Other if op == c3::ACTIVATE.opcode => Some(|c, _, b| act_rules(c, b)),
        Layout::Other if op == c3::ACTIVATION_READ_ACCUMULATOR.opcode => {
            Some(|c, _, b| d1_rd_rules(c, b))
        }
        Layout::Other => None,
    }
}

#[inline(always)]
fn at(f: &Field) -> usize {
    f.offset as usize
}

/// Whether a start word is register-mode or carries the shape-register marker (the header's
/// `shape_from_register`, which skips the static element-count checks).
#[inline(always)]
fn dynamic(word: u32) -> bool {
    word & (REG_BIT | SHAPE_BIT) != 0
}

fn tt_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    let op = fmt.opcode;
    active_range(c, b, tt::ACTIVE);
    start_active(c, b, &tt::SRC0, tt::ACTIVE);
    let pair = b[at(&tt::IN0_IN1_DTYPE)];
    if pair & 0xF == WIRE_FP32R || pair >> 4 == WIRE_FP32R {
        c.fail(
            "tt_in_dtype_not_fp32r",
            at(&tt::IN0_IN1_DTYPE),
            format!("in0_in1_dtype {pair:#04x}: FP32R is an output-only dtype"),
        );
    }
    // Element by element (`array::map` is not unrolled here).
    let words = [
        get_u32(b, at(&tt::SRC0)),
        get_u32(b, at(&tt::SRC1)),
        get_u32(b, at(&tt::DST)),
    ];
    if !(dynamic(words[0]) || dynamic(words[1]) || dynamic(words[2])) {
        let counts = [
            slot_count_at(b, &tt::SRC0),
            slot_count_at(b, &tt::SRC1),
            slot_count_at(b, &tt::DST),
        ];
        if counts[0] != counts[1] || counts[0] != counts[2] {
            c.fail(
                "tt_same_elem_count",
                at(&tt::SRC0),
                format!("src0/src1/dst element counts {counts:?} differ"),
            );
        }
    }
    // tt_valid_partitions(src0, src1): register bypass; else one in PSUM and one in SBUF, or both
    // in SBUF in one quadrant; never both in PSUM.
    let (a0, a1) = (words[0], words[1]);
    if a0 & REG_BIT == 0 && a1 & REG_BIT == 0 {
        let (a0, a1) = (a0 & ADDR_MASK, a1 & ADDR_MASK);
        let (p0, p1) = (c.arch.in_psum(a0), c.arch.in_psum(a1));
        // same_sbuf_quadrant is false unless both are in SBUF.
        let ok = p0 != p1 || same_sbuf_quadrant(c.arch, a0, a1);
        let both_known = (p0 || c.arch.in_sbuf(a0)) && (p1 || c.arch.in_sbuf(a1));
        if both_known && !ok {
            c.fail(
                "tt_valid_partitions",
                at(&tt::SRC0),
                format!("src0 {a0:#x} and src1 {a1:#x}: both in PSUM, or in SBUF in two quadrants"),
            );
        }
    }
    let alu = b[at(&tt::OP)];
    let out = b[at(&tt::OUT_DTYPE)];
    let predicated = op == c3::COPY_PREDICATED.opcode || op == c3::CAST_PREDICATED.opcode;
    if op == c3::TENSOR_TENSOR_ARITH.opcode && !c3::tt_arith_ok(alu) {
        c.fail(
            "tt_arith_op",
            at(&tt::OP),
            format!("op {alu:#04x} is not an arithmetic TENSOR_TENSOR op"),
        );
    }
    if op == c3::TENSOR_TENSOR_BITVEC.opcode && !c3::tt_bitvec_ok(alu) {
        c.fail(
            "tt_bitvec_op",
            at(&tt::OP),
            format!("op {alu:#04x} is not a bitvec op"),
        );
    }
    if op == c3::TENSOR_TENSOR_BITVEC.opcode {
        // Header bitvec validity: the out dtype is an integer; src0 == src1 == out, except that
        // a shift's count (src1) may be UINT32 under a 64-bit value.
        let (lo, hi) = (pair & 0xF, pair >> 4);
        let (w_out, u32w) = (WireDtype(out), bir_to_wire(BirDtype::Uint32, c.arch.core).0);
        let wide = WireDtype(lo).info().is_some_and(|i| i.size == 8);
        let count_ok = hi == out || (c3::SHIFT_OPS.contains(&alu) && wide && hi == u32w);
        let int_out = w_out.info().is_some_and(|i| i.code != 0) && !w_out.is_float();
        if !int_out || lo != out || !count_ok {
            c.fail(
                "tt_bitvec_dtype",
                at(&tt::IN0_IN1_DTYPE),
                format!(
                    "bitvec dtypes {pair:#04x}/{out:#04x}: out must be an integer and src0 == \
                     src1 == out (a shift's count may be u32 under a 64-bit value)"
                ),
            );
        }
    }
    if predicated && alu != 0 {
        c.fail(
            "tt_predicated_op_bypass",
            at(&tt::OP),
            format!("op {alu:#04x}: the predicated copy carries no ALU op (BYPASS)"),
        );
    }
    if op == c3::COPY_PREDICATED.opcode && pair >> 4 != out {
        c.fail(
            "copy_predicated_same_dtype",
            at(&tt::OUT_DTYPE),
            format!(
                "data dtype {:#04x} != out dtype {out:#04x} (a cast is 0x99)",
                pair >> 4
            ),
        );
    }
    // The wide opcodes: the ALU byte and the dtypes must be one of the forms the encoder picks.
    let core = c.arch.core;
    let all = |d: BirDtype| {
        let w = bir_to_wire(d, core).0;
        pair == w | w << 4 && out == w
    };
    // The GpSimd int32 form: 0x41 with an integer-band override byte, every operand int32.
    let int = all(BirDtype::Int32)
        && op == c3::TENSOR_TENSOR_ARITH.opcode
        && isa::gpsimd_int32_op(alu, c.arch.target).is_some();
    // A bf16 opcode (its format's family) must be what the ISA table's tensor_tensor_arith row
    // dispatches the bundle's op and dtypes to on Vector on this target.
    let wide = fmt.family == Family::TensorTensorBf16;
    let bf16 = wide
        && all(BirDtype::Bfloat16)
        && alu_from_wire(alu, core).is_some_and(|a| {
            let q = SelectQuery::new(c.arch.target)
                .on_engine(Engine::Vector)
                .with_dtypes(BirDtype::Bfloat16, &[BirDtype::Bfloat16; 2])
                .with_alu(a);
            const TT_ARITH: &isa::Row = isa::row_const("tensor_tensor_arith");
            isa::dispatch(TT_ARITH, &q, |k| k.encodable(c.arch)).is_ok_and(|d| d.opcodes == [op])
        });
    if wide && !bf16 {
        c.fail(
            "tt_wide_variant",
            at(&tt::OP),
            format!(
                "{} with op {alu:#04x} and dtypes {pair:#04x}/{out:#04x} is not its bf16 form on {}",
                fmt.mnemonic, c.arch.target
            ),
        );
    }
    if int
        && words
            .iter()
            .any(|&w| w & REG_BIT == 0 && c.arch.in_psum(w & ADDR_MASK))
    {
        c.fail(
            "tt_gpsimd_no_psum",
            at(&tt::SRC0),
            "GPSIMD engine cannot access PSUM",
        );
    }
}

fn ts_rules(c: &mut Ctx, fmt: &Format, b: &Bundle) {
    active_range(c, b, ts::ACTIVE);
    start_active(c, b, &ts::SRC, ts::ACTIVE);
    let (op0, op1) = (b[at(&ts::OP0)], b[at(&ts::OP1)]);
    if op0 == 0 && op1 != 0 {
        c.fail(
            "ts_op0_bypass_implies_op1_bypass",
            at(&ts::OP1),
            format!("op0 is BYPASS but op1 is {op1:#04x} (op0 != BYPASS || op1 == BYPASS)"),
        );
    }
    for f in [&ts::OP0, &ts::OP1] {
        let v = b[at(f)];
        if !c3::ts_alu_ok(v) {
            c.fail(
                "ts_valid_alu_op",
                at(f),
                format!(
                    "{} {v:#04x} is outside 0x00..0x1D, 0x20..0x23, 0xC4..0xE1",
                    f.name
                ),
            );
        } else if fmt.opcode == c3::TENSOR_SCALAR_BITVEC.opcode && !c3::tt_bitvec_ok(v) {
            c.fail(
                "ts_bitvec_op",
                at(f),
                format!("{} {v:#04x} is not a bitvec op", f.name),
            );
        }
    }
    for f in [&ts::IMM0_SRC, &ts::IMM1_SRC] {
        if b[at(f)] > 2 {
            c.fail(
                "ts_imm_src",
                at(f),
                format!("{} {} is not an IMM_SRC", f.name, b[at(f)]),
            );
        }
    }
    let rev = b[at(&ts::REVERSE_OPERANDS)];
    if rev > 3 {
        c.fail(
            "ts_reverse_operands",
            at(&ts::REVERSE_OPERANDS),
            format!("reverse_operands {rev} not in 0..=3"),
        );
    }
    let acc = b[at(&ts::ACCUMULATOR_CMD)];
    let plain = [
        &c3::TENSOR_SCALAR_ARITH,
        &c3::TENSOR_SCALAR_BITVEC,
        &c3::TENSOR_SCALAR_TRANSPOSE,
    ]
    .iter()
    .any(|f| f.opcode == fmt.opcode);
    if (plain && acc != 0) || acc > 4 {
        c.fail(
            "ts_accumulator_cmd",
            at(&ts::ACCUMULATOR_CMD),
            format!(
                "accumulator_cmd {acc} (IDLE only on {}, else an ACCUM_CMD)",
                fmt.mnemonic
            ),
        );
    }
}

fn tss_rules(c: &mut Ctx, b: &Bundle) {
    active_range(c, b, tss::ACTIVE);
    start_active(c, b, &tss::SRC, tss::ACTIVE);
    let rp = b[at(&tss::REVERSED_PRED)];
    if rp > 1 {
        c.fail(
            "tss_reversed_pred",
            at(&tss::REVERSED_PRED),
            format!("reversed_pred {rp} not in {{0, 1}}"),
        );
    }
    for f in [&tss::SRC1_IMM_SRC, &tss::PRED_IMM_SRC] {
        if b[at(f)] > 2 {
            c.fail(
                "tss_imm_src",
                at(f),
                format!("{} {} is not an IMM_SRC", f.name, b[at(f)]),
            );
        }
    }
    let pred = get_u32(b, at(&tss::PRED_IMM));
    if b[at(&tss::PRED_IMM_SRC)] == 0 && pred > 1 {
        c.fail(
            "tss_pred_imm_inline_bool",
            at(&tss::PRED_IMM),
            format!("inline pred_imm {pred} is not 0 or 1"),
        );
    }
    let (d, p) = (
        WireDtype(b[at(&tss::DTYPE)]),
        WireDtype(b[at(&tss::PRED_IMM_DTYPE)]),
    );
    if let (Some(di), Some(pi)) = (d.info(), p.info())
        && (p.is_float() || pi.code == 0 || pi.size != di.size)
    {
        c.fail(
            "tss_pred_imm_dtype",
            at(&tss::PRED_IMM_DTYPE),
            format!(
                "pred_imm_dtype {:#04x} must be an integer dtype of the width of dtype {:#04x}",
                p.0, d.0
            ),
        );
    }
}

fn act_rules(c: &mut Ctx, b: &Bundle) {
    active_range(c, b, act::ACTIVE);
    start_active(c, b, &act::SRC, act::ACTIVE);
    for f in [&act::IMM_SRC, &act::SCALE_SRC, &act::BIAS_SRC_N] {
        if b[at(f)] > 2 {
            c.fail(
                "act_imm_src",
                at(f),
                format!("{} {} is not an immediate source code", f.name, b[at(f)]),
            );
        }
    }
    let acc = b[at(&act::ACCUMULATOR_CMD)];
    if acc > 4 {
        c.fail(
            "act_accumulator_cmd",
            at(&act::ACCUMULATOR_CMD),
            format!("accumulator_cmd {acc} is not an ACCUM_CMD"),
        );
    }
    let code = b[at(&act::ACTIVATION_FUNC)];
    if ActivationFunc::from_wire(code).is_none() {
        c.fail(
            "act_func_known",
            at(&act::ACTIVATION_FUNC),
            format!("activation_func {code:#04x} is no BIR activation function's code"),
        );
    }
    if !activation_takes_imm(code) {
        if b[at(&act::IMM_SRC)] != 0 {
            c.fail(
                "act_imm_gate",
                at(&act::IMM_SRC),
                format!("imm_src is set but activation_func {code:#04x} takes no second immediate"),
            );
        }
        let v = get_u32(b, at(&act::IMM));
        if v != 0 {
            c.fail(
                "act_imm_gate",
                at(&act::IMM),
                format!(
                    "imm {v:#x} is set but activation_func {code:#04x} takes no second immediate"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_table_agrees_with_the_format_predicates() {
        for op in 0..=255u8 {
            let want = if c3::is_tt(op) {
                Layout::Tt
            } else if c3::is_ts(op) {
                Layout::Ts
            } else {
                Layout::Other
            };
            assert_eq!(LAYOUT[op as usize], want, "opcode {op:#04x}");
        }
    }
}
