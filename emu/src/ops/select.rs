//! The data-predicate selects of the Vector Engine: `copy_predicated`
//! (`nki.isa.tensor_copy_predicated`), `select_reduce` (`nki.isa.select_reduce`) and
//! `range_select` (`nki.isa.range_select`).
//!
//! `tensor_copy_predicated`, restated: where the predicate element is true (nonzero; or
//! zero with `reverse_pred`) `dst = src`, elsewhere dst is not modified (neither read nor
//! written here). `src` and `dst` share a dtype (bits are copied); the predicate is an
//! integer tile (NKI lists uint8/16/32; the dialect also accepts the signed ones, whose
//! truth is the same nonzero test); all three have one shape; `src` and `predicate` cannot
//! both be in PSUM.
//!
//! `select_reduce`, restated: `result = where(predicate ^ reverse_pred, on_true,
//! on_false)` in fp32, cast to `dst.dtype`; `on_false` is an fp32 scalar or a
//! `(P, 1)` tile; with reduction the per-partition max of `result` goes to the Vector
//! accumulators (`reset_reduce`: start at -inf; `reduce`: continue; `idle`: none, and the
//! lanes become undefined) and to `reduce_res`. `on_true` is not int32/uint32; the
//! predicate is int8, uint8, int16 or uint16; `reduce_res` is a float type.
//!
//! `range_select` (NeuronCore-v3+), restated from its NumPy equivalent: with `index =
//! range_start + free index` (fp32), `mask = comp_op0(index, bound0) & comp_op1(index,
//! bound1)`, `dst = where(mask, on_true, on_false_value)` and the per-partition max goes
//! to the accumulators and `reduce_res` as for select_reduce. The comparisons are
//! is_equal, is_gt, is_ge, is_le, is_lt; `bound0`/`bound1` are fp32 `(P, 1)` tiles;
//! `on_true` is a float type; `on_false_value` "must be FP32_MIN (-3.4028235e+38)";
//! `range_start` is an integer and `range_start + index` must stay within 2^24.

use super::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use super::alu::{AluClass, AluOp, checked_row};
use super::tile::{self, Scalar, Space};
use super::vector_unary::lanes_defined;
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;

/// Predicate dtypes of `copy_predicated`.
pub const COPY_PREDICATE_DTYPES: [DType; 6] = [
    DType::U8,
    DType::U16,
    DType::U32,
    DType::I8,
    DType::I16,
    DType::I32,
];
/// Predicate dtypes of `select_reduce`.
pub const SELECT_PREDICATE_DTYPES: [DType; 4] = [DType::I8, DType::U8, DType::I16, DType::U16];

/// `copy_predicated`: `dst = src` where the predicate holds; see the module doc.
pub fn copy_predicated(
    mem: &mut Memory,
    dst: &View,
    src: &View,
    predicate: &View,
    reverse_pred: bool,
) -> Result<()> {
    const OP: &str = "copy_predicated";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "src", src, Space::OnChip)?;
    let p = tile::tile(mem, OP, "predicate", predicate, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("src", s))?;
    tile::same_shape(OP, ("dst", d), ("predicate", p))?;
    tile::not_both_psum(mem, OP, ("src", src), ("predicate", predicate))?;
    if src.dtype() != dst.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "src is {} but dst is {}; they must share a dtype",
                src.dtype(),
                dst.dtype()
            ),
        ));
    }
    tile::dtype_in(OP, "predicate", predicate.dtype(), &COPY_PREDICATE_DTYPES)?;
    let pred = tile::read_bits(mem, OP, predicate)?;
    let bits = tile::read_bits(mem, OP, src)?;
    let mask: Vec<bool> = pred.iter().map(|&b| (b != 0) != reverse_pred).collect();
    tile::check_writable(mem, OP, dst)?;
    tile::write_masked(mem, dst, &bits, &mask)
}

/// The max-reduction half shared by select_reduce and range_select.
#[derive(Debug, Clone, Copy)]
pub struct MaxReduce<'a> {
    /// Only `max` is supported.
    pub reduce_op: AluOp,
    /// idle, reset_reduce or reduce.
    pub reduce_cmd: ReduceCmd,
    /// The `(P, 1)` tile that receives the accumulators.
    pub reduce_res: Option<&'a View>,
}

/// Validates the reduction and returns how the accumulators start.
fn max_reduce_start(
    mem: &Memory,
    acc: &Accumulators,
    who: &'static str,
    r: &MaxReduce<'_>,
    parts: usize,
) -> Result<Start> {
    if r.reduce_op != AluOp::Max {
        return Err(EmuError::invalid(
            who,
            format!("reduce_op must be max, not {}", r.reduce_op.name()),
        ));
    }
    accumulator::cmd_in(
        who,
        r.reduce_cmd,
        &[ReduceCmd::Idle, ReduceCmd::ResetReduce, ReduceCmd::Reduce],
    )?;
    if let Some(res) = r.reduce_res {
        if !res.dtype().is_float() {
            return Err(EmuError::dtype(
                who,
                format!("reduce_res is {}; it must be a float type", res.dtype()),
            ));
        }
        tile::lane_tile(mem, who, "reduce_res", res, parts)?;
    }
    accumulator::start(
        acc,
        who,
        AccEngine::Vector,
        r.reduce_cmd,
        parts,
        f32::NEG_INFINITY,
        None,
    )
}

/// Writes dst, reduces `out` per partition onto `begin`, writes `reduce_res` and commits.
#[allow(clippy::too_many_arguments)]
fn finish(
    mem: &mut Memory,
    acc: &mut Accumulators,
    who: &'static str,
    dst: &View,
    out: &[f32],
    parts: usize,
    free: usize,
    begin: Start,
    r: &MaxReduce<'_>,
) -> Result<()> {
    let max = checked_row(who, AluOp::Max, AluClass::Arith)?;
    let state: Vec<Option<f32>> = match begin {
        Start::Idle => vec![None; parts],
        Start::ResetOnly(v) => v.into_iter().map(Some).collect(),
        Start::Accumulate(mut lanes) => {
            for (p, lane) in lanes.iter_mut().enumerate() {
                for &v in &out[p * free..(p + 1) * free] {
                    *lane = max.apply_f32(*lane, v);
                }
            }
            lanes.into_iter().map(Some).collect()
        }
    };
    let readout = match r.reduce_res {
        None => None,
        Some(res) => Some((res, lanes_defined(who, &state)?)),
    };
    let bits = tile::encode_f32(who, "dst", dst.dtype(), out)?;
    tile::check_writable(mem, who, dst)?;
    tile::write_bits(mem, dst, &bits)?;
    if let Some((res, v)) = readout {
        accumulator::write_lanes(mem, who, "reduce_res", res, &v, false)?;
    }
    acc.commit(AccEngine::Vector, &state);
    Ok(())
}

/// `select_reduce`: `dst = where(predicate, on_true, on_false)` with an optional max
/// reduction; see the module doc.
#[allow(clippy::too_many_arguments)]
pub fn select_reduce(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    predicate: &View,
    on_true: &View,
    on_false: &Scalar<'_>,
    reverse_pred: bool,
    reduce: &MaxReduce<'_>,
) -> Result<()> {
    const OP: &str = "select_reduce";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let p = tile::tile(mem, OP, "predicate", predicate, Space::OnChip)?;
    let t = tile::tile(mem, OP, "on_true", on_true, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("predicate", p))?;
    tile::same_shape(OP, ("dst", d), ("on_true", t))?;
    tile::not_both_psum(mem, OP, ("on_true", on_true), ("predicate", predicate))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    tile::dtype_in(OP, "predicate", predicate.dtype(), &SELECT_PREDICATE_DTYPES)?;
    if matches!(on_true.dtype(), DType::I32 | DType::U32) {
        return Err(EmuError::dtype(
            OP,
            format!(
                "on_true is {}; int32 and uint32 are not accepted",
                on_true.dtype()
            ),
        ));
    }
    let begin = max_reduce_start(mem, acc, OP, reduce, d.parts)?;
    // A scalar on_false is fp32 by construction; a tile may be any dtype.
    let fallback = tile::scalar_values(mem, OP, "on_false", on_false, d.parts, false)?;
    let pred = tile::read_bits(mem, OP, predicate)?;
    let x = tile::read_f32(mem, OP, "on_true", on_true)?;
    let out: Vec<f32> = x
        .iter()
        .zip(&pred)
        .enumerate()
        .map(|(i, (&v, &b))| {
            if (b != 0) != reverse_pred {
                v
            } else {
                fallback[i / d.free.max(1)]
            }
        })
        .collect();
    finish(mem, acc, OP, dst, &out, d.parts, d.free, begin, reduce)
}

/// The attributes of `range_select`.
#[derive(Debug, Clone, Copy)]
pub struct RangeSelect<'a> {
    /// Compares the index with bound0.
    pub comp_op0: AluOp,
    /// Compares the index with bound1.
    pub comp_op1: AluOp,
    /// The first index: NKI's integer `range_start`.
    pub range_start: i64,
    /// Must be FP32_MIN.
    pub on_false_value: f32,
    /// The max reduction.
    pub reduce: MaxReduce<'a>,
}

/// `range_select`: see the module doc.
pub fn range_select(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    on_true: &View,
    bound0: &View,
    bound1: &View,
    args: &RangeSelect<'_>,
) -> Result<()> {
    const OP: &str = "range_select";
    tile::require_target(mem, OP, Target::Cayman)?;
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let t = tile::tile(mem, OP, "on_true", on_true, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("on_true", t))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    if !on_true.dtype().is_float() {
        return Err(EmuError::dtype(
            OP,
            format!("on_true is {}; it must be a float type", on_true.dtype()),
        ));
    }
    let cmps = [args.comp_op0, args.comp_op1]
        .into_iter()
        .map(|op| match op {
            AluOp::IsEqual | AluOp::IsGt | AluOp::IsGe | AluOp::IsLe | AluOp::IsLt => {
                checked_row(OP, op, AluClass::Arith)
            }
            other => Err(EmuError::invalid(
                OP,
                format!(
                    "{} is not a range comparison (is_equal, is_gt, is_ge, is_le, is_lt)",
                    other.name()
                ),
            )),
        })
        .collect::<Result<Vec<_>>>()?;
    if args.on_false_value != f32::MIN {
        return Err(EmuError::invalid(
            OP,
            format!(
                "on_false_value must be FP32_MIN (-3.4028235e38), not {:e}",
                args.on_false_value
            ),
        ));
    }
    // The index is compared in fp32: every `range_start + i` must be exact there.
    let limit = 1i64 << 24;
    let last = args
        .range_start
        .saturating_add(i64::try_from(d.free.saturating_sub(1)).unwrap_or(i64::MAX));
    if args.range_start.saturating_abs() > limit || last.saturating_abs() > limit {
        return Err(EmuError::invalid(
            OP,
            format!("range_start + index reaches {last}, outside the exact fp32 range ±2^24"),
        ));
    }
    let start = args.range_start as f32;
    let b0 = tile::scalar_values(mem, OP, "bound0", &Scalar::Tile(bound0), d.parts, true)?;
    let b1 = tile::scalar_values(mem, OP, "bound1", &Scalar::Tile(bound1), d.parts, true)?;
    let begin = max_reduce_start(mem, acc, OP, &args.reduce, d.parts)?;
    let x = tile::read_f32(mem, OP, "on_true", on_true)?;
    let free = d.free.max(1);
    let out: Vec<f32> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let (p, f) = (i / free, i % free);
            let index = start + f as f32;
            let keep =
                cmps[0].apply_f32(index, b0[p]) != 0.0 && cmps[1].apply_f32(index, b1[p]) != 0.0;
            if keep { v } else { args.on_false_value }
        })
        .collect();
    finish(
        mem,
        acc,
        OP,
        dst,
        &out,
        d.parts,
        d.free,
        begin,
        &args.reduce,
    )
}
