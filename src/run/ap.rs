//! `nisa.ap` (NKI's `.ap()`) as emulator views and access patterns.
//!
//! An access pattern addresses the tensor it is taken on as a flat array of elements of the
//! result's dtype (a reinterpret cast when the dtypes differ): `[step, num]` pair `i` walks
//! `num_i` elements `step_i` apart, from element `offset`. The emulator keeps tensors in its
//! own layout, so the pattern is translated:
//!
//! - an HBM tensor is row-major and contiguous: the pattern is a view with the nums as shape,
//!   the steps as strides and `offset` as its start;
//! - an SBUF/PSUM tile is a partition-major region whose partitions are `bytes-per-partition`
//!   apart in the emulator (not one row apart, as in the flat view). The first pair is the
//!   partition dimension, whose step is the row size (the verifier's rule); `offset` splits
//!   into a start partition (`offset / row`) and a start within the row, and the other pairs
//!   must stay inside one row: a pattern whose free part runs into the next partition's row is
//!   refused (on the device it would read the bytes that follow the row in the same
//!   partition, which belong to another tile).
//!
//! Indirection follows the shape of NKI's parameters: along `indirect_dim` the coordinate is
//! not the pattern's own index `i` but `vector_offset[i]` (one index per element of that
//! dimension), or `i + scalar_offset` (a `[1, 1]` tile or a register). The coordinate is still
//! multiplied by that dimension's step. The extent an index is checked against (the op's
//! `oob_mode`) is the number of coordinates along that dimension that keep the whole pattern
//! inside the tensor: 1024 for `[[64, 128], [1, 64]]` on a `1024 x 64` table, so a gather of
//! row 1000 through a 128-row pattern is in bounds and row 1024 is not.

use sundial_emu::{Access, Affine, DType, Subscript, VarSpace, View};

/// The emulator view of `base.ap(pattern, offset)` read as `res` elements (see the module
/// doc). Its shape is the pattern's nums, except along `indirect` (when given), where it is
/// the dimension's whole extent. `pairs` are `(step, num)`.
pub fn view(
    base: &View,
    on_chip: bool,
    res: DType,
    pairs: &[(i64, i64)],
    offset: i64,
    indirect: Option<usize>,
) -> Result<View, String> {
    if pairs.is_empty() {
        return Err("the pattern has no dimensions".into());
    }
    if let Some(d) = indirect {
        if d >= pairs.len() {
            return Err(format!(
                "indirect dimension {d} of a {}-D pattern",
                pairs.len()
            ));
        }
        if pairs[d].0 == 0 {
            return Err(format!(
                "indirect dimension {d} has step 0, which makes every index address the same element"
            ));
        }
    }
    if offset < 0 {
        return Err(format!("offset {offset} is negative"));
    }
    if pairs.iter().any(|&(_, num)| num < 1) {
        return Err("every num of the pattern must be at least 1".into());
    }
    let eb = base.dtype().size() as i128;
    let er = res.size() as i128;
    let base_byte = i128::from(base.offset()) * eb;
    if base_byte % er != 0 {
        return Err(format!(
            "the tensor starts at byte {base_byte}, which is not a multiple of {} ({res})",
            res.size()
        ));
    }
    let base_r = base_byte / er;
    // The smallest and largest offset the non-indirect dimensions from `first` on reach.
    let span = |first: usize| -> (i128, i128) {
        let mut lo = 0i128;
        let mut hi = 0i128;
        for (i, &(step, num)) in pairs.iter().enumerate().skip(first) {
            if Some(i) == indirect {
                continue;
            }
            let s = i128::from(step) * (i128::from(num) - 1);
            if s < 0 {
                lo += s;
            } else {
                hi += s;
            }
        }
        (lo, hi)
    };
    // How many coordinates along a dimension of `step` keep elements `lo..=hi` (relative to
    // the start) inside `0..limit`.
    let extent = |step: i64, lo: i128, hi: i128, limit: i128| -> i128 {
        if step > 0 {
            (limit - 1 - hi) / i128::from(step) + 1
        } else {
            lo / -i128::from(step) + 1
        }
    };
    let mut shape: Vec<i128> = pairs.iter().map(|&(_, num)| i128::from(num)).collect();
    let mut strides: Vec<i128> = pairs.iter().map(|&(step, _)| i128::from(step)).collect();
    let start;
    if !on_chip {
        let total = base.num_bytes() as i128 / er;
        let (lo, hi) = span(0);
        let (lo, hi) = (i128::from(offset) + lo, i128::from(offset) + hi);
        if lo < 0 || hi >= total {
            return Err(format!(
                "the pattern reaches element {} of a tensor of {total} {res} elements",
                if lo < 0 { lo } else { hi }
            ));
        }
        if let Some(d) = indirect {
            shape[d] = extent(pairs[d].0, lo, hi, total);
        }
        start = base_r + i128::from(offset);
    } else {
        let parts = i128::from(base.shape()[0] as i64);
        let free_bytes = base.shape()[1..].iter().fold(eb, |a, &d| a * d as i128);
        if free_bytes % er != 0 {
            return Err(format!(
                "a partition row of the tile ({free_bytes} bytes) is not a whole number of {res} elements"
            ));
        }
        let row = free_bytes / er;
        let pstride_bytes = i128::from(base.strides()[0]) * eb;
        if pstride_bytes % er != 0 {
            return Err(format!(
                "the partition stride ({pstride_bytes} bytes) is not a whole number of {res} elements"
            ));
        }
        let pstride = pstride_bytes / er;
        let (pstep, pnum) = pairs[0];
        if i128::from(pstep) != row {
            return Err(format!(
                "the partition step must be the tile's row size ({row} elements), not {pstep}"
            ));
        }
        let start_p = i128::from(offset) / row;
        let in_row = i128::from(offset) % row;
        let (lo, hi) = span(1);
        let (lo, hi) = (in_row + lo, in_row + hi);
        if lo < 0 || hi >= row {
            return Err(format!(
                "the free pattern reaches element {} of a partition row of {row} {res} elements: it would run into the next partition (rule: ap row)",
                if lo < 0 { lo } else { hi }
            ));
        }
        if indirect == Some(0) {
            shape[0] = parts - start_p;
        } else if start_p + i128::from(pnum) > parts {
            return Err(format!(
                "the pattern covers partitions {start_p}..{} of a tile of {parts}",
                start_p + i128::from(pnum)
            ));
        }
        if let Some(d) = indirect.filter(|&d| d > 0) {
            shape[d] = extent(pairs[d].0, lo, hi, row);
        }
        strides[0] = pstride;
        start = base_r + start_p * pstride + in_row;
    }
    if shape.iter().any(|&e| e < 1) {
        return Err("the pattern starts outside the tensor".into());
    }
    let too_big = || "the access pattern's addresses overflow".to_string();
    let shape = shape
        .into_iter()
        .map(|e| usize::try_from(e).map_err(|_| too_big()))
        .collect::<Result<Vec<_>, _>>()?;
    let strides = strides
        .into_iter()
        .map(|s| i64::try_from(s).map_err(|_| too_big()))
        .collect::<Result<Vec<_>, _>>()?;
    let start = i64::try_from(start).map_err(|_| too_big())?;
    View::new(base.alloc(), res, start, shape, strides).map_err(|e| e.to_string())
}

/// `view` (whose row-major walk visits the elements of a view of logical shape `shape`, in
/// order: a folded pattern's coalesced pairs) under `shape`, when strides can say it: each
/// logical dimension takes a whole number of steps of one of the view's dimensions. A logical
/// dimension spanning two strided runs (a reshape merging non-adjacent axes) has no stride;
/// then the view keeps the pattern's shape, which has the same partitions and the same
/// elements per partition (all the emulator's element-wise operands need). On-chip the
/// partition dimension is dimension 0 of both and is kept.
pub fn with_shape(view: View, shape: &[usize], on_chip: bool) -> View {
    if view.shape() == shape {
        return view;
    }
    let from = usize::from(on_chip);
    if shape.len() < from || (on_chip && view.shape().first() != shape.first()) {
        return view;
    }
    // The view's free modes (size, stride), innermost first, size-1 modes dropped.
    let mut modes: Vec<(usize, i64)> = view.shape()[from..]
        .iter()
        .zip(&view.strides()[from..])
        .filter(|(n, _)| **n != 1)
        .map(|(&n, &s)| (n, s))
        .rev()
        .collect();
    let mut strides = vec![0i64; shape.len()];
    let mut k = 0;
    for d in (from..shape.len()).rev() {
        let n = shape[d];
        if n == 1 {
            continue;
        }
        let Some(&(m, s)) = modes.get(k) else {
            return view;
        };
        if n == 0 || m % n != 0 {
            return view;
        }
        strides[d] = s;
        if m == n {
            k += 1;
        } else {
            let Some(outer) = i64::try_from(n).ok().and_then(|n| s.checked_mul(n)) else {
                return view;
            };
            modes[k] = (m / n, outer);
        }
    }
    if k != modes.len() {
        return view;
    }
    if on_chip {
        strides[0] = view.strides()[0];
    }
    View::new(
        view.alloc(),
        view.dtype(),
        view.offset(),
        shape.to_vec(),
        strides,
    )
    .unwrap_or(view)
}

/// Where index `var` of an index tile is read: the tile's one dimension longer than 1 runs
/// with the variable (`[n]`, `[n, 1]` and `[1, n]` tiles all hold n indices in order), the
/// others stay at 0. A tile with two such dimensions has no order to pick and is refused.
pub fn index_at(index: &View, var: usize) -> Result<Vec<Affine>, String> {
    let long: Vec<usize> = (0..index.rank())
        .filter(|&d| index.shape()[d] > 1)
        .collect();
    if long.len() > 1 {
        return Err(format!(
            "an index tile of shape {:?} has more than one dimension longer than 1; use [n, 1], [1, n] or [n]",
            index.shape()
        ));
    }
    Ok((0..index.rank())
        .map(|d| {
            if long.first() == Some(&d) {
                Affine::var(var)
            } else {
                Affine::constant(0)
            }
        })
        .collect())
}

/// The access `view[..., index[i], ...]` (dimension `dim` read through `index`) over the
/// variable space `nums`, where `index` holds one index per element of `nums[dim]`.
pub fn vector_access(
    view: View,
    dim: usize,
    index: &View,
    nums: &[usize],
) -> Result<Access, String> {
    if index.num_elements() != nums[dim] {
        return Err(format!(
            "the index tile holds {} indices for the {} elements of indirect dimension {dim}",
            index.num_elements(),
            nums[dim]
        ));
    }
    let at = index_at(index, dim)?;
    let subscripts = (0..view.rank())
        .map(|d| {
            if d == dim {
                Subscript::indirect(0, at.clone())
            } else {
                Subscript::var(d)
            }
        })
        .collect();
    Ok(Access {
        source: view,
        index_views: vec![index.clone()],
        subscripts,
        space: VarSpace::from_extents(nums),
        order: None,
    })
}

/// The access `view[..., i + scalar, ...]` (dimension `dim` offset by the one value of
/// `scalar`) over the variable space `nums`.
pub fn scalar_access(
    view: View,
    dim: usize,
    scalar: &View,
    nums: &[usize],
) -> Result<Access, String> {
    if scalar.num_elements() != 1 {
        return Err(format!(
            "a scalar offset holds one value, not {:?}",
            scalar.shape()
        ));
    }
    let at = vec![Affine::constant(0); scalar.rank()];
    let subscripts = (0..view.rank())
        .map(|d| {
            if d == dim {
                Subscript::indirect_plus(0, at.clone(), Affine::var(d))
            } else {
                Subscript::var(d)
            }
        })
        .collect();
    Ok(Access {
        source: view,
        index_views: vec![scalar.clone()],
        subscripts,
        space: VarSpace::from_extents(nums),
        order: None,
    })
}
