//! The Vector Engine's element-wise math: `reciprocal` (`nki.isa.reciprocal`) and
//! `exponential` (`nki.isa.exponential`).
//!
//! `reciprocal`, restated: `dst = 1.0 / data`, data cast to fp32, computed in fp32 (the
//! IEEE quotient: the Vector Engine's reciprocal is the high-precision one, unlike the
//! Scalar Engine's `activation(reciprocal)` with its limited valid range), the result cast
//! to `dst.dtype`; SBUF or PSUM.
//!
//! `exponential`, restated (NeuronCore-v4 only):
//!
//! - `dst[i] = exp(src[i] - max_value)` in fp32 (the subtraction rounded to fp32, the
//!   exponential computed in f64 and rounded once); `max_value` is an fp32 scalar or an
//!   fp32 `(P, 1)` tile;
//! - optional running sum of the fp32 results in the Vector accumulators under
//!   `reduce_cmd`: `idle` (no accumulation, and "the accumulator state may still be
//!   modified", so the lanes become undefined), `reset_reduce` (start at 0), `reduce`
//!   (continue), `load_reduce` (start at `reduce_init`); `reduce_init` "should be unset
//!   or set to 0.0" otherwise;
//! - dtypes: `dst` float8_e4m3, float8_e5m2, float16, bfloat16, float32, int8, int16,
//!   int32, uint8, uint16; `src` those and uint32; `reduce_res` a float type of those.

use super::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use super::alu::add_f32;
use super::tile::{self, Scalar, Space};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;

/// `reciprocal`: `dst = 1 / data` in fp32.
pub fn reciprocal(mem: &mut Memory, dst: &View, data: &View) -> Result<()> {
    const OP: &str = "reciprocal";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    let out: Vec<f32> = tile::read_f32(mem, OP, "data", data)?
        .into_iter()
        .map(|x| 1.0 / x)
        .collect();
    tile::store_f32(mem, OP, "dst", dst, &out)
}

const EXP_DST: [DType; 10] = [
    DType::Fp8E4m3,
    DType::Fp8E5m2,
    DType::F16,
    DType::Bf16,
    DType::F32,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::U8,
    DType::U16,
];
const EXP_SRC: [DType; 11] = [
    DType::Fp8E4m3,
    DType::Fp8E5m2,
    DType::F16,
    DType::Bf16,
    DType::F32,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::U8,
    DType::U16,
    DType::U32,
];
const EXP_REDUCE_RES: [DType; 5] = [
    DType::Fp8E4m3,
    DType::Fp8E5m2,
    DType::F16,
    DType::Bf16,
    DType::F32,
];

/// The attributes of `exponential`.
#[derive(Debug, Clone, Copy)]
pub struct Exponential<'a> {
    /// Subtracted before the exponential.
    pub max_value: Scalar<'a>,
    /// How the accumulators change.
    pub reduce_cmd: ReduceCmd,
    /// The `load_reduce` start value (0.0 otherwise).
    pub reduce_init: f32,
    /// The `(P, 1)` tile that receives the accumulators.
    pub reduce_res: Option<&'a View>,
}

impl Default for Exponential<'_> {
    fn default() -> Self {
        Exponential {
            max_value: Scalar::Imm(0.0),
            reduce_cmd: ReduceCmd::Idle,
            reduce_init: 0.0,
            reduce_res: None,
        }
    }
}

/// `exponential`: see the module doc.
pub fn exponential(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    src: &View,
    args: &Exponential<'_>,
) -> Result<()> {
    const OP: &str = "exponential";
    tile::require_target(mem, OP, Target::Mariana)?;
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "src", src, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("src", s))?;
    tile::dtype_in(OP, "dst", dst.dtype(), &EXP_DST)?;
    tile::dtype_in(OP, "src", src.dtype(), &EXP_SRC)?;
    accumulator::cmd_in(
        OP,
        args.reduce_cmd,
        &[
            ReduceCmd::Idle,
            ReduceCmd::ResetReduce,
            ReduceCmd::Reduce,
            ReduceCmd::LoadReduce,
        ],
    )?;
    if args.reduce_cmd != ReduceCmd::LoadReduce && args.reduce_init != 0.0 {
        return Err(EmuError::invalid(
            OP,
            "reduce_init must be 0.0 unless reduce_cmd = load_reduce",
        ));
    }
    if let Some(r) = args.reduce_res {
        tile::dtype_in(OP, "reduce_res", r.dtype(), &EXP_REDUCE_RES)?;
        tile::lane_tile(mem, OP, "reduce_res", r, s.parts)?;
    }
    let max = tile::scalar_values(mem, OP, "max_value", &args.max_value, s.parts, true)?;
    let load = vec![args.reduce_init; s.parts];
    let begin = accumulator::start(
        acc,
        OP,
        AccEngine::Vector,
        args.reduce_cmd,
        s.parts,
        0.0,
        Some(&load),
    )?;
    let x = tile::read_f32(mem, OP, "src", src)?;
    let out: Vec<f32> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| f64::from(v - max[i / s.free.max(1)]).exp() as f32)
        .collect();
    // Idle leaves the lanes undefined (None); the others give defined lanes.
    let state: Vec<Option<f32>> = match begin {
        Start::Idle => vec![None; s.parts],
        Start::ResetOnly(v) => v.into_iter().map(Some).collect(),
        Start::Accumulate(mut regs) => {
            for (p, reg) in regs.iter_mut().enumerate() {
                // Each element added to the register in turn.
                for &v in &out[p * s.free..(p + 1) * s.free] {
                    *reg = add_f32(*reg, v);
                }
            }
            regs.into_iter().map(Some).collect()
        }
    };
    let readout = match args.reduce_res {
        None => None,
        Some(r) => Some((r, lanes_defined(OP, &state)?)),
    };
    let bits = tile::encode_f32(OP, "dst", dst.dtype(), &out)?;
    tile::check_writable(mem, OP, dst)?;
    tile::write_bits(mem, dst, &bits)?;
    if let Some((r, v)) = readout {
        accumulator::write_lanes(mem, OP, "reduce_res", r, &v, false)?;
    }
    acc.commit(AccEngine::Vector, &state);
    Ok(())
}

/// The values of lanes that must all be defined (for a `reduce_res` read-out).
pub(crate) fn lanes_defined(who: &'static str, state: &[Option<f32>]) -> Result<Vec<f32>> {
    state
        .iter()
        .enumerate()
        .map(|(lane, v)| {
            v.ok_or(EmuError::UninitialisedAccumulator {
                op: who,
                engine: AccEngine::Vector.name(),
                lane,
            })
        })
        .collect()
}
