//! View folding: the one function that turns a chain of NISA views into the single physical
//! access pattern the hardware reads.
//!
//! NKI's tensor views (`NkiTensor.reshape`, `.slice`, `.permute`, `.broadcast`, and `.ap()`
//! taken on a view) never copy data: each composes an access pattern over the allocation it
//! started from. In NISA they are the ops `nisa.reshape`, `nisa.slice`, `nisa.permute`,
//! `nisa.broadcast` and `nisa.ap`; a chain of them over one allocated tensor (an `alloc`
//! result or an argument) is described here as a [`Base`] and a list of [`ViewStep`]s, and
//! [`fold`] turns it into one [`Folded`] pattern: an element offset and `[step, num]` pairs
//! over the base allocation, or a [`FoldError`] naming the step that cannot fold and why.
//!
//! This module is pure Rust (no MLIR): the verifier calls it for every view op
//! (`verify/view_rules.rs` reads the chain out of the IR), and the emulator driver and
//! instruction selection (`sundial-isel`'s physical patterns) call it to get the pattern they
//! address.
//!
//! # The address model
//!
//! Addresses are element indices of the base allocation read as one flat row-major buffer, in
//! units of the view's element type (`nisa.ap` may reinterpret the base: a bf16 tile read as
//! f32 words; every later view keeps that dtype). On-chip (SBUF/PSUM) the flat index of
//! partition `p`, free element `f` is `p * row + f` with `row` the base's elements per
//! partition, exactly as `nisa.ap` counts; the partition dimension stays dimension 0 of every
//! view, and the first pair of an on-chip pattern is the partition pair (step `row`).
//!
//! # How the views compose
//!
//! The state of a chain is the view's logical shape and its *flat layout*: strided modes
//! `(size, stride)` whose row-major walk visits the view's elements in its own row-major order
//! (on-chip: the elements of one partition; partitions are always `row` apart). A reshape keeps
//! the flat layout (the order of the elements does not change); a slice, a permute, a
//! broadcast and an access pattern are each an affine pattern over the view's logical flat
//! index (`offset + sum(i_k * step_k)`), composed with the flat layout. The composition is
//! exact or refused: the logical index is written in the mixed radix of the layout's
//! (coalesced) mode sizes; a pair that crosses a mode boundary is split there when it covers
//! whole modes, and the result is accepted only when no digit can carry (then the physical
//! address is linear in every index, with the steps the digits give); a walk of at most
//! [`EXACT_LIMIT`] points the digit rule refuses is decided exactly from its addresses.
//! Anything else (a slice
//! that straddles the rows of an earlier reshape of a sliced view, a pattern entering a run at
//! several points) is a [`FoldErrorKind::NotFoldable`] error: no strided pattern addresses it.

use std::fmt;

/// The most `[step, num]` pairs a folded pattern may have: the partition pair plus the four
/// free dimensions an access pattern addresses (the widest `nisa.ap` pattern, 10 values).
pub const MAX_PAIRS: usize = 5;

/// The tensor a chain of views starts from: an allocation or an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    /// Its shape (dimension 0 is the partition dimension on-chip).
    pub shape: Vec<i64>,
    /// Bytes per element of its dtype.
    pub elem_bytes: i64,
    /// Whether it lives in SBUF or PSUM (else HBM).
    pub on_chip: bool,
}

/// One view op of a chain, with what the op states (its result shape included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewStep {
    /// `nisa.ap`: `[step, num]` pairs and an element offset over the input read as a flat
    /// row-major buffer of `elem_bytes`-byte elements. On the base it may reinterpret the
    /// dtype; on a view it keeps it. On-chip the first pair is the partition pair, whose step
    /// is the input's elements per partition. `indirect_dim`: the pair a vector or scalar
    /// offset replaces (the chain must end there).
    Ap {
        /// `[step, num]` pairs, outermost first.
        pattern: Vec<(i64, i64)>,
        /// Element offset.
        offset: i64,
        /// Bytes per element of the result dtype.
        elem_bytes: i64,
        /// The indirect pair, for an indirect access pattern.
        indirect_dim: Option<usize>,
    },
    /// `nisa.reshape`: the same elements in row-major order under `shape`.
    Reshape {
        /// The result shape.
        shape: Vec<i64>,
    },
    /// `nisa.slice`: dimension `d` keeps `shape[d]` elements from `start[d]` every `step[d]`.
    Slice {
        /// First element per dimension.
        start: Vec<i64>,
        /// Stride per dimension (at least 1).
        step: Vec<i64>,
        /// The result shape (elements kept per dimension).
        shape: Vec<i64>,
    },
    /// `nisa.permute`: result dimension `i` is input dimension `dims[i]`.
    Permute {
        /// The permutation.
        dims: Vec<i64>,
    },
    /// `nisa.broadcast`: every size-1 dimension whose result size is larger repeats its
    /// element (stride 0); the other dimensions are unchanged.
    Broadcast {
        /// The result shape.
        shape: Vec<i64>,
    },
}

impl ViewStep {
    /// The op mnemonic of the step, for messages.
    pub fn op_name(&self) -> &'static str {
        match self {
            ViewStep::Ap { .. } => "nisa.ap",
            ViewStep::Reshape { .. } => "nisa.reshape",
            ViewStep::Slice { .. } => "nisa.slice",
            ViewStep::Permute { .. } => "nisa.permute",
            ViewStep::Broadcast { .. } => "nisa.broadcast",
        }
    }
}

/// A folded view: the physical pattern over the base allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folded {
    /// Element offset into the base allocation (flat, in units of `elem_bytes`).
    pub offset: i64,
    /// `[step, num]` pairs, outermost first; read row-major, they enumerate the view's elements
    /// in the view's row-major order. On-chip the first pair is the partition pair. At most
    /// [`MAX_PAIRS`]; pairs are coalesced (and size-1 pairs dropped) except for an indirect
    /// pattern, which is the access pattern's own.
    pub pattern: Vec<(i64, i64)>,
    /// The view's logical shape.
    pub shape: Vec<i64>,
    /// Bytes per element of the units of `offset` and the steps.
    pub elem_bytes: i64,
    /// For a chain ending in an indirect access pattern: the pair its index replaces.
    pub indirect_dim: Option<usize>,
}

/// Why a chain does not fold; each kind is one verifier rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldErrorKind {
    /// A view changes the dtype (only an access pattern on the allocation may reinterpret it).
    Dtype,
    /// An on-chip view moves, splits, steps over or broadcasts the partition dimension.
    Partition,
    /// A view's shape or arguments do not fit its input (ranks, element counts, permutations).
    Shape,
    /// A slice or an access pattern reaches outside its input.
    Bounds,
    /// An access pattern's pairs are malformed, or its partition step is not the input's row.
    Pattern,
    /// The composition needs a copy: no single strided pattern addresses the view.
    NotFoldable,
    /// The folded pattern needs more than [`MAX_PAIRS`] pairs.
    TooManyPairs,
    /// A view of an indirect access pattern, or an indirect access pattern on a view that is
    /// not one contiguous block.
    Indirect,
    /// An address does not fit in 64 bits.
    Overflow,
}

/// A chain that does not fold: which step, why, and the sentence saying so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldError {
    /// Index of the failing step in the chain.
    pub step: usize,
    /// The broken rule.
    pub kind: FoldErrorKind,
    /// What is wrong, for a diagnostic.
    pub message: String,
}

impl fmt::Display for FoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "view step {}: {}", self.step, self.message)
    }
}

impl std::error::Error for FoldError {}

type Modes = Vec<(i64, i64)>;

/// The state of a chain after some steps.
struct State {
    /// The logical shape.
    shape: Vec<i64>,
    /// Modes (size, stride) walking the view's elements in logical row-major order: the whole
    /// view in HBM, one partition's free elements on-chip.
    flat: Modes,
    /// Element offset of the first element (flat, in the current units).
    offset: i64,
    elem_bytes: i64,
    /// Base elements (in the current units).
    total: i64,
    /// Base elements per partition (on-chip), in the current units: the partition stride.
    row: i64,
    on_chip: bool,
    /// No view has been applied yet (an access pattern may still reinterpret the dtype).
    pristine: bool,
    /// Set by an indirect access pattern (the chain must end there): its pair and its
    /// pattern over the allocation.
    indirect: Option<(usize, Vec<(i64, i64)>)>,
}

struct Fail {
    kind: FoldErrorKind,
    message: String,
}

fn fail<T>(kind: FoldErrorKind, message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail {
        kind,
        message: message.into(),
    })
}

fn overflow() -> Fail {
    Fail {
        kind: FoldErrorKind::Overflow,
        message: "an address of the view does not fit in 64 bits".into(),
    }
}

fn to_i64(v: i128) -> Result<i64, Fail> {
    i64::try_from(v).map_err(|_| overflow())
}

fn product(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |a, &d| a.checked_mul(d))
}

fn shape_text(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Row-major strides of `shape` (the unit of each dimension in the logical flat index).
fn suffix(shape: &[i64]) -> Result<Vec<i64>, Fail> {
    let mut out = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        out[d] = out[d + 1].checked_mul(shape[d + 1]).ok_or_else(overflow)?;
    }
    Ok(out)
}

/// Folds `chain` over `base` into one physical pattern (see the module docs).
pub fn fold(base: &Base, chain: &[ViewStep]) -> Result<Folded, FoldError> {
    let mut state = initial(base).map_err(|f| FoldError {
        step: 0,
        kind: f.kind,
        message: f.message,
    })?;
    for (i, step) in chain.iter().enumerate() {
        apply(&mut state, base, step).map_err(|f| FoldError {
            step: i,
            kind: f.kind,
            message: f.message,
        })?;
    }
    let last = chain.len().saturating_sub(1);
    finish(&state).map_err(|f| FoldError {
        step: last,
        kind: f.kind,
        message: f.message,
    })
}

fn initial(base: &Base) -> Result<State, Fail> {
    if base.shape.is_empty() || base.shape.iter().any(|&d| d < 1) || base.elem_bytes < 1 {
        return fail(
            FoldErrorKind::Shape,
            format!(
                "the base tensor {} has no elements",
                shape_text(&base.shape)
            ),
        );
    }
    let total = product(&base.shape).ok_or_else(overflow)?;
    let row = product(&base.shape[1..]).ok_or_else(overflow)?;
    let flat = if base.on_chip { row } else { total };
    Ok(State {
        shape: base.shape.clone(),
        flat: vec![(flat, 1)],
        offset: 0,
        elem_bytes: base.elem_bytes,
        total,
        row,
        on_chip: base.on_chip,
        pristine: true,
        indirect: None,
    })
}

fn apply(s: &mut State, base: &Base, step: &ViewStep) -> Result<(), Fail> {
    if s.indirect.is_some() {
        return fail(
            FoldErrorKind::Indirect,
            format!(
                "{} of an indirect access pattern: its addresses depend on the index values, so no view can be taken on it",
                step.op_name()
            ),
        );
    }
    match step {
        ViewStep::Ap {
            pattern,
            offset,
            elem_bytes,
            indirect_dim,
        } => ap(s, base, pattern, *offset, *elem_bytes, *indirect_dim),
        ViewStep::Reshape { shape } => reshape(s, shape),
        ViewStep::Slice { start, step, shape } => slice(s, start, step, shape),
        ViewStep::Permute { dims } => permute(s, dims),
        ViewStep::Broadcast { shape } => broadcast(s, shape),
    }?;
    s.pristine = false;
    Ok(())
}

/// The logical flat reach `[lo, hi]` of `offset + sum(i_k * step_k)` (pair `skip` excluded).
fn reach(offset: i64, pattern: &[(i64, i64)], skip: Option<usize>) -> (i128, i128) {
    let (mut lo, mut hi) = (offset as i128, offset as i128);
    for (k, &(step, num)) in pattern.iter().enumerate() {
        if Some(k) == skip {
            continue;
        }
        // One span fits in i128; a sum of several may not (nums of a malformed pattern), so
        // the sums saturate: a saturated bound is out of range either way.
        let span = step as i128 * (num as i128 - 1);
        if span >= 0 {
            hi = hi.saturating_add(span);
        } else {
            lo = lo.saturating_add(span);
        }
    }
    (lo, hi)
}

fn check_pairs(pattern: &[(i64, i64)], indirect_dim: Option<usize>) -> Result<(), Fail> {
    if pattern.is_empty() {
        return fail(FoldErrorKind::Pattern, "the access pattern has no pairs");
    }
    if let Some(k) = pattern.iter().position(|p| p.1 < 1) {
        return fail(
            FoldErrorKind::Pattern,
            format!(
                "dimension {k} of the access pattern has num {}; every num must be at least 1",
                pattern[k].1
            ),
        );
    }
    if let Some(d) = indirect_dim
        && d >= pattern.len()
    {
        return fail(
            FoldErrorKind::Pattern,
            format!(
                "indirect dimension {d} is not a dimension of the {}-D pattern",
                pattern.len()
            ),
        );
    }
    Ok(())
}

/// Elements per partition of the view (on-chip) or of the whole view.
fn free_size(s: &State) -> Result<i64, Fail> {
    let from = usize::from(s.on_chip);
    product(&s.shape[from..]).ok_or_else(overflow)
}

/// Composes the pattern `offset + sum(i_k * step_k)` over the view's logical flat index (its
/// free part on-chip) with the flat layout, and makes the result the new flat layout.
fn walk(s: &mut State, offset: i64, pattern: &[(i64, i64)]) -> Result<(), Fail> {
    let (extra, modes) = compose(&s.flat, offset, pattern)?;
    s.offset = to_i64(s.offset as i128 + extra as i128)?;
    s.flat = modes.into_iter().flatten().collect();
    Ok(())
}

fn ap(
    s: &mut State,
    base: &Base,
    pattern: &[(i64, i64)],
    offset: i64,
    elem: i64,
    indirect_dim: Option<usize>,
) -> Result<(), Fail> {
    check_pairs(pattern, indirect_dim)?;
    if offset < 0 {
        return fail(
            FoldErrorKind::Bounds,
            format!("offset {offset} is negative"),
        );
    }
    if s.pristine {
        // On the allocation: the `nisa.ap` rules, with reinterpretation. On-chip a partition
        // row holds whole elements; an HBM tensor is a byte range whose whole elements the
        // pattern may address (as the `nisa.ap` rule counts them).
        let bytes = s.total.checked_mul(base.elem_bytes).ok_or_else(overflow)?;
        let row_bytes = s.row.checked_mul(base.elem_bytes).ok_or_else(overflow)?;
        if elem < 1 || (s.on_chip && row_bytes % elem != 0) {
            return fail(
                FoldErrorKind::Dtype,
                "the result dtype does not divide a partition row of the tensor",
            );
        }
        s.total = bytes / elem;
        s.row = row_bytes / elem;
        s.elem_bytes = elem;
        if s.on_chip {
            s.shape = vec![base.shape[0], s.row];
            s.flat = vec![(s.row, 1)];
        } else {
            s.shape = vec![s.total];
            s.flat = vec![(s.total, 1)];
        }
    } else if elem != s.elem_bytes {
        return fail(
            FoldErrorKind::Dtype,
            format!(
                "an access pattern on a view keeps its {}-byte dtype (only one on the allocation reinterprets), got {elem}-byte elements",
                s.elem_bytes
            ),
        );
    }
    let free = free_size(s)?;
    let (start_p, free_offset, free_pairs) = if s.on_chip {
        (
            partition_pair(s, pattern, offset, free)?,
            offset % free,
            &pattern[1..],
        )
    } else {
        (0, offset, pattern)
    };
    // Bounds. On the allocation on-chip, the flat model of the `nisa.ap` rule: the whole
    // pattern stays inside the tensor (a free walk may run past its row); on a view, the walk
    // stays in the view (on-chip: in the view's partition).
    if s.pristine && s.on_chip {
        let (lo, hi) = reach(offset, pattern, indirect_dim);
        if lo < 0 || hi >= s.total as i128 {
            return fail(
                FoldErrorKind::Bounds,
                format!(
                    "access pattern reaches element {} but the tensor has {} elements",
                    if lo < 0 { lo } else { hi },
                    s.total
                ),
            );
        }
    } else {
        // The indirect pair's reach depends on the index values (a partition index is
        // bounded by the partition range above).
        let skip = indirect_dim.and_then(|d| d.checked_sub(usize::from(s.on_chip)));
        let (lo, hi) = reach(free_offset, free_pairs, skip);
        if lo < 0 || hi >= free as i128 {
            let what = if s.on_chip {
                "a partition row of"
            } else {
                "an input of"
            };
            return fail(
                FoldErrorKind::Bounds,
                format!(
                    "access pattern reaches element {} of {what} {free} elements",
                    if lo < 0 { lo } else { hi }
                ),
            );
        }
    }
    let shape: Vec<i64> = pattern.iter().map(|p| p.1).collect();
    if let Some(d) = indirect_dim {
        return indirect_ap(s, pattern, start_p, free_offset, d, shape);
    }
    if s.pristine && s.on_chip {
        // The allocation's flat row continues into the next partition: one linear run.
        s.offset = offset;
        s.flat = free_pairs.iter().map(|&(st, n)| (n, st)).collect();
    } else {
        s.offset = to_i64(s.offset as i128 + start_p as i128 * s.row as i128)?;
        walk(s, free_offset, free_pairs)?;
    }
    s.shape = shape;
    Ok(())
}

/// On-chip: the first pair steps over whole partitions of the input (`free` elements each) and
/// stays inside its partitions; returns the first partition.
fn partition_pair(s: &State, pattern: &[(i64, i64)], offset: i64, free: i64) -> Result<i64, Fail> {
    let (pstep, pnum) = pattern[0];
    if pstep != free {
        return fail(
            FoldErrorKind::Pattern,
            format!(
                "the partition step must be the input's free size ({free} elements), got {pstep}; partitions are accessed contiguously"
            ),
        );
    }
    let start_p = offset / free;
    if start_p.checked_add(pnum).is_none_or(|e| e > s.shape[0]) {
        return fail(
            FoldErrorKind::Bounds,
            format!(
                "access covers partitions {start_p}..{} but the input has {}",
                start_p.saturating_add(pnum),
                s.shape[0]
            ),
        );
    }
    Ok(start_p)
}

/// An indirect access pattern: the view must be one contiguous block of the allocation (per
/// partition on-chip); then the pattern is the same pattern over the allocation, moved to the
/// block (and its partition pair stepping whole partition rows).
fn indirect_ap(
    s: &mut State,
    pattern: &[(i64, i64)],
    start_p: i64,
    free_offset: i64,
    d: usize,
    shape: Vec<i64>,
) -> Result<(), Fail> {
    let merged = coalesce(&s.flat);
    let contiguous = merged.is_empty() || (merged.len() == 1 && merged[0].1 == 1);
    if !contiguous {
        return fail(
            FoldErrorKind::Indirect,
            format!(
                "an indirect access pattern on a view needs the view to be one contiguous block of the allocation; this {} view is not",
                shape_text(&s.shape)
            ),
        );
    }
    let mut physical = pattern.to_vec();
    if s.on_chip {
        physical[0].0 = s.row;
    }
    let offset = s.offset as i128 + start_p as i128 * s.row as i128 + free_offset as i128;
    s.offset = to_i64(offset)?;
    s.shape = shape;
    s.indirect = Some((d, physical));
    Ok(())
}

fn reshape(s: &mut State, shape: &[i64]) -> Result<(), Fail> {
    if shape.is_empty() || shape.iter().any(|&d| d < 1) {
        return fail(
            FoldErrorKind::Shape,
            format!("shape {} has an empty dimension", shape_text(shape)),
        );
    }
    let (Some(n_in), Some(n_out)) = (product(&s.shape), product(shape)) else {
        return Err(overflow());
    };
    if n_in != n_out {
        return fail(
            FoldErrorKind::Shape,
            format!(
                "a reshape keeps the element count: {} has {n_in} elements, {} has {n_out}",
                shape_text(&s.shape),
                shape_text(shape)
            ),
        );
    }
    if s.on_chip && shape[0] != s.shape[0] {
        return fail(
            FoldErrorKind::Partition,
            format!(
                "an on-chip reshape keeps the partition dimension ({} partitions), got {}",
                s.shape[0], shape[0]
            ),
        );
    }
    // The elements keep their row-major order: the flat layout is unchanged.
    s.shape = shape.to_vec();
    Ok(())
}

fn slice(s: &mut State, start: &[i64], step: &[i64], shape: &[i64]) -> Result<(), Fail> {
    let rank = s.shape.len();
    if start.len() != rank || step.len() != rank || shape.len() != rank {
        return fail(
            FoldErrorKind::Shape,
            format!(
                "a slice of a rank-{rank} view needs {rank} starts, steps and sizes (got {}, {}, {})",
                start.len(),
                step.len(),
                shape.len()
            ),
        );
    }
    for d in 0..rank {
        if step[d] < 1 || shape[d] < 1 || start[d] < 0 {
            return fail(
                FoldErrorKind::Shape,
                format!(
                    "dimension {d}: start {} step {} size {}; starts are at least 0, steps and sizes at least 1",
                    start[d], step[d], shape[d]
                ),
            );
        }
        let last = start[d] as i128 + step[d] as i128 * (shape[d] as i128 - 1);
        if last >= s.shape[d] as i128 {
            return fail(
                FoldErrorKind::Bounds,
                format!(
                    "dimension {d} reaches index {last} but the input has {} there",
                    s.shape[d]
                ),
            );
        }
    }
    if s.on_chip && step[0] != 1 {
        return fail(
            FoldErrorKind::Partition,
            format!(
                "an on-chip slice takes contiguous partitions (step 1), got step {}",
                step[0]
            ),
        );
    }
    let from = usize::from(s.on_chip);
    if s.on_chip {
        // The partition dimension is one run of stride `row`.
        s.offset = to_i64(s.offset as i128 + start[0] as i128 * s.row as i128)?;
    }
    let unit = suffix(&s.shape[from..])?;
    let mut offset = 0i128;
    let mut pattern = Vec::with_capacity(rank - from);
    for (k, d) in (from..rank).enumerate() {
        offset += start[d] as i128 * unit[k] as i128;
        pattern.push((step[d].checked_mul(unit[k]).ok_or_else(overflow)?, shape[d]));
    }
    walk(s, to_i64(offset)?, &pattern)?;
    s.shape = shape.to_vec();
    Ok(())
}

fn permute(s: &mut State, dims: &[i64]) -> Result<(), Fail> {
    let rank = s.shape.len();
    let mut seen = vec![false; rank];
    let ok = dims.len() == rank
        && dims.iter().all(|&d| {
            let fresh = d >= 0 && (d as usize) < rank && !seen[d as usize];
            if fresh {
                seen[d as usize] = true;
            }
            fresh
        });
    if !ok {
        return fail(
            FoldErrorKind::Shape,
            format!("{dims:?} is not a permutation of the {rank} dimensions of the input"),
        );
    }
    if s.on_chip && dims[0] != 0 {
        return fail(
            FoldErrorKind::Partition,
            format!(
                "an on-chip permute keeps the partition dimension first (dims[0] = 0), got {}",
                dims[0]
            ),
        );
    }
    let from = usize::from(s.on_chip);
    let unit = suffix(&s.shape[from..])?;
    let pattern: Vec<(i64, i64)> = dims[from..]
        .iter()
        .map(|&d| (unit[d as usize - from], s.shape[d as usize]))
        .collect();
    walk(s, 0, &pattern)?;
    s.shape = dims.iter().map(|&d| s.shape[d as usize]).collect();
    Ok(())
}

fn broadcast(s: &mut State, shape: &[i64]) -> Result<(), Fail> {
    let rank = s.shape.len();
    if shape.len() != rank {
        return fail(
            FoldErrorKind::Shape,
            format!(
                "a broadcast keeps the rank: {} has rank {rank}, {} has {}",
                shape_text(&s.shape),
                shape_text(shape),
                shape.len()
            ),
        );
    }
    for (d, &want) in shape.iter().enumerate() {
        if want == s.shape[d] {
            continue;
        }
        if s.shape[d] != 1 || want < 1 {
            return fail(
                FoldErrorKind::Shape,
                format!(
                    "dimension {d} has size {}; only a size-1 dimension broadcasts (to {want})",
                    s.shape[d]
                ),
            );
        }
        if s.on_chip && d == 0 {
            return fail(
                FoldErrorKind::Partition,
                "an on-chip broadcast cannot repeat the partition dimension (partitions are separate memories; use nisa.stream_shuffle)",
            );
        }
    }
    let from = usize::from(s.on_chip);
    let unit = suffix(&s.shape[from..])?;
    let pattern: Vec<(i64, i64)> = (from..rank)
        .map(|d| {
            let step = if s.shape[d] == 1 { 0 } else { unit[d - from] };
            (step, shape[d])
        })
        .collect();
    walk(s, 0, &pattern)?;
    s.shape = shape.to_vec();
    Ok(())
}

/// Drops size-1 modes and merges neighbours that are one strided run.
fn coalesce(modes: &[(i64, i64)]) -> Modes {
    let mut out: Modes = Vec::new();
    for &(n, st) in modes.iter().filter(|m| m.0 != 1) {
        if let Some(&(pn, ps)) = out.last()
            && (ps as i128) == st as i128 * n as i128
            && let Some(size) = pn.checked_mul(n)
        {
            let last = out.len() - 1;
            out[last] = (size, st);
            continue;
        }
        out.push((n, st));
    }
    out
}

/// Composes the layout `layout` (row-major modes: logical flat index -> physical offset) with
/// the pattern `offset + sum(i_k * step_k)` over its logical flat index. Returns the physical
/// offset contribution and the physical modes of the pattern (outer first; their row-major walk
/// is the pattern's). The caller has checked that the pattern stays inside the layout.
fn compose(
    layout: &[(i64, i64)],
    offset: i64,
    pattern: &[(i64, i64)],
) -> Result<(i64, Vec<Modes>), Fail> {
    let offset_in = offset;
    let digits = coalesce(layout);
    let m = digits.len();
    // unit[j] = product of the sizes of the digits after j (the weight of digit j).
    // A layout walks a view of at most 2^63 elements; the products saturate rather than wrap
    // on anything larger.
    let mut unit = vec![1i128; m];
    for j in (0..m.saturating_sub(1)).rev() {
        unit[j] = unit[j + 1].saturating_mul(digits[j + 1].0 as i128);
    }
    let total = digits
        .iter()
        .fold(1i128, |acc, d| acc.saturating_mul(d.0 as i128));
    // Normalise negative steps (a reversed walk is the forward walk from its far end), then
    // merge pairs that walk one run (a compact pattern is then a single pair, which splits
    // along the layout however its digits fall).
    let mut offset = offset as i128;
    let mut pairs: Vec<(i128, i64, bool)> = Vec::with_capacity(pattern.len());
    for &(step, num) in pattern {
        if num <= 1 {
            pairs.push((0, num.max(1), false));
        } else if step < 0 {
            offset += step as i128 * (num as i128 - 1);
            pairs.push((-(step as i128), num, true));
        } else {
            pairs.push((step as i128, num, false));
        }
    }
    let mut merged: Vec<(i128, i64, bool)> = Vec::with_capacity(pairs.len());
    for p in pairs.into_iter().filter(|p| p.1 > 1) {
        if let Some(q) = merged.last_mut()
            && q.2 == p.2
            && q.0 == p.0 * p.1 as i128
            && let Some(n) = q.1.checked_mul(p.1)
        {
            *q = (p.0, n, p.2);
            continue;
        }
        merged.push(p);
    }
    let reach_hi = merged.iter().fold(offset, |acc, &(s, n, _)| {
        acc.saturating_add(s * (n as i128 - 1))
    });
    if offset < 0 || reach_hi >= total {
        return fail(
            FoldErrorKind::Bounds,
            format!(
                "access pattern reaches element {} but the view has {total} elements",
                if offset < 0 { offset } else { reach_hi }
            ),
        );
    }
    let radix = |v: i128| -> Vec<i128> {
        let mut rest = v;
        let mut out = vec![0i128; m];
        for j in 0..m {
            out[j] = rest / unit[j];
            rest %= unit[j];
        }
        out
    };
    // Split each pair where it covers whole digits: (s, n) walking a digit of size S by
    // g = s / unit (g dividing S) is q = S / g steps inside the digit, then n / q steps of the
    // digit above.
    let mut split: Vec<(Vec<(i128, i64)>, bool)> = Vec::with_capacity(merged.len());
    for &(s, n, reversed) in &merged {
        let mut subs: Vec<(i128, i64)> = Vec::new(); // inner first while building
        let (mut s, mut n) = (s, n);
        while n > 1 && s > 0 {
            let a = radix(s);
            let nonzero: Vec<usize> = (0..m).filter(|&j| a[j] != 0).collect();
            let [j] = nonzero.as_slice() else { break };
            let j = *j;
            if j == 0 {
                break; // the top digit cannot carry out (the reach is bounded)
            }
            let g = a[j];
            let size = digits[j].0 as i128;
            if size % g != 0 {
                break;
            }
            let q = size / g;
            if (n as i128) <= q || (n as i128) % q != 0 {
                break;
            }
            subs.push((s, q as i64));
            s *= q;
            n = (n as i128 / q) as i64;
        }
        subs.push((s, n));
        subs.reverse();
        split.push((subs, reversed));
    }
    // No carry anywhere: every digit's largest value stays inside its size.
    let c = radix(offset);
    let mut top = c.clone();
    let mut sub_digits: Vec<Vec<Vec<i128>>> = Vec::with_capacity(split.len());
    for (subs, _) in &split {
        let mut per = Vec::with_capacity(subs.len());
        for &(s, n) in subs {
            let a = radix(s);
            for j in 0..m {
                top[j] += a[j] * (n as i128 - 1);
            }
            per.push(a);
        }
        sub_digits.push(per);
    }
    if let Some(j) = (0..m).find(|&j| top[j] >= digits[j].0 as i128) {
        // The digit rule is sufficient, not necessary (a walk through a stride-0 run, or of two
        // points, may carry and still be strided): a small walk is decided exactly.
        if let Some(found) = exact(&digits, &unit, offset_in, pattern)? {
            return Ok(found);
        }
        return fail(
            FoldErrorKind::NotFoldable,
            format!(
                "the walk crosses a boundary of the view's layout (a run of {} elements of stride {} is entered at several points), so no strided access pattern addresses it: copy the data instead",
                digits[j].0, digits[j].1
            ),
        );
    }
    let phys = |a: &[i128]| -> i128 { (0..m).map(|j| a[j] * digits[j].1 as i128).sum() };
    let mut extra = phys(&c);
    let mut out = Vec::with_capacity(split.len());
    for (k, (subs, reversed)) in split.iter().enumerate() {
        let mut modes = Vec::with_capacity(subs.len());
        for (t, &(_, n)) in subs.iter().enumerate() {
            let mut step = phys(&sub_digits[k][t]);
            if *reversed {
                extra += step * (n as i128 - 1);
                step = -step;
            }
            modes.push((n, to_i64(step)?));
        }
        out.push(modes);
    }
    Ok((to_i64(extra)?, out))
}

/// The most points [`compose`] enumerates to decide a walk its digit rule refuses.
pub const EXACT_LIMIT: i128 = 1 << 14;

/// Decides a walk of at most [`EXACT_LIMIT`] points exactly: the physical address of every
/// point (row-major over `pattern`), factorised into strided modes when it is one; `None`
/// when the walk is longer or is no strided pattern.
#[allow(clippy::type_complexity)]
fn exact(
    digits: &[(i64, i64)],
    unit: &[i128],
    offset: i64,
    pattern: &[(i64, i64)],
) -> Result<Option<(i64, Vec<Modes>)>, Fail> {
    let points = pattern
        .iter()
        .fold(1i128, |acc, p| acc.saturating_mul(p.1.max(1) as i128));
    if points > EXACT_LIMIT {
        return Ok(None);
    }
    let phys = |l: i128| -> i128 {
        let mut rest = l;
        let mut a = 0i128;
        for (j, &(_, stride)) in digits.iter().enumerate() {
            a += rest / unit[j] * stride as i128;
            rest %= unit[j];
        }
        a
    };
    let nums: Vec<i64> = pattern.iter().map(|p| p.1.max(1)).collect();
    let mut index = vec![0i64; pattern.len()];
    let mut addr = Vec::with_capacity(points as usize);
    for _ in 0..points {
        let l = offset as i128
            + index
                .iter()
                .zip(pattern)
                .map(|(&i, &(step, _))| i as i128 * step as i128)
                .sum::<i128>();
        addr.push(phys(l));
        for k in (0..index.len()).rev() {
            index[k] += 1;
            if index[k] < nums[k] {
                break;
            }
            index[k] = 0;
        }
    }
    let Some(modes) = factorize(&addr) else {
        return Ok(None);
    };
    let modes = modes
        .into_iter()
        .map(|(n, st)| Ok((n, to_i64(st)?)))
        .collect::<Result<Modes, Fail>>()?;
    Ok(Some((to_i64(addr[0])?, vec![modes])))
}

/// The strided modes (outer first) whose walk from `a[0]` visits `a`, if there are any: the
/// innermost mode is the longest arithmetic run from the start, and every block repeats it.
fn factorize(a: &[i128]) -> Option<Vec<(i64, i128)>> {
    if a.len() <= 1 {
        return Some(Vec::new());
    }
    let step = a[1] - a[0];
    let mut run = 2;
    while run < a.len() && a[run] == a[0] + run as i128 * step {
        run += 1;
    }
    if !a.len().is_multiple_of(run) {
        return None;
    }
    if a.chunks(run)
        .any(|b| (0..run).any(|i| b[i] != b[0] + i as i128 * step))
    {
        return None;
    }
    let starts: Vec<i128> = a.chunks(run).map(|b| b[0]).collect();
    let mut modes = factorize(&starts)?;
    modes.push((run as i64, step));
    Some(modes)
}

fn finish(s: &State) -> Result<Folded, Fail> {
    let (pattern, indirect_dim) = if let Some((d, pattern)) = &s.indirect {
        (pattern.clone(), Some(*d))
    } else {
        let free: Vec<(i64, i64)> = coalesce(&s.flat).iter().map(|&(n, st)| (st, n)).collect();
        let mut pattern = if s.on_chip {
            vec![(s.row, s.shape[0])]
        } else {
            Vec::new()
        };
        if free.is_empty() {
            pattern.push((1, 1));
        }
        pattern.extend(free);
        (pattern, None)
    };
    if pattern.len() > MAX_PAIRS {
        return fail(
            FoldErrorKind::TooManyPairs,
            format!(
                "the view folds to {} [step, num] pairs; an access pattern has at most {MAX_PAIRS} (the partition pair and four free dimensions)",
                pattern.len()
            ),
        );
    }
    let (lo, hi) = reach(s.offset, &pattern, indirect_dim);
    if lo < 0 || hi >= s.total as i128 {
        return fail(
            FoldErrorKind::Bounds,
            format!(
                "the folded view reaches element {} of an allocation of {} elements",
                if lo < 0 { lo } else { hi },
                s.total
            ),
        );
    }
    Ok(Folded {
        offset: s.offset,
        pattern,
        shape: s.shape.clone(),
        elem_bytes: s.elem_bytes,
        indirect_dim,
    })
}
