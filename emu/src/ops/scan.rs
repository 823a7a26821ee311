//! The scans: `tensor_scalar_cache_cumulative` (`nki.isa.tensor_scalar_cumulative`) and
//! `tensor_tensor_scan` (`nki.isa.tensor_tensor_scan`).
//!
//! Both scan each partition's elements in order (free dimensions flattened, row-major).
//!
//! `tensor_scalar_cumulative`, restated from its pseudocode:
//!
//! - the register starts, per `reduce_cmd`: `reset_reduce` -> 0 for add/subtract, 1 for
//!   mult, -inf for max, +inf for min; `reduce` -> the current Vector accumulator;
//!   `load_reduce` -> `imm1`;
//! - for each element `x`: `reg = op1(op0(x, imm0), reg)`; `dst[i] = reg`;
//! - `op0` is any arithmetic operator, `op1` one of add, subtract, mult, max, min;
//!   `imm0`/`imm1` are fp32; tiles are bf16, fp16, fp32, fp8, uint8, uint16, int8 or int16
//!   ("INT32/UINT32 are not supported ... (ISA limitation)");
//! - the register is one of the Vector Engine's shared accumulators: its final value per
//!   lane stays there.
//!
//! `tensor_tensor_scan`, restated from its pseudocode:
//!
//! - `r[0] = op1(op0(data0[0], initial), data1[0])`, `r[i] = op1(op0(data0[i], r[i-1]),
//!   data1[i])`; `reverse0` makes `data0` the right operand of `op0`, `reverse1` makes
//!   `data1` the left operand of `op1`;
//! - `initial` is an fp32 scalar or a tile with one element per partition; both operators
//!   are arithmetic; `data0` and `data1` cannot both be in PSUM; all math in fp32.
//!
//! In both, the running value stays fp32 inside the engine and only the written elements
//! are cast to `dst.dtype` (our reading: the NumPy pseudocode's result array is only an
//! illustration of the recurrence).

use super::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use super::alu::{AluClass, AluOp, checked_row};
use super::tile::{self, Scalar, Space};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

/// Element types `tensor_scalar_cumulative` accepts.
pub const CUMULATIVE_DTYPES: [DType; 11] = [
    DType::Bf16,
    DType::F16,
    DType::F32,
    DType::Fp8E4m3,
    DType::Fp8E4m3Fn,
    DType::Fp8E5m2,
    DType::Fp8E3m4,
    DType::U8,
    DType::U16,
    DType::I8,
    DType::I16,
];

/// The attributes of `tensor_scalar_cache_cumulative`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cumulative {
    /// The scalar operator applied to each element.
    pub op0: AluOp,
    /// Its fp32 operand.
    pub imm0: f32,
    /// The scan operator (add, subtract, mult, max, min).
    pub op1: AluOp,
    /// The `load_reduce` start value.
    pub imm1: Option<f32>,
    /// How the register starts (reset_reduce, reduce, load_reduce).
    pub reduce_cmd: ReduceCmd,
}

/// `tensor_scalar_cache_cumulative`: see the module doc.
pub fn tensor_scalar_cache_cumulative(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    src: &View,
    args: &Cumulative,
) -> Result<()> {
    const OP: &str = "tensor_scalar_cache_cumulative";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "src", src, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("src", s))?;
    tile::dtype_in(OP, "dst", dst.dtype(), &CUMULATIVE_DTYPES)?;
    tile::dtype_in(OP, "src", src.dtype(), &CUMULATIVE_DTYPES)?;
    let r0 = checked_row(OP, args.op0, AluClass::Arith)?;
    let r1 = checked_row(OP, args.op1, AluClass::Arith)?;
    let reset = match args.op1 {
        AluOp::Add | AluOp::Subtract => 0.0,
        AluOp::Mult => 1.0,
        AluOp::Max => f32::NEG_INFINITY,
        AluOp::Min => f32::INFINITY,
        other => {
            return Err(EmuError::invalid(
                OP,
                format!(
                    "op1 {} is not a cumulative operator (add, subtract, mult, max, min)",
                    other.name()
                ),
            ));
        }
    };
    accumulator::cmd_in(
        OP,
        args.reduce_cmd,
        &[
            ReduceCmd::ResetReduce,
            ReduceCmd::Reduce,
            ReduceCmd::LoadReduce,
        ],
    )?;
    if args.imm1.is_some() && args.reduce_cmd != ReduceCmd::LoadReduce {
        return Err(EmuError::invalid(
            OP,
            "imm1 is the load_reduce start value; it needs reduce_cmd = load_reduce",
        ));
    }
    let load = args.imm1.map(|v| vec![v; s.parts]);
    let begin = accumulator::start(
        acc,
        OP,
        AccEngine::Vector,
        args.reduce_cmd,
        s.parts,
        reset,
        load.as_deref(),
    )?;
    let Start::Accumulate(mut regs) = begin else {
        return Err(EmuError::invalid(OP, "no accumulation to perform"));
    };
    let x = tile::read_f32(mem, OP, "src", src)?;
    let mut out = vec![0f32; x.len()];
    for (p, reg) in regs.iter_mut().enumerate() {
        let row = p * s.free..(p + 1) * s.free;
        for (o, &v) in out[row.clone()].iter_mut().zip(&x[row]) {
            *reg = r1.apply_f32(r0.apply_f32(v, args.imm0), *reg);
            *o = *reg;
        }
    }
    tile::store_f32(mem, OP, "dst", dst, &out)?;
    let state: Vec<Option<f32>> = regs.into_iter().map(Some).collect();
    acc.commit(AccEngine::Vector, &state);
    Ok(())
}

/// The operators of `tensor_tensor_scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanOps {
    /// Combines `data0[i]` with the running value.
    pub op0: AluOp,
    /// Combines that with `data1[i]`.
    pub op1: AluOp,
    /// Make `data0` the right operand of `op0`.
    pub reverse0: bool,
    /// Make `data1` the left operand of `op1`.
    pub reverse1: bool,
}

/// `tensor_tensor_scan`: see the module doc.
pub fn tensor_tensor_scan(
    mem: &mut Memory,
    dst: &View,
    data0: &View,
    data1: &View,
    initial: &Scalar<'_>,
    ops: &ScanOps,
) -> Result<()> {
    const OP: &str = "tensor_tensor_scan";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let a = tile::tile(mem, OP, "data0", data0, Space::OnChip)?;
    let b = tile::tile(mem, OP, "data1", data1, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data0", a))?;
    tile::same_shape(OP, ("data0", a), ("data1", b))?;
    tile::not_both_psum(mem, OP, ("data0", data0), ("data1", data1))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    let r0 = checked_row(OP, ops.op0, AluClass::Arith)?;
    let r1 = checked_row(OP, ops.op1, AluClass::Arith)?;
    let init = tile::scalar_values(mem, OP, "initial", initial, a.parts, false)?;
    let x = tile::read_f32(mem, OP, "data0", data0)?;
    let y = tile::read_f32(mem, OP, "data1", data1)?;
    let mut out = vec![0f32; x.len()];
    for (p, &start) in init.iter().enumerate() {
        let mut prev = start;
        for i in p * a.free..(p + 1) * a.free {
            // reverse0 = false: data0 is op0's lhs; reverse1 = false: data1 is op1's rhs.
            let t = r0.apply_f32_rev(x[i], prev, ops.reverse0);
            prev = r1.apply_f32_rev(t, y[i], ops.reverse1);
            out[i] = prev;
        }
    }
    tile::store_f32(mem, OP, "dst", dst, &out)
}
