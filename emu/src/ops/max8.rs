//! The Vector engine's top-8 family: `max8` (NKI `max8`), `find_index8` (NKI
//! `nc_find_index8`) and `max_index_and_match_replace` (NKI `nc_match_replace8`).
//!
//! Semantics restated from the public docstrings (NKI 2.32):
//!
//! - **max8**: per partition, the 8 largest of the source elements (converted to fp32) in
//!   descending order, converted to `dst.dtype`. `src` has up to 3 dimensions and
//!   8..=16384 elements per partition; `dst` is `[P, 8]`.
//! - **nc_find_index8**: per partition, for each of the 8 `vals`, the index (from 0, over
//!   the flattened free elements) of its first occurrence in `data`; a value not present
//!   gives the all-ones sentinel (`0xFFFFFFFF` for `uint32`, `0xFFFF` for `uint16`).
//!   Duplicate `vals` are paired with successive matching positions in ascending order
//!   across the columns (the docstring's contrast with `nc_match_replace8`), so each
//!   matching position is used once. `dst` is `[P, 8]`, `uint32` or `uint16`.
//! - **nc_match_replace8**: per partition, the `vals` are processed in reverse order
//!   (`i = 7, 6, .., 0`); each replaces the first element of `data` still equal to it with
//!   `imm` and, when `dst_idx` is given, stores that element's index in `dst_idx[i]`. The
//!   docstring's example: data `[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]`, vals
//!   `[3, 8, 8, 8, 8, 8, 8, 8]` give dst_idx `[2, 10, 9, 8, 7, 6, 5, 4]`. `dst` has the
//!   shape of `data` and receives the replaced values (via fp32). A value with no match
//!   replaces nothing; what `dst_idx` holds for it is not public, so asking for `dst_idx`
//!   then is refused.
//!
//! Comparisons are in fp32 after conversion (`==` for matches). NaN inputs are refused:
//! the hardware's ordering and matching of NaN is not public. Ties in `max8` keep input
//! order (invisible unless `-0.0` and `+0.0` are both among the top 8; our choice).
//! `vals` are `[P, 8]` elements per partition (up to 3 dimensions). Every operand is on
//! chip (SBUF or PSUM).

use super::layout::{part_free, require_on_chip};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

const OP_MAX8: &str = "max8";
const OP_FIND: &str = "find_index8";
const OP_REPLACE: &str = "max_index_and_match_replace";

/// Fewest elements per partition the family reads.
pub const MIN_ELEMENTS: usize = 8;
/// Most elements per partition the family reads.
pub const MAX_ELEMENTS_PER_PARTITION: usize = 16384;

/// `max8`: the 8 largest values of each partition, descending.
pub fn max8(mem: &mut Memory, dst: &View, src: &View) -> Result<()> {
    let (p, f) = data_operand(mem, OP_MAX8, "src", src)?;
    eight_wide(mem, OP_MAX8, "dst", dst, p)?;
    let vals = read_finite(mem, OP_MAX8, "src", src)?;
    let mut out = Vec::with_capacity(p * 8);
    for row in vals.chunks_exact(f) {
        let mut sorted = row.to_vec();
        // Stable: equal values keep input order. No NaN (refused above).
        sorted.sort_by(|a, b| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
        out.extend_from_slice(&sorted[..8]);
    }
    mem.write_f32_for(OP_MAX8, dst, &out)
}

/// `nc_find_index8`: per partition, the first index of each of 8 values (module doc).
pub fn find_index8(mem: &mut Memory, dst: &View, data: &View, vals: &View) -> Result<()> {
    let (p, f) = data_operand(mem, OP_FIND, "data", data)?;
    vals_operand(mem, OP_FIND, vals, p)?;
    eight_wide(mem, OP_FIND, "dst", dst, p)?;
    let miss: i64 = match dst.dtype() {
        DType::U32 => 0xFFFF_FFFF,
        DType::U16 => 0xFFFF,
        d => {
            return Err(EmuError::dtype(
                OP_FIND,
                format!("dst must be uint32 or uint16, not {d}"),
            ));
        }
    };
    let d = read_finite(mem, OP_FIND, "data", data)?;
    let v = read_finite(mem, OP_FIND, "vals", vals)?;
    let mut out = Vec::with_capacity(p * 8);
    for (row, want) in d.chunks_exact(f).zip(v.chunks_exact(8)) {
        let mut used = vec![false; f];
        for &x in want {
            match (0..f).find(|&j| !used[j] && row[j] == x) {
                Some(j) => {
                    used[j] = true;
                    out.push(j as i64);
                }
                None => out.push(miss),
            }
        }
    }
    mem.write_i64_for(OP_FIND, dst, &out)
}

/// `nc_match_replace8`: replace the first match of each of 8 values by `imm` (module doc).
pub fn match_replace8(
    mem: &mut Memory,
    dst: &View,
    data: &View,
    vals: &View,
    imm: f32,
    dst_idx: Option<&View>,
) -> Result<()> {
    let (p, f) = data_operand(mem, OP_REPLACE, "data", data)?;
    vals_operand(mem, OP_REPLACE, vals, p)?;
    require_on_chip(mem, OP_REPLACE, "dst", dst)?;
    let (dp, df) = part_free(OP_REPLACE, "dst", dst)?;
    if (dp, df) != (p, f) {
        return Err(EmuError::shape(
            OP_REPLACE,
            format!("dst [{dp}, {df}] must match data [{p}, {f}]"),
        ));
    }
    if dst.dtype().to_f32(0).is_none() {
        return Err(EmuError::dtype(
            OP_REPLACE,
            format!("dst is {}, which has no scalar values", dst.dtype()),
        ));
    }
    if let Some(ix) = dst_idx {
        eight_wide(mem, OP_REPLACE, "dst_idx", ix, p)?;
        if !matches!(ix.dtype(), DType::U32 | DType::U16) {
            return Err(EmuError::dtype(
                OP_REPLACE,
                format!("dst_idx must be uint32 or uint16, not {}", ix.dtype()),
            ));
        }
    }
    let mut cur = read_finite(mem, OP_REPLACE, "data", data)?;
    let v = read_finite(mem, OP_REPLACE, "vals", vals)?;
    let mut idx = vec![0i64; p * 8];
    for (part, (row, want)) in cur.chunks_exact_mut(f).zip(v.chunks_exact(8)).enumerate() {
        for i in (0..8).rev() {
            match row.iter().position(|&x| x == want[i]) {
                Some(j) => {
                    row[j] = imm;
                    idx[part * 8 + i] = j as i64;
                }
                None if dst_idx.is_some() => {
                    return Err(EmuError::unsupported(
                        OP_REPLACE,
                        format!(
                            "vals[{part}, {i}] = {} is not in the data: its dst_idx is not public",
                            want[i]
                        ),
                    ));
                }
                None => {}
            }
        }
    }
    mem.write_f32_for(OP_REPLACE, dst, &cur)?;
    if let Some(ix) = dst_idx {
        mem.write_i64_for(OP_REPLACE, ix, &idx)?;
    }
    Ok(())
}

/// A data operand: on chip, up to 3-D, 8..=16384 elements per partition.
fn data_operand(mem: &Memory, op: &'static str, what: &str, v: &View) -> Result<(usize, usize)> {
    require_on_chip(mem, op, what, v)?;
    let (p, f) = part_free(op, what, v)?;
    if v.rank() > 3 {
        return Err(EmuError::shape(
            op,
            format!("{what} has {} dimensions, at most 3", v.rank()),
        ));
    }
    if !(MIN_ELEMENTS..=MAX_ELEMENTS_PER_PARTITION).contains(&f) {
        return Err(EmuError::shape(
            op,
            format!(
                "{what} has {f} elements per partition, not {MIN_ELEMENTS}..={MAX_ELEMENTS_PER_PARTITION}"
            ),
        ));
    }
    Ok((p, f))
}

fn vals_operand(mem: &Memory, op: &'static str, vals: &View, p: usize) -> Result<()> {
    require_on_chip(mem, op, "vals", vals)?;
    let (vp, vf) = part_free(op, "vals", vals)?;
    if vals.rank() > 3 || vp != p || vf != 8 {
        return Err(EmuError::shape(
            op,
            format!(
                "vals {:?} must have {p} partitions of exactly 8 elements (up to 3 dimensions)",
                vals.shape()
            ),
        ));
    }
    Ok(())
}

/// A `[P, 8]` output.
fn eight_wide(mem: &Memory, op: &'static str, what: &str, v: &View, p: usize) -> Result<()> {
    require_on_chip(mem, op, what, v)?;
    if v.shape() != [p, 8] {
        return Err(EmuError::shape(
            op,
            format!("{what} must be [{p}, 8], not {:?}", v.shape()),
        ));
    }
    Ok(())
}

fn read_finite(mem: &Memory, op: &'static str, what: &str, v: &View) -> Result<Vec<f32>> {
    let vals = mem.read_f32_for(op, v)?;
    if vals.iter().any(|x| x.is_nan()) {
        return Err(EmuError::unsupported(
            op,
            format!("{what} holds NaN, whose ordering and matching on the engine is not public"),
        ));
    }
    Ok(vals)
}
