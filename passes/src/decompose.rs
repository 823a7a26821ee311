//! `sundial-decompose`: the forward-builder decompositions (spec/forward-builders.txt §5,
//! pass-rules §3; step 2 of `sundial-middle-end`). After it no composite form reaches
//! instruction selection: there is no hardware power or mod tensor-scalar op.
//!
//! - `tensor_scalar_arith` with op0 = pow and no op1 (`tensorscalar(op0=np.power)` ->
//!   `power_tensorscalar`): `memset` an fp32 SBUF tile to the exponent (an immediate; a `[P, 1]`
//!   exponent tile is broadcast into it by a Vector `tensor_scalar_arith` add), then
//!   `tensor_tensor_power(x, e)` on GpSimd (`(e, x)` under `reverse0`). GpSimd cannot reach
//!   PSUM: a PSUM input is first copied to SBUF, a PSUM destination is written through an
//!   SBUF tile and a copy [ours: the sequence].
//! - `tensor_tensor_arith` with op = pow: `tensor_tensor_power` (power runs on GpSimd [docs]),
//!   with the same PSUM copies [ours].
//! - `tensor_scalar_arith` with a mod step (`mod_from_remainder`: a - floor(a/b)*b, the floored
//!   modulo): (1) `r = tensor_scalar_arith(a, mod, b)`, marked `sundial.expanded`; (2)
//!   `m = tensor_scalar_arith(r, mult, s, is_lt, 0)` with `s = sign(b)` (an immediate +-1, or a
//!   `[P, 1]` tile `2 * (b >= 0) - 1` computed once; multiplying by +-1 is exact, where `r * b`
//!   can underflow to -0); (3) `out = scalar_tensor_tensor_arith(m, mult, b, add, r)`. This is
//!   right whether the hardware mod truncates (then `m` adds one `b` where `r` and `b` differ
//!   in sign) or floors (then `m` is zero). A two-op form with a mod step is split at it;
//!   intermediates are fp32 SBUF tiles (the engines compute in fp32, so nothing is rounded
//!   twice) [ours: the sequence].
//!
//! - `nc_transpose` on the Tensor engine (NKI: `nc_matmul` with `is_transpose` against an
//!   identity): the `[K, K]` identity in data's dtype in SBUF, built as `nisa.iota` of
//!   `partition - free index` into an int32 tile (GpSimd) and a Vector `tensor_scalar_arith`
//!   `is_equal 0` of it (1.0 on the diagonal, 0.0 elsewhere), then
//!   `matmul(dst, stationary = data, moving = identity, is_transpose)`, so `dst[M, K] =
//!   data[K, M]^T`. Only where the PE transpose mode is a bit copy (NeuronCore v3 and newer)
//!   and the dtypes are ones `matmul` takes; on sunda (v2 is not bit-accurate for NaN/Inf), on a
//!   module with no target, for another dtype, a data tile with more than one free axis or
//!   beyond 128 x 128 (a logical tile, for partition tiling to refuse), the op is kept as it
//!   is and selection refuses it with its reason [ours: the sequence].
//!
//! Refusals, with the seed's assert where it has one: pow in a two-op `tensor_scalar_arith` or
//! in `scalar_tensor_tensor_arith` ("tensorvectorscalar doesn't support power, use
//! tensor_tensor instead."); pow in the fused scan and reduce forms, which have no power step;
//! a reversed mod (`b mod a`: the divisor is the tensor, so its sign is per element).
//!
//! Not here: the seed's `select` split (the dialect has no generic select: a front end writes
//! `tensor_scalar_affine_select` or `select_reduce` / `copy_predicated` directly) and the
//! activation-accumulate split. That split, settled from the seed (forward-builders §3):
//! `activation` with `reduce_cmd != Idle` delegates to `activation_accu`, whose
//! ActivationAccumulationOp accumulates *into `reduce_res`* under `reduce_cmd`; the plain
//! ActivationOp carries the same operands. The dialect's one `activation` row is both nodes,
//! told apart by `reduce_cmd`, and the verifier's rule that an accumulating activation has
//! `reduce_res` is the seed's accumulate form. pass-rules §3's rewrite into a `reduce_res`-less
//! accumulate node plus an `activation_read_accumulator` read-out has only the wiki as source
//! for the read-out and would produce exactly the form the seed-backed rule refuses, so it is
//! not done: the 0x21 + 0x24 read-out sequence is a selection matter (`sundial-isel` refuses
//! an activation with `reduce_res` until the ISA table pins it). The one- and two-op
//! tensor_scalar pointer forms and the memset engine rule are already single table rows.
//! Options: none.

use crate::{
    emit::{Emit, Scalar, Step, TensorStep, tile},
    registry::{PassInfo, PassOptions},
    rewrite::{Rewriter, collect_views, refuse, set_attr},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{
        Value,
        operation::{OperationLike, OperationRef},
    },
    pass::ExternalPass,
};
use sundial_dialects::{
    build::{Attrs, BuildError},
    dtype::Dtype,
    enums::{Engine, Space, Target},
    spec::OperandKind,
    tile::Tile,
    verify::{phase::EXPANDED_ATTR, target_of},
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-decompose",
    summary: "Decompose power and mod into the instructions that exist",
    description: "nc_transpose on Tensor (cayman+) -> iota + is_equal identity + matmul is_transpose; tensor_scalar pow -> memset + tensor_tensor_power (GpSimd); tensor_tensor pow -> tensor_tensor_power; tensor_scalar mod -> the floored a - floor(a/b)*b in three ops (mod marked sundial.expanded, sign test, scalar_tensor_tensor). Refuses pow in two-op and fused forms and a reversed mod.",
    options: &[VERIFY_AFTER],
    create: crate::step::create::<Decompose>,
};

/// The seed's assert for pow in a two-op form (forward-builders.txt §5).
const POW_TWO_OP: &str = "tensorvectorscalar doesn't support power, use tensor_tensor instead.";

#[derive(Clone, Debug)]
pub(crate) struct Decompose {}

/// What to do with one op.
enum Plan {
    /// tensor_scalar_arith pow, one step.
    PowScalar,
    /// tensor_tensor_arith pow.
    PowTensor,
    /// tensor_scalar_arith with a mod step.
    Mod,
    /// nc_transpose on the Tensor engine: identity + matmul with is_transpose.
    PeTranspose,
}

fn step_of<'c, 'a>(v: &View<'c, 'a>, index: usize) -> Option<(String, Scalar<'c, 'a>, bool)> {
    let (op, imm, operand, reverse) = if index == 0 {
        ("op0", "imm0", "operand0", "reverse0")
    } else {
        ("op1", "imm1", "operand1", "reverse1")
    };
    let name = v.str_attr(op)?;
    let scalar = match v.attr(imm).and_then(|_| v.float_attr(imm)) {
        Some(x) => Scalar::Imm(x as f32),
        None => Scalar::Tile(v.value(operand)?),
    };
    Some((name, scalar, v.bool_attr(reverse)))
}

/// The plan for `v`, or the refusal.
fn plan(v: &View<'_, '_>) -> Result<Option<Plan>, String> {
    let is = |key: &str, op: &str| v.str_attr(key).as_deref() == Some(op);
    match v.mnemonic() {
        "tensor_scalar_arith" => {
            if v.has_attr(EXPANDED_ATTR) {
                return Ok(None);
            }
            let two = v.has_attr("op1");
            if (is("op0", "pow") && two) || is("op1", "pow") {
                return Err(format!(
                    "attribute '{}': \"pow\" in a two-op tensor_scalar: {POW_TWO_OP} (rule: pow in a two-op form)",
                    if is("op1", "pow") { "op1" } else { "op0" }
                ));
            }
            if is("op0", "pow") {
                return Ok(Some(Plan::PowScalar));
            }
            for (key, reverse) in [("op0", "reverse0"), ("op1", "reverse1")] {
                if is(key, "mod") && v.bool_attr(reverse) {
                    return Err(format!(
                        "attribute '{key}': a reversed mod (scalar mod tensor) has no decomposed form: the divisor is the tensor, so its sign varies per element (rule: reversed mod)"
                    ));
                }
            }
            Ok((is("op0", "mod") || is("op1", "mod")).then_some(Plan::Mod))
        }
        "tensor_tensor_arith" if is("op", "pow") => Ok(Some(Plan::PowTensor)),
        "nc_transpose" => Ok(pe_transpose_applies(v).then_some(Plan::PeTranspose)),
        "scalar_tensor_tensor_arith" if is("op0", "pow") || is("op1", "pow") => Err(format!(
            "attribute '{}': \"pow\" in scalar_tensor_tensor: {POW_TWO_OP} (rule: pow in a two-op form)",
            if is("op0", "pow") { "op0" } else { "op1" }
        )),
        "tensor_scalar_cache_reduce" | "tensor_scalar_cache_cumulative" | "tensor_tensor_scan"
            if is("op0", "pow") || is("op1", "pow") =>
        {
            Err(format!(
                "attribute '{}': \"pow\" has no instruction, and this fused form has no power step to decompose it into; compute the power with tensor_tensor_power first (rule: pow in a fused form)",
                if is("op0", "pow") { "op0" } else { "op1" }
            ))
        }
        _ => Ok(None),
    }
}

/// The PE array's rows and columns: the Tensor-engine transpose's largest data.
const PE_SIZE: i64 = 128;

/// Whether the Tensor-engine `nc_transpose` `v` becomes a matmul with `is_transpose` (module
/// docs): the PE transpose mode is a bit copy from cayman (NeuronCore v3) on, and the matmul
/// row takes data's dtype for its stationary and moving operands and its destination.
fn pe_transpose_applies(v: &View<'_, '_>) -> bool {
    if v.engine() != Engine::Tensor {
        return false;
    }
    if target_of(&v.op()).is_none_or(|t| t < Target::Cayman) {
        return false;
    }
    let (Some(data), Some(dst)) = (v.tile("data"), v.tile("dst")) else {
        return false;
    };
    let takes = |operand: &str, dtype: Dtype| {
        sundial_dialects::nisa::op("matmul")
            .and_then(|spec| spec.operands.iter().find(|o| o.name == operand))
            .is_some_and(|o| match o.kind {
                OperandKind::Tile { dtypes, .. } => dtypes.contains(dtype),
                _ => false,
            })
    };
    // Beyond the 128 x 128 PE array the op stays, for partition tiling to refuse with its
    // reason (a transpose has no combine step); a matmul there would be cut over K.
    data.shape.len() == 2
        && data.shape.iter().all(|&n| (1..=PE_SIZE).contains(&n))
        && data.space == Space::Sbuf
        && dst.space == Space::Psum
        && dst.dtype == data.dtype
        && takes("stationary", data.dtype)
        && takes("moving", data.dtype)
        && takes("dst", dst.dtype)
}

/// `dst = data^T` through the PE array: an identity `[K, K]` (iota of `p - f`, then
/// `is_equal 0`) as the moving operand of a matmul with `is_transpose`.
fn pe_transpose<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    dst: Value<'c, 'a>,
    data: Value<'c, 'a>,
) -> Result<(), BuildError> {
    let d = tile_of(data)?;
    let k = d.shape[0];
    let index = e.alloc(&tile(Space::Sbuf, &[k, k], Dtype::I32))?;
    e.rewriter.build_before(
        e.anchor,
        sundial_dialects::build::OpBuild::at(&e.anchor, "nisa.iota")?
            .operand("dst", index)?
            .i64_array("pattern", &[-1, k])?
            .i64("channel_multiplier", 1)?
            .str("engine", Engine::Gpsimd.as_str())?,
    )?;
    let identity = e.alloc(&tile(Space::Sbuf, &[k, k], d.dtype))?;
    e.tensor_scalar(
        identity,
        index,
        Step::imm("is_equal", 0.0),
        None,
        Engine::Vector,
    )?;
    e.rewriter.build_before(
        e.anchor,
        sundial_dialects::build::OpBuild::at(&e.anchor, "nisa.matmul")?
            .operand("dst", dst)?
            .operand("stationary", data)?
            .operand("moving", identity)?
            .bool("is_transpose", true)?
            .str("engine", Engine::Tensor.as_str())?,
    )?;
    Ok(())
}

/// `value` in SBUF: itself, or a Vector copy of it (GpSimd cannot reach PSUM).
fn in_sbuf<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    value: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, BuildError> {
    let t = tile_of(value)?;
    if t.space == Space::Sbuf {
        return Ok(value);
    }
    let copy = e.alloc(&tile(Space::Sbuf, &t.shape, t.dtype))?;
    e.copy(copy, value, Engine::Vector)?;
    Ok(copy)
}

fn tile_of(value: Value<'_, '_>) -> Result<Tile, BuildError> {
    use melior::ir::ValueLike;
    Tile::from_type(value.r#type()).map_err(BuildError::Mlir)
}

/// `tensor_tensor_power(dst, lhs, rhs)` on GpSimd, through SBUF.
fn power<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    dst: Value<'c, 'a>,
    lhs: Value<'c, 'a>,
    rhs: Value<'c, 'a>,
) -> Result<(), BuildError> {
    let (lhs, rhs) = (in_sbuf(e, lhs)?, in_sbuf(e, rhs)?);
    let d = tile_of(dst)?;
    let out = if d.space == Space::Sbuf {
        dst
    } else {
        e.alloc(&tile(Space::Sbuf, &d.shape, d.dtype))?
    };
    e.tensor_tensor(
        "nisa.tensor_tensor_power",
        out,
        lhs,
        rhs,
        None,
        Engine::Gpsimd,
    )?;
    if out != dst {
        e.copy(dst, out, Engine::Vector)?;
    }
    Ok(())
}

/// The floored modulo `out = a mod b` in three ops (module docs).
fn floored_mod<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    out: Value<'c, 'a>,
    a: Value<'c, 'a>,
    b: Scalar<'c, 'a>,
) -> Result<(), BuildError> {
    let shape = tile_of(a)?.shape;
    let scratch = tile(Space::Sbuf, &shape, Dtype::F32);
    let r = e.alloc(&scratch)?;
    let step = |op, scalar| Step {
        op,
        scalar,
        reverse: false,
    };
    let hw = e.tensor_scalar(r, a, step("mod", b), None, Engine::Vector)?;
    set_attr(&hw, EXPANDED_ATTR, Attrs::new(hw.context()).unit());
    let sign = match b {
        Scalar::Imm(v) => Scalar::Imm(if v < 0.0 { -1.0 } else { 1.0 }),
        Scalar::Tile(bt) => {
            let t = tile_of(bt)?;
            let s = e.alloc(&tile(Space::Sbuf, &t.shape, Dtype::F32))?;
            e.tensor_scalar(
                s,
                bt,
                Step::imm("is_ge", 0.0),
                Some(Step::imm("mult", 2.0)),
                Engine::Vector,
            )?;
            e.tensor_scalar(s, s, Step::imm("subtract", 1.0), None, Engine::Vector)?;
            Scalar::Tile(s)
        }
    };
    let m = e.alloc(&scratch)?;
    e.tensor_scalar(
        m,
        r,
        step("mult", sign),
        Some(Step::imm("is_lt", 0.0)),
        Engine::Vector,
    )?;
    let add_r = TensorStep {
        op: "add",
        tensor: r,
        reverse: false,
    };
    e.scalar_tensor_tensor(out, m, step("mult", b), add_r, Engine::Vector)?;
    Ok(())
}

fn apply<'c, 'a>(rewriter: &Rewriter<'c>, v: &View<'c, 'a>, plan: &Plan) -> Result<(), BuildError> {
    let e = Emit {
        rewriter,
        anchor: v.op(),
    };
    let missing = || BuildError::Mlir("operand missing".into());
    let dst = v.value("dst").ok_or_else(missing)?;
    match plan {
        Plan::PeTranspose => {
            let data = v.value("data").ok_or_else(missing)?;
            pe_transpose(&e, dst, data)?;
        }
        Plan::PowScalar => {
            let data = v.value("data").ok_or_else(missing)?;
            let (_, scalar, reverse) = step_of(v, 0).ok_or_else(missing)?;
            let d = tile_of(data)?;
            let exponent = e.alloc(&tile(Space::Sbuf, &d.shape, Dtype::F32))?;
            match scalar {
                Scalar::Imm(x) => {
                    e.memset(exponent, x, Engine::Vector)?;
                }
                Scalar::Tile(col) => {
                    e.memset(exponent, 0.0, Engine::Vector)?;
                    e.tensor_scalar(
                        exponent,
                        exponent,
                        Step {
                            op: "add",
                            scalar: Scalar::Tile(col),
                            reverse: false,
                        },
                        None,
                        Engine::Vector,
                    )?;
                }
            }
            let (lhs, rhs) = if reverse {
                (exponent, data)
            } else {
                (data, exponent)
            };
            power(&e, dst, lhs, rhs)?;
        }
        Plan::PowTensor => {
            let lhs = v.value("lhs").ok_or_else(missing)?;
            let rhs = v.value("rhs").ok_or_else(missing)?;
            power(&e, dst, lhs, rhs)?;
        }
        Plan::Mod => {
            let data = v.value("data").ok_or_else(missing)?;
            let engine = match v.engine() {
                Engine::Unknown => Engine::Vector,
                other => other,
            };
            let steps: Vec<_> = (0..2).filter_map(|i| step_of(v, i)).collect();
            let shape = tile_of(data)?.shape;
            let mut current = data;
            for (i, (op, scalar, reverse)) in steps.iter().enumerate() {
                let target = if i + 1 == steps.len() {
                    dst
                } else {
                    e.alloc(&tile(Space::Sbuf, &shape, Dtype::F32))?
                };
                if op == "mod" {
                    floored_mod(&e, target, current, *scalar)?;
                } else {
                    let name: &'static str = sundial_dialects::nisa::ARITH_OPS
                        .iter()
                        .find(|n| **n == op.as_str())
                        .ok_or_else(|| BuildError::Mlir(format!("unknown op {op}")))?;
                    e.tensor_scalar(
                        target,
                        current,
                        Step {
                            op: name,
                            scalar: *scalar,
                            reverse: *reverse,
                        },
                        None,
                        engine,
                    )?;
                }
                current = target;
            }
        }
    }
    rewriter.erase(v.op());
    Ok(())
}

impl crate::step::Step for Decompose {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialDecompose";
    const ID: &'static PassId = &PASS_ID;

    fn new(_options: &PassOptions) -> Self {
        Decompose {}
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let views: Vec<View> = collect_views(&operation, |spec| {
                matches!(
                    spec.name,
                    "tensor_scalar_arith"
                        | "tensor_tensor_arith"
                        | "scalar_tensor_tensor_arith"
                        | "tensor_scalar_cache_reduce"
                        | "tensor_scalar_cache_cumulative"
                        | "tensor_tensor_scan"
                        | "nc_transpose"
                )
            });
            let mut plans = Vec::new();
            let mut failed = false;
            for v in views {
                match plan(&v) {
                    Ok(Some(p)) => plans.push((v, p)),
                    Ok(None) => {}
                    Err(message) => {
                        refuse(&v.op(), message);
                        failed = true;
                    }
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            let rewriter = Rewriter::new(&operation);
            for (v, p) in &plans {
                if let Err(e) = apply(&rewriter, v, p) {
                    refuse(&v.op(), format!("could not be decomposed: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            true
        })
    }
}
