//! The free-axis cut of `sundial-partition-tiling` (pass-rules §5 items 4-7), run after the
//! partition cut on the physical (at most 128-partition) ops.
//!
//! **When it applies** (our reading of the rules, stated in the pass's docs): the pass's
//! purpose is that "the ceiling is one PSUM bank" [seed]; the budget `free-tile-elements`
//! (512 = one 2 KiB bank of fp32) is the size of the tiles a cut makes, not a limit every op
//! must meet. The kernel allocates its tiles, so cutting an op whose operands already fit buys
//! nothing and costs an instruction launch per piece (Vector ≈64 cycles, GpSimd ≈150 [docs]).
//! An op is cut only when one of its operands breaks a limit of §5.4: a PSUM operand with more
//! than one bank (2048 bytes per partition; no tile spans banks [wiki]), or an SBUF operand
//! with more than `max-tile-bytes` per partition. Its producers in the same elementwise chain
//! then take the same cut (rate matching, item 6) so the pieces line up; a consumer needing
//! another cut gets its own. Each op gets its own pieces (or loop): the rate-matched loops
//! are not fused into one nest.
//!
//! **Which ops**: the elementwise ops ([`CUTTABLE`]: each output element from the same
//! element of its tile inputs, `[P, 1]` per-partition operands kept whole) and the free-axis
//! reductions (`tensor_reduce_*`: only the non-reduced axes are cut, the reduced ones stay
//! whole [wiki]). `activation` is cut only without an accumulation (`reduce_cmd` idle, no
//! `reduce_res`). Other ops are never cut (matmul's N has its own bank cut in the partition
//! step); a cuttable op over a limit whose tile operands differ in free shape (NKI's "equal
//! elements per partition" agreement) is refused, as is a reduction in PSUM whose reduced
//! axes exceed one bank ("‹axis› must stay whole but exceeds one PSUM bank" [wiki]). A
//! reduction over SBUF whose reduced axes alone exceed `max-tile-bytes` is left whole (they
//! cannot be cut and SBUF has no bank boundary).
//!
//! **The cut** ([`cut`], item 5): the free axes by priority, innermost first (so a tile stays
//! contiguous), budget `B` = the smallest of `free-tile-elements` and what the limits allow
//! (a reduction's whole reduced axes count as at least `B`). Output (item 7): with more than
//! `max-unrolled-blocks` pieces, all of one shape, on allocations or kernel arguments, one
//! `scf.for` over the piece index whose body addresses each cut operand through a
//! `nisa.dynamic_ap` (`sundial-unroll` unrolls it for selection, as every constant loop);
//! otherwise one copy of the op per piece through static `nisa.slice` views. `uniform-tiles`
//! makes every piece the same size (the largest divisor of the cut axis not above the cut),
//! so more cuts take the loop form.

use crate::{
    emit::tile,
    partition_tiling::{PSUM_BANK_BYTES, copy_op},
    rewrite::{Rewriter, refuse},
};
use melior::ir::{BlockLike, Value, ValueLike, operation::OperationLike, operation::OperationRef};
use std::collections::HashMap;
use sundial_dialects::{
    build::{BuildError, OpBuild, tile_type_of},
    enums::Space,
    tile::Tile,
    view::View,
};

/// The elementwise ops the free cut applies to.
pub const CUTTABLE: &[&str] = &[
    "tensor_tensor_arith",
    "tensor_tensor_bitvec",
    "tensor_tensor_power",
    "tensor_scalar_arith",
    "tensor_scalar_bitvec",
    "scalar_tensor_tensor_arith",
    "copy_predicated",
    "memset",
    "tensor_copy",
    "reciprocal",
    "activation",
];

/// The free-axis reductions (only their non-reduced axes are cut).
pub const REDUCTIONS: &[&str] = &["tensor_reduce_arith", "tensor_reduce_bitvec"];

/// The cut of pass-rules §5 item 5: `extents` are the axes by priority (kept whole first),
/// `budget` the most elements of a tile. `None`: no cut (the product fits). Otherwise the
/// tile's extent on every axis, in the same order: the axes before the first axis `i` where
/// the running product exceeds the budget are whole; axis `i` is cut in pieces of `t =
/// ⌊budget / product(axes before i)⌋` (with `uniform`: the largest divisor of its extent not
/// above `t`), or, when `t <= 1`, the cut falls before it (pieces of 1); the later axes are
/// pieces of 1 (they loop).
pub fn cut(extents: &[i64], budget: i64, uniform: bool) -> Option<Vec<i64>> {
    let budget = budget.max(1);
    let mut before: i64 = 1;
    for (i, &e) in extents.iter().enumerate() {
        let running = before.saturating_mul(e);
        if running > budget {
            let t = budget / before;
            let t = if t <= 1 {
                1
            } else if uniform {
                (1..=t).rev().find(|d| e % d == 0).unwrap_or(1)
            } else {
                t
            };
            let mut out = extents[..i].to_vec();
            out.push(t);
            out.extend(std::iter::repeat_n(1, extents.len() - i - 1));
            return Some(out);
        }
        before = running;
    }
    None
}

/// The cut's options.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `free-tile-elements`.
    pub budget: i64,
    /// `max-tile-bytes`.
    pub max_tile_bytes: i64,
    /// `uniform-tiles`.
    pub uniform: bool,
    /// `max-unrolled-blocks`: more equal pieces than this run in an `scf.for`.
    pub max_unrolled: i64,
}

/// How one operand follows the iteration space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Map {
    /// A `[P, 1]` per-partition operand (or an operand with no free elements): kept whole.
    Whole,
    /// The iteration space itself.
    Iter,
    /// A reduction's destination: the iteration space without the reduced axes (size 1 when
    /// `keepdims`).
    Reduced { keepdims: bool },
}

/// One op the cut looks at.
struct Candidate<'c, 'a> {
    view: View<'c, 'a>,
    /// The iteration free shape (dst's, or the reduced data's).
    iter: Vec<i64>,
    /// Reduced iteration axes (free-axis indices).
    reduced: Vec<usize>,
    operands: Vec<(usize, Value<'c, 'a>, Map, bool)>,
    /// The tile extent per iteration axis (memory order), once decided.
    chunks: Option<Vec<i64>>,
}

fn tile_of(value: Value<'_, '_>) -> Result<Tile, String> {
    Tile::from_type(value.r#type())
}

fn limit_of(t: &Tile, limits: &Limits) -> Option<i64> {
    match t.space {
        Space::Psum => Some(PSUM_BANK_BYTES),
        Space::Sbuf => Some(limits.max_tile_bytes),
        Space::Hbm => None,
    }
}

fn key(value: Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

/// The candidate for `v`, `Ok(None)` when the op is not cuttable, `Err` a refusal when it
/// must be cut but cannot be.
fn candidate<'c, 'a>(
    v: &View<'c, 'a>,
    limits: &Limits,
) -> Result<Option<Candidate<'c, 'a>>, String> {
    let name = v.mnemonic();
    let reduction = REDUCTIONS.contains(&name);
    if !reduction && !CUTTABLE.contains(&name) {
        return Ok(None);
    }
    if name == "activation"
        && (v.value("reduce_res").is_some()
            || v.str_attr("reduce_cmd").is_some_and(|c| c != "idle"))
    {
        return Ok(None);
    }
    let operands = v.tile_operands();
    let (iter, reduced, keepdims) = if reduction {
        let data = v.tile("data").ok_or("operand 'data' missing")?;
        let axes = v.i64_array("axis").unwrap_or_default();
        let reduced: Vec<usize> = axes
            .iter()
            .filter(|&&a| a >= 1 && (a as usize) < data.shape.len())
            .map(|&a| a as usize - 1)
            .collect();
        (data.free_shape().to_vec(), reduced, v.bool_attr("keepdims"))
    } else {
        let dst = operands
            .iter()
            .find(|o| o.write)
            .ok_or("no destination operand")?;
        (tile_of(dst.value)?.free_shape().to_vec(), Vec::new(), false)
    };
    let elements: i64 = iter.iter().product();
    let mut mapped = Vec::new();
    let mut mismatch = None;
    let mut over = None;
    let mut limit_elements = i64::MAX;
    for o in &operands {
        let t = tile_of(o.value)?;
        let map = if reduction && o.group == "dst" {
            let want: Vec<i64> = (0..iter.len())
                .filter_map(|a| {
                    if !reduced.contains(&a) {
                        Some(iter[a])
                    } else {
                        keepdims.then_some(1)
                    }
                })
                .collect();
            if t.free_shape() == want.as_slice() {
                Map::Reduced { keepdims }
            } else if reduced.len() == iter.len() {
                // Every free axis reduced: nothing of dst follows the cut.
                Map::Whole
            } else {
                mismatch = Some((o.group, t.shape_str()));
                Map::Whole
            }
        } else if t.free_shape() == iter.as_slice() {
            Map::Iter
        } else if t.free_size() == Some(1) && elements != 1 {
            Map::Whole
        } else {
            mismatch = Some((o.group, t.shape_str()));
            Map::Whole
        };
        if let Some(limit) = limit_of(&t, limits) {
            let bytes = t.dtype.byte_size() as i64;
            if map == Map::Iter {
                limit_elements = limit_elements.min((limit / bytes).max(1));
            }
            let own = t.free_bytes().unwrap_or(i64::MAX);
            if own > limit && over.is_none() {
                over = Some((o.group, own, t.clone(), limit));
            }
        }
        mapped.push((o.index, o.value, map, o.write));
    }
    let mut c = Candidate {
        view: v.clone(),
        iter,
        reduced,
        operands: mapped,
        chunks: None,
    };
    let Some((group, over_bytes, over_tile, limit)) = over else {
        return Ok(Some(c));
    };
    if let Some((g, shape)) = mismatch {
        return Err(format!(
            "operand '{group}' has {over_bytes} bytes per partition, more than {}, so the op must be cut along its free axes, but operand '{g}' ({shape}) does not have the iteration shape {} ({}) (write its operands with one free shape) (rule: partition tiling free cut)",
            limit_name(&over_tile, limit),
            shape_str(&c.iter),
            if reduction { "data's" } else { "dst's" }
        ));
    }
    let whole: i64 = c.reduced.iter().map(|&a| c.iter[a]).product();
    if whole > limit_elements {
        let psum = c.operands.iter().any(|(_, value, map, _)| {
            *map == Map::Iter && tile_of(*value).is_ok_and(|t| t.space == Space::Psum)
        });
        if psum {
            let axes: Vec<String> = c.reduced.iter().map(|a| (a + 1).to_string()).collect();
            return Err(format!(
                "reduced axis {} must stay whole but exceeds one PSUM bank ({} elements per partition where a {PSUM_BANK_BYTES}-byte bank holds {limit_elements}) (rule: partition tiling free cut)",
                axes.join(", "),
                whole
            ));
        }
        return Ok(Some(c));
    }
    let budget = limits.budget.min(limit_elements).max(whole);
    // Priority: the reduced axes first (whole), then the others, innermost first.
    let mut order: Vec<usize> = c.reduced.iter().rev().copied().collect();
    order.extend((0..c.iter.len()).rev().filter(|a| !c.reduced.contains(a)));
    let extents: Vec<i64> = order.iter().map(|&a| c.iter[a]).collect();
    if let Some(pieces) = cut(&extents, budget, limits.uniform) {
        let mut chunks = c.iter.clone();
        for (k, &a) in order.iter().enumerate() {
            chunks[a] = pieces[k];
        }
        c.chunks = Some(chunks);
    }
    Ok(Some(c))
}

fn limit_name(t: &Tile, limit: i64) -> String {
    if t.space == Space::Psum {
        format!("one PSUM bank ({limit} bytes)")
    } else {
        format!("max-tile-bytes={limit}")
    }
}

fn shape_str(shape: &[i64]) -> String {
    shape
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

fn block_key(op: &OperationRef<'_, '_>) -> usize {
    op.block().map_or(0, |b| b.to_raw().ptr as usize)
}

/// Runs the free cut over every op under `root`; `false` after a refusal (reported).
pub(crate) fn run(root: &OperationRef<'_, '_>, limits: &Limits) -> bool {
    let views = crate::rewrite::collect_views(root, |spec| {
        CUTTABLE.contains(&spec.name) || REDUCTIONS.contains(&spec.name)
    });
    let mut candidates = Vec::new();
    let mut failed = false;
    for v in views {
        match candidate(&v, limits) {
            Ok(Some(c)) => candidates.push(c),
            Ok(None) => {}
            Err(message) => {
                refuse(&v.op(), message);
                failed = true;
            }
        }
    }
    if failed {
        return false;
    }
    // Nothing over a limit (the usual kernel): no cut to apply or to pass on to producers.
    if candidates.iter().all(|c| c.chunks.is_none()) {
        return true;
    }
    // Rate matching: the producer of a cut op's input (the last earlier elementwise op of
    // the same block writing that value, over the same iteration shape) takes its cut.
    let mut producer: Vec<Vec<usize>> = vec![Vec::new(); candidates.len()];
    let mut last_writer: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        let block = block_key(&c.view.op());
        for (_, value, map, write) in &c.operands {
            if !*write
                && *map == Map::Iter
                && let Some(&p) = last_writer.get(&(block, key(*value)))
            {
                producer[i].push(p);
            }
        }
        for (_, value, map, write) in &c.operands {
            if *write && *map == Map::Iter {
                last_writer.insert((block, key(*value)), i);
            }
        }
    }
    for i in (0..candidates.len()).rev() {
        let Some(chunks) = candidates[i].chunks.clone() else {
            continue;
        };
        let iter = candidates[i].iter.clone();
        for &p in &producer[i] {
            let c = &mut candidates[p];
            if c.chunks.is_none() && c.reduced.is_empty() && c.iter == iter {
                c.chunks = Some(chunks.clone());
            }
        }
    }
    let rewriter = Rewriter::new(root);
    for c in &candidates {
        if let Some(chunks) = &c.chunks
            && let Err(e) = apply(&rewriter, c, chunks, limits.max_unrolled)
        {
            refuse(&c.view.op(), format!("could not be cut: {e}"));
            return false;
        }
    }
    true
}

/// The free axes of operand `map` that follow iteration axes: for each of the operand's free
/// dims, the iteration axis it follows (`None`: a kept size-1 reduced dim).
fn operand_axes(c: &Candidate<'_, '_>, map: Map) -> Vec<Option<usize>> {
    match map {
        Map::Whole => Vec::new(),
        Map::Iter => (0..c.iter.len()).map(Some).collect(),
        Map::Reduced { keepdims } => (0..c.iter.len())
            .filter_map(|a| {
                if !c.reduced.contains(&a) {
                    Some(Some(a))
                } else {
                    keepdims.then_some(None)
                }
            })
            .collect(),
    }
}

fn is_root(value: Value<'_, '_>) -> bool {
    let argument = unsafe { mlir_sys::mlirValueIsABlockArgument(value.to_raw()) };
    argument
        || sundial_dialects::verify::defining_op(value)
            .is_some_and(|d| crate::rewrite::op_is(&d, "nisa.alloc"))
}

/// The copies of the op over its pieces: an `scf.for` over the piece index when there are
/// more than `max_unrolled` pieces, all of one shape, on tiles a `nisa.dynamic_ap` can
/// address (allocations and kernel arguments); else one copy per piece, every `Iter` /
/// `Reduced` operand its `nisa.slice`.
fn apply<'c, 'a>(
    rewriter: &Rewriter<'c>,
    c: &Candidate<'c, 'a>,
    chunks: &[i64],
    max_unrolled: i64,
) -> Result<(), BuildError> {
    let op = c.view.op();
    let counts: Vec<i64> = c
        .iter
        .iter()
        .zip(chunks)
        .map(|(&e, &t)| (e + t - 1) / t)
        .collect();
    let total: i64 = counts.iter().product();
    let equal = c.iter.iter().zip(chunks).all(|(&e, &t)| e % t == 0);
    let rooted = c
        .operands
        .iter()
        .all(|(_, value, map, _)| *map == Map::Whole || is_root(*value));
    if total > max_unrolled && equal && rooted {
        piece_loop(rewriter, c, chunks, &counts, total)?;
        rewriter.erase(op);
        return Ok(());
    }
    for n in 0..total {
        // Piece n, row-major over the piece counts.
        let mut index = vec![0i64; counts.len()];
        let mut rest = n;
        for a in (0..counts.len()).rev() {
            index[a] = rest % counts[a];
            rest /= counts[a];
        }
        let start: Vec<i64> = index.iter().zip(chunks).map(|(&k, &t)| k * t).collect();
        let len: Vec<i64> = start
            .iter()
            .zip(chunks)
            .zip(&c.iter)
            .map(|((&s, &t), &e)| t.min(e - s))
            .collect();
        let mut replace = Vec::new();
        for &(index, value, map, _) in &c.operands {
            let (s, l): (Vec<i64>, Vec<i64>) = match map {
                Map::Whole => continue,
                Map::Iter => (start.clone(), len.clone()),
                Map::Reduced { keepdims } => {
                    let mut s = Vec::new();
                    let mut l = Vec::new();
                    for a in 0..c.iter.len() {
                        if !c.reduced.contains(&a) {
                            s.push(start[a]);
                            l.push(len[a]);
                        } else if keepdims {
                            s.push(0);
                            l.push(1);
                        }
                    }
                    (s, l)
                }
            };
            replace.push((index, slice(rewriter, op, value, &s, &l)?));
        }
        copy_op(rewriter, op, &replace, &[]);
    }
    rewriter.erase(op);
    Ok(())
}

/// `value[:, start...]` with free extents `len`, a `nisa.slice` before `anchor`.
fn slice<'c, 'a>(
    rewriter: &Rewriter<'c>,
    anchor: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    start: &[i64],
    len: &[i64],
) -> Result<Value<'c, 'a>, BuildError> {
    let t = tile_of(value).map_err(BuildError::Mlir)?;
    let mut full_start = vec![0];
    full_start.extend_from_slice(start);
    let mut shape = vec![t.partitions()];
    shape.extend_from_slice(len);
    let ty = tile_type_of(value.context(), &tile(t.space, &shape, t.dtype))?;
    let op = rewriter.build_before(
        anchor,
        OpBuild::at(&anchor, "nisa.slice")?
            .operand("tensor", value)?
            .i64_array("start", &full_start)?
            .result(ty),
    )?;
    op.result(0)
        .map(Into::into)
        .map_err(|e| BuildError::Mlir(e.to_string()))
}

/// `scf.for %n = 0 to total` around one copy of the op, every cut operand the
/// `nisa.dynamic_ap` of piece `%n` (row-major over the piece counts: axis `a`'s piece is
/// `(%n / product(counts after a)) mod counts[a]`); the pieces are independent
/// (`sundial.range = "affine"`).
fn piece_loop<'c, 'a>(
    rewriter: &Rewriter<'c>,
    c: &Candidate<'c, 'a>,
    chunks: &[i64],
    counts: &[i64],
    total: i64,
) -> Result<(), BuildError> {
    use melior::dialect::arith;
    let op = c.view.op();
    let context = op.context();
    let loc = op.location();
    let mlir = |e: String| BuildError::Mlir(e);
    let result = |o: OperationRef<'c, 'a>| -> Result<Value<'c, 'a>, BuildError> {
        o.result(0).map(Into::into).map_err(|e| mlir(e.to_string()))
    };
    let constant = |value: i64, anchor: OperationRef<'c, 'a>| {
        crate::rewrite::index_constant(rewriter, anchor, value)
    };
    let (iv, terminator) = crate::rewrite::affine_loop_before(rewriter, op, total)?;
    // The start of the piece on every iteration axis, as an index.
    let mut starts = Vec::new();
    let mut after: i64 = counts.iter().product();
    let mut outer = true;
    for (a, &n) in counts.iter().enumerate() {
        after /= n;
        if n == 1 {
            starts.push(None);
            continue;
        }
        let q = if after == 1 {
            iv
        } else {
            let div = constant(after, terminator)?;
            result(rewriter.insert_before(terminator, arith::divui(iv, div, loc)))?
        };
        // The outermost looping axis needs no remainder: its quotient is below n.
        let k = if outer {
            q
        } else {
            let m = constant(n, terminator)?;
            result(rewriter.insert_before(terminator, arith::remui(q, m, loc)))?
        };
        outer = false;
        if chunks[a] == 1 {
            starts.push(Some(k));
            continue;
        }
        let t = constant(chunks[a], terminator)?;
        starts.push(Some(result(
            rewriter.insert_before(terminator, arith::muli(k, t, loc)),
        )?));
    }
    let mut replace = Vec::new();
    for &(position, value, map, _) in &c.operands {
        if map == Map::Whole {
            continue;
        }
        let t = tile_of(value).map_err(mlir)?;
        let free = t.free_shape();
        let axes = operand_axes(c, map);
        let row: i64 = free.iter().product();
        let mut pattern = vec![row, t.partitions()];
        let mut shape = vec![t.partitions()];
        let mut offset: Option<Value<'c, 'a>> = None;
        for (d, axis) in axes.iter().enumerate() {
            let stride: i64 = free[d + 1..].iter().product();
            let len = axis.map_or(1, |a| chunks[a]);
            pattern.push(stride);
            pattern.push(len);
            shape.push(len);
            if let Some(start) = axis.and_then(|a| starts[a]) {
                let term = if stride == 1 {
                    start
                } else {
                    let s = constant(stride, terminator)?;
                    result(rewriter.insert_before(terminator, arith::muli(start, s, loc)))?
                };
                offset = Some(match offset {
                    None => term,
                    Some(o) => {
                        result(rewriter.insert_before(terminator, arith::addi(o, term, loc)))?
                    }
                });
            }
        }
        let offset = match offset {
            Some(o) => o,
            None => constant(0, terminator)?,
        };
        let ty = tile_type_of(context, &tile(t.space, &shape, t.dtype))?;
        let ap = rewriter.build_before(
            terminator,
            OpBuild::at(&op, "nisa.dynamic_ap")?
                .operand("tensor", value)?
                .operand("dynamic_offset", offset)?
                .i64_array("pattern", &pattern)?
                .result(ty),
        )?;
        replace.push((position, result(ap)?));
    }
    let clone: melior::ir::Operation<'c> =
        unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
    let new = rewriter.insert_before(terminator, clone);
    for (position, value) in replace {
        crate::rewrite::set_operand(&new, position, value);
    }
    Ok(())
}
