//! Reductions: along the free axes (`tensor_reduce_arith`, `tensor_reduce_bitvec`:
//! `nki.isa.tensor_reduce`) and across partitions (`cross_lane_reduce_arith`,
//! `cross_lane_reduce_bitvec`: `nki.isa.tensor_partition_reduce`).
//!
//! `tensor_reduce`, restated:
//!
//! - `axis` lists "the last contiguous free dimension(s) of the tile, ending at the final
//!   dimension"; axis 0 (partitions) cannot be reduced;
//! - `dst` has data's partition count and the product of the kept free dimensions per
//!   partition; with `keepdims` it is data's shape with the reduced axes of size one;
//! - arithmetic operators reduce the fp32 values (any input dtype), the result cast to
//!   `dst.dtype`, multiplied by -1 with `negate`; bitvec operators reduce integer bit
//!   patterns (same width everywhere) with bitwise and / or / xor;
//! - the fold runs in element order from the operator's identity (0 for add, 1 for mult,
//!   -inf for max, +inf for min, 0 for abs_max, +inf for abs_min), and `average` is the
//!   fp32 sum divided by the count (sequential order: our reading; the simulator's NumPy
//!   sums pairwise, which can differ in the last bit).
//!
//! `tensor_partition_reduce`, restated (GpSimd, so SBUF only):
//!
//! - `dst[:, f] = op over p of data[p, f]` for every free element `f`; arithmetic `add`,
//!   `average` (the mean) or `max` in fp32; bitvec `bitwise_or` / `bitwise_and` on raw
//!   bits, and `bitwise_xor` (a firmware op of CROSS_LANE_REDUCE_BITVEC beyond NKI's
//!   surface, as `average` is of the arithmetic form: the op table keeps both; its fold is
//!   the free-axis `tensor_reduce_bitvec` xor's, exact on raw bits);
//! - the reduced row is broadcast to every partition of `dst` (which has data's elements
//!   per partition and any partition count: the third-party wiki's description of the
//!   simulator).
//!
//! The generic `tensor_partition_reduce` (the middle end's form before
//! `sundial-legalize-partition-reduce`, which lowers it to the cross-lane ops plus free-axis
//! reductions and combine steps), restated from the op table and that lowering:
//!
//! - `axis` holds 0 and optionally the trailing free axes; `src` (SBUF or PSUM) is
//!   `[P, kept..., reduced...]`, `dst` (SBUF or PSUM) has one partition and the kept
//!   elements: `dst[0, k] = op over p, r of src[p, k, r]`;
//! - arithmetic operators (every operator of the ALU table with a reduction identity) reduce
//!   in fp32, the reduced free axes of each partition first (in element order, from the
//!   identity), then those per-partition values across partitions (in partition order, from
//!   the identity), one rounding to `dst`'s dtype at the end; `average` sums both ways and
//!   divides the fp32 sum by the number of elements reduced; bit-vector operators
//!   (`bitwise_or` / `_and` / `_xor`) reduce raw integer bits of one width;
//! - over a logical tile (`Memory::logical`) the partitions are all the tile's, as for the
//!   cross-lane ops.

use super::alu::{self, AluClass, AluOp, checked_row};
use super::tensor_tensor::same_width;
use super::tile::{self, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

/// Checks `axis` against data's rank and returns (groups, group length): the tile is
/// `groups` runs of `len` consecutive elements, one run per output element.
fn free_axes(
    who: &'static str,
    data: &View,
    dst: &View,
    axis: &[usize],
    keepdims: bool,
) -> Result<(usize, usize)> {
    let rank = data.rank();
    let mut sorted = axis.to_vec();
    sorted.sort_unstable();
    let k = sorted.len();
    let trailing: Vec<usize> = (rank.saturating_sub(k)..rank).collect();
    if k == 0 || k >= rank || sorted != trailing {
        return Err(EmuError::invalid(
            who,
            format!(
                "axis {axis:?} must be the last contiguous free dimensions of a rank-{rank} tile, \
                 ending at the final one (axis 0 cannot be reduced)"
            ),
        ));
    }
    let len: usize = data.shape()[rank - k..].iter().product();
    let groups: usize = data.shape()[..rank - k].iter().product();
    let parts = data.shape()[0];
    let kept_free = groups / parts.max(1);
    if keepdims {
        let mut want = data.shape().to_vec();
        for &a in &sorted {
            want[a] = 1;
        }
        if dst.shape() != want.as_slice() {
            return Err(EmuError::shape(
                who,
                format!("with keepdims, dst must be {want:?}, not {:?}", dst.shape()),
            ));
        }
    } else {
        let dparts = dst.shape().first().copied().unwrap_or(0);
        let dfree: usize = dst.shape().get(1..).map_or(1, |s| s.iter().product());
        if dparts != parts || dfree != kept_free {
            return Err(EmuError::shape(
                who,
                format!(
                    "dst must be {parts} partitions x {kept_free} elements, not {dparts} x {dfree}"
                ),
            ));
        }
    }
    Ok((groups, len))
}

/// `tensor_reduce_arith`: reduce the trailing free `axis` of `data` with an arithmetic
/// operator in fp32 (see the module doc).
pub fn tensor_reduce_arith(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    op: AluOp,
    axis: &[usize],
    negate: bool,
    keepdims: bool,
) -> Result<()> {
    const OP: &str = "tensor_reduce_arith";
    tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    let (groups, len) = free_axes(OP, data, dst, axis, keepdims)?;
    // Validates the operator (refusals, non-reductions) before reading anything.
    alu::reduce_f32(OP, op, &[])?;
    let x = tile::read_f32(mem, OP, "data", data)?;
    let out = (0..groups)
        .map(|g| {
            let r = alu::reduce_f32(OP, op, &x[g * len..(g + 1) * len])?;
            Ok(if negate { -r } else { r })
        })
        .collect::<Result<Vec<f32>>>()?;
    tile::store_f32(mem, OP, "dst", dst, &out)
}

/// `tensor_reduce_bitvec`: reduce the trailing free `axis` with bitwise and / or / xor.
pub fn tensor_reduce_bitvec(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    op: AluOp,
    axis: &[usize],
    keepdims: bool,
) -> Result<()> {
    const OP: &str = "tensor_reduce_bitvec";
    tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    tile::tile(mem, OP, "data", data, Space::OnChip)?;
    let width = same_width(OP, &[("dst", dst), ("data", data)])?;
    let (groups, len) = free_axes(OP, data, dst, axis, keepdims)?;
    let id = alu::bits_identity(OP, op, width)?;
    let row = checked_row(OP, op, AluClass::Bitvec)?;
    let x = tile::read_bits(mem, OP, data)?;
    let out: Vec<u64> = (0..groups)
        .map(|g| {
            x[g * len..(g + 1) * len]
                .iter()
                .fold(id, |a, &v| row.apply_bits(a, v, width))
        })
        .collect();
    tile::write_bits(mem, dst, &out)
}

/// Checks the operands of a partition reduction and returns (partitions, free elements).
fn partition_operands(
    mem: &Memory,
    who: &'static str,
    dst: &View,
    data: &View,
) -> Result<(usize, usize, usize)> {
    let d = tile::tile(mem, who, "dst", dst, Space::Sbuf)?;
    let s = tile::tile(mem, who, "data", data, Space::Sbuf)?;
    if d.free != s.free {
        return Err(EmuError::shape(
            who,
            format!(
                "dst has {} elements per partition but data has {}",
                d.free, s.free
            ),
        ));
    }
    Ok((s.parts, s.free, d.parts))
}

/// `cross_lane_reduce_arith`: `dst[:, f] = op over partitions of data[:, f]` (add,
/// average or max, fp32), broadcast to every partition of dst.
pub fn cross_lane_reduce_arith(mem: &mut Memory, dst: &View, data: &View, op: AluOp) -> Result<()> {
    const OP: &str = "cross_lane_reduce_arith";
    if !matches!(op, AluOp::Add | AluOp::Average | AluOp::Max) {
        return Err(EmuError::invalid(
            OP,
            format!(
                "{} is not a partition reduction (add, average, max)",
                op.name()
            ),
        ));
    }
    let (parts, free, dparts) = partition_operands(mem, OP, dst, data)?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    let x = tile::read_f32(mem, OP, "data", data)?;
    let mut column = Vec::with_capacity(parts);
    let mut row = Vec::with_capacity(free);
    for f in 0..free {
        column.clear();
        column.extend((0..parts).map(|p| x[p * free + f]));
        row.push(alu::reduce_f32(OP, op, &column)?);
    }
    let bits = tile::encode_f32(OP, "dst", dst.dtype(), &row)?;
    let out: Vec<u64> = (0..dparts).flat_map(|_| bits.iter().copied()).collect();
    tile::write_bits(mem, dst, &out)
}

/// `cross_lane_reduce_bitvec`: `dst[:, f] = op over partitions of data[:, f]` with
/// bitwise or / and on raw bits, broadcast to every partition of dst.
pub fn cross_lane_reduce_bitvec(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    op: AluOp,
) -> Result<()> {
    const OP: &str = "cross_lane_reduce_bitvec";
    if !matches!(op, AluOp::BitwiseOr | AluOp::BitwiseAnd | AluOp::BitwiseXor) {
        return Err(EmuError::invalid(
            OP,
            format!(
                "{} is not a bitvec partition reduction (bitwise_or, bitwise_and, bitwise_xor)",
                op.name()
            ),
        ));
    }
    let (parts, free, dparts) = partition_operands(mem, OP, dst, data)?;
    let width = same_width(OP, &[("dst", dst), ("data", data)])?;
    let id = alu::bits_identity(OP, op, width)?;
    let r = checked_row(OP, op, AluClass::Bitvec)?;
    let x = tile::read_bits(mem, OP, data)?;
    let row: Vec<u64> = (0..free)
        .map(|f| (0..parts).fold(id, |a, p| r.apply_bits(a, x[p * free + f], width)))
        .collect();
    let out: Vec<u64> = (0..dparts).flat_map(|_| row.iter().copied()).collect();
    tile::write_bits(mem, dst, &out)
}

/// `tensor_partition_reduce`: `dst[0, k] = op over partitions and the trailing free axes
/// of src` (see the module doc). `axis` lists the reduced axes: 0 and optionally the
/// trailing free axes of `src`.
pub fn tensor_partition_reduce(
    mem: &mut Memory,
    dst: &View,
    src: &View,
    op: AluOp,
    axis: &[usize],
) -> Result<()> {
    const OP: &str = "tensor_partition_reduce";
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "src", src, Space::OnChip)?;
    let rank = src.rank();
    let mut sorted = axis.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let free_axes = sorted.len().saturating_sub(1);
    let trailing: Vec<usize> = (rank.saturating_sub(free_axes)..rank).collect();
    if sorted.first() != Some(&0) || sorted[1..] != trailing[..] || free_axes + 1 > rank {
        return Err(EmuError::invalid(
            OP,
            format!(
                "axis {axis:?} must be 0 and optionally the trailing free axes of a rank-{rank} \
                 tile"
            ),
        ));
    }
    // Per partition: `kept` runs of `len` consecutive elements, one per output element.
    let len: usize = src.shape()[rank - free_axes..].iter().product();
    let kept = s.free.checked_div(len).unwrap_or(0);
    if d.parts != 1 || d.free != kept {
        return Err(EmuError::shape(
            OP,
            format!(
                "dst must be 1 partition x {kept} elements, not {} x {}",
                d.parts, d.free
            ),
        ));
    }
    let (parts, free) = (s.parts, s.free);
    // `average` is arithmetic here (the mean), though it has no element-wise row.
    let arith = op == AluOp::Average || checked_row(OP, op, AluClass::Arith).is_ok();
    if arith {
        tile::scalar_dtype(OP, "dst", dst.dtype())?;
        // Validates the operator (refusals, non-reductions) before reading anything.
        alu::reduce_f32(OP, op, &[])?;
        let x = tile::read_f32(mem, OP, "src", src)?;
        // Average sums throughout and divides once by everything it reduced.
        let (stage, count) = match op {
            AluOp::Average => (AluOp::Add, (parts * len) as f32),
            other => (other, 1.0),
        };
        let mut column = Vec::with_capacity(parts);
        let mut row = Vec::with_capacity(kept);
        for k in 0..kept {
            column.clear();
            for p in 0..parts {
                let run = &x[p * free + k * len..p * free + (k + 1) * len];
                column.push(if free_axes == 0 {
                    run[0]
                } else {
                    alu::reduce_f32(OP, stage, run)?
                });
            }
            let r = alu::reduce_f32(OP, stage, &column)?;
            row.push(if op == AluOp::Average {
                alu::divide_f32(r, count)
            } else {
                r
            });
        }
        tile::store_f32(mem, OP, "dst", dst, &row)
    } else {
        let r = checked_row(OP, op, AluClass::Bitvec)?;
        let width = same_width(OP, &[("dst", dst), ("src", src)])?;
        let id = alu::bits_identity(OP, op, width)?;
        let x = tile::read_bits(mem, OP, src)?;
        let row: Vec<u64> = (0..kept)
            .map(|k| {
                (0..parts).fold(id, |a, p| {
                    let run = &x[p * free + k * len..p * free + (k + 1) * len];
                    r.apply_bits(
                        a,
                        run.iter().fold(id, |b, &v| r.apply_bits(b, v, width)),
                        width,
                    )
                })
            })
            .collect();
        tile::write_bits(mem, dst, &row)
    }
}
