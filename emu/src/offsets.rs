//! The one offsets pipeline: from an [`Access`] to the [`OffsetList`] the data
//! primitive moves, by a general path or a blocked path, with a gate between them.
//!
//! # Stages
//!
//! [`Plan::new`] validates the access once and compiles every subscript into dense
//! affine coefficients over the enumeration positions (the variables in enumeration
//! order). Then [`Plan::compute`] runs two stages, parameterised by a split of the
//! positions into
//!
//! - a **sub-space** `S`: the positions whose index values are read, and
//! - a **run**: a suffix of positions that address contiguous source elements;
//!
//! the remaining positions are the **outer** ones.
//!
//! * **Stage A** (index resolution) enumerates `S` row-major, reads one index value per
//!   point of `S` and indirect dimension through [`Memory::read_list`] (the data
//!   primitive plus the uninitialised-read check), adds the dimension's direct part,
//!   checks the coordinate against the dimension's extent (error or skip
//!   per `oob_mode`), and stores per point of `S` the summed address contribution of
//!   the indirect dimensions (or [`SKIP`]).
//! * **Stage B** (broadcast) enumerates the outer positions row-major; each outer point
//!   looks up its `S`-point in that table, adds the direct dimensions' contribution,
//!   skips it when a direct coordinate is outside its extent (a partial tile), and emits
//!   one run start. Each start is followed by a run of `R` elements.
//!
//! The two paths are two splits:
//!
//! * **general** — `S` = every position, no run (`R = 1`): one index read per point and
//!   indirect dimension, one address per point (the seed's element-wise path);
//! * **blocked** — `S` = the positions the indirect dimensions depend on (`K` points),
//!   run = the longest innermost suffix of the other positions that walks the source
//!   contiguously and stays inside its dimensions' extents: `K` index reads broadcast to
//!   `N / R` run starts (the seed's idea; block factor `N / K`).
//!
//! Both splits are compiled once, in [`Plan::new`] (their positions, the factoring of stage A
//! over separable indirect dimensions, stage B's static part), so computing offsets builds no
//! plan structure: it reads the index values and fills one table. When the blocked split's
//! outer points are its sub-space's and stage A is a separable outer sum, stage B's static
//! part is added to the parts before the sum, and the table is the run starts (the same
//! wrapping sums, in another order).
//!
//! The gate ([`Plan::gate`]) picks the blocked split when it is cheaper (`R > 1` or
//! `K < N`). It decides speed only: both splits produce the same offsets modulo run
//! grouping, hence bit-identical data, and the same error, because
//!
//! * the only runtime error (an indirect coordinate out of bounds in error mode) is
//!   found in stage A, which enumerates `S` in enumeration order, and the first point of
//!   the whole space that uses a given `S`-point is that `S`-point with every other
//!   position at its lower bound, so the first bad `S`-point in either split belongs to
//!   the first bad point of the space;
//! * every position the indirect dimensions depend on (index expressions and direct
//!   parts of mixed dimensions) is in `S` in both splits, so coordinates and positions
//!   reported are identical;
//! * an empty space returns before stage A in both splits (no index is read, no error
//!   is possible);
//! * runs are emitted in enumeration order with their elements in order, so the write
//!   order, and therefore "last writer wins" on duplicate targets, is the same.
//!
//! # Bounds (indirect-emulation rules 3-5)
//!
//! * A dimension with an indirect part: coordinate outside `[0, extent)` (negative
//!   included) is out of bounds; `oob_mode` decides (stage A).
//! * A purely direct dimension: coordinate outside `[0, extent)` is a partial tile:
//!   the point is skipped, reading zero and dropping writes (stage B). Dimensions whose
//!   coordinate range over the whole space is inside the extent are not checked per
//!   point (a static proof, not a behaviour change).
//! * An address inside every extent but past the allocation: `data.rs` zero-fills and
//!   drops.
//!
//! Static validation (malformed access, an index view read outside its own extent,
//! affine arithmetic that could overflow) happens in [`Plan::new`], before either path,
//! and only for non-empty spaces. The ops plan through the memory's plan cache
//! (`Planned::cached`), so an access they repeat is validated and compiled once: a plan
//! reads no index value and depends on the memory only through allocations that are never
//! removed.

use crate::access::{Access, OobMode};
use crate::data::{OffsetList, SKIP};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{AllocId, Memory};
use crate::view::View;
use smallvec::{SmallVec, smallvec};
use std::sync::Arc;

/// The plans of the accesses a memory's ops ran most recently (at most
/// [`PlanCache::CAPACITY`], replaced oldest first): an op repeated on the same access (a
/// kernel's loop body, the benchmark) skips [`Plan::new`], its validation and compilation,
/// which is most of the fixed cost of a small indirect op. Only [`Plan`]s are kept: the
/// contiguous identity access needs no plan. See [`Planned::cached`] for why a cached plan
/// is exact.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanCache {
    entries: Vec<(Access, &'static str, Arc<Plan>)>,
    /// The entry the next insertion replaces once the cache is full.
    next: usize,
}

impl PlanCache {
    /// Accesses remembered.
    pub(crate) const CAPACITY: usize = 8;

    /// The plan of `access` for `op`, if cached.
    fn get(&self, access: &Access, op: &'static str) -> Option<Arc<Plan>> {
        self.entries
            .iter()
            // The op names are constants: the same op is usually the same pointer.
            .find(|(a, o, _)| (std::ptr::eq(*o, op) || *o == op) && a == access)
            .map(|(_, _, p)| Arc::clone(p))
    }

    fn insert(&mut self, access: &Access, op: &'static str, plan: Arc<Plan>) {
        let entry = (access.clone(), op, plan);
        if self.entries.len() < Self::CAPACITY {
            self.entries.push(entry);
        } else {
            self.entries[self.next] = entry;
            self.next = (self.next + 1) % Self::CAPACITY;
        }
    }
}

/// Per-position lists of a plan (coefficients, extents, bounds): inline up to 8 entries, so
/// planning an access of the usual ranks allocates nothing for them (the fixed cost of every
/// op). Lists of larger items stay `Vec`s: inline, they would make the plan kilobytes to move.
type Small<T> = SmallVec<[T; 8]>;

/// The run starts of [`Offsets`]: inline for one run (a contiguous operand, the usual
/// destination tile), so it allocates nothing.
type Starts = SmallVec<[i64; 1]>;

/// Which offsets path to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PathChoice {
    /// Let the gate decide (the default).
    #[default]
    Auto,
    /// Force the general path (one address per point).
    General,
    /// Force the blocked path (K index reads broadcast to runs).
    Blocked,
}

/// The path a computation took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Path {
    /// One index read per point and indirect dimension, one address per point.
    General,
    /// K index reads broadcast over the direct dimensions into runs.
    Blocked,
}

/// The offsets of an access: run starts (in elements of the source dtype, from the
/// start of its allocation) each followed by `run` contiguous elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offsets {
    path: Path,
    starts: Starts,
    run: usize,
    num_points: usize,
}

impl Offsets {
    /// The list to hand to [`crate::data::read`] / [`crate::data::write`].
    pub fn as_list(&self) -> OffsetList<'_> {
        OffsetList::Runs {
            starts: &self.starts,
            run: self.run,
        }
    }

    /// The path that produced these offsets.
    pub fn path(&self) -> Path {
        self.path
    }

    /// Run starts ([`SKIP`] for skipped runs).
    pub fn starts(&self) -> &[i64] {
        &self.starts
    }

    /// Elements per run.
    pub fn run(&self) -> usize {
        self.run
    }

    /// Number of points (tile elements).
    pub fn num_points(&self) -> usize {
        self.num_points
    }

    /// One offset per point ([`SKIP`] for skipped points), expanding the runs. For
    /// comparing paths in tests; the data primitive never needs this.
    pub fn per_point(&self) -> Vec<i64> {
        let mut out = Vec::with_capacity(self.num_points);
        for &s in &self.starts {
            for i in 0..self.run {
                out.push(if s == SKIP {
                    SKIP
                } else {
                    s.wrapping_add(i as i64)
                });
            }
        }
        out
    }
}

/// A dense affine expression over the enumeration positions.
#[derive(Debug, Clone)]
struct Dense {
    coef: Small<i64>,
    constant: i64,
}

/// A purely direct source dimension.
#[derive(Debug, Clone)]
struct PureDim {
    stride: i64,
    extent: i64,
    coord: Dense,
    /// The coordinate is inside `[0, extent)` at every point of the space.
    static_in_range: bool,
}

/// A source dimension with an indirect part.
#[derive(Debug, Clone)]
struct IndDim {
    dim: usize,
    stride: i64,
    extent: i64,
    /// The direct part of the subscript.
    direct: Dense,
    /// Which index view is read.
    view: usize,
    /// The index-view coordinates (for error messages).
    at: Vec<Dense>,
    /// The element offset of the index read, within the index view's allocation.
    iv_addr: Dense,
}

#[derive(Debug, Clone)]
struct IndexViewPlan {
    alloc: AllocId,
    dtype: DType,
}

/// One split of the positions into sub-space, outer positions and run (one path, see the
/// module doc), compiled in [`Plan::new`]: everything stages A and B need that does not
/// depend on index values, so a call builds no plan structure (the fixed cost of a small
/// op).
#[derive(Debug, Clone)]
struct Split {
    /// The sub-space: the positions whose index values are read, ascending.
    sub: Small<usize>,
    /// Points of the sub-space (entries of the stage-A table); saturated on overflow,
    /// which only an empty space (never computed) can have.
    k_points: usize,
    /// The outer positions, ascending: one run start per point.
    outer: Small<usize>,
    /// Elements per run.
    run: usize,
    /// No direct part of an indirect dimension varies over `sub`, so their values at the
    /// lower bounds (`Plan::directs_lo`) hold at every point of it.
    directs_const: bool,
    /// Stage A factored over separable indirect dimensions, when the access is separable.
    separable: Option<Separable>,
    /// Stage B's bank slot 1: the row-major index of a point's `sub` coordinates.
    kidx: Dense,
    /// The outer positions are the sub-space's and no direct coordinate is checked per
    /// point: stage B walks the table in step.
    in_step: bool,
}

/// What [`Split::new`] compiles a split from: the parts of the plan both splits share.
struct SplitContext<'a> {
    ind: &'a [IndDim],
    ext: &'a [usize],
    lo: &'a [i64],
    /// Stage B's static part (`Plan::stat`).
    stat: &'a Dense,
    /// No purely direct dimension is checked per point.
    no_dynamic: bool,
}

impl Split {
    fn new(sub: Small<usize>, outer: Small<usize>, run: usize, cx: &SplitContext<'_>) -> Split {
        let k_points = points_of(&sub, cx.ext);
        let directs_const = cx
            .ind
            .iter()
            .all(|d| sub.iter().all(|&p| d.direct.coef[p] == 0));
        let in_step = cx.no_dynamic && outer == sub;
        let separable = if directs_const {
            Separable::new(cx, &sub, in_step)
        } else {
            None
        };
        let kidx = row_major_index(&sub, cx.ext, cx.lo);
        Split {
            sub,
            k_points,
            outer,
            run,
            directs_const,
            separable,
            kidx,
            in_step,
        }
    }
}

/// Stage A factored over separable indirect dimensions (see [`Plan::stage_a_separable`]).
#[derive(Debug, Clone)]
struct Separable {
    /// Per indirect dimension, in the plan's order.
    parts: Vec<SepPart>,
    /// Index values read: the parts' points summed.
    total: usize,
    /// How the parts combine into the table.
    combine: SepCombine,
    /// Stage B folded into the parts: when the split walks the table in step and the
    /// table is one part or the outer sum of two, a point's static part of stage B is the
    /// sum of its value at the lower bounds (this) and each part's [`SepPart::stat`], so
    /// adding those to the parts makes the table the run starts themselves (the same
    /// wrapping sums, in another order) and stage B has nothing left to do.
    fold: Option<i64>,
}

/// One indirect dimension of a [`Separable`] stage A.
#[derive(Debug, Clone)]
struct SepPart {
    /// `S_j`: the positions of the sub-space its index address depends on, ascending.
    positions: Small<usize>,
    /// Points of `S_j`.
    points: usize,
    /// Its first entry in the per-call buffers of [`Separable::total`] entries.
    offset: usize,
    /// The row-major index of a point's `S_j` coordinates.
    kidx: Dense,
    /// Stage B's static part over `S_j` alone, zero at the lower bounds (used by
    /// [`Separable::fold`]).
    stat: Dense,
}

/// How the parts of a [`Separable`] stage A make the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SepCombine {
    /// One dimension whose positions are the sub-space: the table is its part.
    Single,
    /// Two dimensions whose positions, `first`'s then `second`'s, are the sub-space: the
    /// table is the row-major outer sum of their parts (no odometer).
    Pair { first: usize, second: usize },
    /// Any other: the parts summed at each point of the sub-space.
    Sum,
}

impl Separable {
    /// The factoring of stage A over `sub`, when no direct part varies over it (checked by
    /// the caller) and each indirect dimension's index address depends on its own positions
    /// of `sub` (`S_j`, disjoint across dimensions: `X[I[a], J[b], ..]`).
    fn new(cx: &SplitContext<'_>, sub: &[usize], in_step: bool) -> Option<Separable> {
        let (ind, ext, lo) = (cx.ind, cx.ext, cx.lo);
        if ind.is_empty() || sub.is_empty() {
            return None;
        }
        let mut owner: Small<Option<usize>> = smallvec![None; ext.len()];
        let mut parts = Vec::with_capacity(ind.len());
        let mut total = 0usize;
        for (j, d) in ind.iter().enumerate() {
            let positions: Small<usize> = sub
                .iter()
                .copied()
                .filter(|&p| d.iv_addr.coef[p] != 0)
                .collect();
            for &p in &positions {
                if owner[p].replace(j).is_some() {
                    return None;
                }
            }
            // A part is never larger than the sub-space: these fit whenever the space is
            // not empty (an empty space is never computed).
            let points = positions
                .iter()
                .try_fold(1usize, |a, &p| a.checked_mul(ext[p]))?;
            let kidx = row_major_index(&positions, ext, lo);
            let mut stat = Dense {
                coef: smallvec![0; ext.len()],
                constant: 0,
            };
            for &p in &positions {
                stat.coef[p] = cx.stat.coef[p];
                stat.constant = stat
                    .constant
                    .wrapping_sub(cx.stat.coef[p].wrapping_mul(lo[p]));
            }
            parts.push(SepPart {
                positions,
                points,
                offset: total,
                kidx,
                stat,
            });
            total = total.checked_add(points)?;
        }
        let combine = match &parts[..] {
            [a] if a.positions.as_slice() == sub => SepCombine::Single,
            [a, b] => {
                let is = |x: &SepPart, y: &SepPart| {
                    x.positions
                        .iter()
                        .chain(y.positions.iter())
                        .copied()
                        .eq(sub.iter().copied())
                };
                if is(a, b) {
                    SepCombine::Pair {
                        first: 0,
                        second: 1,
                    }
                } else if is(b, a) {
                    SepCombine::Pair {
                        first: 1,
                        second: 0,
                    }
                } else {
                    SepCombine::Sum
                }
            }
            _ => SepCombine::Sum,
        };
        let fold = (in_step && combine != SepCombine::Sum).then(|| eval(cx.stat, lo));
        Some(Separable {
            parts,
            total,
            combine,
            fold,
        })
    }
}

/// Points of the box over `positions` (saturated on overflow).
fn points_of(positions: &[usize], ext: &[usize]) -> usize {
    positions
        .iter()
        .try_fold(1usize, |a, &p| a.checked_mul(ext[p]))
        .unwrap_or(usize::MAX)
}

/// The row-major index of a point's coordinates at `positions` (over the box of `ext`
/// from `lo`), as a dense affine over every position.
fn row_major_index(positions: &[usize], ext: &[usize], lo: &[i64]) -> Dense {
    let mut k = Dense {
        coef: smallvec![0; ext.len()],
        constant: 0,
    };
    let mut radix: i64 = 1;
    for &p in positions.iter().rev() {
        k.coef[p] = radix;
        k.constant = k.constant.wrapping_sub(radix.wrapping_mul(lo[p]));
        radix = radix.wrapping_mul(ext[p] as i64);
    }
    k
}

/// A validated, compiled access, ready to produce offsets by either path.
#[derive(Debug, Clone)]
pub struct Plan {
    op: &'static str,
    num_points: usize,
    /// Extent and lower bound per enumeration position.
    ext: Small<usize>,
    lo: Small<i64>,
    source_alloc: AllocId,
    source_dtype: DType,
    pure: Vec<PureDim>,
    ind: Vec<IndDim>,
    index_views: Vec<IndexViewPlan>,
    /// Number of points of the dependent sub-space (the blocked split's).
    dep_points: usize,
    /// Elements of the blocked path's contiguous run.
    run_len: usize,
    /// Stage B's bank slot 0: the source offset plus the contributions of the statically
    /// in-range direct dimensions.
    stat: Dense,
    /// The purely direct dimensions whose coordinates stage B checks per point (indices
    /// into `pure`).
    dynamic: Small<usize>,
    /// Each indirect dimension's direct part at the lower bounds.
    directs_lo: Small<i64>,
    /// The general path's split.
    general: Split,
    /// The blocked path's split.
    blocked: Split,
}

impl Plan {
    /// Validates `access` against `mem` and compiles it. `op` names the op in errors.
    pub fn new(mem: &Memory, access: &Access, op: &'static str) -> Result<Plan> {
        let nvars = access.num_vars();
        let ext = access.tile_shape(op)?;
        let order = access.enumeration_order();
        let mut pos_of_var: Small<usize> = smallvec![0usize; nvars];
        for (p, &v) in order.iter().enumerate() {
            pos_of_var[v] = p;
        }
        let lo: Small<i64> = order.iter().map(|&v| access.space.lower[v]).collect();
        let num_points = ext
            .iter()
            .try_fold(1usize, |a, &e| a.checked_mul(e))
            .ok_or_else(|| EmuError::overflow(op, "the number of points of an access"))?;
        // Every buffer of the plan and of the op that runs it is sized by the point count.
        EmuError::check_elements(op, "the access", num_points)?;
        let source = &access.source;
        if access.subscripts.len() != source.rank() {
            return Err(EmuError::invalid(
                op,
                format!(
                    "{} subscripts for a rank-{} source",
                    access.subscripts.len(),
                    source.rank()
                ),
            ));
        }
        mem.bytes(source.alloc())?;

        // `what(d)` names the expression in an error; it is only formatted on failure.
        let dense = |a: &crate::access::Affine, what: &dyn Fn() -> String| -> Result<Dense> {
            let mut coef: Small<i64> = smallvec![0i64; nvars];
            for &(v, c) in &a.terms {
                let p = *pos_of_var.get(v).ok_or_else(|| {
                    EmuError::invalid(op, format!("{} uses variable {v} of {nvars}", what()))
                })?;
                coef[p] = coef[p].checked_add(c).ok_or_else(|| {
                    EmuError::overflow(op, format!("the coefficients of {}", what()))
                })?;
            }
            Ok(Dense {
                coef,
                constant: a.constant,
            })
        };

        let mut index_views = Vec::with_capacity(access.index_views.len());
        for (k, iv) in access.index_views.iter().enumerate() {
            if !iv.dtype().is_integer() {
                return Err(EmuError::dtype(
                    op,
                    format!(
                        "index view {k} has dtype {}, not an integer type",
                        iv.dtype()
                    ),
                ));
            }
            mem.bytes(iv.alloc())?;
            index_views.push(IndexViewPlan {
                alloc: iv.alloc(),
                dtype: iv.dtype(),
            });
        }

        let mut pure = Vec::new();
        let mut ind = Vec::new();
        for (d, sub) in access.subscripts.iter().enumerate() {
            let stride = source.strides()[d];
            let extent = i64::try_from(source.shape()[d])
                .map_err(|_| EmuError::overflow(op, format!("the extent of dimension {d}")))?;
            let direct = dense(&sub.direct, &|| format!("the subscript of dimension {d}"))?;
            match &sub.indirect {
                None => pure.push(PureDim {
                    stride,
                    extent,
                    coord: direct,
                    static_in_range: false,
                }),
                Some(term) => {
                    let iv = access.index_views.get(term.index_view).ok_or_else(|| {
                        EmuError::invalid(
                            op,
                            format!(
                                "dimension {d} reads index view {} of {}",
                                term.index_view,
                                access.index_views.len()
                            ),
                        )
                    })?;
                    if term.at.len() != iv.rank() {
                        return Err(EmuError::invalid(
                            op,
                            format!(
                                "dimension {d} reads rank-{} index view {} with {} coordinates",
                                iv.rank(),
                                term.index_view,
                                term.at.len()
                            ),
                        ));
                    }
                    let at = term
                        .at
                        .iter()
                        .map(|a| dense(a, &|| format!("the index expression of dimension {d}")))
                        .collect::<Result<Vec<Dense>>>()?;
                    // Element offset of the index read: an affine function too.
                    let ovf =
                        || EmuError::overflow(op, format!("the index address of dimension {d}"));
                    let mut iv_addr = Dense {
                        coef: smallvec![0; nvars],
                        constant: iv.offset(),
                    };
                    for (a, &s) in at.iter().zip(iv.strides()) {
                        iv_addr.constant = a
                            .constant
                            .checked_mul(s)
                            .and_then(|x| x.checked_add(iv_addr.constant))
                            .ok_or_else(ovf)?;
                        for (c, &ac) in iv_addr.coef.iter_mut().zip(&a.coef) {
                            *c = ac
                                .checked_mul(s)
                                .and_then(|x| x.checked_add(*c))
                                .ok_or_else(ovf)?;
                        }
                    }
                    ind.push(IndDim {
                        dim: d,
                        stride,
                        extent,
                        direct,
                        view: term.index_view,
                        at,
                        iv_addr,
                    });
                }
            }
        }

        if num_points > 0 {
            for pd in &mut pure {
                let (min, max) = range(&pd.coord, &lo, &ext)
                    .ok_or_else(|| EmuError::overflow(op, "a direct subscript"))?;
                pd.static_in_range = min >= 0 && max < pd.extent;
            }
            for idim in &ind {
                range(&idim.direct, &lo, &ext).ok_or_else(|| {
                    EmuError::overflow(op, format!("the direct part of dimension {}", idim.dim))
                })?;
                range(&idim.iv_addr, &lo, &ext).ok_or_else(|| {
                    EmuError::overflow(op, format!("the index address of dimension {}", idim.dim))
                })?;
                let iv = &access.index_views[idim.view];
                for (k, a) in idim.at.iter().enumerate() {
                    let (min, max) = range(a, &lo, &ext).ok_or_else(|| {
                        EmuError::overflow(
                            op,
                            format!("the index expression of dimension {}", idim.dim),
                        )
                    })?;
                    let e = iv.shape()[k] as i64;
                    if min < 0 || max >= e {
                        return Err(EmuError::invalid(
                            op,
                            format!(
                                "dimension {} reads index view {} at coordinate {k} in [{min}, {max}], outside its extent {e}",
                                idim.dim, idim.view
                            ),
                        ));
                    }
                }
            }
        }

        // Dependent positions: everything an indirect dimension's coordinate depends on.
        let npos = nvars;
        let mut is_dep: Small<bool> = smallvec![false; npos];
        for idim in &ind {
            for (p, dep) in is_dep.iter_mut().enumerate() {
                if idim.direct.coef[p] != 0 || idim.at.iter().any(|a| a.coef[p] != 0) {
                    *dep = true;
                }
            }
        }
        let dep: Small<usize> = (0..npos).filter(|&p| is_dep[p]).collect();
        let dep_points = points_of(&dep, &ext);

        // The blocked run: the longest innermost suffix of non-dependent positions that
        // walks the source contiguously (flat coefficient = elements of the inner run)
        // and only touches dimensions statically inside their extents, so a run is
        // never partly in and partly out of a dimension.
        let mut run_len = 1usize;
        let mut run_start = npos;
        'suffix: for p in (0..npos).rev() {
            if is_dep[p] {
                break;
            }
            let mut flat: i64 = 0;
            for pd in &pure {
                let c = pd.coord.coef[p];
                if c == 0 {
                    continue;
                }
                if !pd.static_in_range {
                    break 'suffix;
                }
                match c.checked_mul(pd.stride).and_then(|x| x.checked_add(flat)) {
                    Some(f) => flat = f,
                    None => break 'suffix,
                }
            }
            if ext[p] != 1 && i64::try_from(run_len).ok() != Some(flat) {
                break;
            }
            match run_len.checked_mul(ext[p]) {
                Some(r) => run_len = r,
                None => break,
            }
            run_start = p;
        }

        // Stage B's static part: the source offset plus the statically in-range direct
        // dimensions. Cannot overflow at points of the space: every such term is inside the
        // view's footprint, checked when the view was built. Wrapping keeps the coefficient
        // arithmetic total.
        let mut stat = Dense {
            coef: smallvec![0; npos],
            constant: source.offset(),
        };
        let mut dynamic = Small::new();
        for (i, pd) in pure.iter().enumerate() {
            if pd.static_in_range {
                stat.constant = stat
                    .constant
                    .wrapping_add(pd.coord.constant.wrapping_mul(pd.stride));
                for (c, &k) in stat.coef.iter_mut().zip(&pd.coord.coef) {
                    *c = c.wrapping_add(k.wrapping_mul(pd.stride));
                }
            } else {
                dynamic.push(i);
            }
        }
        let directs_lo = ind.iter().map(|d| eval(&d.direct, &lo)).collect();
        let all: Small<usize> = (0..npos).collect();
        // With no indirect dimension the general path has nothing to resolve per point.
        let general_sub = if ind.is_empty() {
            Small::new()
        } else {
            all.clone()
        };
        let cx = SplitContext {
            ind: &ind,
            ext: &ext,
            lo: &lo,
            stat: &stat,
            no_dynamic: dynamic.is_empty(),
        };
        let general = Split::new(general_sub, all, 1, &cx);
        let blocked = Split::new(dep, (0..run_start).collect(), run_len, &cx);

        Ok(Plan {
            op,
            num_points,
            ext: ext.into(),
            lo,
            source_alloc: source.alloc(),
            source_dtype: source.dtype(),
            pure,
            ind,
            index_views,
            dep_points,
            run_len,
            stat,
            dynamic,
            directs_lo,
            general,
            blocked,
        })
    }

    /// Number of points (tile elements).
    pub fn num_points(&self) -> usize {
        self.num_points
    }

    /// The source allocation the offsets address.
    pub fn source_alloc(&self) -> AllocId {
        self.source_alloc
    }

    /// The source element type (the unit of the offsets).
    pub fn source_dtype(&self) -> DType {
        self.source_dtype
    }

    /// Index values the blocked path reads (`K` times the indirect dimensions).
    pub fn blocked_index_reads(&self) -> usize {
        self.dep_points.saturating_mul(self.ind.len())
    }

    /// Elements per run on the blocked path.
    pub fn blocked_run_len(&self) -> usize {
        self.run_len
    }

    /// The gate: the blocked path when it reads fewer index values or copies longer
    /// runs than the general path. Speed only; results are identical either way.
    pub fn gate(&self) -> Path {
        if self.num_points > 0 && (self.run_len > 1 || self.dep_points < self.num_points) {
            Path::Blocked
        } else {
            Path::General
        }
    }

    /// Computes the offsets by the path `choice` selects.
    pub fn compute(&self, mem: &Memory, oob: OobMode, choice: PathChoice) -> Result<Offsets> {
        let path = match choice {
            PathChoice::Auto => self.gate(),
            PathChoice::General => Path::General,
            PathChoice::Blocked => Path::Blocked,
        };
        let split = match path {
            Path::General => &self.general,
            Path::Blocked => &self.blocked,
        };
        if self.num_points == 0 {
            // Empty space: no index is read and no error is possible, on either path.
            return Ok(Offsets {
                path,
                starts: Starts::new(),
                run: 1,
                num_points: 0,
            });
        }
        let separable = split.separable.as_ref().and_then(|sep| {
            let table = self.stage_a_separable(mem, oob, split, sep)?;
            Some((table, sep.fold.is_some()))
        });
        let starts = match separable {
            // Stage B was folded into the parts: the table holds the starts.
            Some((starts, true)) => starts,
            Some((table, false)) => self.stage_b(table, split),
            None => self.stage_b(self.stage_a(mem, oob, split)?, split),
        };
        Ok(Offsets {
            path,
            starts: Starts::from_vec(starts),
            run: split.run,
            num_points: self.num_points,
        })
    }

    /// Stage A factored over separable indirect dimensions ([`Separable`]): a dimension's
    /// contribution at a point is a function of the point's `S_j` coordinates alone, so
    /// each dimension is resolved once per point of its `S_j` (4 + 16 index reads instead
    /// of 2 x 64) and the table is their sum per point of the sub-space ([`SKIP`] when any
    /// part is), or the run starts when stage B is folded in ([`Separable::fold`]). The
    /// same index bytes are read (every `S_j` point occurs in the sub-space).
    /// Only a resolution without any error is used: on an out-of-bounds index in error
    /// mode or an uninitialised index read this returns `None` and [`Plan::stage_a`]
    /// itself runs, so every error is the per-point enumeration's, unchanged.
    fn stage_a_separable(
        &self,
        mem: &Memory,
        oob: OobMode,
        split: &Split,
        sep: &Separable,
    ) -> Option<Vec<i64>> {
        // Addresses, values and (folding) stage B's static parts of every part, one
        // section each: on the stack for the usual sizes (an array, not an inline SmallVec,
        // which would be moved whole into place).
        let need = sep.total.checked_mul(3)?;
        let mut stack = [0i64; 128];
        let mut heap = Vec::new();
        let buf: &mut [i64] = match stack.get_mut(..need) {
            Some(b) => b,
            None => {
                heap.resize(need, 0);
                &mut heap
            }
        };
        let (addrs, rest) = buf.split_at_mut(sep.total);
        let (values, stats) = rest.split_at_mut(sep.total);
        for (j, ((part, d), &direct)) in sep
            .parts
            .iter()
            .zip(&self.ind)
            .zip(&self.directs_lo)
            .enumerate()
        {
            let range = part.offset..part.offset + part.points;
            let addrs = &mut addrs[range.clone()];
            let stats = &mut stats[range.clone()];
            let values = &mut values[range];
            if sep.fold.is_some() {
                let mut at = addrs.iter_mut().zip(stats.iter_mut());
                let bank = [&d.iv_addr, &part.stat];
                odometer(&part.positions, &self.ext, &self.lo, &bank, |v| {
                    if let Some((a, s)) = at.next() {
                        (*a, *s) = (v[0], v[1]);
                    }
                });
            } else {
                let mut at = addrs.iter_mut();
                odometer(&part.positions, &self.ext, &self.lo, &[&d.iv_addr], |v| {
                    if let Some(a) = at.next() {
                        *a = v[0];
                    }
                });
            }
            let iv = &self.index_views[d.view];
            mem.read_index_values(self.op, iv.alloc, iv.dtype, addrs, values)
                .ok()?;
            // The value of stage B's static part at the lower bounds goes to one part.
            let base = match sep.fold {
                Some(b) if j == 0 => b,
                _ => 0,
            };
            // Per value: its contribution (plus, folding, its static part), or SKIP.
            for (c, &s) in values.iter_mut().zip(stats.iter()) {
                *c = match direct.checked_add(*c) {
                    Some(x) if x >= 0 && x < d.extent => {
                        x.wrapping_mul(d.stride).wrapping_add(s).wrapping_add(base)
                    }
                    _ => match oob {
                        OobMode::Error => return None,
                        OobMode::Skip => SKIP,
                    },
                };
            }
        }
        let values: &[i64] = values;
        let part = |j: usize| {
            let p = &sep.parts[j];
            &values[p.offset..p.offset + p.points]
        };
        Some(match sep.combine {
            SepCombine::Single => values.to_vec(),
            SepCombine::Pair { first, second } => {
                let (p0, p1) = (part(first), part(second));
                let mut table = Vec::with_capacity(split.k_points);
                // Without a skipped entry in the inner part (error mode always), a row is a
                // plain vector add.
                let inner_skips = p1.contains(&SKIP);
                for &a in p0 {
                    if a == SKIP {
                        table.extend(std::iter::repeat_n(SKIP, p1.len()));
                    } else if inner_skips {
                        table.extend(
                            p1.iter()
                                .map(|&b| if b == SKIP { SKIP } else { a.wrapping_add(b) }),
                        );
                    } else {
                        table.extend(p1.iter().map(|&b| a.wrapping_add(b)));
                    }
                }
                table
            }
            SepCombine::Sum => {
                let mut table = Vec::with_capacity(split.k_points);
                let bank: Small<&Dense> = sep.parts.iter().map(|p| &p.kidx).collect();
                odometer(&split.sub, &self.ext, &self.lo, &bank, |ks| {
                    let mut sum: i64 = 0;
                    for (j, &i) in ks.iter().enumerate() {
                        let c = part(j)[i as usize];
                        if c == SKIP {
                            sum = SKIP;
                            break;
                        }
                        sum = sum.wrapping_add(c);
                    }
                    table.push(sum);
                });
                table
            }
        })
    }

    /// Stage A: per point of the split's sub-space, the summed address contribution of
    /// the indirect dimensions, or [`SKIP`].
    fn stage_a(&self, mem: &Memory, oob: OobMode, split: &Split) -> Result<Vec<i64>> {
        let (sub, k_points) = (&split.sub[..], split.k_points);
        if self.ind.is_empty() {
            return Ok(vec![0; k_points]);
        }
        // Pass 1: where each index value lives, then read them all through the memory (one
        // list per indirect dimension; shared views are simply read once per dimension that
        // uses them). Flat buffers, dimension-major: entry `j * k_points + k`.
        let nind = self.ind.len();
        let bank: Small<&Dense> = self.ind.iter().map(|d| &d.iv_addr).collect();
        // One buffer for the addresses (front) and the values read from them (back).
        let mut buf: Vec<i64> = vec![0; 2 * nind * k_points];
        let (addrs, values) = buf.split_at_mut(nind * k_points);
        {
            let mut k = 0usize;
            let addrs = &mut *addrs;
            odometer(sub, &self.ext, &self.lo, &bank, |vals| {
                for (j, &v) in vals.iter().enumerate() {
                    addrs[j * k_points + k] = v;
                }
                k += 1;
            });
        }
        for (j, idim) in self.ind.iter().enumerate() {
            let iv = &self.index_views[idim.view];
            let list = &addrs[j * k_points..(j + 1) * k_points];
            // Through the memory, so a never-written index tile is caught by the
            // uninitialised-read check (issue 11 §4).
            mem.read_index_values(
                self.op,
                iv.alloc,
                iv.dtype,
                list,
                &mut values[j * k_points..(j + 1) * k_points],
            )?;
        }

        // Pass 2: coordinates, bounds, contributions, in enumeration order so the first
        // error found is the first in the whole space. `resolve` is the one definition of a
        // point's contribution from its index values and the direct parts at the point.
        let dims: Small<(i64, i64)> = self.ind.iter().map(|d| (d.extent, d.stride)).collect();
        let dims: &[(i64, i64)] = &dims;
        let values: &[i64] = values;
        let mut table = Vec::with_capacity(k_points);
        let mut first_error: Option<(usize, usize, i64, i64)> = None;
        let mut resolve = |k: usize, directs: &[i64]| -> bool {
            let mut contrib: i64 = 0;
            for (j, (&(extent, stride), &direct)) in dims.iter().zip(directs).enumerate() {
                let value = values[j * k_points + k];
                let coord = direct.checked_add(value);
                match coord {
                    Some(c) if c >= 0 && c < extent => {
                        contrib = contrib.wrapping_add(c.wrapping_mul(stride));
                    }
                    _ => match oob {
                        OobMode::Error => {
                            first_error = Some((
                                k,
                                j,
                                value,
                                coord.unwrap_or(if value < 0 { i64::MIN } else { i64::MAX }),
                            ));
                            return false;
                        }
                        OobMode::Skip => {
                            contrib = SKIP;
                            break;
                        }
                    },
                }
            }
            table.push(contrib);
            true
        };
        if split.directs_const {
            // The direct parts do not vary over the sub-space (the usual `X[IDX[e], ..]`):
            // their values at its first point hold at every point, no odometer needed.
            for k in 0..k_points {
                if !resolve(k, &self.directs_lo) {
                    break;
                }
            }
        } else {
            let bank: Small<&Dense> = self.ind.iter().map(|d| &d.direct).collect();
            let mut k = 0usize;
            let mut failed = false;
            odometer(sub, &self.ext, &self.lo, &bank, |vals| {
                if !failed {
                    failed = !resolve(k, vals);
                    k += 1;
                }
            });
        }
        if let Some((k, j, value, coordinate)) = first_error {
            return Err(self.oob_error(mem, sub, k, j, value, coordinate));
        }
        Ok(table)
    }

    fn oob_error(
        &self,
        mem: &Memory,
        sub: &[usize],
        k: usize,
        j: usize,
        value: i64,
        coordinate: i64,
    ) -> EmuError {
        // Recover the point: position values from the mixed-radix index k over `sub`,
        // every other position at its lower bound.
        let mut point = self.lo.clone();
        let mut rest = k;
        for &p in sub.iter().rev() {
            let e = self.ext[p];
            point[p] = self.lo[p] + (rest % e) as i64;
            rest /= e;
        }
        let idim = &self.ind[j];
        let position = idim.at.iter().map(|a| eval(a, &point)).collect();
        // The value as stored: pass 2 works on i64, where a u64 index above i64::MAX was
        // saturated; the message reports what the index tile holds.
        let value = self
            .stored_index(mem, idim, &point)
            .unwrap_or(value as i128);
        EmuError::IndexOutOfBounds {
            op: self.op,
            dim: idim.dim,
            index_view: idim.view,
            position,
            value,
            coordinate,
            extent: idim.extent as usize,
        }
    }

    /// The index element `idim` reads at `point`, exactly as stored (unsigned dtypes read as
    /// unsigned), or `None` if it cannot be read.
    fn stored_index(&self, mem: &Memory, idim: &IndDim, point: &[i64]) -> Option<i128> {
        let iv = &self.index_views[idim.view];
        let es = iv.dtype.size();
        let at = usize::try_from(eval(&idim.iv_addr, point))
            .ok()?
            .checked_mul(es)?;
        let bytes = mem.bytes(iv.alloc).ok()?.get(at..at.checked_add(es)?)?;
        let bits = iv.dtype.load(bytes);
        if iv.dtype.is_signed_integer() {
            iv.dtype.to_i64(bits).map(i128::from)
        } else {
            Some(bits as i128)
        }
    }

    /// Stage B: one run start per outer point, from the stage-A `table` (whose buffer
    /// becomes the starts when the table is walked in step).
    fn stage_b(&self, mut table: Vec<i64>, split: &Split) -> Vec<i64> {
        if split.in_step {
            // The outer points are the sub-space's, in the same order (the usual blocked
            // split): slot 1 would count 0, 1, 2, .. and no coordinate is checked per
            // point, so each table entry becomes its start in place, the same start as the
            // general loop below gives.
            let mut t = table.iter_mut();
            odometer(&split.outer, &self.ext, &self.lo, &[&self.stat], |vals| {
                if let Some(c) = t.next()
                    && *c != SKIP
                {
                    *c = vals[0].wrapping_add(*c);
                }
            });
            return table;
        }
        let n_outer = points_of(&split.outer, &self.ext);
        let mut starts = Vec::with_capacity(n_outer);
        let mut bank: Small<&Dense> = smallvec![&self.stat, &split.kidx];
        bank.extend(self.dynamic.iter().map(|&i| &self.pure[i].coord));
        let dynamic = &self.dynamic[..];
        odometer(&split.outer, &self.ext, &self.lo, &bank, |vals| {
            let t = table[vals[1] as usize];
            if t == SKIP {
                starts.push(SKIP);
                return;
            }
            let mut addr = vals[0].wrapping_add(t);
            for (&i, &c) in dynamic.iter().zip(&vals[2..]) {
                let pd = &self.pure[i];
                if c < 0 || c >= pd.extent {
                    // Partial tile: a direct coordinate outside its dimension.
                    starts.push(SKIP);
                    return;
                }
                addr = addr.wrapping_add(c.wrapping_mul(pd.stride));
            }
            starts.push(addr);
        });
        starts
    }
}

/// An access ready for [`Planned::compute`]: a [`Plan`], or the identity access of a
/// contiguous view (the common tile and tensor operand), whose offsets are one run and need
/// no plan. Both give the same offsets, path and errors ([`Plan::new`] of an identity access
/// can only fail on the element limit or an unknown allocation, checked here in that order).
#[derive(Debug, Clone)]
pub enum Planned {
    /// `n` contiguous elements from `start`.
    Contiguous {
        /// The view's first element.
        start: i64,
        /// Its number of elements.
        n: usize,
        /// Its dtype.
        dtype: DType,
    },
    /// Any other access (shared: a plan is much larger than the contiguous case, and the
    /// memory's [`PlanCache`] hands the same plan to every op that repeats the access).
    Plan(Arc<Plan>),
}

impl Planned {
    /// Plans `access` (see [`Plan::new`]).
    pub fn new(mem: &Memory, access: &Access, op: &'static str) -> Result<Planned> {
        let v = &access.source;
        if v.is_contiguous() && access.is_identity() {
            return Planned::contiguous(mem, v, op);
        }
        Plan::new(mem, access, op).map(|p| Planned::Plan(Arc::new(p)))
    }

    /// The identity access of the contiguous view `v` (checked as [`Plan::new`] would).
    fn contiguous(mem: &Memory, v: &View, op: &'static str) -> Result<Planned> {
        let n = EmuError::check_elements(op, "the access", v.num_elements())?;
        mem.bytes(v.alloc())?;
        Ok(Planned::Contiguous {
            start: v.offset(),
            n,
            dtype: v.dtype(),
        })
    }

    /// [`Planned::cached`] of the identity access of `v` ([`Access::direct`]), without
    /// building that access when `v` is contiguous (the usual tile operand).
    pub(crate) fn cached_view(mem: &mut Memory, v: &View, op: &'static str) -> Result<Planned> {
        if v.is_contiguous() {
            return Planned::contiguous(mem, v, op);
        }
        Planned::cached(mem, &Access::direct(v), op)
    }

    /// [`Planned::new`] through the memory's [`PlanCache`]: an access planned before (the
    /// same access, for the same op) gets the plan made then, without validating and
    /// compiling it again. A plan depends on the memory only through the existence of the
    /// allocations it names, and allocations are never removed, so the cached plan is the
    /// one [`Planned::new`] would make now. Errors are never cached.
    pub(crate) fn cached(mem: &mut Memory, access: &Access, op: &'static str) -> Result<Planned> {
        // The identity test first: an indirect access fails it at once.
        if access.is_identity() && access.source.is_contiguous() {
            // Needs no plan (and is never cached).
            return Planned::contiguous(mem, &access.source, op);
        }
        if let Some(p) = mem.plan_cache().get(access, op) {
            return Ok(Planned::Plan(p));
        }
        let planned = Planned::new(mem, access, op)?;
        if let Planned::Plan(p) = &planned {
            mem.plan_cache_mut().insert(access, op, Arc::clone(p));
        }
        Ok(planned)
    }

    /// Number of points.
    pub fn num_points(&self) -> usize {
        match self {
            Planned::Contiguous { n, .. } => *n,
            Planned::Plan(p) => p.num_points(),
        }
    }

    /// The source element type.
    pub fn source_dtype(&self) -> DType {
        match self {
            Planned::Contiguous { dtype, .. } => *dtype,
            Planned::Plan(p) => p.source_dtype(),
        }
    }

    /// The offsets by the path `choice` selects (see [`Plan::compute`]): for a contiguous
    /// identity access the gate takes the blocked path (one run of every element) when
    /// there are at least two points, the general path (one start per point) otherwise.
    pub fn compute(&self, mem: &Memory, oob: OobMode, choice: PathChoice) -> Result<Offsets> {
        let (start, n) = match self {
            Planned::Plan(p) => return p.compute(mem, oob, choice),
            Planned::Contiguous { start, n, .. } => (*start, *n),
        };
        let path = match choice {
            PathChoice::General => Path::General,
            PathChoice::Blocked => Path::Blocked,
            PathChoice::Auto if n > 1 => Path::Blocked,
            PathChoice::Auto => Path::General,
        };
        let (starts, run) = match path {
            _ if n == 0 => (Starts::new(), 1),
            // In the view's extent, so the offsets were checked when the view was built.
            Path::General => ((0..n).map(|i| start.wrapping_add(i as i64)).collect(), 1),
            Path::Blocked => (smallvec![start], n),
        };
        Ok(Offsets {
            path,
            starts,
            run,
            num_points: n,
        })
    }
}

/// Validates and compiles `access`, then computes its offsets by the path the memory's
/// [`PathChoice`] selects.
pub fn compute(mem: &Memory, access: &Access, oob: OobMode, op: &'static str) -> Result<Offsets> {
    Planned::new(mem, access, op)?.compute(mem, oob, mem.path_choice())
}

/// Range of a dense affine over the box `lo[p] .. lo[p] + ext[p]` (non-empty), or
/// `None` on overflow.
fn range(a: &Dense, lo: &[i64], ext: &[usize]) -> Option<(i64, i64)> {
    let mut min = a.constant;
    let mut max = a.constant;
    for ((&c, &l), &e) in a.coef.iter().zip(lo).zip(ext) {
        if c == 0 {
            continue;
        }
        let hi = l.checked_add(i64::try_from(e).ok()?.checked_sub(1)?)?;
        let x = c.checked_mul(l)?;
        let y = c.checked_mul(hi)?;
        min = min.checked_add(x.min(y))?;
        max = max.checked_add(x.max(y))?;
    }
    Some((min, max))
}

fn eval(a: &Dense, point: &[i64]) -> i64 {
    a.coef.iter().zip(point).fold(a.constant, |acc, (&c, &x)| {
        acc.wrapping_add(c.wrapping_mul(x))
    })
}

/// Calls `f` with the values of the expressions in `bank` at every point of the
/// positions `positions` (row-major, `positions` ascending = outer to inner), every
/// other position held at its lower bound. Values are updated incrementally; wrapping
/// arithmetic is exact at points of the space (whose values were range-checked).
///
/// Banks of up to four expressions (every bank the workloads use) run with a
/// fixed-size value array, which lets the compiler keep the values in registers; the
/// visiting order and values are the same for every bank size.
#[inline(always)]
fn odometer(
    positions: &[usize],
    ext: &[usize],
    lo: &[i64],
    bank: &[&Dense],
    f: impl FnMut(&[i64]),
) {
    match bank.len() {
        1 => odometer_n::<1>(positions, ext, lo, bank, f),
        2 => odometer_n::<2>(positions, ext, lo, bank, f),
        3 => odometer_n::<3>(positions, ext, lo, bank, f),
        4 => odometer_n::<4>(positions, ext, lo, bank, f),
        _ => odometer_dyn(positions, ext, lo, bank, f),
    }
}

/// Positions an odometer keeps in fixed-size arrays (more go through [`odometer_dyn`]).
const ODO_POSITIONS: usize = 8;

#[inline(always)]
fn odometer_n<const M: usize>(
    positions: &[usize],
    ext: &[usize],
    lo: &[i64],
    bank: &[&Dense],
    mut f: impl FnMut(&[i64]),
) {
    let np = positions.len();
    if np > ODO_POSITIONS {
        return odometer_dyn(positions, ext, lo, bank, f);
    }
    let mut vals = [0i64; M];
    for (v, a) in vals.iter_mut().zip(bank) {
        *v = eval(a, lo);
    }
    if np == 0 {
        f(&vals);
        return;
    }
    if let [p] = *positions {
        // One position (an index view read along one variable, the usual part): a line.
        let mut step = [0i64; M];
        for (s, a) in step.iter_mut().zip(bank) {
            *s = a.coef[p];
        }
        for _ in 0..ext[p] {
            f(&vals);
            for a in 0..M {
                vals[a] = vals[a].wrapping_add(step[a]);
            }
        }
        return;
    }
    // Extents and per-position steps in arrays: no allocation and nothing to collect.
    let mut exts = [0usize; ODO_POSITIONS];
    let mut steps = [[0i64; M]; ODO_POSITIONS];
    for (i, &p) in positions.iter().enumerate() {
        exts[i] = ext[p];
        for (s, a) in steps[i].iter_mut().zip(bank) {
            *s = a.coef[p];
        }
    }
    if exts[..np].contains(&0) {
        return;
    }
    let mut idx = [0usize; ODO_POSITIONS];
    let inner = np - 1;
    let e_in = exts[inner];
    let step_in = steps[inner];
    loop {
        for _ in 0..e_in {
            f(&vals);
            for a in 0..M {
                vals[a] = vals[a].wrapping_add(step_in[a]);
            }
        }
        for a in 0..M {
            vals[a] = vals[a].wrapping_sub(step_in[a].wrapping_mul(e_in as i64));
        }
        let mut j = inner;
        loop {
            if j == 0 {
                return;
            }
            j -= 1;
            idx[j] += 1;
            if idx[j] < exts[j] {
                for a in 0..M {
                    vals[a] = vals[a].wrapping_add(steps[j][a]);
                }
                break;
            }
            for a in 0..M {
                vals[a] = vals[a].wrapping_sub(steps[j][a].wrapping_mul((exts[j] - 1) as i64));
            }
            idx[j] = 0;
        }
    }
}

fn odometer_dyn(
    positions: &[usize],
    ext: &[usize],
    lo: &[i64],
    bank: &[&Dense],
    mut f: impl FnMut(&[i64]),
) {
    let m = bank.len();
    let mut vals: Vec<i64> = bank.iter().map(|a| eval(a, lo)).collect();
    let np = positions.len();
    if np == 0 {
        f(&vals);
        return;
    }
    let exts: Vec<usize> = positions.iter().map(|&p| ext[p]).collect();
    if exts.contains(&0) {
        return;
    }
    let steps: Vec<i64> = positions
        .iter()
        .flat_map(|&p| bank.iter().map(move |a| a.coef[p]))
        .collect();
    let mut idx = vec![0usize; np];
    let inner = np - 1;
    let e_in = exts[inner];
    let inner_step: Vec<i64> = steps[inner * m..(inner + 1) * m].to_vec();
    loop {
        for _ in 0..e_in {
            f(&vals);
            for (v, s) in vals.iter_mut().zip(&inner_step) {
                *v = v.wrapping_add(*s);
            }
        }
        for (v, s) in vals.iter_mut().zip(&inner_step) {
            *v = v.wrapping_sub(s.wrapping_mul(e_in as i64));
        }
        let mut j = inner;
        loop {
            if j == 0 {
                return;
            }
            j -= 1;
            let st = &steps[j * m..(j + 1) * m];
            idx[j] += 1;
            if idx[j] < exts[j] {
                for (v, s) in vals.iter_mut().zip(st) {
                    *v = v.wrapping_add(*s);
                }
                break;
            }
            for (v, s) in vals.iter_mut().zip(st) {
                *v = v.wrapping_sub(s.wrapping_mul((exts[j] - 1) as i64));
            }
            idx[j] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odometer_visits_row_major_with_other_positions_at_their_lower_bound() {
        let a = Dense {
            coef: smallvec![100, 10, 1],
            constant: 0,
        };
        let mut seen = Vec::new();
        odometer(&[0, 2], &[2, 3, 2], &[1, 5, 0], &[&a], |v| seen.push(v[0]));
        assert_eq!(seen, vec![150, 151, 250, 251]);
        let mut one = Vec::new();
        odometer(&[], &[2], &[7], &[&a], |v| one.push(v[0]));
        assert_eq!(one, vec![700]);
        // One position: a line; an empty extent visits nothing.
        let mut line = Vec::new();
        odometer(&[1], &[2, 3, 2], &[1, 5, 0], &[&a], |v| line.push(v[0]));
        assert_eq!(line, vec![150, 160, 170]);
        let mut none = Vec::new();
        odometer(&[1], &[2, 0, 2], &[1, 5, 0], &[&a], |v| none.push(v[0]));
        odometer(&[0, 1], &[2, 0, 2], &[1, 5, 0], &[&a], |v| none.push(v[0]));
        assert!(none.is_empty());
        // More positions than the fixed-size walk holds (and more expressions than its
        // banks): the same row-major order.
        let bits = Dense {
            coef: (0..10).map(|i| 1i64 << i).collect(),
            constant: 3,
        };
        let positions: Vec<usize> = (0..10).collect();
        let bank = [&bits, &bits, &bits, &bits, &bits];
        for bank in [&bank[..1], &bank[..]] {
            let mut got = Vec::new();
            odometer(&positions, &[2; 10], &[0; 10], bank, |v| got.push(v[0]));
            let want: Vec<i64> = (0..1024)
                .map(|k: i64| 3 + (0..10).map(|p| ((k >> (9 - p)) & 1) << p).sum::<i64>())
                .collect();
            assert_eq!(got, want);
        }
    }

    /// The contiguous shortcut gives exactly the plan's offsets (path, starts, run) on every
    /// path choice, for views of several, one and zero elements, and the same error past the
    /// element limit.
    #[test]
    fn the_contiguous_shortcut_equals_the_plan() {
        let mut mem = Memory::new(crate::Target::Cayman);
        let t = mem.alloc_hbm("t", DType::F16, &[6, 5]).unwrap();
        let views = [
            t.clone(),
            crate::View::contiguous(t.alloc(), DType::F16, 7, vec![2, 1, 3]).unwrap(),
            crate::View::contiguous(t.alloc(), DType::F16, 4, vec![1, 1]).unwrap(),
            crate::View::contiguous(t.alloc(), DType::F16, 0, vec![3, 0]).unwrap(),
        ];
        for v in &views {
            let a = Access::direct(v);
            let planned = Planned::new(&mem, &a, "t").unwrap();
            // (An empty view's row-major strides need not look contiguous: either way.)
            assert!(
                v.is_empty() || matches!(planned, Planned::Contiguous { .. }),
                "{v:?}"
            );
            let plan = Plan::new(&mem, &a, "t").unwrap();
            for choice in [PathChoice::Auto, PathChoice::General, PathChoice::Blocked] {
                assert_eq!(
                    planned.compute(&mem, OobMode::Error, choice).unwrap(),
                    plan.compute(&mem, OobMode::Error, choice).unwrap(),
                    "{v:?} {choice:?}"
                );
            }
        }
        let huge = crate::View::new(t.alloc(), DType::F16, 0, vec![1 << 40], vec![1]).unwrap();
        let a = Access::direct(&huge);
        assert_eq!(
            Planned::new(&mem, &a, "t").unwrap_err(),
            Plan::new(&mem, &a, "t").unwrap_err()
        );
    }

    /// The cache hands back the plan of the same access for the same op only, forgets the
    /// oldest past its capacity, and a re-planned access gives the same offsets.
    #[test]
    fn the_plan_cache_returns_the_plan_of_the_same_access_only() {
        let mut mem = Memory::new(crate::Target::Cayman);
        let t = mem.alloc_hbm("t", DType::F32, &[6, 4]).unwrap();
        let idx = mem.alloc_hbm("i", DType::I32, &[3, 1]).unwrap();
        mem.write_i64(&idx, &[4, 0, 5]).unwrap();
        let plan = |mem: &mut Memory, a: &Access, op| match Planned::cached(mem, a, op).unwrap() {
            Planned::Plan(p) => p,
            Planned::Contiguous { .. } => panic!("an indirect access has a plan"),
        };
        let a = Access::vector_offset(&t, 0, &idx).unwrap();
        let first = plan(&mut mem, &a, "x");
        assert!(Arc::ptr_eq(&first, &plan(&mut mem, &a, "x")));
        assert!(!Arc::ptr_eq(&first, &plan(&mut mem, &a, "y")));
        // As many other entries as the cache holds (the same access for other ops).
        const OTHERS: [&str; 8] = ["o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"];
        assert_eq!(OTHERS.len(), PlanCache::CAPACITY);
        for op in OTHERS {
            plan(&mut mem, &a, op);
        }
        let again = plan(&mut mem, &a, "x");
        assert!(!Arc::ptr_eq(&first, &again), "evicted, planned anew");
        for choice in [PathChoice::Auto, PathChoice::General, PathChoice::Blocked] {
            assert_eq!(
                first.compute(&mem, OobMode::Error, choice).unwrap(),
                again.compute(&mem, OobMode::Error, choice).unwrap()
            );
        }
        // An error is not cached: the same failing access fails again.
        let mut bad = a.clone();
        let term = bad
            .subscripts
            .iter_mut()
            .find_map(|s| s.indirect.as_mut())
            .unwrap();
        term.index_view = 9;
        assert!(Planned::cached(&mut mem, &bad, "x").is_err());
        assert!(Planned::cached(&mut mem, &bad, "x").is_err());
    }

    /// The separable stage A is the per-point one, factored: on one, two and three
    /// separable indirect dimensions (the two shortcuts and the odometer sum), over the
    /// blocked and the general sub-space, in skip mode with out-of-bounds indices it gives
    /// the same table; in error mode with a bad index it declines (the per-point stage
    /// reports the error); a non-separable access (two dimensions on one variable) declines.
    #[test]
    fn the_separable_stage_a_is_the_per_point_one() {
        use crate::access::{Affine, Subscript, VarSpace};
        let mut mem = Memory::new(crate::Target::Cayman);
        let x = mem.alloc_hbm("x", DType::F32, &[6, 5, 4, 3]).unwrap();
        let i = mem.alloc_hbm("i", DType::I32, &[4]).unwrap();
        let j = mem.alloc_hbm("j", DType::I16, &[3]).unwrap();
        let k = mem.alloc_hbm("k", DType::U8, &[2]).unwrap();
        let access = |subs: Vec<Subscript>, ext: &[usize]| Access {
            source: x.clone(),
            index_views: vec![i.clone(), j.clone(), k.clone()],
            subscripts: subs,
            space: VarSpace::from_extents(ext),
            order: None,
        };
        let ind = |v: usize, var: usize| Subscript::indirect(v, vec![Affine::var(var)]);
        let cases = [
            access(
                vec![
                    ind(0, 0),
                    Subscript::var(1),
                    Subscript::var(2),
                    Subscript::var(3),
                ],
                &[4, 5, 4, 3],
            ),
            access(
                vec![ind(0, 0), ind(1, 1), Subscript::var(2), Subscript::var(3)],
                &[4, 3, 4, 3],
            ),
            access(
                vec![ind(1, 1), ind(0, 0), Subscript::var(2), Subscript::var(3)],
                &[4, 3, 4, 3],
            ),
            access(
                vec![ind(0, 0), ind(1, 1), ind(2, 2), Subscript::var(3)],
                &[4, 3, 2, 3],
            ),
        ];
        let mut combines = Vec::new();
        let mut folds = 0;
        for (good, oob) in [
            (true, OobMode::Skip),
            (true, OobMode::Error),
            (false, OobMode::Skip),
        ] {
            let iv: &[i64] = if good { &[4, 0, 2, 3] } else { &[5, 6, 2, -1] };
            mem.write_i64(&i, iv).unwrap();
            mem.write_i64(&j, if good { &[4, 1, 0] } else { &[4, 9, 0] })
                .unwrap();
            mem.write_i64(&k, &[3, 1]).unwrap();
            for a in &cases {
                let plan = Plan::new(&mem, a, "t").unwrap();
                for split in [&plan.blocked, &plan.general] {
                    let sep = split.separable.as_ref().expect("a separable access");
                    combines.push(sep.combine);
                    let mut want = plan.stage_a(&mem, oob, split).unwrap();
                    if sep.fold.is_some() {
                        // Stage B folded in: the starts stage B makes of the table.
                        folds += 1;
                        want = plan.stage_b(want, split);
                    }
                    assert_eq!(
                        plan.stage_a_separable(&mem, oob, split, sep),
                        Some(want),
                        "{a:?}"
                    );
                }
            }
        }
        // Every way of combining the parts was exercised.
        for c in [
            SepCombine::Single,
            SepCombine::Pair {
                first: 0,
                second: 1,
            },
            SepCombine::Pair {
                first: 1,
                second: 0,
            },
            SepCombine::Sum,
        ] {
            assert!(combines.contains(&c), "{c:?}");
        }
        assert!(folds > 0);
        // A bad index in error mode: declined, and the per-point stage reports it.
        mem.write_i64(&i, &[5, 6, 2, -1]).unwrap();
        for a in &cases {
            let plan = Plan::new(&mem, a, "t").unwrap();
            for split in [&plan.blocked, &plan.general] {
                let sep = split.separable.as_ref().expect("a separable access");
                assert_eq!(
                    plan.stage_a_separable(&mem, OobMode::Error, split, sep),
                    None
                );
                assert!(plan.stage_a(&mem, OobMode::Error, split).is_err());
            }
        }
        let shared = access(
            vec![ind(0, 0), ind(1, 0), Subscript::var(2), Subscript::var(3)],
            &[3, 5, 4, 3],
        );
        let plan = Plan::new(&mem, &shared, "t").unwrap();
        assert!(plan.blocked.separable.is_none() && plan.general.separable.is_none());
    }

    #[test]
    fn range_is_exact_over_the_box_and_checked() {
        let a = Dense {
            coef: smallvec![-2, 3],
            constant: 1,
        };
        assert_eq!(range(&a, &[1, 0], &[3, 4]), Some((1 - 6, 1 - 2 + 9)));
        let big = Dense {
            coef: smallvec![i64::MAX],
            constant: 0,
        };
        assert_eq!(range(&big, &[0], &[3]), None);
    }
}
