//! `nc_transpose` on the Tensor engine (the NISA `matmul` with `is_transpose`) and on the
//! Vector engine (the NISA `stream_transpose`, StreamTranspose 0x6B).
//!
//! Semantics restated from `nki.isa.nc_transpose`: a 2D transpose between the partition
//! axis and the (flattened) free axis, `dst[f, p] = data[p, f]`; `dst` has the dtype of
//! `data`.
//!
//! - **Tensor engine**: `data` in SBUF, `dst` in PSUM, at most `[128, 128]`. It is a matmul
//!   of `data` (stationary) with the identity (moving). From NeuronCore v3 it is
//!   bit-accurate for every dtype (NaN and Inf included). On v2 it is "not bit-accurate if
//!   the input contains NaN/Inf": the emulator transposes finite floating-point values
//!   exactly and refuses NaN/Inf and integer data there (what v2 makes of them is not
//!   public). Keeping `-0.0` on v2 is our assumption.
//! - **Vector engine**: `data` and `dst` in SBUF or PSUM, at most `[32, 32]`, a bit copy.

use super::layout::part_free;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::Target;
use crate::view::View;
use sundial_codegen::model::Engine;

const OP: &str = "nc_transpose";
const OP_VECTOR: &str = "stream_transpose";

/// `nc_transpose` on `engine` (Tensor or Vector; see the module doc).
pub fn nc_transpose(mem: &mut Memory, dst: &View, data: &View, engine: Engine) -> Result<()> {
    match engine {
        Engine::Tensor => pe_transpose(mem, dst, data),
        Engine::Vector => stream_transpose(mem, dst, data),
        other => Err(EmuError::unsupported(
            OP,
            format!(
                "nc_transpose runs on the tensor or vector engine, not {}",
                other.name()
            ),
        )),
    }
}

/// The Vector-engine transpose (NISA `stream_transpose`): at most 32 x 32, SBUF or PSUM.
pub fn stream_transpose(mem: &mut Memory, dst: &View, src: &View) -> Result<()> {
    let (p, f) = check(mem, OP_VECTOR, dst, src, 32)?;
    let bits = mem.read_bits_for(OP_VECTOR, src)?;
    mem.write_bits_for(OP_VECTOR, dst, &transpose_bits(&bits, p, f))
}

fn pe_transpose(mem: &mut Memory, dst: &View, data: &View) -> Result<()> {
    if mem.space(data.alloc())? != MemSpace::Sbuf || mem.space(dst.alloc())? != MemSpace::Psum {
        return Err(EmuError::memory(
            OP,
            "the tensor-engine transpose reads SBUF and writes PSUM",
        ));
    }
    let (p, f) = check(mem, OP, dst, data, 128)?;
    if mem.target() == Target::Sunda {
        let d = data.dtype();
        if !d.is_float() {
            return Err(EmuError::unsupported(
                OP,
                format!(
                    "the v2 tensor-engine transpose of {d} data is not public (not bit-accurate)"
                ),
            ));
        }
        if let Some(v) = mem.read_f32_for(OP, data)?.iter().find(|v| !v.is_finite()) {
            return Err(EmuError::unsupported(
                OP,
                format!("the v2 tensor-engine transpose of {v} is not bit-accurate (not public)"),
            ));
        }
    }
    let bits = mem.read_bits_for(OP, data)?;
    mem.write_bits_for(OP, dst, &transpose_bits(&bits, p, f))
}

/// Shapes, dtypes and spaces shared by both engines; returns `(partitions, free)` of `src`.
fn check(
    mem: &Memory,
    op: &'static str,
    dst: &View,
    src: &View,
    limit: usize,
) -> Result<(usize, usize)> {
    for (what, v) in [("data", src), ("dst", dst)] {
        if mem.space(v.alloc())? == MemSpace::Hbm {
            return Err(EmuError::memory(
                op,
                format!("{what} must be on chip, not in HBM"),
            ));
        }
    }
    if dst.dtype() != src.dtype() {
        return Err(EmuError::dtype(
            op,
            format!(
                "dst is {} but data is {}: a transpose keeps the dtype",
                dst.dtype(),
                src.dtype()
            ),
        ));
    }
    let (p, f) = part_free(op, "data", src)?;
    if p > limit || f > limit {
        return Err(EmuError::shape(
            op,
            format!("data [{p}, {f}] exceeds [{limit}, {limit}]"),
        ));
    }
    let (dp, df) = part_free(op, "dst", dst)?;
    if dp != f || df != p {
        return Err(EmuError::shape(
            op,
            format!(
                "dst must be [{f}, {p}] for data [{p}, {f}], not {:?}",
                dst.shape()
            ),
        ));
    }
    Ok((p, f))
}

/// The row-major `[cols][rows]` transpose of row-major `[rows][cols]` elements.
pub(crate) fn transpose_bits(bits: &[u64], rows: usize, cols: usize) -> Vec<u64> {
    let mut out = vec![0u64; bits.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = bits[r * cols + c];
        }
    }
    out
}
