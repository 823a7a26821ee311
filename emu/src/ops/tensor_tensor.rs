//! `tensor_tensor_arith`, `tensor_tensor_bitvec`, `tensor_tensor_power`: element-wise
//! operations of two tiles (`nki.isa.tensor_tensor`).
//!
//! Semantics restated from `nki.isa.tensor_tensor`:
//!
//! - `dst = data1 <op> data2` element by element; the three tiles have the same partition
//!   count and the same number of elements per partition.
//! - **Arithmetic operators, float path** (Vector Engine, or GpSimd with non-32-bit-integer
//!   tiles): inputs cast to fp32, fp32 math, the result cast to `dst.dtype`
//!   (the [`crate::dtype`] numerics table).
//! - **Arithmetic operators, native integer path**: "When all input/output tiles are int32
//!   or uint32, the operation defaults to GpSimd Engine, which uses native integer
//!   arithmetic", falling back to the Vector Engine "when any operand resides in PSUM";
//!   `engine = vector` forces the float path. Native semantics are published only for
//!   add / subtract / mult (32-bit two's complement, wrapping); any other operator on the
//!   native path is refused (pass `Some(Engine::Vector)` for its fp32 form).
//! - **Bitvec operators**: integer tiles treated as bit patterns, no cast. We require the
//!   three tiles to have the same width (NKI does not say how widths would mix).
//! - **`nl.power`** (`tensor_tensor_power`, or `tensor_tensor_arith` with `pow`) runs on
//!   GpSimd in fp32, so no tile may be in PSUM. `tensor_tensor_arith` with `pow` on the
//!   Vector engine is NISA's composite form (no Vector instruction computes it;
//!   `sundial-decompose` rewrites it into `tensor_tensor_power` on GpSimd, and selection
//!   refuses it): it computes the same fp32 `data1 ** data2`, on any on-chip tiles the Vector
//!   engine reads, so a kernel runs the same before and after the decomposition.
//! - `data1` and `data2` cannot both be in PSUM; GpSimd cannot access PSUM at all.

use super::alu::{AluClass, AluOp, checked_row};
use super::tile::{self, Engine, Space};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

/// Checks the three tiles and returns whether any of them is in PSUM.
pub(crate) fn operands(
    mem: &Memory,
    who: &'static str,
    dst: &View,
    lhs: &View,
    rhs: &View,
    space: Space,
) -> Result<bool> {
    let d = tile::tile(mem, who, "dst", dst, space)?;
    let l = tile::tile(mem, who, "data1", lhs, space)?;
    let r = tile::tile(mem, who, "data2", rhs, space)?;
    tile::same_shape(who, ("dst", d), ("data1", l))?;
    tile::same_shape(who, ("dst", d), ("data2", r))?;
    tile::not_both_psum(mem, who, ("data1", lhs), ("data2", rhs))?;
    Ok(tile::in_psum(mem, dst)? || tile::in_psum(mem, lhs)? || tile::in_psum(mem, rhs)?)
}

fn is_word32(d: DType) -> bool {
    matches!(d, DType::I32 | DType::U32)
}

/// `tensor_tensor_arith`: `dst = lhs <op> rhs` with an arithmetic operator on `engine`
/// (see the module doc for the float and native-integer paths).
pub fn tensor_tensor_arith(
    mem: &mut Memory,
    dst: &View,
    lhs: &View,
    rhs: &View,
    op: AluOp,
    engine: Option<Engine>,
) -> Result<()> {
    const OP: &str = "tensor_tensor_arith";
    if op == AluOp::Pow {
        return match engine {
            None | Some(Engine::GpSimd) => power(mem, OP, dst, lhs, rhs, Space::Sbuf),
            // The composite form (module doc): the value is nl.power's.
            Some(Engine::Vector) => power(mem, OP, dst, lhs, rhs, Space::OnChip),
            Some(e) => Err(EmuError::unsupported(
                OP,
                format!(
                    "pow runs on the GpSimd engine (or as the Vector engine's composite form), not {}",
                    e.name()
                ),
            )),
        };
    }
    let row = checked_row(OP, op, AluClass::Arith)?;
    let any_psum = operands(mem, OP, dst, lhs, rhs, Space::OnChip)?;
    for (what, v) in [("dst", dst), ("data1", lhs), ("data2", rhs)] {
        tile::scalar_dtype(OP, what, v.dtype())?;
    }
    let all32 = is_word32(dst.dtype()) && is_word32(lhs.dtype()) && is_word32(rhs.dtype());
    let native = match engine {
        Some(Engine::Vector) => false,
        Some(e @ (Engine::Scalar | Engine::Tensor | Engine::Dma | Engine::Sync)) => {
            return Err(EmuError::unsupported(
                OP,
                format!(
                    "tensor_tensor runs on the Vector or GpSimd engine, not {}",
                    e.name()
                ),
            ));
        }
        Some(Engine::GpSimd) => {
            if any_psum {
                return Err(EmuError::memory(OP, "the GpSimd engine cannot access PSUM"));
            }
            all32
        }
        None => all32 && !any_psum,
    };
    if native {
        let f = row
            .int
            .filter(|_| row.gpsimd_int32)
            .ok_or(EmuError::NoPublicSemantics {
                op: OP,
                what: format!("GpSimd native int32 {}", op.name()),
                reason: "native integer semantics are published only for add, subtract and mult \
                         (pass engine = vector for the fp32 form)",
            })?;
        let a = tile::read_bits(mem, OP, lhs)?;
        let b = tile::read_bits(mem, OP, rhs)?;
        // The 32-bit patterns as unsigned values: add, subtract and mult agree with the
        // signed reading modulo 2^32, and the result keeps its low 32 bits (wrapping).
        let out: Vec<u64> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| {
                let r = f(i128::from(x as u32), i128::from(y as u32));
                u64::from(r as u32)
            })
            .collect();
        return tile::write_bits(mem, dst, &out);
    }
    // fp32 tiles row by row, straight from memory; otherwise whole tiles.
    let fast = match row.slices {
        Some(k) => tile::map_rows_f32(mem, OP, dst, &[lhs, rhs], |_, out, rest| {
            (k.vv)(out, rest[0])
        })?,
        None => false,
    };
    if fast {
        return Ok(());
    }
    let a = tile::read_f32(mem, OP, "data1", lhs)?;
    let b = tile::read_f32(mem, OP, "data2", rhs)?;
    let out: Vec<f32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| row.apply_f32(x, y))
        .collect();
    tile::store_f32(mem, OP, "dst", dst, &out)
}

/// `tensor_tensor_power`: `dst = lhs ** rhs` in fp32 on GpSimd (all tiles in SBUF).
pub fn tensor_tensor_power(mem: &mut Memory, dst: &View, lhs: &View, rhs: &View) -> Result<()> {
    power(mem, "tensor_tensor_power", dst, lhs, rhs, Space::Sbuf)
}

/// `dst = lhs ** rhs` in fp32, the tiles in `space`.
fn power(
    mem: &mut Memory,
    who: &'static str,
    dst: &View,
    lhs: &View,
    rhs: &View,
    space: Space,
) -> Result<()> {
    let row = checked_row(who, AluOp::Pow, AluClass::Arith)?;
    operands(mem, who, dst, lhs, rhs, space)?;
    tile::scalar_dtype(who, "dst", dst.dtype())?;
    let a = tile::read_f32(mem, who, "data1", lhs)?;
    let b = tile::read_f32(mem, who, "data2", rhs)?;
    let out: Vec<f32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| row.apply_f32(x, y))
        .collect();
    tile::store_f32(mem, who, "dst", dst, &out)
}

/// `tensor_tensor_bitvec`: `dst = lhs <op> rhs` on raw bits (Vector Engine); the three
/// tiles are integer tiles of one width.
pub fn tensor_tensor_bitvec(
    mem: &mut Memory,
    dst: &View,
    lhs: &View,
    rhs: &View,
    op: AluOp,
) -> Result<()> {
    const OP: &str = "tensor_tensor_bitvec";
    let row = checked_row(OP, op, AluClass::Bitvec)?;
    operands(mem, OP, dst, lhs, rhs, Space::OnChip)?;
    let width = same_width(OP, &[("dst", dst), ("data1", lhs), ("data2", rhs)])?;
    let a = tile::read_bits(mem, OP, lhs)?;
    let b = tile::read_bits(mem, OP, rhs)?;
    let out: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| row.apply_bits(x, y, width))
        .collect();
    tile::write_bits(mem, dst, &out)
}

/// Checks that every tile is an integer tile of one width and returns the width in bits.
pub(crate) fn same_width(who: &'static str, tiles: &[(&str, &View)]) -> Result<u32> {
    let mut width = None;
    for (what, v) in tiles {
        tile::int_dtype(who, what, v.dtype())?;
        let w = 8 * v.dtype().size() as u32;
        match width {
            None => width = Some(w),
            Some(w0) if w0 != w => {
                return Err(EmuError::dtype(
                    who,
                    format!(
                        "bitvec operands must have one width: {what} is {} ({w} bits), an earlier operand has {w0} bits",
                        v.dtype()
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(width.unwrap_or(32))
}
