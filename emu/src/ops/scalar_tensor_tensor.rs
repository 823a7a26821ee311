//! `scalar_tensor_tensor_arith`: a scalar stage then a tensor stage
//! (`nki.isa.scalar_tensor_tensor`).
//!
//! Semantics restated from `nki.isa.scalar_tensor_tensor`:
//!
//! - `dst = (data <op0> operand0) <op1> operand1`, "equivalent to" a `tensor_scalar`
//!   with `op0, operand0` followed by a `tensor_tensor` with `op1, operand1`.
//! - `operand0` is a compile-time scalar or a `(data.shape[0], 1)` tile; `operand1` is a
//!   tile with data's partition count and elements per partition.
//! - `reverse0` computes `operand0 <op0> data`; `reverse1` computes `operand1 <op1> tmp`.
//! - Both operators are arithmetic ("Bitvec operators are not supported", which is why
//!   the dialect's `scalar_tensor_tensor_bitvec` is refused: see [`super::refused`]).
//! - All inputs cast to fp32 (any dtype, including `operand0`), fp32 math, the result
//!   cast to `dst.dtype`. `data` and `operand1` cannot both be in PSUM.

use super::alu::{AluClass, AluOp, checked_row};
use super::tensor_scalar::{Stage, resolve};
use super::tile::{self, Space};
use crate::error::Result;
use crate::memory::Memory;
use crate::view::View;

/// The tensor stage `<op1> operand1` of scalar_tensor_tensor.
#[derive(Debug, Clone, Copy)]
pub struct TensorStage<'a> {
    /// The operator.
    pub op: AluOp,
    /// The element-wise operand.
    pub operand: &'a View,
    /// Put the operand on the left.
    pub reverse: bool,
}

/// `scalar_tensor_tensor_arith`: `dst = (data <op0> operand0) <op1> operand1` in fp32.
pub fn scalar_tensor_tensor_arith(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    stage0: &Stage<'_>,
    stage1: &TensorStage<'_>,
) -> Result<()> {
    const OP: &str = "scalar_tensor_tensor_arith";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    let o = tile::tile(mem, OP, "operand1", stage1.operand, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    tile::same_shape(OP, ("data", s), ("operand1", o))?;
    tile::not_both_psum(mem, OP, ("data", data), ("operand1", stage1.operand))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    let r0 = resolve(mem, OP, "operand0", stage0, s.parts, false)?;
    let r1 = checked_row(OP, stage1.op, AluClass::Arith)?;
    let x = tile::read_f32(mem, OP, "data", data)?;
    let y = tile::read_f32(mem, OP, "operand1", stage1.operand)?;
    let out: Vec<f32> = x
        .iter()
        .zip(&y)
        .enumerate()
        .map(|(i, (&a, &b))| {
            let t = r0.apply(a, i / s.free.max(1));
            r1.apply_f32_rev(t, b, stage1.reverse)
        })
        .collect();
    tile::store_f32(mem, OP, "dst", dst, &out)
}
