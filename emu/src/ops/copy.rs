//! On-chip copies and fills: `tensor_copy` (`nki.isa.tensor_copy`) and `memset`
//! (`nki.isa.memset`).
//!
//! `tensor_copy`, restated:
//!
//! - `dst` gets `src`'s elements; same partition count and elements per partition;
//! - Vector and GpSimd: "bit-accurate copy when input and output data types are the same",
//!   otherwise "intermediate FP32 cast" (`src.dtype` -> fp32 -> `dst.dtype`, the numerics
//!   table in [`crate::dtype`]), so every pair of scalar dtypes converts, and an x4
//!   container copies only to its own type;
//! - Scalar: always through fp32 (lossy for integers beyond 2^24); "on NeuronCore v2,
//!   tensor_copy is not supported on the Scalar Engine";
//! - GpSimd cannot access PSUM; `engine = None` (unknown) copies as the Vector Engine does.
//!
//! `memset`, restated: every element of `dst` becomes the compile-time constant `value`,
//! on the Vector or GpSimd engine (GpSimd: no PSUM); "for x4 packed types ... only
//! value=0 is supported". An integer `dst` takes the value exactly (an error when it is not
//! an integer in the type's range: a compile-time constant that does not fit is the
//! caller's mistake, not something to round); a float `dst` takes the value rounded to
//! fp32 and then cast like any fp32 result.

use super::tile::{self, Engine, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;

fn no_psum_on_gpsimd(
    mem: &Memory,
    who: &'static str,
    engine: Option<Engine>,
    tiles: &[&View],
) -> Result<()> {
    if engine == Some(Engine::GpSimd) {
        for v in tiles {
            if tile::in_psum(mem, v)? {
                return Err(EmuError::memory(
                    who,
                    "the GpSimd engine cannot access PSUM",
                ));
            }
        }
    }
    Ok(())
}

/// `tensor_copy`: copy `src` to `dst` on `engine` (see the module doc).
pub fn tensor_copy(mem: &mut Memory, dst: &View, src: &View, engine: Option<Engine>) -> Result<()> {
    const OP: &str = "tensor_copy";
    tile::compute_engine(OP, engine)?;
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "src", src, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("src", s))?;
    no_psum_on_gpsimd(mem, OP, engine, &[dst, src])?;
    if engine == Some(Engine::Scalar) && mem.target() == Target::Sunda {
        return Err(EmuError::unsupported(
            OP,
            "tensor_copy is not supported on the Scalar engine of NeuronCore-v2 \
             (use activation with copy)",
        ));
    }
    let (dt, st) = (dst.dtype(), src.dtype());
    let bits = if dt == st && engine != Some(Engine::Scalar) {
        tile::read_bits(mem, OP, src)?
    } else {
        let x = tile::read_f32(mem, OP, "src", src)?;
        tile::encode_f32(OP, "dst", dt, &x)?
    };
    tile::write_bits(mem, dst, &bits)
}

/// A compile-time constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
}

/// `memset`: fill `dst` with `value` on `engine` (Vector, GpSimd or Unknown).
pub fn memset(mem: &mut Memory, dst: &View, value: Number, engine: Option<Engine>) -> Result<()> {
    const OP: &str = "memset";
    tile::compute_engine(OP, engine)?;
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    if engine == Some(Engine::Scalar) {
        return Err(EmuError::unsupported(
            OP,
            "memset runs on the Vector or GpSimd engine, not scalar",
        ));
    }
    no_psum_on_gpsimd(mem, OP, engine, &[dst])?;
    let dt = dst.dtype();
    let bad = |why: &str| EmuError::invalid(OP, format!("value {value:?} {why} {dt}"));
    let word = if dt.is_x4() {
        let zero = match value {
            Number::Int(v) => v == 0,
            Number::Float(v) => v == 0.0,
        };
        if !zero {
            return Err(bad("is not 0, the only fill of the packed type"));
        }
        0
    } else if dt.is_integer() {
        let v = match value {
            Number::Int(v) => v,
            // Integral and inside i64 (2^63 is exactly representable in f64).
            Number::Float(v)
                if v.fract() == 0.0 && (-(2f64.powi(63))..2f64.powi(63)).contains(&v) =>
            {
                v as i64
            }
            Number::Float(_) => return Err(bad("is not an integer value of")),
        };
        let bits = dt.from_i64_saturating(v).unwrap_or(0);
        if dt.to_i64(bits) != Some(v) {
            return Err(bad("is out of the range of"));
        }
        bits
    } else {
        let f = match value {
            Number::Int(v) => v as f32,
            Number::Float(v) => v as f32,
        };
        dt.from_f32(f).unwrap_or(0)
    };
    let n = d.parts * d.free;
    tile::write_bits(mem, dst, &vec![word; n])
}
