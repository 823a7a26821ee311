//! `sequence_bounds` (NKI `sequence_bounds`): the `[start, end)` of each element's
//! segment, on GpSimd.
//!
//! Semantics restated from the public docstring and its NumPy equivalent: `segment_ids` is
//! a `[1, n]` tile of non-negative integer ids (partition dimension 1, free dimensions
//! flattened); a segment is a maximal run of equal consecutive ids; id 0 is padding. `dst`
//! is `[1, 2, n]`: row 0 holds each element's segment start, row 1 its segment end
//! (exclusive); a padding element gets start `n` and end `-1`.
//!
//! ```text
//! start[0] = 0 if id[0] != 0 else n
//! start[i] = n if id[i] == 0 else start[i-1] if id[i] == id[i-1] else i
//! end[n-1] = n if id[n-1] != 0 else -1
//! end[i]   = -1 if id[i] == 0 else end[i+1] if id[i] == id[i+1] else i + 1
//! ```
//!
//! Both tiles are SBUF `float32` or `int32` (each independently). An id that is negative
//! or not an integer breaks the op's precondition and is refused. A `float32` result is
//! exact for `n <= 2^24`.

use super::layout::part_free;
use super::require_space;
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::view::View;

const OP: &str = "sequence_bounds";

/// `sequence_bounds`: see the module doc.
pub fn sequence_bounds(mem: &mut Memory, dst: &View, segment_ids: &View) -> Result<()> {
    require_space(mem, OP, "segment_ids", segment_ids, MemSpace::Sbuf)?;
    require_space(mem, OP, "dst", dst, MemSpace::Sbuf)?;
    for (what, v) in [("segment_ids", segment_ids), ("dst", dst)] {
        if !matches!(v.dtype(), DType::F32 | DType::I32) {
            return Err(EmuError::dtype(
                OP,
                format!("{what} must be float32 or int32, not {}", v.dtype()),
            ));
        }
    }
    let (p, n) = part_free(OP, "segment_ids", segment_ids)?;
    if p != 1 {
        return Err(EmuError::shape(
            OP,
            format!("segment_ids must have 1 partition, not {p}"),
        ));
    }
    if dst.shape() != [1, 2, n] {
        return Err(EmuError::shape(
            OP,
            format!("dst must be [1, 2, {n}], not {:?}", dst.shape()),
        ));
    }
    let ids: Vec<f64> = match segment_ids.dtype() {
        DType::I32 => mem
            .read_i64_for(OP, segment_ids)?
            .into_iter()
            .map(|v| v as f64)
            .collect(),
        _ => mem
            .read_f32_for(OP, segment_ids)?
            .into_iter()
            .map(f64::from)
            .collect(),
    };
    if let Some((i, v)) = ids
        .iter()
        .enumerate()
        .find(|(_, v)| !(v.fract() == 0.0 && **v >= 0.0))
    {
        return Err(EmuError::unsupported(
            OP,
            format!("segment id {v} at {i} is not a non-negative integer"),
        ));
    }
    let n_i = n as i64;
    let mut start = vec![0i64; n];
    for i in 0..n {
        start[i] = if ids[i] == 0.0 {
            n_i
        } else if i > 0 && ids[i] == ids[i - 1] {
            start[i - 1]
        } else {
            i as i64
        };
    }
    let mut end = vec![0i64; n];
    for i in (0..n).rev() {
        end[i] = if ids[i] == 0.0 {
            -1
        } else if i + 1 < n && ids[i] == ids[i + 1] {
            end[i + 1]
        } else {
            i as i64 + 1
        };
    }
    let mut out = start;
    out.extend(end);
    match dst.dtype() {
        DType::I32 => mem.write_i64_for(OP, dst, &out),
        _ => {
            let f: Vec<f32> = out.iter().map(|&v| v as f32).collect();
            mem.write_f32_for(OP, dst, &f)
        }
    }
}
