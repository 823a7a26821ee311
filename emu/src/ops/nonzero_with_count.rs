//! `nonzero_with_count` (NKI `nonzero_with_count`): compact the indices of nonzero
//! elements on GpSimd (NeuronCore v3+).
//!
//! Semantics restated from the public docstring: only partitions 0, 16, 32, .., 112 (the
//! 0-th partition of each GpSimd core) are read and written; every other partition of
//! `dst` is left unmodified. For such a partition with `T` source elements, `dst` (with
//! `T + 1` elements) holds
//!
//! ```text
//! [i + index_offset for every i with src[i] != 0 (ascending)] + [padding_val] * (T - N) + [N]
//! ```
//!
//! where `N` is the count of nonzero elements. The docstring's example: input
//! `[0, 1, 1, 0, 0, 1, 0, 0]`, `index_offset = 16`, `padding_val = -1` gives
//! `[17, 18, 21, -1, -1, -1, -1, -1, 3]`.
//!
//! `src` is an SBUF `float32` or `int32` tile, `dst` an SBUF `int32` tile with the same
//! partition count and one more element per partition (free dimensions flattened). Both
//! must start on the same partition, a multiple of 16, so that "partition 16 of the tile"
//! and "the 0-th partition of GpSimd core 1" name the same row (otherwise the docstring's
//! two readings differ and the op is refused). A float is nonzero when it is not `±0.0` (NaN is nonzero). `index_offset + i` must fit
//! `int32`; a result that does not is refused rather than wrapped.

use super::layout::{part_free, row, start_partition};
use super::require_space;
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::{PARTITIONS_PER_GPSIMD_CORE, Target};
use crate::view::View;

const OP: &str = "nonzero_with_count";

/// `nonzero_with_count`: see the module doc.
pub fn nonzero_with_count(
    mem: &mut Memory,
    dst: &View,
    src: &View,
    index_offset: i32,
    padding_val: i32,
) -> Result<()> {
    if mem.target() == Target::Sunda {
        return Err(EmuError::unsupported(
            OP,
            "nonzero_with_count needs NeuronCore v3 or newer",
        ));
    }
    require_space(mem, OP, "src", src, MemSpace::Sbuf)?;
    require_space(mem, OP, "dst", dst, MemSpace::Sbuf)?;
    if !matches!(src.dtype(), DType::F32 | DType::I32) {
        return Err(EmuError::dtype(
            OP,
            format!("src must be float32 or int32, not {}", src.dtype()),
        ));
    }
    if dst.dtype() != DType::I32 {
        return Err(EmuError::dtype(
            OP,
            format!("dst must be int32, not {}", dst.dtype()),
        ));
    }
    let (p, t) = part_free(OP, "src", src)?;
    let (dp, dt) = part_free(OP, "dst", dst)?;
    if dp != p || dt != t + 1 {
        return Err(EmuError::shape(
            OP,
            format!(
                "dst must be [{p}, {}] for src [{p}, {t}], not [{dp}, {dt}]",
                t + 1
            ),
        ));
    }
    let first = start_partition(mem, OP, "src", src)?;
    if start_partition(mem, OP, "dst", dst)? != first
        || !first.is_multiple_of(PARTITIONS_PER_GPSIMD_CORE)
    {
        return Err(EmuError::shape(
            OP,
            format!(
                "src and dst must start on the same partition, a multiple of                  {PARTITIONS_PER_GPSIMD_CORE} (src starts on {first})"
            ),
        ));
    }
    // Rows on the 0-th partition of a GpSimd core.
    let rows: Vec<usize> = (0..p).step_by(PARTITIONS_PER_GPSIMD_CORE).collect();
    let mut outs = Vec::with_capacity(rows.len());
    for &r in &rows {
        let vals = mem.read_bits_for(OP, &row(src, r)?)?;
        let nonzero = |b: u64| match src.dtype() {
            DType::F32 => f32::from_bits(b as u32) != 0.0,
            _ => b as u32 != 0,
        };
        let mut out: Vec<i64> = Vec::with_capacity(t + 1);
        for (i, _) in vals.iter().enumerate().filter(|(_, b)| nonzero(**b)) {
            let v = i64::from(index_offset) + i as i64;
            if i32::try_from(v).is_err() {
                return Err(EmuError::unsupported(
                    OP,
                    format!("index {i} + index_offset {index_offset} does not fit int32"),
                ));
            }
            out.push(v);
        }
        let count = out.len() as i64;
        out.resize(t, i64::from(padding_val));
        out.push(count);
        outs.push(out);
    }
    for (&r, out) in rows.iter().zip(&outs) {
        mem.write_i64_for(OP, &row(dst, r)?, out)?;
    }
    Ok(())
}
