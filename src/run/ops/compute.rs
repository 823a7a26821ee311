//! Handlers of the compute ops: element-wise, reductions, scans, selects, copies, transposes,
//! matmul, top-8, statistics and MX quantisation, each a call of the emulator function of the
//! same name (`sundial_emu::ops`, whose module docs state the semantics).
//!
//! How the dialect's vocabulary maps onto the emulator's:
//!
//! - "an immediate or a `[P, 1]` tile" (`imm0` / `operand0`, `initial_value` / `initial`,
//!   `on_false_value` / `on_false`, `scale_value` / `scale`): the tile when given, else the
//!   immediate ([`sundial_emu::Scalar`]); the verifier allows at most one of the two;
//! - ALU, comparison and reduction ops: the emulator's `AluOp`, by the same spelling;
//! - `engine`: the emulator's engine, `unknown` letting the emulator choose as NKI's compiler
//!   does (only the ops whose emulator function takes an engine read it: the others run on
//!   their one engine);
//! - the accumulators (`reduce_res`, `reduce_cmd`) are the rank's [`super::super::exec::Core`]
//!   state, kept across ops;
//! - `quantize_mx`'s block-scale rule is the run's `--mx-scale-rule`
//!   ([`super::super::exec::RunConfig::mx_scale_rule`]);
//! - `matmul`'s `perf_mode`: `none` and `double_row`; `double_row_sw_interleave` has no
//!   emulator semantics and is refused;
//! - `activation`'s `alpha` parameterises only `lrelu` / `prelu`, which have no public
//!   semantics: an op that writes it is refused.

use sundial_emu::fused::{OwnedScalar, OwnedStage, RowOp};
use sundial_emu::{
    AffineSelect, BitStage, Cumulative, Exponential, FreeReduce, MatmulMxOptions, MatmulOptions,
    MaxReduce, Number, PerfOptMode, RangeSelect, Scalar, ScanOps, Stage, TensorStage, View,
};

use sundial_dialects::verify::nki_parity::VECTOR_TRANSPOSE_MAX;

use super::super::RunError;
use super::super::exec::Exec;
use super::{alu, compute_engine, int32, opt_alu, opt_pair, reduce_cmd, uints};

/// The "immediate or `[P, 1]` tile" operand made of attribute `imm` and operand `tile`: the
/// tile when given, else the immediate, else `None`.
fn scalar<'v>(
    op: &Exec<'_, '_, '_>,
    imm: &str,
    tile: Option<&'v View>,
    tile_name: &str,
) -> Result<Option<Scalar<'v>>, RunError> {
    let value = op.opt_float(imm)?;
    match (tile, value) {
        (Some(_), Some(_)) => Err(op.error(format!(
            "give either attribute '{imm}' or operand '{tile_name}', not both"
        ))),
        (Some(t), None) => Ok(Some(Scalar::Tile(t))),
        (None, Some(v)) => Ok(Some(Scalar::Imm(v))),
        (None, None) => Ok(None),
    }
}

/// As [`scalar`], required.
fn required_scalar<'v>(
    op: &Exec<'_, '_, '_>,
    imm: &str,
    tile: Option<&'v View>,
    tile_name: &str,
) -> Result<Scalar<'v>, RunError> {
    scalar(op, imm, tile, tile_name)?
        .ok_or_else(|| op.error(format!("needs attribute '{imm}' or operand '{tile_name}'")))
}

/// The `[[step, num], ...]` pairs of attribute `pattern`.
fn pattern(op: &Exec<'_, '_, '_>) -> Result<Vec<[i64; 2]>, RunError> {
    let flat = op.ints("pattern")?;
    if flat.len() % 2 != 0 {
        return Err(op.error("attribute 'pattern': expected [step, num] pairs"));
    }
    Ok(flat.chunks(2).map(|c| [c[0], c[1]]).collect())
}

/// `nisa.iota`.
pub fn iota(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.tile("dst")?;
    let pattern = pattern(op)?;
    let (offset, cm) = (op.int("offset")?, op.int("channel_multiplier")?);
    let r = sundial_emu::iota(op.mem(), &dst, &pattern, offset, cm);
    op.emu(r)
}

/// `nisa.tensor_scalar_affine_select` (`nki.isa.affine_select`).
pub fn affine_select(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, on_true) = (op.tile("dst")?, op.tile("on_true")?);
    let pattern = pattern(op)?;
    let args = AffineSelect {
        pattern: &pattern,
        offset: op.int("offset")?,
        channel_multiplier: op.int("channel_multiplier")?,
        cmp_op: alu(op, "cmp_op")?,
        on_false_value: op.float("on_false_value")?,
    };
    let r = sundial_emu::tensor_scalar_affine_select(op.mem(), &dst, &on_true, &args);
    op.emu(r)
}

/// `nisa.cross_lane_reduce_arith` (`nki.isa.tensor_partition_reduce`).
pub fn cross_lane_reduce_arith(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, alu) = (op.tile("dst")?, op.tile("src")?, alu(op, "op")?);
    let r = sundial_emu::cross_lane_reduce_arith(op.mem(), &dst, &src, alu);
    op.emu(r)
}

/// `nisa.tensor_partition_reduce`: the middle end's generic partition reduction, run as the
/// op table defines it (before `sundial-legalize-partition-reduce` lowers it).
pub fn tensor_partition_reduce(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, alu) = (op.tile("dst")?, op.tile("src")?, alu(op, "op")?);
    let axis = op
        .ints("axis")?
        .into_iter()
        .map(|a| usize::try_from(a).map_err(|_| op.error(format!("axis {a} is negative"))))
        .collect::<Result<Vec<usize>, RunError>>()?;
    let r = sundial_emu::tensor_partition_reduce(op.mem(), &dst, &src, alu, &axis);
    op.emu(r)
}

/// `nisa.cross_lane_reduce_bitvec`.
pub fn cross_lane_reduce_bitvec(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, alu) = (op.tile("dst")?, op.tile("src")?, alu(op, "op")?);
    let r = sundial_emu::cross_lane_reduce_bitvec(op.mem(), &dst, &src, alu);
    op.emu(r)
}

/// `nisa.nonzero_with_count`.
pub fn nonzero_with_count(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let (offset, padding) = (int32(op, "index_offset")?, int32(op, "padding_val")?);
    let r = sundial_emu::nonzero_with_count(op.mem(), &dst, &src, offset, padding);
    op.emu(r)
}

/// `nisa.quantize_mx`, with the run's block-scale rule.
pub fn quantize_mx(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, scale, src) = (op.tile("dst")?, op.tile("dst_scale")?, op.tile("src")?);
    let rule = op.config().mx_scale_rule;
    let r = sundial_emu::quantize_mx(op.mem(), &dst, &scale, &src, rule);
    op.emu(r)
}

/// `nisa.sequence_bounds`.
pub fn sequence_bounds(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, ids) = (op.tile("dst")?, op.tile("segment_ids")?);
    let r = sundial_emu::sequence_bounds(op.mem(), &dst, &ids);
    op.emu(r)
}

/// `nisa.tensor_tensor_arith` (`nki.isa.tensor_tensor`).
pub fn tensor_tensor_arith(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, lhs, rhs) = (op.tile("dst")?, op.tile("lhs")?, op.tile("rhs")?);
    let (alu, engine) = (alu(op, "op")?, compute_engine(op)?);
    op.row_op(RowOp::TensorTensor {
        dst,
        lhs,
        rhs,
        op: alu,
        engine,
    })
}

/// `nisa.tensor_tensor_power`.
pub fn tensor_tensor_power(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, lhs, rhs) = (op.tile("dst")?, op.tile("lhs")?, op.tile("rhs")?);
    let r = sundial_emu::tensor_tensor_power(op.mem(), &dst, &lhs, &rhs);
    op.emu(r)
}

/// `nisa.tensor_tensor_bitvec`.
pub fn tensor_tensor_bitvec(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, lhs, rhs) = (op.tile("dst")?, op.tile("lhs")?, op.tile("rhs")?);
    let alu = alu(op, "op")?;
    let r = sundial_emu::tensor_tensor_bitvec(op.mem(), &dst, &lhs, &rhs, alu);
    op.emu(r)
}

/// `nisa.tensor_scalar_arith` (`nki.isa.tensor_scalar`): stage 0 is `op0` with `operand0` or
/// `imm0` (neither for a unary operator), stage 1 the same with the `1` names when `op1` is
/// given.
pub fn tensor_scalar_arith(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (t0, t1) = (op.opt_tile("operand0")?, op.opt_tile("operand1")?);
    let stage0 = Stage {
        op: alu(op, "op0")?,
        operand: scalar(op, "imm0", t0.as_ref(), "operand0")?,
        reverse: op.flag("reverse0")?,
    };
    let stage1 = match opt_alu(op, "op1")? {
        Some(op1) => Some(Stage {
            op: op1,
            operand: scalar(op, "imm1", t1.as_ref(), "operand1")?,
            reverse: op.flag("reverse1")?,
        }),
        None if t1.is_some() || op.opt_float("imm1")?.is_some() => {
            return Err(op.error("operand 'operand1' / attribute 'imm1' need attribute 'op1'"));
        }
        None => None,
    };
    let engine = compute_engine(op)?;
    let row = RowOp::TensorScalar {
        dst: dst.clone(),
        data: data.clone(),
        stage0: OwnedStage::from(&stage0),
        stage1: stage1.as_ref().map(OwnedStage::from),
        engine,
    };
    op.row_op(row)
}

/// `nisa.tensor_scalar_bitvec`: integer immediates on raw bits.
pub fn tensor_scalar_bitvec(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let stage0 = BitStage {
        op: alu(op, "op0")?,
        imm: op.int("imm0")?,
        reverse: op.flag("reverse0")?,
    };
    let stage1 = match (opt_alu(op, "op1")?, op.opt_int("imm1")?) {
        (Some(op1), Some(imm)) => Some(BitStage {
            op: op1,
            imm,
            reverse: op.flag("reverse1")?,
        }),
        (None, None) => None,
        _ => return Err(op.error("attributes 'op1' and 'imm1' go together")),
    };
    let r = sundial_emu::tensor_scalar_bitvec(op.mem(), &dst, &data, &stage0, stage1.as_ref());
    op.emu(r)
}

/// `nisa.tensor_scalar_addr`: 64-bit address arithmetic.
pub fn tensor_scalar_addr(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (alu, imm) = (alu(op, "op0")?, op.int("imm0")?);
    let r = sundial_emu::tensor_scalar_addr(op.mem(), &dst, &data, alu, imm);
    op.emu(r)
}

/// `nisa.tensor_scalar_cache_reduce` (`nki.isa.tensor_scalar_reduce`), on the Vector
/// accumulators.
pub fn tensor_scalar_cache_reduce(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (t0, res) = (op.opt_tile("operand0")?, op.opt_tile("reduce_res")?);
    let stage0 = Stage {
        op: alu(op, "op0")?,
        operand: scalar(op, "imm0", t0.as_ref(), "operand0")?,
        reverse: op.flag("reverse0")?,
    };
    let reduce = FreeReduce {
        reduce_op: alu(op, "reduce_op")?,
        reduce_cmd: reduce_cmd(op)?,
        reduce_init: op.opt_float("reduce_init")?,
        reduce_res: res.as_ref(),
        reduce_res_negate: op.flag("reduce_res_negate")?,
    };
    let (mem, core) = op.mem_core();
    let r =
        sundial_emu::tensor_scalar_cache_reduce(mem, &mut core.acc, &dst, &data, &stage0, &reduce);
    op.emu(r)
}

/// `nisa.tensor_scalar_cache_cumulative` (`nki.isa.tensor_scalar_cumulative`), on the Vector
/// accumulators.
pub fn tensor_scalar_cache_cumulative(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let args = Cumulative {
        op0: alu(op, "op0")?,
        imm0: op.float("imm0")?,
        op1: alu(op, "op1")?,
        imm1: op.opt_float("imm1")?,
        reduce_cmd: reduce_cmd(op)?,
    };
    let (mem, core) = op.mem_core();
    let r = sundial_emu::tensor_scalar_cache_cumulative(mem, &mut core.acc, &dst, &src, &args);
    op.emu(r)
}

/// `nisa.tensor_tensor_scan`.
pub fn tensor_tensor_scan(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, d0, d1) = (op.tile("dst")?, op.tile("data0")?, op.tile("data1")?);
    let initial = op.opt_tile("initial")?;
    let init = required_scalar(op, "initial_value", initial.as_ref(), "initial")?;
    let ops = ScanOps {
        op0: alu(op, "op0")?,
        op1: alu(op, "op1")?,
        reverse0: op.flag("reverse0")?,
        reverse1: op.flag("reverse1")?,
    };
    let r = sundial_emu::tensor_tensor_scan(op.mem(), &dst, &d0, &d1, &init, &ops);
    op.emu(r)
}

/// `nisa.scalar_tensor_tensor_arith` (`nki.isa.scalar_tensor_tensor`).
pub fn scalar_tensor_tensor_arith(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, operand1) = (op.tile("dst")?, op.tile("data")?, op.tile("operand1")?);
    let t0 = op.opt_tile("operand0")?;
    let stage0 = Stage {
        op: alu(op, "op0")?,
        operand: scalar(op, "imm0", t0.as_ref(), "operand0")?,
        reverse: op.flag("reverse0")?,
    };
    let stage1 = TensorStage {
        op: alu(op, "op1")?,
        operand: &operand1,
        reverse: op.flag("reverse1")?,
    };
    let r = sundial_emu::scalar_tensor_tensor_arith(op.mem(), &dst, &data, &stage0, &stage1);
    op.emu(r)
}

/// `nisa.select_reduce`, on the Vector accumulators.
pub fn select_reduce(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, pred, on_true) = (op.tile("dst")?, op.tile("predicate")?, op.tile("on_true")?);
    let (on_false, res) = (op.opt_tile("on_false")?, op.opt_tile("reduce_res")?);
    let on_false = required_scalar(op, "on_false_value", on_false.as_ref(), "on_false")?;
    let reduce = MaxReduce {
        reduce_op: alu(op, "reduce_op")?,
        reduce_cmd: reduce_cmd(op)?,
        reduce_res: res.as_ref(),
    };
    let reverse = op.flag("reverse_pred")?;
    let (mem, core) = op.mem_core();
    let r = sundial_emu::select_reduce(
        mem,
        &mut core.acc,
        &dst,
        &pred,
        &on_true,
        &on_false,
        reverse,
        &reduce,
    );
    op.emu(r)
}

/// `nisa.copy_predicated` (`nki.isa.tensor_copy_predicated`).
pub fn copy_predicated(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, pred) = (op.tile("dst")?, op.tile("src")?, op.tile("predicate")?);
    let reverse = op.flag("reverse_pred")?;
    let r = sundial_emu::copy_predicated(op.mem(), &dst, &src, &pred, reverse);
    op.emu(r)
}

/// `nisa.memset`: the value as written (an integer or a float literal).
pub fn memset(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.tile("dst")?;
    let (value, engine) = (op.number("value")?, compute_engine(op)?);
    let r = sundial_emu::memset(op.mem(), &dst, value, engine);
    op.emu(r)
}

/// `nisa.tensor_copy`.
pub fn tensor_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, engine) = (op.tile("dst")?, op.tile("src")?, compute_engine(op)?);
    let r = sundial_emu::tensor_copy(op.mem(), &dst, &src, engine);
    op.emu(r)
}

/// `nisa.reciprocal`.
pub fn reciprocal(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let r = sundial_emu::reciprocal(op.mem(), &dst, &data);
    op.emu(r)
}

/// `nisa.tensor_reduce_arith` (`nki.isa.tensor_reduce`).
pub fn tensor_reduce_arith(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (alu, axis) = (alu(op, "op")?, uints(op, "axis")?);
    let (negate, keepdims) = (op.flag("negate")?, op.flag("keepdims")?);
    let r = sundial_emu::tensor_reduce_arith(op.mem(), &dst, &data, alu, &axis, negate, keepdims);
    op.emu(r)
}

/// `nisa.tensor_reduce_bitvec`.
pub fn tensor_reduce_bitvec(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (alu, axis, keepdims) = (alu(op, "op")?, uints(op, "axis")?, op.flag("keepdims")?);
    let r = sundial_emu::tensor_reduce_bitvec(op.mem(), &dst, &data, alu, &axis, keepdims);
    op.emu(r)
}

/// `nisa.max8`.
pub fn max8(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let r = sundial_emu::max8(op.mem(), &dst, &src);
    op.emu(r)
}

/// `nisa.find_index8` (`nki.isa.nc_find_index8`).
pub fn find_index8(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, vals) = (op.tile("dst")?, op.tile("data")?, op.tile("vals")?);
    let r = sundial_emu::find_index8(op.mem(), &dst, &data, &vals);
    op.emu(r)
}

/// `nisa.max_index_and_match_replace` (`nki.isa.nc_match_replace8`).
pub fn match_replace8(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, vals) = (op.tile("dst")?, op.tile("data")?, op.tile("vals")?);
    let idx = op.opt_tile("dst_idx")?;
    let imm = op.float("imm_value")?;
    let r = sundial_emu::match_replace8(op.mem(), &dst, &data, &vals, imm, idx.as_ref());
    op.emu(r)
}

/// `nisa.range_select`, on the Vector accumulators. `range_start` is NKI's integer; an
/// integral float literal (the dialect accepts both) means the same integer.
pub fn range_select(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, on_true) = (op.tile("dst")?, op.tile("on_true")?);
    let (b0, b1) = (op.tile("bound0")?, op.tile("bound1")?);
    let res = op.opt_tile("reduce_res")?;
    let range_start = match op.number("range_start")? {
        Number::Int(i) => i,
        Number::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => f as i64,
        Number::Float(f) => {
            return Err(op.error(format!("attribute 'range_start': {f} is not an integer")));
        }
    };
    let args = RangeSelect {
        comp_op0: alu(op, "comp_op0")?,
        comp_op1: alu(op, "comp_op1")?,
        range_start,
        on_false_value: op.float("on_false_value")?,
        reduce: MaxReduce {
            reduce_op: alu(op, "reduce_op")?,
            reduce_cmd: reduce_cmd(op)?,
            reduce_res: res.as_ref(),
        },
    };
    let (mem, core) = op.mem_core();
    let r = sundial_emu::range_select(mem, &mut core.acc, &dst, &on_true, &b0, &b1, &args);
    op.emu(r)
}

/// `nisa.bn_stats`.
pub fn bn_stats(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let r = sundial_emu::bn_stats(op.mem(), &dst, &data);
    op.emu(r)
}

/// `nisa.bn_aggr`.
pub fn bn_aggr(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let r = sundial_emu::bn_aggr(op.mem(), &dst, &data);
    op.emu(r)
}

/// `nisa.stream_transpose` (`nki.isa.nc_transpose` on Vector).
pub fn stream_transpose(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let r = sundial_emu::stream_transpose(op.mem(), &dst, &src);
    op.emu(r)
}

/// `nisa.nc_transpose` (`nki.isa.nc_transpose`) on the engine it names. With `engine =
/// unknown`, a tile of at most 32 x 32 is transposed on the Vector engine (a bit copy on every
/// target) and a larger one on the Tensor engine, the only engine that can: the verifier's
/// reading of the same docstring (`nki_parity::nc_transpose`).
pub fn nc_transpose(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let engine = match compute_engine(op)? {
        Some(e) => e,
        None => {
            let parts = data.shape().first().copied().unwrap_or(0);
            let free: usize = data.shape().iter().skip(1).product();
            let max = VECTOR_TRANSPOSE_MAX as usize;
            if parts <= max && free <= max {
                sundial_emu::Engine::Vector
            } else {
                sundial_emu::Engine::Tensor
            }
        }
    };
    let r = sundial_emu::nc_transpose(op.mem(), &dst, &data, engine);
    op.emu(r)
}

/// `nisa.stream_shuffle` (`nki.isa.nc_stream_shuffle`): the quadrant partition shuffle.
pub fn stream_shuffle(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let mask = op.ints("shuffle_mask")?;
    let r = sundial_emu::stream_shuffle(op.mem(), &dst, &src, &mask);
    op.emu(r)
}

/// `nisa.exponential`, on the Vector accumulators.
pub fn exponential(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, res) = (op.tile("dst")?, op.tile("src")?, op.opt_tile("reduce_res")?);
    let args = Exponential {
        max_value: Scalar::Imm(op.float("max_value")?),
        reduce_cmd: reduce_cmd(op)?,
        reduce_init: op.float("reduce_init")?,
        reduce_res: res.as_ref(),
    };
    let (mem, core) = op.mem_core();
    let r = sundial_emu::exponential(mem, &mut core.acc, &dst, &src, &args);
    op.emu(r)
}

/// `nisa.activation`, on the Scalar engine's accumulators (`reduce_regs`).
pub fn activation(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data) = (op.tile("dst")?, op.tile("data")?);
    let (bias, scale) = (op.opt_tile("bias")?, op.opt_tile("scale")?);
    let res = op.opt_tile("reduce_res")?;
    if op.opt_float("alpha")?.is_some() {
        return Err(op.error(
            "attribute 'alpha' has no emulator semantics: it parameterises lrelu / prelu, which have no public semantics",
        ));
    }
    let name = op.word("op")?;
    let func = sundial_codegen::enums::ActivationFunc::from_name(&name).ok_or_else(|| {
        op.error(format!(
            "attribute 'op': '{name}' is not an activation function"
        ))
    })?;
    // `scale_value` has a default (1.0), so the tile wins whenever it is given; the verifier
    // refuses both written at once.
    let scale = match &scale {
        Some(t) => Scalar::Tile(t),
        None => Scalar::Imm(op.float("scale_value")?),
    };
    let row = RowOp::Activation {
        dst,
        data,
        func,
        scale: OwnedScalar::from(&scale),
        bias: bias.map(OwnedScalar::Tile),
        reduce_op: opt_alu(op, "reduce_op")?,
        reduce_cmd: reduce_cmd(op)?,
        reduce_res: res,
    };
    op.row_op(row)
}

/// `nisa.matmul` (`nki.isa.nc_matmul`) into PSUM.
pub fn matmul(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, st, mv) = (op.tile("dst")?, op.tile("stationary")?, op.tile("moving")?);
    let perf_mode = match op.word("perf_mode")?.as_str() {
        "none" => PerfOptMode::None,
        "double_row" => PerfOptMode::DoubleRow,
        other => {
            return Err(op.error(format!(
                "attribute 'perf_mode': \"{other}\" has no emulator semantics (none, double_row)"
            )));
        }
    };
    let opts = MatmulOptions {
        is_stationary_onezero: op.flag("is_stationary_onezero")?,
        is_moving_onezero: op.flag("is_moving_onezero")?,
        is_transpose: op.flag("is_transpose")?,
        accumulate: op.opt_flag("accumulate")?,
        tile_position: opt_pair(op, "tile_position")?,
        tile_size: opt_pair(op, "tile_size")?,
        perf_mode,
    };
    let r = sundial_emu::nc_matmul(op.mem(), &dst, &st, &mv, &opts);
    op.emu(r)
}

/// `nisa.matmul_mx` (`nki.isa.nc_matmul_mx`) into PSUM.
pub fn matmul_mx(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, st, mv) = (op.tile("dst")?, op.tile("stationary")?, op.tile("moving")?);
    let (ss, ms) = (op.tile("stationary_scale")?, op.tile("moving_scale")?);
    let opts = MatmulMxOptions {
        tile_position: opt_pair(op, "tile_position")?,
        tile_size: opt_pair(op, "tile_size")?,
        accumulate: op.opt_flag("accumulate")?,
    };
    let r = sundial_emu::nc_matmul_mx(op.mem(), &dst, &st, &mv, &ss, &ms, &opts);
    op.emu(r)
}
