//! `tensor_scalar_arith`, `tensor_scalar_bitvec`, `tensor_scalar_addr`: a tile combined
//! with broadcast scalars (`nki.isa.tensor_scalar`).
//!
//! Semantics restated from `nki.isa.tensor_scalar`:
//!
//! - `dst = (data <op0> operand0) <op1> operand1`; `op1` is optional. Each operand is a
//!   compile-time scalar or a `(data.shape[0], 1)` tile broadcast along the free
//!   dimensions (partition `p` uses element `p`).
//! - `reverse0` computes `operand0 <op0> data`; `reverse1` computes `operand1 <op1> tmp`.
//! - Both operators are arithmetic or both bitvec. Arithmetic: `data` cast to fp32,
//!   operands "must be float32", fp32 math, the result cast to `dst.dtype`. A unary
//!   operator (`rsqrt`, `abs`) takes no operand ("None or 0"); `bypass` ignores whatever
//!   operand it is given.
//! - Engines: Vector; GpSimd "only allowed for rsqrt" (and never with PSUM tiles); the
//!   Scalar Engine "on trn2 only supports" `(mult, add)`, `(mult, -)`, `(add, -)`. The
//!   engine changes which calls are legal, not the result.
//! - Bitvec (`tensor_scalar_bitvec`, Vector only): integer tiles of one width, bit
//!   patterns, integer immediates truncated to that width (two's complement).
//! - `tensor_scalar_addr` (GpSimd 0x74, 64-bit address arithmetic; seed-level semantics):
//!   `dst = data <op0> imm0` on int64/uint64 words with `add`, `subtract` or `mult`,
//!   wrapping modulo 2^64, SBUF only.

use super::alu::{AluClass, AluOp, AluRow, checked_row};
use super::tensor_tensor::same_width;
use super::tile::{self, Engine, Scalar, Space};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;

/// One `<op> operand` stage of an arithmetic tensor_scalar.
#[derive(Debug, Clone, Copy)]
pub struct Stage<'a> {
    /// The operator.
    pub op: AluOp,
    /// The operand (`None` only for a unary operator).
    pub operand: Option<Scalar<'a>>,
    /// Put the operand on the left.
    pub reverse: bool,
}

/// One `<op> imm` stage of a bitvec tensor_scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitStage {
    /// The operator.
    pub op: AluOp,
    /// The immediate, truncated to the element width.
    pub imm: i64,
    /// Put the immediate on the left.
    pub reverse: bool,
}

/// A checked arithmetic stage: its row and per-partition operand values.
pub(crate) struct Resolved {
    pub row: &'static AluRow,
    pub values: Vec<f32>,
    pub reverse: bool,
}

impl Resolved {
    /// The stage applied to `x` in partition `p`.
    #[inline]
    pub fn apply(&self, x: f32, p: usize) -> f32 {
        self.row.apply_f32_rev(x, self.values[p], self.reverse)
    }

    /// The stage applied in place to row `x` of partition `p` (the row's slice kernel).
    #[inline]
    pub fn apply_row(&self, x: &mut [f32], p: usize) {
        apply_stage_row(self.row, x, self.values[p], self.reverse);
    }
}

/// `row`'s operator applied in place to row `x` with scalar operand `s` (on the left when
/// `reverse`): the row's slice kernel when it has one.
#[inline]
pub(crate) fn apply_stage_row(row: &AluRow, x: &mut [f32], s: f32, reverse: bool) {
    match &row.slices {
        Some(k) => k.scalar(x, s, reverse),
        None => x
            .iter_mut()
            .for_each(|v| *v = row.apply_f32_rev(*v, s, reverse)),
    }
}

/// Resolves a stage for a `parts`-partition op; `what` names the operand in errors.
pub(crate) fn resolve(
    mem: &Memory,
    who: &'static str,
    what: &str,
    s: &Stage<'_>,
    parts: usize,
    require_f32: bool,
) -> Result<Resolved> {
    let row = checked_row(who, s.op, AluClass::Arith)?;
    // `bypass` ignores its operand, whatever it is (an unused stage of activate2 keeps
    // its immediate); the other unary operators take none ("None or 0").
    let bypass = s.op == AluOp::Bypass;
    let values = match (&s.operand, row.unary) {
        (None, true) => vec![0.0; parts],
        (Some(sc), true) if bypass => tile::scalar_values(mem, who, what, sc, parts, require_f32)?,
        (None, false) => {
            return Err(EmuError::invalid(
                who,
                format!("{} needs {what}", s.op.name()),
            ));
        }
        (Some(Scalar::Tile(_)), true) => {
            return Err(EmuError::invalid(
                who,
                format!(
                    "{} is unary: {what} must be absent or 0, not a tile",
                    s.op.name()
                ),
            ));
        }
        (Some(Scalar::Imm(v)), true) if *v != 0.0 => {
            return Err(EmuError::invalid(
                who,
                format!(
                    "{} is unary: {what} must be absent or 0, not {v}",
                    s.op.name()
                ),
            ));
        }
        (Some(sc), _) => tile::scalar_values(mem, who, what, sc, parts, require_f32)?,
    };
    Ok(Resolved {
        row,
        values,
        reverse: s.reverse,
    })
}

/// `tensor_scalar_arith`: `dst = (data <op0> operand0) <op1> operand1` in fp32 (see the
/// module doc). `engine = Unknown` runs on the Vector Engine.
pub fn tensor_scalar_arith(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    stage0: &Stage<'_>,
    stage1: Option<&Stage<'_>>,
    engine: Option<Engine>,
) -> Result<()> {
    const OP: &str = "tensor_scalar_arith";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    check_engine(mem, OP, engine, stage0, stage1, &[dst, data])?;
    let r0 = resolve(mem, OP, "operand0", stage0, s.parts, true)?;
    let r1 = stage1
        .map(|st| resolve(mem, OP, "operand1", st, s.parts, true))
        .transpose()?;
    // fp32 tiles row by row, straight from memory; otherwise whole tiles.
    let fast = tile::map_rows_f32(mem, OP, dst, &[data], |p, out, _| {
        r0.apply_row(out, p);
        if let Some(r) = &r1 {
            r.apply_row(out, p);
        }
    })?;
    if fast {
        return Ok(());
    }
    let x = tile::read_f32(mem, OP, "data", data)?;
    let mut out = Vec::with_capacity(x.len());
    for (i, &v) in x.iter().enumerate() {
        let p = i / s.free.max(1);
        let t = r0.apply(v, p);
        out.push(match &r1 {
            Some(r) => r.apply(t, p),
            None => t,
        });
    }
    tile::store_f32(mem, OP, "dst", dst, &out)
}

/// Fails when `engine` cannot run this tensor_scalar (the engine changes which calls are
/// legal, not the result).
pub(crate) fn check_engine(
    mem: &Memory,
    who: &'static str,
    engine: Option<Engine>,
    s0: &Stage<'_>,
    s1: Option<&Stage<'_>>,
    tiles: &[&View],
) -> Result<()> {
    match engine {
        None | Some(Engine::Vector) => Ok(()),
        Some(Engine::GpSimd) => {
            if s0.op != AluOp::Rsqrt || s1.is_some_and(|s| s.op != AluOp::Rsqrt) {
                return Err(EmuError::unsupported(
                    who,
                    "the GpSimd engine runs tensor_scalar only for rsqrt",
                ));
            }
            for v in tiles {
                if tile::in_psum(mem, v)? {
                    return Err(EmuError::memory(
                        who,
                        "the GpSimd engine cannot access PSUM",
                    ));
                }
            }
            Ok(())
        }
        Some(Engine::Scalar) => {
            let pair = (s0.op, s1.map(|s| s.op));
            let ok = matches!(
                pair,
                (AluOp::Mult, Some(AluOp::Add)) | (AluOp::Mult, None) | (AluOp::Add, None)
            );
            if mem.target() == Target::Cayman && !ok {
                return Err(EmuError::unsupported(
                    who,
                    "the Scalar engine on trn2 runs only (mult, add), (mult) and (add)",
                ));
            }
            Ok(())
        }
        Some(e @ (Engine::Tensor | Engine::Dma | Engine::Sync)) => Err(EmuError::unsupported(
            who,
            format!(
                "tensor_scalar runs on the Vector, Scalar or GpSimd engine, not {}",
                e.name()
            ),
        )),
    }
}

/// `tensor_scalar_bitvec`: `dst = (data <op0> imm0) <op1> imm1` on raw bits (Vector).
pub fn tensor_scalar_bitvec(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    stage0: &BitStage,
    stage1: Option<&BitStage>,
) -> Result<()> {
    const OP: &str = "tensor_scalar_bitvec";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    let width = same_width(OP, &[("dst", dst), ("data", data)])?;
    let r0 = checked_row(OP, stage0.op, AluClass::Bitvec)?;
    let r1 = stage1
        .map(|st| checked_row(OP, st.op, AluClass::Bitvec))
        .transpose()?;
    let apply = |row: &AluRow, x: u64, st: &BitStage| {
        let imm = st.imm as u64;
        if st.reverse {
            row.apply_bits(imm, x, width)
        } else {
            row.apply_bits(x, imm, width)
        }
    };
    let out: Vec<u64> = tile::read_bits(mem, OP, data)?
        .into_iter()
        .map(|x| {
            let t = apply(r0, x, stage0);
            match (r1, stage1) {
                (Some(r), Some(st)) => apply(r, t, st),
                _ => t,
            }
        })
        .collect();
    tile::write_bits(mem, dst, &out)
}

/// `tensor_scalar_addr`: `dst = data <op0> imm0` on 64-bit words (GpSimd, SBUF), wrapping.
pub fn tensor_scalar_addr(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    op0: AluOp,
    imm0: i64,
) -> Result<()> {
    const OP: &str = "tensor_scalar_addr";
    let d = tile::tile(mem, OP, "dst", dst, Space::Sbuf)?;
    let s = tile::tile(mem, OP, "data", data, Space::Sbuf)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    for (what, v) in [("dst", dst), ("data", data)] {
        tile::dtype_in(OP, what, v.dtype(), &[DType::I64, DType::U64])?;
    }
    let f: fn(u64, u64) -> u64 = match op0 {
        AluOp::Add => u64::wrapping_add,
        AluOp::Subtract => u64::wrapping_sub,
        AluOp::Mult => u64::wrapping_mul,
        other => {
            return Err(EmuError::invalid(
                OP,
                format!(
                    "{} is not an address operator (add, subtract, mult)",
                    other.name()
                ),
            ));
        }
    };
    let out: Vec<u64> = tile::read_bits(mem, OP, data)?
        .into_iter()
        .map(|x| f(x, imm0 as u64))
        .collect();
    tile::write_bits(mem, dst, &out)
}
