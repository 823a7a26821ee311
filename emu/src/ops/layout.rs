//! Operand layout helpers shared by the compute ops (matmul, transposes, statistics, MX,
//! RNG, registers): partition and free sizes, on-chip placement, per-partition rows.
//!
//! A compute operand is `[P, f0, f1, ..]`: dimension 0 is the partition dimension, the
//! free dimensions are read and written row-major (flattened) unless an op says otherwise.

use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::{PARTITIONS, PSUM_BYTES_PER_PARTITION};
use crate::view::View;

/// The partition count and the flattened free size of an operand (at most 128 partitions).
/// These ops name physical partitions or engine lanes, so a logical machine's wider tiles
/// (`Memory::logical`) are refused with the reason.
pub(crate) fn part_free(op: &'static str, what: &str, v: &View) -> Result<(usize, usize)> {
    if v.shape().first().is_some_and(|&p| p > PARTITIONS) {
        return Err(EmuError::shape(
            op,
            format!(
                "{what} has {} partitions, more than the {PARTITIONS} physical partitions this \
                 op's semantics name: a logical tile runs through it only after partition tiling",
                v.shape()[0]
            ),
        ));
    }
    part_free_within(op, what, v, PARTITIONS)
}

/// [`part_free`] with at most `limit` partitions (a logical machine's width, for the ops
/// whose partitions are independent there: `Memory::logical`).
pub(crate) fn part_free_within(
    op: &'static str,
    what: &str,
    v: &View,
    limit: usize,
) -> Result<(usize, usize)> {
    if v.rank() < 2 {
        return Err(EmuError::shape(
            op,
            format!("{what} needs a partition and a free dimension"),
        ));
    }
    let p = v.shape()[0];
    if p > limit {
        return Err(EmuError::shape(
            op,
            format!("{what} has {p} partitions, more than {limit}"),
        ));
    }
    Ok((p, v.num_elements().checked_div(p).unwrap_or(0)))
}

/// Fails unless `v` is in SBUF or PSUM.
pub(crate) fn require_on_chip(mem: &Memory, op: &'static str, what: &str, v: &View) -> Result<()> {
    if mem.space(v.alloc())? == MemSpace::Hbm {
        return Err(EmuError::memory(
            op,
            format!("{what} must be in SBUF or PSUM, not HBM"),
        ));
    }
    Ok(())
}

/// The physical partition of row 0 of an on-chip operand whose rows are consecutive
/// partitions (ops whose semantics name physical partitions or engine lanes need it).
pub(crate) fn start_partition(
    mem: &Memory,
    op: &'static str,
    what: &str,
    v: &View,
) -> Result<usize> {
    let bpp = match mem.space(v.alloc())? {
        MemSpace::Sbuf => crate::target::sbuf_bytes_per_partition(mem.target()),
        MemSpace::Psum => PSUM_BYTES_PER_PARTITION,
        MemSpace::Hbm => {
            return Err(EmuError::memory(
                op,
                format!("{what} must be in SBUF or PSUM, not HBM"),
            ));
        }
    };
    let es = v.dtype().size() as i64;
    let rows = v.shape().first().copied().unwrap_or(0);
    if rows > 1 && v.strides().first().copied().map(|s| s * es) != Some(bpp as i64) {
        return Err(EmuError::shape(
            op,
            format!("the rows of {what} must be consecutive partitions"),
        ));
    }
    let byte = v
        .offset()
        .checked_mul(es)
        .filter(|&b| b >= 0)
        .ok_or_else(|| EmuError::shape(op, format!("{what} starts before its memory")))?;
    let first = byte as usize / bpp;
    // Views are not tied to the memory's geometry: one may claim rows past the last
    // partition, and lanes beyond 128 do not exist.
    if first + rows > PARTITIONS {
        return Err(EmuError::shape(
            op,
            format!(
                "{what} covers partitions {first}..{}, past {PARTITIONS}",
                first + rows
            ),
        ));
    }
    Ok(first)
}

/// Row `r` of an operand as a `[1, F]` view (free dimensions flattened).
pub(crate) fn row(v: &View, r: usize) -> Result<View> {
    let flat = v.flatten_free()?;
    flat.slice(0, r, 1, 1)
}
