//! `stream_shuffle` (Vector engine): the partition shuffle within 32-partition quadrants,
//! `nki.isa.nc_stream_shuffle(dst, src, shuffle_mask)` (the NISA `stream_shuffle`, lowered to
//! the {0x6A, 0x69} pair).
//!
//! Semantics restated from the `nki.isa.nc_stream_shuffle` docstring:
//!
//! - `src` and `dst` are on chip (SBUF or PSUM), with the same dtype and the same number of
//!   elements per partition. The move is a bit copy (no conversion), so every dtype is
//!   accepted. `dst` may be `src` (in-place shuffle).
//! - `shuffle_mask` has 32 entries. Output partition `i` of each 32-partition quadrant
//!   copies input partition `shuffle_mask[i]` of the same quadrant; the value 255 leaves
//!   output partition `i` unmodified. With several quadrants the same mask is applied to
//!   each quadrant independently: `dst` row `32q + i` receives `src` row
//!   `32q + shuffle_mask[i]` (rows counted from each operand's start partition).
//! - `src` and `dst` may access different numbers of partitions (so one `src` partition
//!   can be broadcast to the 32 partitions of a `dst` quadrant with a mask of zeros).
//!   `num_active_partitions = ceil(max(src_partitions, dst_partitions) / 32) * 32`, and the
//!   start partitions of `src` and `dst` (which need not be equal, nor in one quadrant)
//!   must be 0 when it is 96 or 128, 0 or 64 when it is 64, and 0, 32, 64 or 96 when it is
//!   32.
//!
//! Our rules where the docstring is silent (each is an error, never a guess): a mask entry
//! is 0..=31 or 255; an entry used by an existing `dst` row must select a row `src` has
//! (a `src` row past its partitions is not an input); entries of `dst` rows past its
//! partitions select nothing and are only range-checked; an operand needs at least one
//! partition and one element per partition. Only the `src` rows some `dst` row selects are
//! read (so the uninitialised-read check sees exactly the data moved), and every check and
//! read happens before the first write.

use super::layout::{part_free, require_on_chip, row, start_partition};
use super::tile;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::{PARTITIONS, QUADRANT_PARTITIONS};
use crate::view::View;

const OP: &str = "stream_shuffle";

/// Mask entries: one per partition of a quadrant.
pub const SHUFFLE_MASK_LEN: usize = QUADRANT_PARTITIONS;

/// The mask value that leaves an output partition unmodified.
pub const SHUFFLE_KEEP: i64 = 255;

/// `stream_shuffle`: see the module doc.
pub fn stream_shuffle(
    mem: &mut Memory,
    dst: &View,
    src: &View,
    shuffle_mask: &[i64],
) -> Result<()> {
    let mask = check_mask(shuffle_mask)?;
    require_on_chip(mem, OP, "src", src)?;
    require_on_chip(mem, OP, "dst", dst)?;
    if dst.dtype() != src.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "dst is {} but src is {}: the shuffle keeps the dtype",
                dst.dtype(),
                src.dtype()
            ),
        ));
    }
    let (sp, sf) = part_free(OP, "src", src)?;
    let (dp, df) = part_free(OP, "dst", dst)?;
    if sp == 0 || dp == 0 || sf == 0 {
        return Err(EmuError::shape(
            OP,
            format!(
                "src {:?} and dst {:?} need at least one partition and one element per partition",
                src.shape(),
                dst.shape()
            ),
        ));
    }
    if sf != df {
        return Err(EmuError::shape(
            OP,
            format!("src has {sf} elements per partition but dst {df}"),
        ));
    }
    let active = sp.max(dp).div_ceil(QUADRANT_PARTITIONS) * QUADRANT_PARTITIONS;
    for (what, v) in [("src", src), ("dst", dst)] {
        let first = start_partition(mem, OP, what, v)?;
        if !start_allowed(active, first) {
            return Err(EmuError::shape(
                OP,
                format!(
                    "{what} starts on partition {first}; with {active} active partitions the \
                     start must be {}",
                    allowed_starts(active)
                ),
            ));
        }
    }
    // The src row each dst row copies, or None to keep the dst row.
    let mut sources = Vec::with_capacity(dp);
    for r in 0..dp {
        let i = r % QUADRANT_PARTITIONS;
        sources.push(match mask[i] {
            None => None,
            Some(m) => {
                let s = r - i + m;
                if s >= sp {
                    return Err(EmuError::invalid(
                        OP,
                        format!(
                            "shuffle_mask[{i}] = {m} makes dst partition {r} copy src partition \
                             {s}, but src has {sp} partitions"
                        ),
                    ));
                }
                Some(s)
            }
        });
    }
    // Read every selected src row (in-place shuffles read before any write).
    let mut rows: Vec<Option<Vec<u64>>> = vec![None; sp];
    for &s in sources.iter().flatten() {
        if rows[s].is_none() {
            rows[s] = Some(mem.read_bits_for(OP, &row(src, s)?)?);
        }
    }
    let mut bits = Vec::with_capacity(dp * df);
    let mut written = Vec::with_capacity(dp * df);
    for s in &sources {
        match s.and_then(|s| rows[s].as_ref()) {
            Some(data) => {
                bits.extend_from_slice(data);
                written.extend(std::iter::repeat_n(true, df));
            }
            None => {
                bits.extend(std::iter::repeat_n(0, df));
                written.extend(std::iter::repeat_n(false, df));
            }
        }
    }
    tile::check_writable(mem, OP, dst)?;
    tile::write_masked(mem, &dst.flatten_free()?, &bits, &written)
}

/// The mask as `Some(partition)` per entry, `None` for 255; 32 entries of 0..=31 or 255.
fn check_mask(mask: &[i64]) -> Result<[Option<usize>; SHUFFLE_MASK_LEN]> {
    if mask.len() != SHUFFLE_MASK_LEN {
        return Err(EmuError::invalid(
            OP,
            format!(
                "shuffle_mask has {} entries; it must have {SHUFFLE_MASK_LEN}",
                mask.len()
            ),
        ));
    }
    let mut out = [None; SHUFFLE_MASK_LEN];
    for (i, &m) in mask.iter().enumerate() {
        out[i] = match m {
            SHUFFLE_KEEP => None,
            0..=31 => Some(m as usize),
            _ => {
                return Err(EmuError::invalid(
                    OP,
                    format!(
                        "shuffle_mask[{i}] = {m}: an entry is a partition 0..=31 of the \
                         quadrant, or {SHUFFLE_KEEP} to keep the output partition"
                    ),
                ));
            }
        };
    }
    Ok(out)
}

/// Whether an operand may start on partition `first` when `active` partitions are active.
fn start_allowed(active: usize, first: usize) -> bool {
    match active {
        32 => first.is_multiple_of(QUADRANT_PARTITIONS) && first < PARTITIONS,
        64 => first == 0 || first == 64,
        _ => first == 0,
    }
}

fn allowed_starts(active: usize) -> &'static str {
    match active {
        32 => "0, 32, 64 or 96",
        64 => "0 or 64",
        _ => "0",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_rules_follow_the_active_partition_count() {
        // The docstring's table: 32 -> 0/32/64/96, 64 -> 0/64, 96 and 128 -> 0.
        for (active, ok) in [
            (32, &[0usize, 32, 64, 96][..]),
            (64, &[0, 64]),
            (96, &[0]),
            (128, &[0]),
        ] {
            for first in 0..PARTITIONS {
                assert_eq!(
                    start_allowed(active, first),
                    ok.contains(&first),
                    "{active} {first}"
                );
            }
        }
    }
}
