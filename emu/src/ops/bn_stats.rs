//! Batch-norm statistics on the Vector engine: `bn_stats` (NKI `bn_stats`) and `bn_aggr`
//! (NKI `bn_aggr`).
//!
//! Semantics restated from the public docstrings:
//!
//! - **bn_stats**: per partition of `data` (free dimensions flattened, at most 512
//!   elements, `nl.tile_size.bn_stats_fmax`), six values: the count, the mean and
//!   `variance * count` of the elements at even free positions, then the same three for
//!   the odd positions. `dst` is `[P, 6]`.
//! - **bn_aggr**: per partition, `data` holds `(count, mean, variance * count)` triples
//!   (one or more `bn_stats` outputs side by side, so its free size is a multiple of 3);
//!   `dst` `[P, 2]` receives the mean and the variance of all the elements they describe.
//!
//! The variance is the population variance (divide by the count), which is what makes the
//! two ops compose: for triples `(c_i, m_i, v_i c_i)`, `N = sum c_i`,
//! `mean = sum c_i m_i / N`, `var = (sum v_i c_i + sum c_i (m_i - mean)^2) / N`.
//!
//! Inputs convert to fp32 and all arithmetic is fp32; results convert to `dst.dtype`.
//! Our choices (not pinned publicly): sums run in element order, each mean is its sum
//! divided by its count, `variance * count` is the sum of squared deviations from that
//! mean. A half with no elements (fewer than two elements in `bn_stats`) and a `bn_aggr`
//! whose counts sum to zero are refused (their statistics are 0/0; what the engine
//! writes is not public), as are negative counts.
//!
//! The fp32 arithmetic is the ALU table's (`add`, `subtract`, `mult`, `divide`).

use super::alu::{add_f32, divide_f32, mult_f32, subtract_f32, sum_f32};
use super::layout::{part_free, require_on_chip};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

const OP_STATS: &str = "bn_stats";
const OP_AGGR: &str = "bn_aggr";

/// Most free elements per partition `bn_stats` reads (`nl.tile_size.bn_stats_fmax`).
pub const BN_STATS_FMAX: usize = 512;

/// `bn_stats`: even/odd `(count, mean, variance * count)` per partition.
pub fn bn_stats(mem: &mut Memory, dst: &View, data: &View) -> Result<()> {
    require_on_chip(mem, OP_STATS, "data", data)?;
    require_on_chip(mem, OP_STATS, "dst", dst)?;
    let (p, f) = part_free(OP_STATS, "data", data)?;
    if f > BN_STATS_FMAX {
        return Err(EmuError::shape(
            OP_STATS,
            format!("data has {f} elements per partition, more than {BN_STATS_FMAX}"),
        ));
    }
    if f < 2 {
        return Err(EmuError::unsupported(
            OP_STATS,
            format!("{f} elements per partition leave a half without elements (0/0 statistics)"),
        ));
    }
    check_out(OP_STATS, dst, p, 6)?;
    let x = mem.read_f32_for(OP_STATS, data)?;
    let mut out = Vec::with_capacity(p * 6);
    for row in x.chunks_exact(f) {
        for parity in 0..2 {
            let half: Vec<f32> = row.iter().skip(parity).step_by(2).copied().collect();
            let count = half.len() as f32;
            let mean = divide_f32(sum_f32(half.iter().copied()), count);
            let m2 = sum_f32(half.iter().map(|&v| {
                let d = subtract_f32(v, mean);
                mult_f32(d, d)
            }));
            out.extend_from_slice(&[count, mean, m2]);
        }
    }
    mem.write_f32_for(OP_STATS, dst, &out)
}

/// `bn_aggr`: mean and variance per partition from `(count, mean, variance * count)`
/// triples.
pub fn bn_aggr(mem: &mut Memory, dst: &View, data: &View) -> Result<()> {
    require_on_chip(mem, OP_AGGR, "data", data)?;
    require_on_chip(mem, OP_AGGR, "dst", dst)?;
    let (p, f) = part_free(OP_AGGR, "data", data)?;
    if f == 0 || !f.is_multiple_of(3) {
        return Err(EmuError::shape(
            OP_AGGR,
            format!("data has {f} elements per partition, not a positive multiple of 3"),
        ));
    }
    check_out(OP_AGGR, dst, p, 2)?;
    let x = mem.read_f32_for(OP_AGGR, data)?;
    let mut out = Vec::with_capacity(p * 2);
    for (part, row) in x.chunks_exact(f).enumerate() {
        let triples: Vec<&[f32]> = row.chunks_exact(3).collect();
        if let Some(t) = triples.iter().find(|t| t[0] < 0.0 || t[0].is_nan()) {
            return Err(EmuError::unsupported(
                OP_AGGR,
                format!("partition {part} has a triple with count {}", t[0]),
            ));
        }
        let n = sum_f32(triples.iter().map(|t| t[0]));
        if n == 0.0 {
            return Err(EmuError::unsupported(
                OP_AGGR,
                format!("the counts of partition {part} sum to 0 (0/0 statistics)"),
            ));
        }
        let mean = divide_f32(sum_f32(triples.iter().map(|t| mult_f32(t[0], t[1]))), n);
        // Each triple adds its own `variance * count`, then its count times its mean's
        // squared deviation from the overall mean, in that order.
        let m2 = triples.iter().fold(0f32, |a, t| {
            let d = subtract_f32(t[1], mean);
            add_f32(add_f32(a, t[2]), mult_f32(mult_f32(t[0], d), d))
        });
        out.extend_from_slice(&[mean, divide_f32(m2, n)]);
    }
    mem.write_f32_for(OP_AGGR, dst, &out)
}

fn check_out(op: &'static str, dst: &View, p: usize, f: usize) -> Result<()> {
    let (dp, df) = part_free(op, "dst", dst)?;
    if (dp, df) != (p, f) {
        return Err(EmuError::shape(
            op,
            format!(
                "dst must have {p} partitions of {f} elements, not {:?}",
                dst.shape()
            ),
        ));
    }
    if dst.dtype().to_f32(0).is_none() {
        return Err(EmuError::dtype(
            op,
            format!("dst is {}, which has no scalar values", dst.dtype()),
        ));
    }
    Ok(())
}
