//! `sundial-legalize-partition-reduce` (the seed's LegalizePartitionReduce, pass-rules §6; step
//! 5 of `sundial-middle-end`): every reduction over the partition axis becomes GpSimd
//! `cross_lane_reduce_arith` 0x7C or `cross_lane_reduce_bitvec` 0x7D.
//!
//! It lowers the generic `tensor_partition_reduce` (and a `cross_lane_reduce_*` over a logical
//! tile of more than 128 partitions):
//!
//! | op | rewrite | provenance |
//! |---|---|---|
//! | add, max | `cross_lane_reduce_arith` add / max | seed, docs (nkipy) |
//! | average | `cross_lane_reduce_arith` average (the hardware scales by 1/N) | seed |
//! | or, and, xor | `cross_lane_reduce_bitvec` (xor: firmware, not NKI surface) | seed |
//! | min, float | negate, cross-lane max, negate | ours |
//! | min on integers, mult, abs_max, abs_min | **refused**: no cross-partition form | ours |
//!
//! Preconditions and shapes [docs, wiki; sequences ours]: GpSimd reads and writes SBUF only,
//! so a PSUM source is first copied to SBUF by a Vector `tensor_copy` and a PSUM destination is
//! written through SBUF; `[P, F...] -> [1, F...]`. Reduced free axes go first, on Vector
//! (`tensor_reduce_*`, trailing axes), then across partitions; an average then adds
//! throughout and one final `tensor_scalar_arith` multiplies by 1/(total count). More than 128
//! partitions: one cross-lane reduction per 128-partition slice (a static `nisa.ap` view),
//! partials combined by `tensor_tensor_arith` add/max or `tensor_tensor_bitvec`. Arithmetic
//! intermediates are fp32 (the cross-lane arithmetic is fp32); bit-vector ones keep the
//! integer type. Order of summation across partitions is unspecified [wiki]. Options: none.

use crate::{
    emit::{Emit, Step, tile},
    registry::{PassInfo, PassOptions},
    rewrite::{Rewriter, collect_views, refuse},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{Value, ValueLike, operation::OperationRef},
    pass::ExternalPass,
};
use sundial_dialects::{
    build::{BuildError, OpBuild},
    dtype::Dtype,
    enums::{Engine, Space},
    tile::{NUM_PARTITIONS, Tile},
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-legalize-partition-reduce",
    summary: "Lower partition-axis reductions to cross_lane_reduce_* (0x7C/0x7D)",
    description: "tensor_partition_reduce (and cross_lane_reduce over more than 128 partitions) -> free-axis tensor_reduce on Vector, then cross_lane_reduce_arith/bitvec on GpSimd per 128-partition slice, partials combined on Vector; average scales once, float min negates around max; PSUM goes through SBUF. Refuses mult, abs_max, abs_min and integer min.",
    options: &[VERIFY_AFTER],
    create: crate::step::create::<Legalize>,
};

#[derive(Clone, Debug)]
pub(crate) struct Legalize {}

/// One reduction to lower.
struct Job<'c, 'a> {
    view: View<'c, 'a>,
    op: String,
    /// How many trailing free axes are reduced too.
    trailing: usize,
}

fn classify<'c, 'a>(v: View<'c, 'a>) -> Result<Option<Job<'c, 'a>>, String> {
    let Some(src) = v.tile("src") else {
        return Ok(None);
    };
    let op = v.str_attr("op").unwrap_or_default();
    match v.mnemonic() {
        "tensor_partition_reduce" => {
            if matches!(op.as_str(), "mult" | "abs_max" | "abs_min") {
                return Err(format!(
                    "attribute 'op': no cross-partition form for {op} (rule: partition reduce op)"
                ));
            }
            if op == "min" && src.dtype.is_int() {
                return Err(format!(
                    "attribute 'op': no cross-partition form for min on integers (the float form negates around max, which {} cannot do exactly) (rule: partition reduce op)",
                    src.dtype.mlir_name()
                ));
            }
            let axes = v.i64_array("axis").unwrap_or_else(|| vec![0]);
            let trailing = axes.len().saturating_sub(1);
            Ok(Some(Job {
                view: v,
                op,
                trailing,
            }))
        }
        "cross_lane_reduce_arith" | "cross_lane_reduce_bitvec"
            if src.partitions() > NUM_PARTITIONS =>
        {
            Ok(Some(Job {
                view: v,
                op,
                trailing: 0,
            }))
        }
        _ => Ok(None),
    }
}

fn tile_of(value: Value<'_, '_>) -> Result<Tile, BuildError> {
    Tile::from_type(value.r#type()).map_err(BuildError::Mlir)
}

/// `[P, K...]`: `value` with at least one free dimension (a 1-D tile viewed as `[P, 1]`).
fn with_free_dim<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    value: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, BuildError> {
    let t = tile_of(value)?;
    if t.shape.len() > 1 {
        return Ok(value);
    }
    let p = t.partitions();
    e.view(value, &[1, p, 1, 1], 0, &tile(t.space, &[p, 1], t.dtype))
}

/// The static view of partitions `[start, start + rows)` of `value` (`[P, K...]`).
fn partition_slice<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    value: Value<'c, 'a>,
    start: i64,
    rows: i64,
) -> Result<Value<'c, 'a>, BuildError> {
    let t = tile_of(value)?;
    let free = t.free_shape();
    let row: i64 = free.iter().product();
    let mut pattern = vec![row, rows];
    for (i, &k) in free.iter().enumerate() {
        pattern.push(free[i + 1..].iter().product());
        pattern.push(k);
    }
    let mut shape = vec![rows];
    shape.extend_from_slice(free);
    e.view(
        value,
        &pattern,
        start * row,
        &tile(t.space, &shape, t.dtype),
    )
}

fn cross_lane<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    bitvec: bool,
    dst: Value<'c, 'a>,
    src: Value<'c, 'a>,
    op: &str,
) -> Result<(), BuildError> {
    let name = if bitvec {
        "nisa.cross_lane_reduce_bitvec"
    } else {
        "nisa.cross_lane_reduce_arith"
    };
    e.rewriter.build_before(
        e.anchor,
        OpBuild::at(&e.anchor, name)?
            .operand("dst", dst)?
            .operand("src", src)?
            .str("op", op)?
            .str("engine", Engine::Gpsimd.as_str())?,
    )?;
    Ok(())
}

fn apply<'c, 'a>(rewriter: &Rewriter<'c>, job: &Job<'c, 'a>) -> Result<(), BuildError> {
    let v = &job.view;
    let e = Emit {
        rewriter,
        anchor: v.op(),
    };
    let missing = || BuildError::Mlir("operand missing".into());
    let (src, dst) = (
        v.value("src").ok_or_else(missing)?,
        v.value("dst").ok_or_else(missing)?,
    );
    let (s, d) = (tile_of(src)?, tile_of(dst)?);
    let op = job.op.as_str();
    let bitvec = op.starts_with("bitwise_");
    let work = if bitvec { d.dtype } else { Dtype::F32 };
    let mut current = src;
    if s.space == Space::Psum {
        let copy = e.alloc(&tile(Space::Sbuf, &s.shape, s.dtype))?;
        e.copy(copy, src, Engine::Vector)?;
        current = copy;
    }
    let p = s.partitions();
    let mut count = p;
    if job.trailing > 0 {
        let rank = s.shape.len();
        let kept = &s.shape[1..rank - job.trailing];
        count = p * s.shape[rank - job.trailing..].iter().product::<i64>();
        let mut shape = vec![p];
        shape.extend_from_slice(kept);
        if shape.len() == 1 {
            shape.push(1);
        }
        let reduced = e.alloc(&tile(Space::Sbuf, &shape, work))?;
        let free_op = if op == "average" { "add" } else { op };
        let axes: Vec<i64> = (rank - job.trailing..rank).map(|a| a as i64).collect();
        let name = if bitvec {
            "nisa.tensor_reduce_bitvec"
        } else {
            "nisa.tensor_reduce_arith"
        };
        rewriter.build_before(
            v.op(),
            OpBuild::at(&v.op(), name)?
                .operand("dst", reduced)?
                .operand("data", current)?
                .str("op", free_op)?
                .i64_array("axis", &axes)?
                .str("engine", Engine::Vector.as_str())?,
        )?;
        current = reduced;
    }
    current = with_free_dim(&e, current)?;
    let chunks = (p + NUM_PARTITIONS - 1) / NUM_PARTITIONS;
    let mut cross_op = op;
    let mut post = None;
    if op == "min" {
        let shape = tile_of(current)?.shape;
        let negated = e.alloc(&tile(Space::Sbuf, &shape, Dtype::F32))?;
        e.tensor_scalar(
            negated,
            current,
            Step::imm("mult", -1.0),
            None,
            Engine::Vector,
        )?;
        current = negated;
        cross_op = "max";
        post = Some(-1.0f32);
    } else if op == "average" && (job.trailing > 0 || chunks > 1) {
        cross_op = "add";
        post = Some((1.0f64 / count as f64) as f32);
    }
    let partial = tile(Space::Sbuf, &d.shape, work);
    let acc = if chunks == 1 {
        let target = if post.is_none() && d.space == Space::Sbuf {
            dst
        } else {
            e.alloc(&partial)?
        };
        cross_lane(&e, bitvec, target, current, cross_op)?;
        target
    } else {
        let acc = e.alloc(&partial)?;
        let part = e.alloc(&partial)?;
        for c in 0..chunks {
            let start = c * NUM_PARTITIONS;
            let rows = NUM_PARTITIONS.min(p - start);
            let slice = partition_slice(&e, current, start, rows)?;
            if c == 0 {
                cross_lane(&e, bitvec, acc, slice, cross_op)?;
                continue;
            }
            cross_lane(&e, bitvec, part, slice, cross_op)?;
            let out = if c + 1 == chunks && post.is_none() {
                dst
            } else {
                acc
            };
            let (name, combine) = if bitvec {
                ("nisa.tensor_tensor_bitvec", cross_op)
            } else {
                ("nisa.tensor_tensor_arith", cross_op)
            };
            e.tensor_tensor(name, out, acc, part, Some(combine), Engine::Vector)?;
        }
        if post.is_none() { dst } else { acc }
    };
    if let Some(k) = post {
        e.tensor_scalar(dst, acc, Step::imm("mult", k), None, Engine::Vector)?;
    } else if acc != dst {
        e.copy(dst, acc, Engine::Vector)?;
    }
    rewriter.erase(v.op());
    Ok(())
}

impl crate::step::Step for Legalize {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialLegalizePartitionReduce";
    const ID: &'static PassId = &PASS_ID;

    fn new(_options: &PassOptions) -> Self {
        Legalize {}
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let views: Vec<View> = collect_views(&operation, |spec| {
                matches!(
                    spec.name,
                    "tensor_partition_reduce"
                        | "cross_lane_reduce_arith"
                        | "cross_lane_reduce_bitvec"
                )
            });
            let mut jobs = Vec::new();
            let mut failed = false;
            for v in views {
                let op = v.op();
                match classify(v) {
                    Ok(Some(job)) => jobs.push(job),
                    Ok(None) => {}
                    Err(message) => {
                        refuse(&op, message);
                        failed = true;
                    }
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            let rewriter = Rewriter::new(&operation);
            for job in &jobs {
                if let Err(e) = apply(&rewriter, job) {
                    refuse(&job.view.op(), format!("could not be legalized: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            true
        })
    }
}
