//! `tensor_scalar_cache_reduce`: a one-operator tensor_scalar fused with a free-axis
//! reduction into the Vector Engine's accumulators (`nki.isa.tensor_scalar_reduce`).
//!
//! Semantics restated from `nki.isa.tensor_scalar_reduce`:
//!
//! - `dst = data <op0> operand0` as `tensor_scalar` with one arithmetic operator
//!   (operand a scalar or an fp32 `[P, 1]` tile); `reverse0` is "not supported yet" and
//!   refused.
//! - `reduce_res = reduce_op(dst, axis = <all free axes>)` with `reduce_op` one of add,
//!   mult, max, min, accumulated in the Vector accumulators under `reduce_cmd`:
//!   `reset_reduce` (default) starts from the operator's identity (0, 1, -inf, +inf),
//!   `reduce` continues from the current lane values, `load_reduce` starts from
//!   `reduce_init` ("should only be set when reduce_cmd is load_reduce").
//! - The reduction folds the fp32 results in order (before the cast to `dst.dtype`: our
//!   reading of "reduce_op(dst)", the engine reducing its fp32 datapath values).
//! - `reduce_res`, when given, receives the lane values cast to its dtype, negated with
//!   `reduce_res_negate`; the accumulators keep the un-negated values.

use super::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use super::alu::{AluOp, alu_row};
use super::tensor_scalar::{Stage, resolve};
use super::tile::{self, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

/// The reduction half of `tensor_scalar_cache_reduce`.
#[derive(Debug, Clone, Copy)]
pub struct FreeReduce<'a> {
    /// add, mult, max or min.
    pub reduce_op: AluOp,
    /// How the accumulators start (reset_reduce, reduce or load_reduce).
    pub reduce_cmd: ReduceCmd,
    /// The `load_reduce` start value.
    pub reduce_init: Option<f32>,
    /// The `[P, 1]` tile that receives the accumulators.
    pub reduce_res: Option<&'a View>,
    /// Negate what `reduce_res` receives.
    pub reduce_res_negate: bool,
}

/// `tensor_scalar_cache_reduce`: see the module doc.
pub fn tensor_scalar_cache_reduce(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    data: &View,
    stage0: &Stage<'_>,
    reduce: &FreeReduce<'_>,
) -> Result<()> {
    const OP: &str = "tensor_scalar_cache_reduce";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    if stage0.reverse {
        return Err(EmuError::unsupported(
            OP,
            "reverse0 (nki.isa.tensor_scalar_reduce: \"not supported yet\")",
        ));
    }
    if !matches!(
        reduce.reduce_op,
        AluOp::Add | AluOp::Mult | AluOp::Max | AluOp::Min
    ) {
        return Err(EmuError::invalid(
            OP,
            format!(
                "reduce_op {} is not one of add, mult, max, min",
                reduce.reduce_op.name()
            ),
        ));
    }
    accumulator::cmd_in(
        OP,
        reduce.reduce_cmd,
        &[
            ReduceCmd::ResetReduce,
            ReduceCmd::Reduce,
            ReduceCmd::LoadReduce,
        ],
    )?;
    if reduce.reduce_init.is_some() && reduce.reduce_cmd != ReduceCmd::LoadReduce {
        return Err(EmuError::invalid(
            OP,
            "reduce_init is only set with reduce_cmd = load_reduce",
        ));
    }
    if let Some(r) = reduce.reduce_res {
        tile::lane_tile(mem, OP, "reduce_res", r, s.parts)?;
    }
    let r0 = resolve(mem, OP, "operand0", stage0, s.parts, true)?;
    let red = alu_row(reduce.reduce_op);
    let identity = red.identity.unwrap_or(0.0);
    let load = reduce.reduce_init.map(|v| vec![v; s.parts]);
    let begin = accumulator::start(
        acc,
        OP,
        AccEngine::Vector,
        reduce.reduce_cmd,
        s.parts,
        identity,
        load.as_deref(),
    )?;
    let x = tile::read_f32(mem, OP, "data", data)?;
    let out: Vec<f32> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| r0.apply(v, i / s.free.max(1)))
        .collect();
    // `cmd_in` above leaves only accumulating commands.
    let Start::Accumulate(mut lanes) = begin else {
        return Err(EmuError::invalid(OP, "no accumulation to perform"));
    };
    for (p, lane) in lanes.iter_mut().enumerate() {
        for &v in &out[p * s.free..(p + 1) * s.free] {
            *lane = red.apply_f32(*lane, v);
        }
    }
    let bits = tile::encode_f32(OP, "dst", dst.dtype(), &out)?;
    tile::check_writable(mem, OP, dst)?;
    tile::write_bits(mem, dst, &bits)?;
    if let Some(r) = reduce.reduce_res {
        accumulator::write_lanes(mem, OP, "reduce_res", r, &lanes, reduce.reduce_res_negate)?;
    }
    let state: Vec<Option<f32>> = lanes.into_iter().map(Some).collect();
    acc.commit(AccEngine::Vector, &state);
    Ok(())
}
