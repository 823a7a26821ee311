//! The GpSimd affine-pattern ops: `iota` (`nki.isa.iota`) and
//! `tensor_scalar_affine_select` (`nki.isa.affine_select`).
//!
//! Both evaluate, for partition `c` and pattern indices `(i_0, .., i_k)` (the pattern is
//! `[[step_0, num_0], .., [step_k, num_k]]`, outermost first, up to four pairs),
//!
//! ```text
//! value = offset + c * channel_multiplier + i_0 * step_0 + .. + i_k * step_k
//! ```
//!
//! in 32-bit integer arithmetic (wrapping; `offset`, `channel_multiplier` and the steps
//! are int32), for the `num_0 * .. * num_k` elements of each partition in row-major order.
//! That product must equal the destination's elements per partition (its free shape may
//! differ). Both write SBUF only.
//!
//! - `iota`: `dst = value`, "computed in 32-bit integer arithmetic", then cast to
//!   `dst.dtype` (integers saturate, floats round to nearest even: the numerics table in
//!   [`crate::dtype`]).
//! - `affine_select`: `dst = cmp_op(value, 0) ? on_true_tile : on_false_value`; the
//!   comparison is one of is_equal, not_equal, is_gt, is_ge, is_lt, is_le on the integer
//!   value; `on_true_tile` is in SBUF with dst's shape; when its dtype differs from dst's
//!   the selected elements "are first cast to FP32 before converting to the output data
//!   type" (equal dtypes copy bits); `on_false_value` is fp32, cast to `dst.dtype`.

use super::alu::AluOp;
use super::tile::{self, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

/// Most `[step, num]` pairs a pattern has ("up to 4D").
pub const MAX_PATTERN_DIMS: usize = 4;

fn int32(who: &'static str, what: &str, v: i64) -> Result<i32> {
    i32::try_from(v).map_err(|_| EmuError::invalid(who, format!("{what} {v} is not an int32")))
}

/// The affine value of every element (partition-major) of a `parts x free` destination.
fn affine_values(
    who: &'static str,
    pattern: &[[i64; 2]],
    offset: i64,
    channel_multiplier: i64,
    parts: usize,
    free: usize,
) -> Result<Vec<i32>> {
    if pattern.is_empty() || pattern.len() > MAX_PATTERN_DIMS {
        return Err(EmuError::invalid(
            who,
            format!(
                "pattern has {} [step, num] pairs; 1 to {MAX_PATTERN_DIMS} are accepted",
                pattern.len()
            ),
        ));
    }
    let offset = int32(who, "offset", offset)?;
    let mult = int32(who, "channel_multiplier", channel_multiplier)?;
    let mut steps = Vec::with_capacity(pattern.len());
    let mut nums = Vec::with_capacity(pattern.len());
    let mut count: usize = 1;
    for &[step, num] in pattern {
        steps.push(int32(who, "a pattern step", step)?);
        let n = usize::try_from(num)
            .map_err(|_| EmuError::invalid(who, format!("pattern count {num} is negative")))?;
        count = count
            .checked_mul(n)
            .ok_or_else(|| EmuError::overflow(who, "the pattern's element count"))?;
        nums.push(n);
    }
    if count != free {
        return Err(EmuError::shape(
            who,
            format!(
                "the pattern has {count} elements but the destination has {free} per partition"
            ),
        ));
    }
    let mut out = Vec::with_capacity(parts * free);
    let mut idx = vec![0usize; nums.len()];
    for c in 0..parts {
        let base = offset.wrapping_add((c as i32).wrapping_mul(mult));
        idx.iter_mut().for_each(|i| *i = 0);
        for _ in 0..free {
            let v = idx.iter().zip(&steps).fold(base, |a, (&i, &s)| {
                a.wrapping_add((i as i32).wrapping_mul(s))
            });
            out.push(v);
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < nums[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
    Ok(out)
}

/// `iota`: fill `dst` (SBUF) with the affine pattern's int32 values cast to its dtype.
pub fn iota(
    mem: &mut Memory,
    dst: &View,
    pattern: &[[i64; 2]],
    offset: i64,
    channel_multiplier: i64,
) -> Result<()> {
    const OP: &str = "iota";
    let d = tile::tile(mem, OP, "dst", dst, Space::Sbuf)?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    let values = affine_values(OP, pattern, offset, channel_multiplier, d.parts, d.free)?;
    let dt = dst.dtype();
    let bits: Vec<u64> = values
        .into_iter()
        .map(|v| dt.from_i64_saturating(i64::from(v)).unwrap_or(0))
        .collect();
    tile::write_bits(mem, dst, &bits)
}

/// The pattern and comparison of `tensor_scalar_affine_select`.
#[derive(Debug, Clone, Copy)]
pub struct AffineSelect<'a> {
    /// `[step, num]` pairs, outermost first.
    pub pattern: &'a [[i64; 2]],
    /// Added to every value.
    pub offset: i64,
    /// Multiplies the partition index.
    pub channel_multiplier: i64,
    /// The comparison with 0.
    pub cmp_op: AluOp,
    /// Written where the comparison is false.
    pub on_false_value: f32,
}

/// `tensor_scalar_affine_select`: `dst = cmp_op(affine, 0) ? on_true : on_false_value`.
pub fn tensor_scalar_affine_select(
    mem: &mut Memory,
    dst: &View,
    on_true: &View,
    args: &AffineSelect<'_>,
) -> Result<()> {
    const OP: &str = "tensor_scalar_affine_select";
    let d = tile::tile(mem, OP, "dst", dst, Space::Sbuf)?;
    let t = tile::tile(mem, OP, "on_true", on_true, Space::Sbuf)?;
    tile::same_shape(OP, ("dst", d), ("on_true", t))?;
    let cmp: fn(i32) -> bool = match args.cmp_op {
        AluOp::IsEqual => |v| v == 0,
        AluOp::NotEqual => |v| v != 0,
        AluOp::IsGt => |v| v > 0,
        AluOp::IsGe => |v| v >= 0,
        AluOp::IsLt => |v| v < 0,
        AluOp::IsLe => |v| v <= 0,
        other => {
            return Err(EmuError::invalid(
                OP,
                format!("cmp_op {} is not a comparison", other.name()),
            ));
        }
    };
    let values = affine_values(
        OP,
        args.pattern,
        args.offset,
        args.channel_multiplier,
        d.parts,
        d.free,
    )?;
    let (dt, tt) = (dst.dtype(), on_true.dtype());
    let fill = dt
        .from_f32(args.on_false_value)
        .ok_or_else(|| EmuError::dtype(OP, format!("dst is {dt}, which has no fp32 encoding")))?;
    if dt != tt {
        tile::scalar_dtype(OP, "on_true", tt)?;
    }
    let src = tile::read_bits(mem, OP, on_true)?;
    let bits: Vec<u64> = values
        .iter()
        .zip(&src)
        .map(|(&v, &b)| {
            if !cmp(v) {
                fill
            } else if dt == tt {
                b
            } else {
                dt.from_f32(tt.to_f32(b).unwrap_or(f32::NAN)).unwrap_or(0)
            }
        })
        .collect();
    tile::write_bits(mem, dst, &bits)
}
