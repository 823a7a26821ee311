//! Fused execution of straight-line row-local ops: a [`Fusion`] batch runs a sequence of
//! `dma_copy`, `tensor_tensor_arith`, `tensor_scalar_arith` and `activation` ops block of
//! partition rows by block, every op of the batch on one block before the next block, so a
//! row stays in cache across the ops instead of each op sweeping whole tiles.
//!
//! The result is exactly op-by-op execution ([`RowOp::run`], the ops' own functions): the
//! final bytes, the written-shadow, the accumulators and the error of the first failing op
//! (with every earlier op's effects applied). That holds because an op joins a batch only
//! when:
//!
//! - every operand is a view whose rows (dimension 0; partitions for on-chip tiles) are
//!   contiguous in-bounds byte runs of its allocation ([`Memory::row_ranges`]), every operand
//!   of every op of the batch has the batch's row count, and the values are fp32 (a DMA copy:
//!   equal dtypes, a byte copy), so row `p` of an op reads and writes only rows `p`;
//! - the op passes its own checks (the ones that do not depend on the data) and, on the
//!   shadow, its uninitialised-read check against the shadow as op-by-op execution would
//!   leave it (the shadow is updated op by op as ops join; the data follows at
//!   [`Fusion::flush`]), so no op of a batch can fail once it is in;
//! - no byte one op of the batch writes in row `p` is read or written by any op of the batch
//!   in another row `q` (an exact test on the rows' arithmetic progressions,
//!   [`cross_row_overlap`]): rows are then independent, and any order that keeps each row's
//!   ops in program order gives the same bytes;
//! - at most one op of a batch uses the accumulators (an `activation`), whose lanes are
//!   per partition and are committed when the batch is flushed.
//!
//! Anything else is refused ([`Pushed::Refused`]): the caller flushes the batch and runs the
//! op by itself, which then reports its own error, if any.

use std::ops::Range;

use crate::dtype::DType;
use crate::error::Result;
use crate::memory::{AllocId, MemSpace, Memory};
use crate::ops::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use crate::ops::activation::{self, ValidRange};
use crate::ops::alu::{AluClass, AluOp, AluRow, add_f32, checked_row, mult_f32};
use crate::ops::tensor_scalar::{self, Stage, apply_stage_row};
use crate::ops::tensor_tensor;
use crate::ops::tile::{self, Engine, Scalar, Space, decode_f32, encode_f32_into};
use crate::view::View;

/// A scalar operand, owned (an immediate, or a `[P, 1]` tile).
#[derive(Debug, Clone)]
pub enum OwnedScalar {
    /// A compile-time constant.
    Imm(f32),
    /// A `[P, 1]` tile.
    Tile(View),
}

impl From<&Scalar<'_>> for OwnedScalar {
    fn from(s: &Scalar<'_>) -> OwnedScalar {
        match s {
            Scalar::Imm(v) => OwnedScalar::Imm(*v),
            Scalar::Tile(v) => OwnedScalar::Tile((*v).clone()),
        }
    }
}

impl From<&Stage<'_>> for OwnedStage {
    fn from(s: &Stage<'_>) -> OwnedStage {
        OwnedStage {
            op: s.op,
            operand: s.operand.as_ref().map(OwnedScalar::from),
            reverse: s.reverse,
        }
    }
}

impl OwnedScalar {
    /// As the ops take it.
    pub fn as_scalar(&self) -> Scalar<'_> {
        match self {
            OwnedScalar::Imm(v) => Scalar::Imm(*v),
            OwnedScalar::Tile(v) => Scalar::Tile(v),
        }
    }
}

/// One `<op> operand` stage of a `tensor_scalar_arith`, owned.
#[derive(Debug, Clone)]
pub struct OwnedStage {
    /// The operator.
    pub op: AluOp,
    /// The operand.
    pub operand: Option<OwnedScalar>,
    /// Put the operand on the left.
    pub reverse: bool,
}

impl OwnedStage {
    /// As the op takes it.
    pub fn as_stage(&self) -> Stage<'_> {
        Stage {
            op: self.op,
            operand: self.operand.as_ref().map(OwnedScalar::as_scalar),
            reverse: self.reverse,
        }
    }
}

/// An op a [`Fusion`] can take, with its operands.
#[derive(Debug, Clone)]
pub enum RowOp {
    /// [`crate::dma_copy`].
    DmaCopy {
        /// Destination.
        dst: View,
        /// Source.
        src: View,
    },
    /// [`crate::tensor_tensor_arith`].
    TensorTensor {
        /// Destination.
        dst: View,
        /// `data1`.
        lhs: View,
        /// `data2`.
        rhs: View,
        /// The operator.
        op: AluOp,
        /// The engine.
        engine: Option<Engine>,
    },
    /// [`crate::tensor_scalar_arith`].
    TensorScalar {
        /// Destination.
        dst: View,
        /// The data.
        data: View,
        /// Stage 0.
        stage0: OwnedStage,
        /// Stage 1.
        stage1: Option<OwnedStage>,
        /// The engine.
        engine: Option<Engine>,
    },
    /// [`crate::activation`].
    Activation {
        /// Destination.
        dst: View,
        /// The data.
        data: View,
        /// The function.
        func: crate::ActivationFunc,
        /// The multiplier.
        scale: OwnedScalar,
        /// The addend.
        bias: Option<OwnedScalar>,
        /// `add` or absent.
        reduce_op: Option<AluOp>,
        /// How the accumulators change.
        reduce_cmd: ReduceCmd,
        /// The `[P, 1]` read-out tile.
        reduce_res: Option<View>,
    },
}

impl RowOp {
    /// Runs the op by itself, through its own function (the reference of a batch).
    pub fn run(&self, mem: &mut Memory, acc: &mut Accumulators) -> Result<()> {
        match self {
            RowOp::DmaCopy { dst, src } => crate::dma_copy(mem, dst, src),
            RowOp::TensorTensor {
                dst,
                lhs,
                rhs,
                op,
                engine,
            } => crate::tensor_tensor_arith(mem, dst, lhs, rhs, *op, *engine),
            RowOp::TensorScalar {
                dst,
                data,
                stage0,
                stage1,
                engine,
            } => {
                let s1 = stage1.as_ref().map(OwnedStage::as_stage);
                crate::tensor_scalar_arith(mem, dst, data, &stage0.as_stage(), s1.as_ref(), *engine)
            }
            RowOp::Activation {
                dst,
                data,
                func,
                scale,
                bias,
                reduce_op,
                reduce_cmd,
                reduce_res,
            } => {
                let args = crate::Activation {
                    func: *func,
                    scale: scale.as_scalar(),
                    bias: bias.as_ref().map(OwnedScalar::as_scalar),
                    reduce_op: *reduce_op,
                    reduce_cmd: *reduce_cmd,
                    reduce_res: reduce_res.as_ref(),
                };
                crate::activation(mem, acc, dst, data, &args)
            }
        }
    }
}

/// The rows of one operand: row `p` is bytes `base + p * stride .. + len` of `alloc`.
#[derive(Debug, Clone, Copy)]
struct Rows {
    alloc: AllocId,
    base: usize,
    stride: i64,
    len: usize,
    parts: usize,
}

impl Rows {
    fn of(mem: &Memory, view: &View) -> Option<Rows> {
        let r = mem.row_ranges(view)?;
        // Empty rows (and empty views) are left to the ops themselves.
        let first = r.first().filter(|f| !f.is_empty())?;
        let stride = match r.get(1) {
            Some(s) => i64::try_from(s.start).ok()? - i64::try_from(first.start).ok()?,
            None => 0,
        };
        Some(Rows {
            alloc: view.alloc(),
            base: first.start,
            stride,
            len: first.len(),
            parts: r.len(),
        })
    }

    #[inline]
    fn row(&self, p: usize) -> Range<usize> {
        // In bounds: row_ranges computed every row.
        let s = (self.base as i64 + self.stride * p as i64) as usize;
        s..s + self.len
    }

    fn ranges(&self) -> Vec<Range<usize>> {
        (0..self.parts).map(|p| self.row(p)).collect()
    }

    /// The bytes any row covers.
    fn hull(&self) -> (i64, i64) {
        let a = self.base as i64;
        let b = a + self.stride * (self.parts as i64 - 1);
        (a.min(b), a.max(b) + self.len as i64)
    }
}

/// Whether row `p` of `a` and row `q` of `b` share a byte for some `p != q`.
fn cross_row_overlap(a: &Rows, b: &Rows) -> bool {
    if a.alloc != b.alloc || a.len == 0 || b.len == 0 || a.parts == 0 || b.parts == 0 {
        return false;
    }
    let (ha, hb) = (a.hull(), b.hull());
    if ha.1 <= hb.0 || hb.1 <= ha.0 {
        return false;
    }
    if a.parts == 1 && b.parts == 1 {
        return false;
    }
    if a.stride != b.stride {
        // Not provably apart: treat as overlapping.
        return true;
    }
    // Rows p of a and q of b overlap iff lo < d * s < hi, d = p - q.
    let (s, off) = (a.stride as i128, b.base as i128 - a.base as i128);
    let (lo, hi) = (off - a.len as i128, off + b.len as i128);
    let (dmin, dmax) = (-(b.parts as i128 - 1), a.parts as i128 - 1);
    if s == 0 {
        return lo < 0 && 0 < hi;
    }
    // d * s in (lo, hi), with s > 0 after flipping the sign of d.
    let (lo, hi, dmin, dmax, s) = if s > 0 {
        (lo, hi, dmin, dmax, s)
    } else {
        (lo, hi, -dmax, -dmin, -s)
    };
    let first = lo.div_euclid(s) + 1;
    let last = (hi - 1).div_euclid(s);
    let (from, to) = (first.max(dmin), last.min(dmax));
    // Some nonzero d in from..=to.
    from <= to && !(from == 0 && to == 0)
}

/// A scalar operand resolved for rows: an immediate, or row `p` of a `[P, 1]` fp32 tile.
#[derive(Debug, Clone, Copy)]
enum RowScalar {
    Imm(f32),
    Tile(Rows),
}

impl RowScalar {
    #[inline]
    fn get(&self, mem: &Memory, p: usize) -> f32 {
        match self {
            RowScalar::Imm(v) => *v,
            RowScalar::Tile(r) => {
                let at = r.row(p).start;
                let b = mem.bytes(r.alloc).unwrap_or(&[]);
                b.get(at..at + 4)
                    .map_or(0.0, |c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            }
        }
    }
}

struct PlannedStage {
    row: &'static AluRow,
    operand: RowScalar,
    reverse: bool,
}

enum Kind {
    Copy {
        dst: Rows,
        src: Rows,
    },
    Vv {
        dst: Rows,
        lhs: Rows,
        rhs: Rows,
        row: &'static AluRow,
    },
    Vs {
        dst: Rows,
        data: Rows,
        stages: Vec<PlannedStage>,
    },
    Act {
        dst: Rows,
        data: Rows,
        row: &'static activation::ActivationRow,
        scale: RowScalar,
        bias: Option<RowScalar>,
        begin: Start,
        idle: Option<Vec<f32>>,
        reduce_res: Option<Rows>,
    },
}

/// A planned op: what it does per row, and its operands' rows (reads in the order the op
/// checks them, then writes).
struct Planned {
    kind: Kind,
    reads: Vec<Rows>,
    writes: Vec<Rows>,
}

/// What [`Fusion::push`] did with an op.
#[derive(Debug)]
pub enum Pushed {
    /// The op is in the batch (its shadow effects applied, its data at the next flush).
    Deferred,
    /// The op cannot join a batch: flush, then run it by itself ([`RowOp::run`]).
    Refused(Box<RowOp>),
}

/// A batch of row-local ops waiting to run (see the module doc).
#[derive(Default)]
pub struct Fusion {
    ops: Vec<Planned>,
    parts: usize,
    uses_acc: bool,
}

impl std::fmt::Debug for Fusion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Fusion({} ops of {} rows waiting)",
            self.ops.len(),
            self.parts
        )
    }
}

/// Rows processed together: the activation's sums interleave this many rows (the same
/// in-order sum per row), and a block of every operand stays in cache across the ops.
const BLOCK: usize = 8;

impl Fusion {
    /// An empty batch.
    pub fn new() -> Fusion {
        Fusion::default()
    }

    /// True when no op waits.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Whether a waiting op may touch a byte of `view` (conservatively: true when the view's
    /// rows are not contiguous runs): before something else writes the view, the batch runs.
    pub fn touches_view(&self, mem: &Memory, view: &View) -> bool {
        if self.ops.is_empty() || view.is_empty() {
            return false;
        }
        let Some(v) = Rows::of(mem, view) else {
            return true;
        };
        let (lo, hi) = v.hull();
        self.rows().any(|r| {
            let (a, b) = r.hull();
            r.alloc == v.alloc && a < hi && lo < b
        })
    }

    /// Whether a waiting op may touch an SBUF byte at offset `from` or above within its
    /// partition (where the next SBUF tile is allocated, [`Memory::next_sbuf_offset`]).
    pub fn reaches_sbuf(&self, mem: &Memory, from: usize) -> bool {
        let bpp = crate::target::sbuf_bytes_per_partition(mem.target());
        self.rows()
            .filter(|r| mem.space(r.alloc).ok() == Some(MemSpace::Sbuf))
            .any(|r| {
                (0..r.parts).any(|p| {
                    let row = r.row(p);
                    let part = row.start / bpp;
                    row.end > part * bpp + from.min(bpp)
                })
            })
    }

    /// Whether the rows of `r` lie inside rows a waiting op writes (so they are marked
    /// written already).
    fn writes_cover(&self, r: &Rows) -> bool {
        self.ops.iter().flat_map(|o| &o.writes).any(|w| {
            w.alloc == r.alloc
                && w.parts == r.parts
                && (w.stride == r.stride || r.parts == 1)
                && w.base <= r.base
                && r.base + r.len <= w.base + w.len
        })
    }

    /// Every operand's rows of every waiting op.
    fn rows(&self) -> impl Iterator<Item = &Rows> {
        self.ops
            .iter()
            .flat_map(|o| o.reads.iter().chain(&o.writes))
    }

    /// Adds `op` to the batch (flushing it first when `op` conflicts with it), or refuses it.
    pub fn push(&mut self, mem: &mut Memory, acc: &mut Accumulators, op: RowOp) -> Result<Pushed> {
        let Some(planned) = plan(mem, acc, &op) else {
            return Ok(Pushed::Refused(Box::new(op)));
        };
        if planned
            .reads
            .iter()
            .chain(&planned.writes)
            .any(|r| r.parts != planned.parts())
        {
            return Ok(Pushed::Refused(Box::new(op)));
        }
        if self_conflict(&planned) {
            return Ok(Pushed::Refused(Box::new(op)));
        }
        let acc_op = matches!(planned.kind, Kind::Act { .. });
        if !self.ops.is_empty()
            && (self.parts != planned.parts()
                || (acc_op && self.uses_acc)
                || self.ops.iter().any(|o| conflict(o, &planned)))
        {
            self.flush(mem, acc);
            // The accumulators may have changed: plan again.
            return self.push(mem, acc, op);
        }
        // The uninitialised-read check, as the op makes it (against the shadow as the ops
        // before it leave it); a failing op is refused, so running it reports the error.
        const WHO: &str = "fused";
        if mem.check_uninit() {
            // Rows a waiting op writes are written: only the others are looked up.
            for r in planned.reads.iter().filter(|r| !self.writes_cover(r)) {
                if mem.check_ranges_written(WHO, r.alloc, &r.ranges()).is_err() {
                    return Ok(Pushed::Refused(Box::new(op)));
                }
            }
        }
        for w in planned.writes.iter().filter(|w| !self.writes_cover(w)) {
            for p in 0..w.parts {
                mem.mark_written(w.alloc, w.row(p))?;
            }
        }
        self.parts = planned.parts();
        self.uses_acc |= acc_op;
        self.ops.push(planned);
        Ok(Pushed::Deferred)
    }

    /// Runs every op of the batch, block of rows by block, and empties it.
    pub fn flush(&mut self, mem: &mut Memory, acc: &mut Accumulators) {
        let ops = std::mem::take(&mut self.ops);
        self.uses_acc = false;
        let mut bufs = Bufs::default();
        let mut sums = vec![0f32; self.parts];
        let mut p = 0;
        while p < self.parts {
            let rows = p..(p + BLOCK).min(self.parts);
            for op in &ops {
                run_block(mem, op, rows.clone(), &mut bufs, &mut sums);
            }
            p = rows.end;
        }
        for op in ops {
            if let Kind::Act { begin, .. } = op.kind {
                let state = match begin {
                    Start::Idle => None,
                    Start::ResetOnly(v) => Some(v),
                    Start::Accumulate(mut regs) => {
                        for (r, s) in regs.iter_mut().zip(&sums) {
                            *r = add_f32(*r, *s);
                        }
                        Some(regs)
                    }
                };
                if let Some(v) = state {
                    let lanes: Vec<Option<f32>> = v.into_iter().map(Some).collect();
                    acc.commit(AccEngine::Scalar, &lanes);
                }
            }
        }
    }
}

/// Runs `ops` in order, as many together as can be (the same effects as running each by
/// itself, [`RowOp::run`]).
pub fn run_row_ops(mem: &mut Memory, acc: &mut Accumulators, ops: &[RowOp]) -> Result<()> {
    let mut f = Fusion::new();
    for op in ops {
        if let Pushed::Refused(op) = f.push(mem, acc, op.clone())? {
            f.flush(mem, acc);
            op.run(mem, acc)?;
        }
    }
    f.flush(mem, acc);
    Ok(())
}

impl Planned {
    fn parts(&self) -> usize {
        self.writes.first().map_or(0, |w| w.parts)
    }
}

/// Whether an op's own rows conflict across rows (a write of row p meeting row q).
fn self_conflict(op: &Planned) -> bool {
    op.writes.iter().any(|w| {
        op.reads
            .iter()
            .chain(&op.writes)
            .any(|r| cross_row_overlap(w, r))
    })
}

/// Whether `b`'s rows conflict with `a`'s across rows.
fn conflict(a: &Planned, b: &Planned) -> bool {
    let hits = |ws: &[Rows], x: &Planned| {
        x.reads
            .iter()
            .chain(&x.writes)
            .any(|r| ws.iter().any(|w| cross_row_overlap(w, r)))
    };
    hits(&a.writes, b) || hits(&b.writes, a)
}

fn f32_rows(mem: &Memory, v: &View) -> Option<Rows> {
    (v.dtype() == DType::F32)
        .then(|| Rows::of(mem, v))
        .flatten()
}

fn on_chip(mem: &Memory, v: &View) -> bool {
    matches!(mem.space(v.alloc()), Ok(MemSpace::Sbuf | MemSpace::Psum))
}

fn row_scalar(
    mem: &Memory,
    s: &OwnedScalar,
    parts: usize,
    reads: &mut Vec<Rows>,
) -> Option<RowScalar> {
    match s {
        OwnedScalar::Imm(v) => Some(RowScalar::Imm(*v)),
        OwnedScalar::Tile(t) => {
            let sh = tile::tile(mem, "fused", "scalar", t, Space::OnChip).ok()?;
            if sh.parts != parts || sh.free != 1 {
                return None;
            }
            let r = f32_rows(mem, t)?;
            reads.push(r);
            Some(RowScalar::Tile(r))
        }
    }
}

/// The op planned for a batch, when it qualifies (module doc); `None` otherwise.
fn plan(mem: &mut Memory, acc: &Accumulators, op: &RowOp) -> Option<Planned> {
    match op {
        RowOp::DmaCopy { dst, src } => {
            let ok_space =
                |v: &View| matches!(mem.space(v.alloc()), Ok(MemSpace::Hbm | MemSpace::Sbuf));
            if !ok_space(dst) || !ok_space(src) || dst.dtype() != src.dtype() || src.dtype().is_x4()
            {
                return None;
            }
            for v in [dst, src] {
                crate::EmuError::check_elements("dma_copy", "a tile", v.num_elements()).ok()?;
            }
            let (d, s) = (Rows::of(mem, dst)?, Rows::of(mem, src)?);
            if d.parts != s.parts || d.len != s.len {
                return None;
            }
            Some(Planned {
                kind: Kind::Copy { dst: d, src: s },
                reads: vec![s],
                writes: vec![d],
            })
        }
        RowOp::TensorTensor {
            dst,
            lhs,
            rhs,
            op,
            engine,
        } => {
            const OP: &str = "tensor_tensor_arith";
            if *op == AluOp::Pow || !matches!(engine, None | Some(Engine::Vector)) {
                return None;
            }
            let row = checked_row(OP, *op, AluClass::Arith).ok()?;
            row.slices?;
            tensor_tensor::operands(mem, OP, dst, lhs, rhs, Space::OnChip).ok()?;
            let (d, l, r) = (
                f32_rows(mem, dst)?,
                f32_rows(mem, lhs)?,
                f32_rows(mem, rhs)?,
            );
            if l.len != d.len || r.len != d.len {
                return None;
            }
            Some(Planned {
                kind: Kind::Vv {
                    dst: d,
                    lhs: l,
                    rhs: r,
                    row,
                },
                reads: vec![l, r],
                writes: vec![d],
            })
        }
        RowOp::TensorScalar {
            dst,
            data,
            stage0,
            stage1,
            engine,
        } => {
            const OP: &str = "tensor_scalar_arith";
            let dsh = tile::tile(mem, OP, "dst", dst, Space::OnChip).ok()?;
            let ssh = tile::tile(mem, OP, "data", data, Space::OnChip).ok()?;
            tile::same_shape(OP, ("dst", dsh), ("data", ssh)).ok()?;
            let s0 = stage0.as_stage();
            let s1 = stage1.as_ref().map(OwnedStage::as_stage);
            tensor_scalar::check_engine(mem, OP, *engine, &s0, s1.as_ref(), &[dst, data]).ok()?;
            let mut reads = Vec::new();
            let mut stages = Vec::new();
            for st in std::iter::once(stage0).chain(stage1.as_ref()) {
                let row = checked_row(OP, st.op, AluClass::Arith).ok()?;
                row.slices?;
                let operand = match (&st.operand, row.unary) {
                    (None, true) => RowScalar::Imm(0.0),
                    (Some(sc), true) if st.op == AluOp::Bypass => {
                        row_scalar(mem, sc, ssh.parts, &mut reads)?
                    }
                    (Some(OwnedScalar::Imm(v)), true) if *v == 0.0 => RowScalar::Imm(0.0),
                    (Some(sc), false) => row_scalar(mem, sc, ssh.parts, &mut reads)?,
                    _ => return None,
                };
                stages.push(PlannedStage {
                    row,
                    operand,
                    reverse: st.reverse,
                });
            }
            let (d, s) = (f32_rows(mem, dst)?, f32_rows(mem, data)?);
            if d.len != s.len {
                return None;
            }
            reads.push(s);
            Some(Planned {
                kind: Kind::Vs {
                    dst: d,
                    data: s,
                    stages,
                },
                reads,
                writes: vec![d],
            })
        }
        RowOp::Activation {
            dst,
            data,
            func,
            scale,
            bias,
            reduce_op,
            reduce_cmd,
            reduce_res,
        } => {
            // Its checks are the op's own: a dry run of them is the op with no data, so
            // run the checks the op makes before touching memory, through the op's rows.
            const OP: &str = "activation";
            let row = activation::activation_row(OP, *func).ok()?;
            if !matches!(row.range, ValidRange::All) || row.eval_row.is_none() {
                return None;
            }
            if !on_chip(mem, dst) || !on_chip(mem, data) {
                return None;
            }
            let dsh = tile::tile(mem, OP, "dst", dst, Space::OnChip).ok()?;
            let ssh = tile::tile(mem, OP, "data", data, Space::OnChip).ok()?;
            tile::same_shape(OP, ("dst", dsh), ("data", ssh)).ok()?;
            if reduce_op.is_some_and(|o| o != AluOp::Add) {
                return None;
            }
            if !matches!(
                reduce_cmd,
                ReduceCmd::Idle | ReduceCmd::Reset | ReduceCmd::Reduce | ReduceCmd::ResetReduce
            ) {
                return None;
            }
            let accumulates = matches!(reduce_cmd, ReduceCmd::Reduce | ReduceCmd::ResetReduce);
            if accumulates && reduce_op.is_none() {
                return None;
            }
            // A scalar bias needs a newer target; keep those to the op itself.
            if matches!(bias, Some(OwnedScalar::Imm(_))) {
                return None;
            }
            let mut reads = Vec::new();
            let scale = row_scalar(mem, scale, ssh.parts, &mut reads)?;
            let bias = match bias {
                Some(b) => Some(row_scalar(mem, b, ssh.parts, &mut reads)?),
                None => None,
            };
            let begin = accumulator::start(
                acc,
                OP,
                AccEngine::Scalar,
                *reduce_cmd,
                ssh.parts,
                0.0,
                None,
            )
            .ok()?;
            let res = match reduce_res {
                Some(r) => {
                    tile::lane_tile(mem, OP, "reduce_res", r, ssh.parts).ok()?;
                    Some(f32_rows(mem, r)?)
                }
                None => None,
            };
            let idle = match (&res, &begin) {
                (Some(_), Start::Idle) => Some(acc.defined(OP, AccEngine::Scalar, ssh.parts).ok()?),
                _ => None,
            };
            let (d, s) = (f32_rows(mem, dst)?, f32_rows(mem, data)?);
            if d.len != s.len {
                return None;
            }
            reads.push(s);
            let mut writes = vec![d];
            writes.extend(res);
            Some(Planned {
                kind: Kind::Act {
                    dst: d,
                    data: s,
                    row,
                    scale,
                    bias,
                    begin,
                    idle,
                    reduce_res: res,
                },
                reads,
                writes,
            })
        }
    }
}

/// Row buffers, reused across rows and ops.
#[derive(Default)]
struct Bufs {
    a: Vec<f32>,
    b: Vec<f32>,
    block: Vec<f32>,
}

fn sized(v: &mut Vec<f32>, n: usize) -> &mut [f32] {
    v.resize(n, 0.0);
    &mut v[..n]
}

/// Values per piece of a row for an element-wise op writing `dst` from `inputs`: a few
/// KiB, so the op's buffers stay in the first-level cache, when every input row is `dst`'s
/// very row or shares no byte with it in that row (element `i` is then read before it is
/// written and by nothing else); the whole row otherwise (every input read before any
/// write, as the op by itself does).
fn chunk(dst: &Rows, inputs: &[&Rows]) -> usize {
    // Pieces of 2 under test, so the property test's short rows run in pieces too.
    const PIECE: usize = if cfg!(test) { 2 } else { 1024 };
    let apart = |r: &Rows| {
        // Different pitches only get here with rows that cannot meet (cross_row_overlap).
        r.alloc != dst.alloc
            || r.stride != dst.stride
            || r.base == dst.base
            || r.base.abs_diff(dst.base) >= dst.len.max(r.len)
    };
    let n = (dst.len / 4).max(1);
    if inputs.iter().all(|r| apart(r)) {
        PIECE.min(n)
    } else {
        n
    }
}

/// Values `e..e + out.len()` of row `p` of `r`.
fn load_at(mem: &Memory, r: &Rows, p: usize, e: usize, out: &mut [f32]) {
    if let Ok(b) = mem.bytes(r.alloc) {
        let at = r.row(p).start + 4 * e;
        decode_f32(&b[at..at + 4 * out.len()], out);
    }
}

/// `vals` into values `e..` of row `p` of `r`.
fn store_at(mem: &mut Memory, r: &Rows, p: usize, e: usize, vals: &[f32]) {
    if let Ok(b) = mem.raw_bytes_mut(r.alloc) {
        let at = r.row(p).start + 4 * e;
        encode_f32_into(vals, &mut b[at..at + 4 * vals.len()]);
    }
}

fn load(mem: &Memory, r: &Rows, p: usize, out: &mut [f32]) {
    if let Ok(b) = mem.bytes(r.alloc) {
        decode_f32(&b[r.row(p)], out);
    }
}

fn store(mem: &mut Memory, r: &Rows, p: usize, vals: &[f32]) {
    if let Ok(b) = mem.raw_bytes_mut(r.alloc) {
        encode_f32_into(vals, &mut b[r.row(p)]);
    }
}

/// Runs one op on rows `rows` (its checks done, its shadow marked: nothing can fail).
fn run_block(
    mem: &mut Memory,
    op: &Planned,
    rows: Range<usize>,
    bufs: &mut Bufs,
    sums: &mut [f32],
) {
    match &op.kind {
        Kind::Copy { dst, src } => {
            for p in rows {
                mem.copy_unmarked(src.alloc, src.row(p), dst.alloc, dst.row(p).start);
            }
        }
        Kind::Vv { dst, lhs, rhs, row } => {
            let Some(k) = row.slices else { return };
            let step = chunk(dst, &[lhs, rhs]);
            for p in rows {
                for e in (0..dst.len / 4).step_by(step) {
                    let n = step.min(dst.len / 4 - e);
                    let a = sized(&mut bufs.a, n);
                    load_at(mem, lhs, p, e, a);
                    let b = sized(&mut bufs.b, n);
                    load_at(mem, rhs, p, e, b);
                    let (a, b) = (&mut bufs.a[..n], &bufs.b[..n]);
                    (k.vv)(a, b);
                    store_at(mem, dst, p, e, a);
                }
            }
        }
        Kind::Vs { dst, data, stages } => {
            let step = chunk(dst, &[data]);
            for p in rows {
                let vals: smallvec::SmallVec<[f32; 2]> =
                    stages.iter().map(|s| s.operand.get(mem, p)).collect();
                for e in (0..dst.len / 4).step_by(step) {
                    let n = step.min(dst.len / 4 - e);
                    let a = sized(&mut bufs.a, n);
                    load_at(mem, data, p, e, a);
                    for (s, &v) in stages.iter().zip(&vals) {
                        apply_stage_row(s.row, a, v, s.reverse);
                    }
                    store_at(mem, dst, p, e, a);
                }
            }
        }
        Kind::Act {
            dst,
            data,
            row,
            scale,
            bias,
            begin,
            idle,
            reduce_res,
        } => {
            let n = dst.len / 4;
            let Some(eval_row) = row.eval_row else { return };
            let sums_wanted = matches!(begin, Start::Accumulate(_));
            let first = rows.start;
            let block = sized(&mut bufs.block, n * rows.len());
            for (k, p) in rows.clone().enumerate() {
                let (sc, bi) = (scale.get(mem, p), bias.map(|b| b.get(mem, p)));
                let out = &mut block[k * n..(k + 1) * n];
                load(mem, data, p, out);
                for v in out.iter_mut() {
                    *v = mult_f32(*v, sc);
                }
                if let Some(b) = bi {
                    for v in out.iter_mut() {
                        *v = add_f32(*v, b);
                    }
                }
                eval_row(out, row.at_inf);
                store(mem, dst, p, out);
            }
            if sums_wanted {
                activation::sum_rows(block, n, &mut sums[first..rows.end]);
            }
            if let Some(res) = reduce_res {
                for p in rows {
                    let v = match begin {
                        Start::Idle => idle.as_ref().map_or(0.0, |v| v[p]),
                        Start::ResetOnly(v) => v[p],
                        Start::Accumulate(regs) => add_f32(regs[p], sums[p]),
                    };
                    store(mem, res, p, &[v]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[self.below(xs.len())]
        }
        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
    }

    /// A memory with an SBUF, a small HBM tensor and some written bytes, and a pool of
    /// views over them (overlapping, aliasing, broadcast, of other shapes and dtypes).
    struct Case {
        mem: Memory,
        acc: Accumulators,
        tiles: Vec<View>,
        lanes: Vec<View>,
        wild: bool,
    }

    fn case(seed: u64) -> Case {
        let mut r = Rng(seed | 1);
        let mut mem = Memory::new(Target::Mariana);
        mem.set_check_uninit(true).unwrap();
        mem.set_fill_unallocated(false);
        let hbm_len = 512;
        let init: Vec<u8> = (0..hbm_len)
            .flat_map(|i| ((i % 37) as f32 * 0.25 - 3.0).to_le_bytes())
            .collect();
        let h = mem
            .alloc_hbm_from_bytes("h", DType::F32, &[hbm_len], &init)
            .unwrap();
        let sb = mem.sbuf().unwrap();
        let bpp = crate::target::sbuf_bytes_per_partition(Target::Mariana) as i64;
        let parts = r.pick(&[1, 2, 3, 5, 8, 9]);
        let free = r.pick(&[1, 2, 3, 4, 7, 8]);
        // Tame cases: partition tiles side by side (some aliasing one another), nearly all
        // written; wild cases: any pitch and offset, overlapping, broadcast, other shapes.
        let wild = r.chance(50);
        let odd = if wild { 15 } else { 3 };
        let mut tiles = Vec::new();
        for k in 0..7 {
            let p = if r.chance(odd) { parts + 1 } else { parts };
            let f = if r.chance(odd) { free + 1 } else { free };
            let dtype = if r.chance(odd) {
                DType::Bf16
            } else {
                DType::F32
            };
            let es = dtype.size() as i64;
            let fi = f as i64;
            let view = if r.chance(25) {
                // HBM: rows at a pitch (0: every row the same bytes).
                let (pitch, off) = if wild {
                    (r.pick(&[0, 1, fi / 2, fi, fi * 2]), r.below(16) as i64)
                } else {
                    (r.pick(&[fi, fi, 0]), (r.below(4) * parts * f) as i64)
                };
                View::new(h.alloc(), dtype, off, vec![p, f], vec![pitch, 1]).unwrap()
            } else {
                let row = bpp / es;
                let (pitch, off) = if wild {
                    (
                        r.pick(&[row, row, row, 0, fi, 1]),
                        r.pick(&[0i64, 0, 1, 2, fi, row]),
                    )
                } else {
                    // Slot k of 8 per partition, or an earlier tile's slot (aliasing).
                    (row, (r.below(k + 1) * 8) as i64)
                };
                View::new(sb, dtype, off, vec![p, f], vec![pitch, 1]).unwrap()
            };
            tiles.push(view);
        }
        let mut lanes = Vec::new();
        for k in 0..3 {
            let (off, pitch) = if wild {
                (
                    r.pick(&[0i64, 1, 4, 8, free as i64]),
                    r.pick(&[bpp / 4, bpp / 4, 0]),
                )
            } else {
                (64 + k as i64, bpp / 4)
            };
            lanes.push(View::new(sb, DType::F32, off, vec![parts, 1], vec![pitch, 1]).unwrap());
        }
        // Some of the views written, so others read unwritten bytes.
        let written = if wild { 60 } else { 95 };
        for v in tiles.iter().chain(&lanes) {
            if r.chance(written) {
                let vals: Vec<f32> = (0..v.num_elements())
                    .map(|i| (i % 11) as f32 * 0.5 - 2.0)
                    .collect();
                mem.write_f32(v, &vals).unwrap();
            }
        }
        // Sometimes without the check (unwritten bytes then read as they are).
        if r.chance(15) {
            mem.set_check_uninit(false).unwrap();
        }
        Case {
            mem,
            acc: Accumulators::new(),
            tiles,
            lanes,
            wild,
        }
    }

    fn ops(seed: u64, c: &Case) -> Vec<RowOp> {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let t = |r: &mut Rng| c.tiles[r.below(c.tiles.len())].clone();
        // Compute operands: on-chip tiles, unless the case is wild.
        let on_chip: Vec<View> = c
            .tiles
            .iter()
            .filter(|v| c.wild || c.mem.space(v.alloc()).ok() == Some(MemSpace::Sbuf))
            .cloned()
            .collect();
        let pool = if on_chip.is_empty() {
            c.tiles.clone()
        } else {
            on_chip
        };
        let tc = |r: &mut Rng| pool[r.below(pool.len())].clone();
        let lane = |r: &mut Rng| c.lanes[r.below(c.lanes.len())].clone();
        let scalar = |r: &mut Rng| {
            if r.chance(40) {
                OwnedScalar::Tile(lane(r))
            } else {
                OwnedScalar::Imm(r.pick(&[0.0, 0.5, -1.25, 3.0]))
            }
        };
        let engine = |r: &mut Rng| {
            if c.wild {
                r.pick(&[None, None, Some(Engine::Vector), Some(Engine::GpSimd)])
            } else {
                r.pick(&[None, Some(Engine::Vector)])
            }
        };
        // Tame sequences mostly pass the ops' checks, so the batches grow long.
        let bad = if c.wild { 10 } else { 0 };
        let n = 1 + r.below(8);
        (0..n)
            .map(|_| match r.below(4) {
                0 => RowOp::DmaCopy {
                    dst: t(&mut r),
                    src: t(&mut r),
                },
                1 => RowOp::TensorTensor {
                    dst: tc(&mut r),
                    lhs: tc(&mut r),
                    rhs: tc(&mut r),
                    op: if r.chance(bad) {
                        AluOp::Pow
                    } else {
                        r.pick(&[
                            AluOp::Add,
                            AluOp::Subtract,
                            AluOp::Mult,
                            AluOp::Max,
                            AluOp::Divide,
                        ])
                    },
                    engine: engine(&mut r),
                },
                2 => {
                    let stage = |r: &mut Rng| OwnedStage {
                        op: r.pick(&[
                            AluOp::Add,
                            AluOp::Mult,
                            AluOp::Subtract,
                            AluOp::Bypass,
                            AluOp::Divide,
                            AluOp::Rsqrt,
                        ]),
                        operand: match r.below(10) {
                            0 if r.chance(bad * 10) => None,
                            1 => Some(OwnedScalar::Imm(0.0)),
                            _ => Some(scalar(r)),
                        },
                        reverse: r.chance(30),
                    };
                    RowOp::TensorScalar {
                        dst: tc(&mut r),
                        data: tc(&mut r),
                        stage0: stage(&mut r),
                        stage1: if r.chance(50) {
                            Some(stage(&mut r))
                        } else {
                            None
                        },
                        engine: engine(&mut r),
                    }
                }
                _ => RowOp::Activation {
                    dst: tc(&mut r),
                    data: tc(&mut r),
                    func: r.pick(&[
                        crate::ActivationFunc::Square,
                        crate::ActivationFunc::Identity,
                        crate::ActivationFunc::Exp,
                        if c.wild {
                            crate::ActivationFunc::Rsqrt
                        } else {
                            crate::ActivationFunc::Relu
                        },
                    ]),
                    scale: scalar(&mut r),
                    bias: match r.below(3) {
                        0 if c.wild => Some(scalar(&mut r)),
                        1 => Some(OwnedScalar::Tile(lane(&mut r))),
                        _ => None,
                    },
                    reduce_op: if r.chance(80) { Some(AluOp::Add) } else { None },
                    reduce_cmd: if c.wild {
                        r.pick(&[
                            ReduceCmd::Idle,
                            ReduceCmd::Reset,
                            ReduceCmd::Reduce,
                            ReduceCmd::ResetReduce,
                        ])
                    } else {
                        r.pick(&[
                            ReduceCmd::Reset,
                            ReduceCmd::ResetReduce,
                            ReduceCmd::ResetReduce,
                            ReduceCmd::Reduce,
                        ])
                    },
                    reduce_res: if r.chance(70) {
                        Some(lane(&mut r))
                    } else {
                        None
                    },
                },
            })
            .collect()
    }

    fn reference(c: &mut Case, ops: &[RowOp]) -> Result<()> {
        for op in ops {
            op.run(&mut c.mem, &mut c.acc)?;
        }
        Ok(())
    }

    fn same_state(a: &Case, b: &Case, what: &str) {
        for id in [
            AllocId::from_raw(0),
            a.tiles.last().map(|v| v.alloc()).unwrap(),
        ] {
            let (x, y) = (a.mem.bytes(id).unwrap(), b.mem.bytes(id).unwrap());
            if x != y {
                let at = x.iter().zip(y).position(|(p, q)| p != q);
                panic!("{what}: bytes of allocation {id:?} differ first at {at:?}");
            }
            assert!(
                a.mem.shadow(id) == b.mem.shadow(id),
                "{what}: shadows of {id:?} differ"
            );
        }
        for id in a.tiles.iter().chain(&a.lanes).map(|v| v.alloc()) {
            assert_eq!(a.mem.bytes(id).unwrap(), b.mem.bytes(id).unwrap(), "{what}");
        }
        // Bit for bit (a NaN lane equals itself).
        for e in [AccEngine::Scalar, AccEngine::Vector] {
            for lane in 0..128 {
                let (x, y) = (a.acc.get(e, lane), b.acc.get(e, lane));
                assert_eq!(
                    x.map(f32::to_bits),
                    y.map(f32::to_bits),
                    "{what}: accumulator lane {lane} differs"
                );
            }
        }
    }

    /// Fused execution equals op-by-op execution on random op sequences over random
    /// overlapping, aliasing and broadcast views: bytes, shadow, accumulators, and the first
    /// error (with the earlier ops' effects applied).
    #[test]
    fn fused_runs_equal_op_by_op_runs() {
        let cases = if cfg!(debug_assertions) { 300 } else { 1500 };
        let (mut fused_ops, mut errors) = (0, 0);
        for seed in 1..=cases {
            let mut a = case(seed);
            let mut b = case(seed);
            let ops = ops(seed, &a);
            // Count what the batches took, to know the test exercises fusion.
            {
                let mut probe = case(seed);
                let mut f = Fusion::new();
                for op in &ops {
                    match f.push(&mut probe.mem, &mut probe.acc, op.clone()).unwrap() {
                        Pushed::Deferred => fused_ops += 1,
                        Pushed::Refused(op) => {
                            f.flush(&mut probe.mem, &mut probe.acc);
                            if op.run(&mut probe.mem, &mut probe.acc).is_err() {
                                break;
                            }
                        }
                    }
                }
                f.flush(&mut probe.mem, &mut probe.acc);
            }
            let want = reference(&mut a, &ops);
            let got = run_row_ops(&mut b.mem, &mut b.acc, &ops);
            errors += usize::from(want.is_err());
            assert_eq!(
                format!("{want:?}"),
                format!("{got:?}"),
                "seed {seed}: {ops:?}"
            );
            same_state(&a, &b, &format!("seed {seed}: {ops:?}"));
        }
        assert!(fused_ops > cases as usize / 2, "only {fused_ops} ops fused");
        assert!(errors > 10, "only {errors} failing sequences");
    }

    /// A waiting op's rows are seen by the checks an allocation makes before it writes.
    #[test]
    fn waiting_ops_report_the_bytes_they_touch() {
        let mut mem = Memory::new(Target::Mariana);
        mem.set_fill_unallocated(false);
        let mut acc = Accumulators::new();
        let a = mem.alloc_sbuf(DType::F32, &[4, 8]).unwrap();
        let b = mem.alloc_sbuf(DType::F32, &[4, 8]).unwrap();
        mem.write_f32(&a, &[1.0; 32]).unwrap();
        let mut f = Fusion::new();
        assert!(!f.touches_view(&mem, &a));
        let op = RowOp::DmaCopy {
            dst: b.clone(),
            src: a.clone(),
        };
        assert!(matches!(
            f.push(&mut mem, &mut acc, op).unwrap(),
            Pushed::Deferred
        ));
        assert!(f.touches_view(&mem, &a) && f.touches_view(&mem, &b));
        let next = mem.next_sbuf_offset();
        assert_eq!(next, 128);
        assert!(!f.reaches_sbuf(&mem, next));
        assert!(f.reaches_sbuf(&mem, 80));
        f.flush(&mut mem, &mut acc);
        assert_eq!(mem.read_f32(&b).unwrap(), vec![1.0; 32]);
        assert!(!f.touches_view(&mem, &a));
    }

    /// The row test agrees with a brute-force search over row pairs.
    #[test]
    fn cross_row_overlap_equals_brute_force() {
        let mut r = Rng(7);
        let id = AllocId::from_raw(0);
        for _ in 0..20000 {
            let rows = |r: &mut Rng| Rows {
                alloc: id,
                base: r.below(40),
                stride: r.pick(&[0i64, 1, 2, 3, 4, 7, 8, 16, -1, -4, -8]),
                len: r.below(10),
                parts: 1 + r.below(6),
            };
            let (mut a, mut b) = (rows(&mut r), rows(&mut r));
            if r.chance(50) {
                b.stride = a.stride;
            }
            // Keep every row at a non-negative offset.
            for x in [&mut a, &mut b] {
                if x.stride < 0 {
                    x.base += (-x.stride) as usize * x.parts;
                }
            }
            let brute = (0..a.parts).any(|p| {
                (0..b.parts).any(|q| {
                    let (x, y) = (a.row(p), b.row(q));
                    p != q && !x.is_empty() && !y.is_empty() && x.start < y.end && y.start < x.end
                })
            });
            let fast = cross_row_overlap(&a, &b);
            if a.stride == b.stride {
                assert_eq!(fast, brute, "{a:?} {b:?}");
            } else {
                // Different pitches are refused unless their rows cannot meet.
                assert!(fast || !brute, "{a:?} {b:?}");
            }
        }
    }
}
