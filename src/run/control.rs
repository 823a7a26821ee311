//! Structured control flow of a run: the body of a function as [`Step`]s (ops with their
//! handlers, `scf.for` loops, `scf.if` conditionals and `nisa.core_barrier`s), checked before
//! anything runs, and a [`Thread`]: one program's position in that body, an explicit stack of
//! `Frame`s, so that a program can stop at a barrier and resume later (the programs of a
//! launch grid run as cooperative coroutines, see `super::grid`).
//!
//! Values flow as upstream `scf` says:
//!
//! - `scf.for %iv = %lb to %ub step %s iter_args(%a = %init) -> (T)`: the loop-carried values
//!   start as the `iter_args` operands, each iteration's `scf.yield` operands become the
//!   next iteration's, and the loop's results are the last iteration's (the initial values
//!   when the loop runs no iteration). The bounds are signed, or with `unsigned` compared as
//!   unsigned integers of their width (`unsignedCmp`). Carried values may be of any kind a
//!   run binds: indices and integers, floats, registers, tiles and views (a view keeps the
//!   chain it was made by).
//! - `scf.if %c -> (T)`: the `then` region when the `i1` condition is true, else the `else`
//!   region (none: nothing runs); the results are the `scf.yield` operands of the region
//!   that ran.
//!
//! The ranks of a run execute in lockstep (one op on every rank, then the next), so a loop
//! must run the same number of iterations on every rank and a condition must agree on every
//! rank; a difference is an error naming the op.

use melior::ir::{
    BlockLike, BlockRef, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use sundial_dialects::{enums::Space, ffi::op_name, tile::Tile};

use super::RunError;
use super::exec::{self, Exec, Machine, RtValue};
use super::ops::{self, Handler, Scope, index};

/// One step of a body.
pub enum Step<'c, 'a> {
    /// An op and its handler.
    Op(OperationRef<'c, 'a>, Handler),
    /// An `scf.for`.
    Loop(Loop<'c, 'a>),
    /// An `scf.if`.
    If(If<'c, 'a>),
    /// A `nisa.core_barrier` (its handler checks who takes part): the program stops here
    /// until every program it synchronises has arrived.
    Barrier(OperationRef<'c, 'a>, Handler),
}

/// The steps of a region and the values its terminator yields (`scf.yield` operands; none for
/// a function body).
pub struct Region<'c, 'a> {
    /// The steps, in order.
    pub steps: Vec<Step<'c, 'a>>,
    /// What the region's `scf.yield` yields.
    pub yields: Vec<Value<'c, 'a>>,
}

/// An `scf.for`: bounds are operands 0..3, the initial carried values the rest; the body's
/// block arguments are the induction variable and the carried values.
pub struct Loop<'c, 'a> {
    /// The op.
    pub op: OperationRef<'c, 'a>,
    /// The induction variable.
    pub iv: Value<'c, 'a>,
    /// The loop-carried values as the body sees them.
    pub carried: Vec<Value<'c, 'a>>,
    /// The body.
    pub body: Region<'c, 'a>,
    /// Whether the bounds compare unsigned (`unsignedCmp`).
    pub unsigned: bool,
    /// The bit width of the induction variable (64 for `index`).
    pub width: u32,
}

/// An `scf.if`.
pub struct If<'c, 'a> {
    /// The op.
    pub op: OperationRef<'c, 'a>,
    /// The `then` region.
    pub then: Region<'c, 'a>,
    /// The `else` region, when it has a block.
    pub otherwise: Option<Region<'c, 'a>>,
}

/// How deep loops and conditionals may nest (a bound on the recursion of preparing a hostile
/// kernel).
pub const MAX_LOOP_DEPTH: usize = 64;

/// The steps of `block`, a function body (`depth` 0) or the body of a loop or a branch (whose
/// `scf.yield` ends it): every op with a handler and without regions, or an `scf.for` /
/// `scf.if`.
pub fn prepare_block<'c, 'a>(
    block: BlockRef<'c, 'a>,
    fname: &str,
    depth: usize,
) -> Result<Region<'c, 'a>, RunError> {
    let mut steps = Vec::new();
    let mut yields = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let name = op_name(o.to_raw());
        match &*name {
            "scf.for" => {
                steps.push(Step::Loop(prepare_loop(o, fname, depth + 1)?));
                continue;
            }
            "scf.if" => {
                steps.push(Step::If(prepare_if(o, fname, depth + 1)?));
                continue;
            }
            "scf.yield" if depth > 0 => {
                yields = (0..o.operand_count())
                    .filter_map(|k| o.operand(k).ok())
                    .collect();
                continue;
            }
            _ => {}
        }
        let handler = ops::handler(&name).filter(|_| o.region_count() == 0);
        let Some(handler) = handler else {
            let message = match ops::refusal(&name) {
                Some(why) => format!("op '{name}' cannot run on the emulator: {why}"),
                None => format!("op '{name}' has no emulator semantics yet"),
            };
            return Err(RunError::at(&o, message));
        };
        if name == "func.return" && o.operand_count() > 0 {
            return Err(RunError::at(
                &o,
                format!(
                    "function @{fname} returns values; sundial-run runs destination-passing kernels (results are written to arguments)"
                ),
            ));
        }
        if name == "nisa.core_barrier" {
            steps.push(Step::Barrier(o, *handler));
        } else {
            steps.push(Step::Op(o, *handler));
        }
    }
    Ok(Region { steps, yields })
}

fn too_deep(o: &OperationRef<'_, '_>, depth: usize) -> Result<(), RunError> {
    if depth > MAX_LOOP_DEPTH {
        return Err(RunError::at(
            o,
            format!(
                "'{}' op is nested {depth} loops deep, more than the {MAX_LOOP_DEPTH} sundial-run runs",
                op_name(o.to_raw())
            ),
        ));
    }
    Ok(())
}

/// An `scf.for`, its body prepared.
fn prepare_loop<'c, 'a>(
    o: OperationRef<'c, 'a>,
    fname: &str,
    depth: usize,
) -> Result<Loop<'c, 'a>, RunError> {
    too_deep(&o, depth)?;
    let block = o
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| RunError::at(&o, "'scf.for' op has no body"))?;
    let iv = block
        .argument(0)
        .map_err(|_| RunError::at(&o, "'scf.for' op has no induction variable"))?;
    let width = index::width(iv.r#type()).ok_or_else(|| {
        RunError::at(
            &o,
            "'scf.for' op: sundial-run runs loops over index or signless integers of at most 64 bits",
        )
    })?;
    let carried: Vec<Value<'c, 'a>> = (1..block.argument_count())
        .filter_map(|k| block.argument(k).ok().map(Into::into))
        .collect();
    if o.operand_count() != 3 + carried.len() || o.result_count() != carried.len() {
        return Err(RunError::at(
            &o,
            "'scf.for' op: its iter_args, results and body arguments do not correspond",
        ));
    }
    let body = prepare_block(block, fname, depth)?;
    if body.yields.len() != carried.len() {
        return Err(RunError::at(
            &o,
            format!(
                "'scf.for' op carries {} values but its body yields {}",
                carried.len(),
                body.yields.len()
            ),
        ));
    }
    Ok(Loop {
        op: o,
        iv: iv.into(),
        carried,
        body,
        unsigned: o.attribute("unsignedCmp").is_ok(),
        width,
    })
}

/// An `scf.if`, its regions prepared.
fn prepare_if<'c, 'a>(
    o: OperationRef<'c, 'a>,
    fname: &str,
    depth: usize,
) -> Result<If<'c, 'a>, RunError> {
    too_deep(&o, depth)?;
    let region = |k: usize| o.region(k).ok().and_then(|r| r.first_block());
    let then = region(0).ok_or_else(|| RunError::at(&o, "'scf.if' op has no then region"))?;
    let then = prepare_block(then, fname, depth)?;
    let otherwise = region(1)
        .map(|b| prepare_block(b, fname, depth))
        .transpose()?;
    let results = o.result_count();
    for r in std::iter::once(&then).chain(otherwise.as_ref()) {
        if r.yields.len() != results {
            return Err(RunError::at(
                &o,
                format!(
                    "'scf.if' op has {results} results but a region yields {}",
                    r.yields.len()
                ),
            ));
        }
    }
    if results > 0 && otherwise.is_none() {
        return Err(RunError::at(
            &o,
            "'scf.if' op has results but no else region",
        ));
    }
    Ok(If {
        op: o,
        then,
        otherwise,
    })
}

/// Calls `f` on every step of `steps` and of the regions nested in them.
pub fn walk<'s, 'c, 'a>(steps: &'s [Step<'c, 'a>], f: &mut impl FnMut(&'s Step<'c, 'a>)) {
    for step in steps {
        f(step);
        match step {
            Step::Loop(l) => walk(&l.body.steps, f),
            Step::If(i) => {
                walk(&i.then.steps, f);
                if let Some(e) = &i.otherwise {
                    walk(&e.steps, f);
                }
            }
            Step::Op(..) | Step::Barrier(..) => {}
        }
    }
}

/// The widest on-chip tile (partition count) among the values the ops of `steps` produce
/// and use, with the op it is on.
pub fn widest_tile<'c, 'a>(steps: &[Step<'c, 'a>]) -> Option<(i64, OperationRef<'c, 'a>)> {
    largest(steps, |t| (t.space != Space::Hbm).then(|| t.partitions()))
}

/// The most bytes per partition of a PSUM tile among the values the ops of `steps` produce
/// and use (more than one bank is a logical tile, before the free-axis cut).
pub fn widest_psum_tile(steps: &[Step<'_, '_>]) -> Option<i64> {
    largest(steps, |t| {
        (t.space == Space::Psum).then(|| t.free_bytes()).flatten()
    })
    .map(|(b, _)| b)
}

/// The largest `measure` of a tile among the values the ops of `steps` produce and use,
/// with the op it is on.
fn largest<'c, 'a>(
    steps: &[Step<'c, 'a>],
    measure: impl Fn(&Tile) -> Option<i64>,
) -> Option<(i64, OperationRef<'c, 'a>)> {
    let mut widest: Option<(i64, OperationRef<'c, 'a>)> = None;
    walk(steps, &mut |step| {
        let o = match step {
            Step::Op(o, _) | Step::Barrier(o, _) => *o,
            Step::Loop(l) => l.op,
            Step::If(i) => i.op,
        };
        let results = (0..o.result_count()).filter_map(|i| o.result(i).ok().map(|r| r.r#type()));
        let operands = (0..o.operand_count()).filter_map(|i| o.operand(i).ok().map(|v| v.r#type()));
        for ty in results.chain(operands) {
            if let Ok(t) = Tile::from_type(ty)
                && let Some(m) = measure(&t)
                && widest.is_none_or(|(w, _)| m > w)
            {
                widest = Some((m, o));
            }
        }
    });
    widest
}

/// The loop iterations of the constant-bound loops of `steps` (each nested in loops running
/// `outer` times in all); an error at the first loop that takes the total past `limit` (the
/// run's [`exec::RunConfig::max_loop_iterations`]), before anything runs. Both branches of a
/// conditional count.
pub fn static_iterations(
    steps: &[Step<'_, '_>],
    outer: u128,
    total: &mut u128,
    limit: u64,
) -> Result<(), RunError> {
    for step in steps {
        let l = match step {
            Step::Loop(l) => l,
            Step::If(i) => {
                static_iterations(&i.then.steps, outer, total, limit)?;
                if let Some(e) = &i.otherwise {
                    static_iterations(&e.steps, outer, total, limit)?;
                }
                continue;
            }
            _ => continue,
        };
        let trip = if l.unsigned {
            None
        } else {
            sundial_dialects::loops::static_loop(l.op.to_raw()).map(|s| s.trip)
        };
        let runs = outer.saturating_mul(trip.unwrap_or(1));
        if let Some(t) = trip {
            *total = total.saturating_add(runs);
            if *total > u128::from(limit) {
                return Err(RunError::at(
                    &l.op,
                    format!(
                        "'scf.for' op runs {t} iterations{}, which brings the run to {} loop iterations, more than the {} sundial-run executes (--max-loop-iterations): unroll less, run a smaller problem or raise the limit",
                        if outer > 1 {
                            format!(" {outer} times")
                        } else {
                            String::new()
                        },
                        *total,
                        limit
                    ),
                ));
            }
        }
        static_iterations(&l.body.steps, runs, total, limit)?;
    }
    Ok(())
}

/// Where a [`Thread`] is in one region.
struct Frame<'s, 'c, 'a> {
    region: &'s Region<'c, 'a>,
    pc: usize,
    kind: Kind<'s, 'c, 'a>,
}

/// What a region belongs to.
enum Kind<'s, 'c, 'a> {
    /// The function body.
    Body,
    /// Iteration `k` of `trip` of a loop whose induction variable is `lower + k * step`.
    Loop {
        l: &'s Loop<'c, 'a>,
        k: u128,
        trip: u128,
        lower: i128,
        step: i128,
    },
    /// A branch of an `scf.if`, whose results its yields become.
    If(OperationRef<'c, 'a>),
}

/// Why a [`Thread`] stopped.
pub enum Status<'c, 'a> {
    /// The body ran to its end.
    Done,
    /// The program arrived at this `nisa.core_barrier` (and resumes after it).
    Barrier(OperationRef<'c, 'a>),
}

/// One program's position in a body: a stack of regions being run.
pub struct Thread<'s, 'c, 'a> {
    stack: Vec<Frame<'s, 'c, 'a>>,
}

/// A value as bound on one rank, with the chain of views it was made by.
type Bound = (RtValue, Option<exec::Chain>);

/// The bindings of `values` on `rank`; an error at `op` for one nothing executed bound.
fn read_all<'c, 'a>(
    machine: &Machine,
    rank: usize,
    op: &OperationRef<'_, '_>,
    values: impl Iterator<Item = Value<'c, 'a>>,
) -> Result<Vec<Bound>, RunError> {
    values
        .map(|v| {
            machine.take_binding(rank, v).ok_or_else(|| {
                RunError::at(
                    op,
                    format!(
                        "'{}' op uses a value no op that sundial-run executed defined",
                        op_name(op.to_raw())
                    ),
                )
            })
        })
        .collect()
}

impl<'s, 'c, 'a> Thread<'s, 'c, 'a> {
    /// A thread at the start of `body`.
    pub fn new(body: &'s Region<'c, 'a>) -> Self {
        Thread {
            stack: vec![Frame {
                region: body,
                pc: 0,
                kind: Kind::Body,
            }],
        }
    }

    /// Runs until the body ends or the program arrives at a barrier (or an op fails); the
    /// fused ops still waiting then run, so memory holds what op-by-op execution leaves.
    pub fn run(&mut self, machine: &mut Machine) -> Result<Status<'c, 'a>, RunError> {
        let status = self.steps(machine);
        machine.flush_fused();
        status
    }

    fn steps(&mut self, machine: &mut Machine) -> Result<Status<'c, 'a>, RunError> {
        loop {
            let Some(top) = self.stack.last_mut() else {
                return Ok(Status::Done);
            };
            if top.pc < top.region.steps.len() {
                let region: &'s Region<'c, 'a> = top.region;
                let step = &region.steps[top.pc];
                top.pc += 1;
                match step {
                    Step::Op(op, handler) => run_op(machine, *op, handler)?,
                    Step::Barrier(op, handler) => {
                        run_op(machine, *op, handler)?;
                        return Ok(Status::Barrier(*op));
                    }
                    Step::Loop(l) => {
                        if let Some(frame) = enter_loop(machine, l)? {
                            self.stack.push(frame);
                        }
                    }
                    Step::If(i) => {
                        if let Some(frame) = enter_if(machine, i)? {
                            self.stack.push(frame);
                        }
                    }
                }
                continue;
            }
            let Some(mut frame) = self.stack.pop() else {
                return Ok(Status::Done);
            };
            match frame.kind {
                Kind::Body => return Ok(Status::Done),
                Kind::If(op) => {
                    for r in 0..machine.ranks() {
                        let yielded =
                            read_all(machine, r, &op, frame.region.yields.iter().copied())?;
                        bind_results(machine, r, &op, yielded);
                    }
                }
                Kind::Loop {
                    l,
                    ref mut k,
                    trip,
                    lower,
                    step,
                } => {
                    *k += 1;
                    let more = *k < trip;
                    for r in 0..machine.ranks() {
                        let yielded = read_all(machine, r, &l.op, l.body.yields.iter().copied())?;
                        if more {
                            for (v, b) in l.carried.iter().zip(yielded) {
                                machine.bind_full(r, *v, b);
                            }
                            let iv = index::wrap(lower + *k as i128 * step, l.width);
                            machine.bind(r, l.iv, RtValue::Index(iv));
                        } else {
                            bind_results(machine, r, &l.op, yielded);
                        }
                    }
                    if more {
                        frame.pc = 0;
                        self.stack.push(frame);
                    }
                }
            }
        }
    }
}

/// Binds the results of `op` on `rank` to `values`, in order.
fn bind_results(machine: &mut Machine, rank: usize, op: &OperationRef<'_, '_>, values: Vec<Bound>) {
    for (k, b) in values.into_iter().enumerate() {
        if let Ok(res) = op.result(k) {
            machine.bind_full(rank, res.into(), b);
        }
    }
}

/// Runs one op on every rank (a collective once for the whole group).
fn run_op(
    machine: &mut Machine,
    op: OperationRef<'_, '_>,
    handler: &Handler,
) -> Result<(), RunError> {
    if !ops::keeps_fused_batch(handler.op) {
        machine.flush_fused();
    }
    let ranks = machine.ranks();
    let mut exec = Exec::new(machine, op)?;
    match handler.scope {
        Scope::Group => {
            exec.set_whole_group();
            (handler.run)(&mut exec)
        }
        Scope::Core => {
            for r in 0..ranks {
                exec.set_rank(r);
                (handler.run)(&mut exec)?;
            }
            Ok(())
        }
    }
}

/// Starts a loop: its bounds read on every rank (they must give the same trip count: the
/// ranks run in lockstep), its trip count checked against the run's
/// [`exec::RunConfig::max_loop_iterations`], the carried values bound to their initial
/// values. `None` when it runs no iteration (its results are then the initial values).
fn enter_loop<'s, 'c, 'a>(
    machine: &mut Machine,
    l: &'s Loop<'c, 'a>,
) -> Result<Option<Frame<'s, 'c, 'a>>, RunError> {
    let at = |m: String| RunError::at(&l.op, format!("'scf.for' op {m}"));
    let mut first: Option<(i128, i128, u128)> = None;
    for r in 0..machine.ranks() {
        let mut bound = [0i128; 3];
        for (k, b) in bound.iter_mut().enumerate() {
            let value =
                l.op.operand(k)
                    .map_err(|_| at(format!("has no operand #{k}")))?;
            let v = match machine.get(r, value) {
                Some(RtValue::Index(v)) => *v,
                _ => {
                    return Err(at(format!(
                        "{} is not an index computed by an op that sundial-run executed",
                        ["lower bound", "upper bound", "step"][k]
                    )));
                }
            };
            *b = if l.unsigned {
                i128::from(index::unsigned(v, l.width))
            } else {
                i128::from(v)
            };
        }
        let [lower, upper, step] = bound;
        let trip = sundial_dialects::loops::trip_count(lower, upper, step)
            .ok_or_else(|| at(format!("has step {step}; a loop's step must be positive")))?;
        match first {
            None => first = Some((lower, step, trip)),
            Some((_, _, t)) if t == trip => {}
            Some((_, _, t)) => {
                return Err(at(format!(
                    "runs {t} iterations on rank 0 but {trip} on rank {r}: the ranks of a run execute in lockstep"
                )));
            }
        }
    }
    let Some((lower, step, trip)) = first else {
        return Ok(None);
    };
    let total = u128::from(machine.iterations).saturating_add(trip);
    let limit = machine.config.max_loop_iterations;
    if total > u128::from(limit) {
        return Err(at(format!(
            "would run {trip} iterations, which brings the run to {total} loop iterations, more than the {limit} sundial-run executes (--max-loop-iterations)"
        )));
    }
    machine.iterations = total as u64;
    let inits: Vec<Value<'c, 'a>> = (0..l.carried.len())
        .filter_map(|j| l.op.operand(3 + j).ok())
        .collect();
    for r in 0..machine.ranks() {
        let values = read_all(machine, r, &l.op, inits.iter().copied())?;
        if trip == 0 {
            bind_results(machine, r, &l.op, values);
        } else {
            for (v, b) in l.carried.iter().zip(values) {
                machine.bind_full(r, *v, b);
            }
            machine.bind(r, l.iv, RtValue::Index(index::wrap(lower, l.width)));
        }
    }
    if trip == 0 {
        return Ok(None);
    }
    Ok(Some(Frame {
        region: &l.body,
        pc: 0,
        kind: Kind::Loop {
            l,
            k: 0,
            trip,
            lower,
            step,
        },
    }))
}

/// Starts an `scf.if`: its condition read on every rank (they must agree), the region it
/// picks, if any.
fn enter_if<'s, 'c, 'a>(
    machine: &mut Machine,
    i: &'s If<'c, 'a>,
) -> Result<Option<Frame<'s, 'c, 'a>>, RunError> {
    let cond =
        i.op.operand(0)
            .map_err(|_| RunError::at(&i.op, "'scf.if' op has no condition"))?;
    let mut taken: Option<bool> = None;
    for r in 0..machine.ranks() {
        let c = match machine.get(r, cond) {
            Some(RtValue::Index(v)) => *v != 0,
            _ => {
                return Err(RunError::at(
                    &i.op,
                    "'scf.if' op: the condition is not an i1 computed by an op that sundial-run executed",
                ));
            }
        };
        match taken {
            None => taken = Some(c),
            Some(t) if t == c => {}
            Some(t) => {
                return Err(RunError::at(
                    &i.op,
                    format!(
                        "'scf.if' op: the condition is {t} on rank 0 but {c} on rank {r}: the ranks of a run execute in lockstep"
                    ),
                ));
            }
        }
    }
    let region = match taken {
        Some(true) => &i.then,
        Some(false) => match &i.otherwise {
            Some(e) => e,
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    Ok(Some(Frame {
        region,
        pc: 0,
        kind: Kind::If(i.op),
    }))
}
