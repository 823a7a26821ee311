//! `sundial-run`: executes one function of a NISA module on the pure-Rust emulator
//! (`sundial_emu`), with its arguments read from and written to `.npy` files.
//!
//! The pieces, in the order a run uses them:
//!
//! - [`cli`]: the command line (mlir-opt conventions), the order of checks and the output;
//! - [`Program::prepare`]: picks the function, reads its argument types ([`ArgInfo`]) and its
//!   launch grid (`sundial.grid`), and checks, before anything runs, that the body is one
//!   block of ops with handlers and `scf.for` loops (whose bodies are checked the same way;
//!   an op without a handler is refused with the reason [`ops::REFUSED`] gives) and that the
//!   constant-bound loops stay within [`exec::MAX_LOOP_ITERATIONS`]; it also finds the widest
//!   on-chip tile ([`Program::partitions`]): a kernel before partition tiling may hold logical
//!   tiles of more than 128 partitions, and runs on a logical machine that wide
//!   (`sundial_emu::Memory::logical`, at most `sundial_emu::MAX_LOGICAL_PARTITIONS`, refused
//!   beyond at the op or argument before anything runs);
//! - [`npy`]: the argument arrays (dtype and shape checked against the argument's type);
//!   [`random`]: `--random-inputs`;
//! - [`Program::execute`]: sets up a [`Machine`] as a [`RunConfig`] says (ranks, the
//!   uninitialised-read check, the MX scale rule), creates the arguments (HBM tensors with
//!   their contents through `Memory::alloc_hbm_from_bytes`, so they count as written; SBUF and
//!   PSUM tiles through the named on-chip allocators), walks the body op by op and runs each
//!   through its handler on every rank (a collective once for the whole group), each loop's
//!   body once per iteration (its bounds read at run time, its trip count checked first), and
//!   the whole body once per program of the launch grid, then returns every argument's final
//!   contents, what `device_print` printed and the phase timings;
//! - [`ops`]: the handler table and the refusals, and [`exec`]: the machine and what a handler
//!   reads an op through; [`ap`]: folded access patterns as emulator views and accesses;
//! - [`compare`]: `--compare-pipeline`'s bit-exact comparison.
//!
//! # Adding an op
//!
//! An op runs when [`ops::HANDLERS`] has a row for it; a NISA op without one must have a row
//! in [`ops::REFUSED`] saying why (a test checks that every op of the dialect is in exactly
//! one of the two), and any other op is refused by name (`op 'x.y' has no emulator semantics
//! yet`); nothing is skipped. A row is the op's full name and a function that reads the op
//! through an [`Exec`] and calls the emulator. The `nisa.indirect_copy` row, as it is:
//!
//! ```ignore
//! "nisa.indirect_copy" => data::indirect_copy,      // in the table![...] of ops/mod.rs
//!
//! pub fn indirect_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
//!     // Operand groups by their names in the op's row of nisa::OPS.
//!     let (dst, src, index) = (op.tile("dst")?, op.tile("src_buffer")?, op.tile("index")?);
//!     // Attributes: the value written, else the row's default; opt_ forms for optional ones.
//!     let per_index = super::uint_attr(op, "num_elem_per_idx")?;
//!     let valid = match op.opt_int("num_valid_indices")? { ... };
//!     let r = sundial_emu::indirect_copy(op.mem(), &dst, &src, &index, per_index, valid);
//!     op.emu(r) // an emulator error, reported at the op's file:line:col with its tiles
//! }
//! ```
//!
//! Operand getters ([`Exec::tile`], [`Exec::opt_tile`], [`Exec::tiles`], [`Exec::operand`] for
//! DMA operands that may be indirect access patterns, [`Exec::reg`]) take the group names of
//! the op's row in `sundial_dialects::nisa::OPS`; attribute getters ([`Exec::int`],
//! [`Exec::float`], [`Exec::flag`], [`Exec::word`], [`Exec::ints`], [`Exec::number`],
//! [`Exec::int_lists`], their `opt_` forms, [`Exec::oob`], [`Exec::engine`]) return the
//! attribute or the row's default, and the `opt_` forms `None` for an absent optional
//! attribute. A name that is not in the row is an error (a handler bug), not a panic. Ops that
//! produce values bind them with [`Exec::set_result`]. Engine state that lives across ops (the
//! accumulators, the random generators, the registers) is the rank's [`exec::Core`], reached
//! with [`Exec::mem_core`]; a collective (a `[group]` row) reaches every rank's memory with
//! [`Exec::group`].

pub mod ap;
pub mod cli;
pub mod compare;
pub mod exec;
pub mod npy;
pub mod ops;
pub mod random;

pub use exec::{Exec, Machine, Operand, RtValue, RunConfig};
pub use ops::{HANDLERS, Handler, REFUSED, Run, Scope};

use melior::ir::{
    BlockLike, BlockRef, Module, RegionLike, ValueLike,
    attribute::AttributeLike,
    block::BlockArgument,
    operation::{OperationLike, OperationRef},
};
use sundial_dialects::{
    diag::{Diagnostic, Severity},
    enums::Space,
    ffi::{FileLineCol, op_name, print_type, string_attr_value},
    tile::Tile,
};

/// A failure of a run: where it happened (an op's position, when there is one) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// The position of the op (or function) the error is about.
    pub loc: Option<FileLineCol>,
    /// The message.
    pub message: String,
    /// Notes shown below it (e.g. the tiles an op's operands are on).
    pub notes: Vec<String>,
}

impl RunError {
    /// An error at `op`'s position.
    pub fn at(op: &OperationRef<'_, '_>, message: impl Into<String>) -> RunError {
        RunError {
            loc: exec::position(op),
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// An error with no position.
    pub fn new(message: impl Into<String>) -> RunError {
        RunError {
            loc: None,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// The error as a diagnostic of the input named `name` (positions in the parsed buffer
    /// carry MLIR's buffer name `-`, which becomes `name`), its notes at the same position.
    pub fn diagnostic(&self, name: &str) -> Diagnostic {
        let loc = self.loc.clone().map(|mut l| {
            if l.file.is_empty() || l.file == "-" {
                l.file = name.to_string();
            }
            l
        });
        let mut d = Diagnostic::new(Severity::Error, loc.clone(), self.message.clone());
        d.notes = self
            .notes
            .iter()
            .map(|n| Diagnostic::new(Severity::Note, loc.clone(), n.clone()))
            .collect();
        d
    }
}

/// One argument of the function run.
#[derive(Clone, Debug)]
pub struct ArgInfo {
    /// Its position.
    pub index: usize,
    /// Its tile type.
    pub tile: Tile,
    /// How its elements are stored (emulator and `.npy`).
    pub format: &'static npy::Format,
    /// Its shape as emulator extents.
    pub shape: Vec<usize>,
    /// Its type as written (`memref<128x512xf32, "hbm">`).
    pub type_text: String,
}

impl ArgInfo {
    /// Number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of bytes.
    pub fn num_bytes(&self) -> usize {
        self.num_elements() * self.format.size()
    }
}

/// The function of `module` named `name`, or the first one when no name is given.
pub fn find_function<'c, 'a>(
    module: &'a Module<'c>,
    name: Option<&str>,
) -> Result<OperationRef<'c, 'a>, RunError> {
    let mut funcs = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(o) = op {
        if op_name(o.to_raw()) == "func.func" {
            let sym = o
                .attribute("sym_name")
                .ok()
                .filter(|a| a.is_string())
                .map(string_attr_value)
                .unwrap_or_default();
            funcs.push((sym, o));
        }
        op = o.next_in_block();
    }
    match name {
        None => funcs
            .first()
            .map(|(_, o)| *o)
            .ok_or_else(|| RunError::new("the module has no func.func to run")),
        Some(n) => funcs
            .iter()
            .find(|(s, _)| s == n)
            .map(|(_, o)| *o)
            .ok_or_else(|| {
                let names: Vec<String> = funcs.iter().map(|(s, _)| format!("@{s}")).collect();
                RunError::new(format!(
                    "the module has no function @{n} (functions: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            }),
    }
}

/// The symbol name of a `func.func`.
pub fn function_name(func: &OperationRef<'_, '_>) -> String {
    func.attribute("sym_name")
        .ok()
        .filter(|a| a.is_string())
        .map(string_attr_value)
        .unwrap_or_default()
}

/// One step of a body: an op and its handler, or a loop.
enum Step<'c, 'a> {
    Op(OperationRef<'c, 'a>, Handler),
    Loop(Loop<'c, 'a>),
}

/// An `scf.for`: its bounds are operands 0..3 of the op, its body runs once per value of the
/// induction variable.
struct Loop<'c, 'a> {
    op: OperationRef<'c, 'a>,
    iv: BlockArgument<'c, 'a>,
    body: Vec<Step<'c, 'a>>,
}

/// How deep loops may nest (a bound on the recursion a hostile kernel can cause).
pub const MAX_LOOP_DEPTH: usize = 64;

/// The widest on-chip tile (partition count) among the values `steps` produce and the
/// values they use, with the op it is on; `widest` holds the widest so far.
fn widest_tile<'c, 'a>(steps: &[Step<'c, 'a>], widest: &mut Option<(i64, OperationRef<'c, 'a>)>) {
    for step in steps {
        let o = match step {
            Step::Op(o, _) => *o,
            Step::Loop(l) => {
                widest_tile(&l.body, widest);
                continue;
            }
        };
        let results = (0..o.result_count()).filter_map(|i| o.result(i).ok().map(|r| r.r#type()));
        let operands = (0..o.operand_count()).filter_map(|i| o.operand(i).ok().map(|v| v.r#type()));
        for ty in results.chain(operands) {
            if let Ok(t) = Tile::from_type(ty)
                && t.space != Space::Hbm
                && widest.is_none_or(|(w, _)| t.partitions() > w)
            {
                *widest = Some((t.partitions(), o));
            }
        }
    }
}

/// A function ready to run: its arguments, its launch grid and its body's ops with their
/// handlers (loops with theirs).
pub struct Program<'c, 'a> {
    /// The `func.func`.
    pub func: OperationRef<'c, 'a>,
    /// The arguments.
    pub args: Vec<ArgInfo>,
    /// The launch grid (`sundial.grid` of the module), when it names one.
    pub grid: Option<Vec<i64>>,
    /// The on-chip partitions the run's memory has: the target's 128, or, for a kernel with
    /// logical tiles wider than that (before partition tiling), the widest tile's partition
    /// count, for which [`Program::execute`] builds a logical machine
    /// (`sundial_emu::Memory::logical`).
    pub partitions: usize,
    block_args: Vec<BlockArgument<'c, 'a>>,
    steps: Vec<Step<'c, 'a>>,
}

/// The steps of `block`, a function body (`depth` 0) or a loop body: every op with a handler
/// and without regions, or an `scf.for` (whose `scf.yield` ends its body).
fn prepare_block<'c, 'a>(
    block: BlockRef<'c, 'a>,
    fname: &str,
    depth: usize,
) -> Result<Vec<Step<'c, 'a>>, RunError> {
    let mut steps = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let name = op_name(o.to_raw());
        if name == "scf.for" {
            steps.push(Step::Loop(prepare_loop(o, fname, depth + 1)?));
            continue;
        }
        if name == "scf.yield" && depth > 0 {
            if o.operand_count() > 0 {
                return Err(RunError::at(
                    &o,
                    "'scf.yield' op yields values: sundial-run runs loops whose iterations communicate through memory only",
                ));
            }
            continue;
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
        steps.push(Step::Op(o, *handler));
    }
    Ok(steps)
}

/// An `scf.for` without loop-carried values, its body prepared.
fn prepare_loop<'c, 'a>(
    o: OperationRef<'c, 'a>,
    fname: &str,
    depth: usize,
) -> Result<Loop<'c, 'a>, RunError> {
    if depth > MAX_LOOP_DEPTH {
        return Err(RunError::at(
            &o,
            format!(
                "'scf.for' op is nested {depth} loops deep, more than the {MAX_LOOP_DEPTH} sundial-run runs"
            ),
        ));
    }
    if o.operand_count() != 3 || o.result_count() > 0 {
        return Err(RunError::at(
            &o,
            "'scf.for' op carries values from one iteration to the next (iter_args): sundial-run runs loops whose iterations communicate through memory only",
        ));
    }
    if o.attribute("unsignedCmp").is_ok() {
        return Err(RunError::at(
            &o,
            "'scf.for' op compares its bounds unsigned (unsignedCmp): sundial-run runs signed loops",
        ));
    }
    let block = o
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| RunError::at(&o, "'scf.for' op has no body"))?;
    let iv = block
        .argument(0)
        .map_err(|_| RunError::at(&o, "'scf.for' op has no induction variable"))?;
    if ops::index::width(iv.r#type()).is_none() {
        return Err(RunError::at(
            &o,
            "'scf.for' op: sundial-run runs loops over index or signless integers of at most 64 bits",
        ));
    }
    let body = prepare_block(block, fname, depth)?;
    Ok(Loop { op: o, iv, body })
}

/// The loop iterations of the constant-bound loops of `steps` (each nested in loops running
/// `outer` times in all); an error at the first loop that takes the total past
/// [`exec::MAX_LOOP_ITERATIONS`], before anything runs.
fn static_iterations(
    steps: &[Step<'_, '_>],
    outer: u128,
    total: &mut u128,
) -> Result<(), RunError> {
    for step in steps {
        let Step::Loop(l) = step else { continue };
        let trip = sundial_dialects::loops::static_loop(l.op.to_raw()).map(|s| s.trip);
        let runs = outer.saturating_mul(trip.unwrap_or(1));
        if let Some(t) = trip {
            *total = total.saturating_add(runs);
            if *total > u128::from(exec::MAX_LOOP_ITERATIONS) {
                return Err(RunError::at(
                    &l.op,
                    format!(
                        "'scf.for' op runs {t} iterations{}, which brings the run to {} loop iterations, more than the {} sundial-run executes (MAX_LOOP_ITERATIONS): unroll less or run a smaller problem",
                        if outer > 1 {
                            format!(" {outer} times")
                        } else {
                            String::new()
                        },
                        *total,
                        exec::MAX_LOOP_ITERATIONS
                    ),
                ));
            }
        }
        static_iterations(&l.body, runs, total)?;
    }
    Ok(())
}

/// The first collective of `steps` (an op that needs `--ranks`), if any.
fn first_collective<'c, 'a>(steps: &[Step<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    steps.iter().find_map(|s| match s {
        Step::Op(o, h) => (h.scope == Scope::Group).then_some(*o),
        Step::Loop(l) => first_collective(&l.body),
    })
}

/// The index of program number `n` (row-major over `grid`) along each axis.
fn program_coords(grid: &[i64], mut n: i64) -> Vec<i64> {
    let mut coords = vec![0; grid.len()];
    for (i, &extent) in grid.iter().enumerate().rev() {
        coords[i] = n % extent;
        n /= extent;
    }
    coords
}

impl<'c, 'a> Program<'c, 'a> {
    /// Reads `func`'s arguments and checks its body: one block, every op with a handler and
    /// without regions except `scf.for` loops (whose bodies are checked the same way), the
    /// constant-bound loops within [`exec::MAX_LOOP_ITERATIONS`], the launch grid within
    /// [`exec::MAX_PROGRAMS`]. The first problem is the error, before anything runs.
    pub fn prepare(func: OperationRef<'c, 'a>) -> Result<Program<'c, 'a>, RunError> {
        let fname = function_name(&func);
        let region = func
            .region(0)
            .map_err(|_| RunError::at(&func, format!("function @{fname} has no body")))?;
        let block = region.first_block().ok_or_else(|| {
            RunError::at(
                &func,
                format!("function @{fname} is a declaration: it has no body to run"),
            )
        })?;
        if block.next_in_region().is_some() {
            return Err(RunError::at(
                &func,
                format!(
                    "function @{fname} has more than one block; sundial-run executes structured bodies (scf.for loops, no branches)"
                ),
            ));
        }
        let grid =
            sundial_dialects::loops::grid_of(func.to_raw()).map_err(|m| RunError::at(&func, m))?;
        let programs = grid
            .as_deref()
            .map(|g| g.iter().try_fold(1i64, |p, &e| p.checked_mul(e)))
            .unwrap_or(Some(1));
        match programs {
            Some(n) if n <= exec::MAX_PROGRAMS => {}
            _ => {
                return Err(RunError::at(
                    &func,
                    format!(
                        "the launch grid {:?} has more than the {} programs sundial-run runs",
                        grid.as_deref().unwrap_or(&[]),
                        exec::MAX_PROGRAMS
                    ),
                ));
            }
        }
        let several = programs.is_some_and(|n| n > 1);
        let mut args = Vec::new();
        let mut block_args = Vec::new();
        for index in 0..block.argument_count() {
            let arg = block
                .argument(index)
                .map_err(|_| RunError::at(&func, format!("argument {index} is missing")))?;
            let ty = arg.r#type();
            let tile = Tile::from_type(ty).map_err(|m| {
                RunError::at(
                    &func,
                    format!(
                        "argument {index} of @{fname} has type '{}': sundial-run passes tiles (memref<..., \"hbm\"|\"sbuf\"|\"psum\">) only ({m})",
                        print_type(ty)
                    ),
                )
            })?;
            if several && tile.space != Space::Hbm {
                return Err(RunError::at(
                    &func,
                    format!(
                        "argument {index} of @{fname} is an on-chip tile ({}), but the kernel runs on a launch grid of {} programs, each with its own SBUF and PSUM: pass HBM tensors",
                        print_type(ty),
                        programs.unwrap_or(1)
                    ),
                ));
            }
            if several && sundial_dialects::loops::hbm_buffer(arg.to_raw()) == "private_hbm" {
                return Err(RunError::at(
                    &func,
                    format!(
                        "argument {index} of @{fname} is in private_hbm, one copy per program of the launch grid: sundial-run has one array per argument (use shared_hbm or hbm)"
                    ),
                ));
            }
            args.push(ArgInfo {
                index,
                format: npy::format_of(tile.dtype),
                shape: exec::shape_of(&tile),
                type_text: print_type(ty),
                tile,
            });
            block_args.push(arg);
        }
        let steps = prepare_block(block, &fname, 0)?;
        let mut total = 0u128;
        static_iterations(&steps, 1, &mut total)?;
        let mut widest = None;
        widest_tile(&steps, &mut widest);
        let arg_parts = args
            .iter()
            .filter(|a| a.tile.space != Space::Hbm)
            .map(|a| a.tile.partitions())
            .max()
            .unwrap_or(0);
        let (width, at) = match widest {
            Some((w, o)) if w > arg_parts => (w, Some(o)),
            _ => (arg_parts, None),
        };
        let limit = sundial_emu::MAX_LOGICAL_PARTITIONS as i64;
        if width > limit {
            let message = format!(
                "a logical tile of {width} partitions is wider than the {limit} partitions of the emulator's logical machine (MAX_LOGICAL_PARTITIONS): run the kernel after sundial-partition-tiling"
            );
            return Err(match at {
                Some(o) => RunError::at(&o, format!("'{}' op: {message}", op_name(o.to_raw()))),
                None => RunError::at(&func, format!("function @{fname}: {message}")),
            });
        }
        let physical = sundial_emu::target::PARTITIONS;
        Ok(Program {
            func,
            args,
            grid,
            partitions: (width.max(0) as usize).max(physical),
            block_args,
            steps,
        })
    }

    /// The first collective of the body (an op that needs `--ranks`), if any.
    pub fn first_collective(&self) -> Option<OperationRef<'c, 'a>> {
        first_collective(&self.steps)
    }

    /// The number of programs of the launch grid (1 without one).
    pub fn programs(&self) -> i64 {
        self.grid.as_deref().map_or(1, |g| g.iter().product())
    }

    /// Runs `steps` on every rank.
    fn run_steps(&self, machine: &mut Machine, steps: &[Step<'c, 'a>]) -> Result<(), RunError> {
        for step in steps {
            match step {
                Step::Op(op, handler) => {
                    let ranks = machine.ranks();
                    let mut exec = Exec::new(machine, *op)?;
                    match handler.scope {
                        Scope::Group => {
                            exec.set_whole_group();
                            (handler.run)(&mut exec)?;
                        }
                        Scope::Core => {
                            for r in 0..ranks {
                                exec.set_rank(r);
                                (handler.run)(&mut exec)?;
                            }
                        }
                    }
                }
                Step::Loop(l) => self.run_loop(machine, l)?,
            }
        }
        Ok(())
    }

    /// Runs a loop: its bounds read on every rank (they must agree: the ranks run in
    /// lockstep), its trip count checked against [`exec::MAX_LOOP_ITERATIONS`] before the
    /// first iteration, then the body once per value of the induction variable.
    fn run_loop(&self, machine: &mut Machine, l: &Loop<'c, 'a>) -> Result<(), RunError> {
        let at = |m: String| RunError::at(&l.op, format!("'scf.for' op {m}"));
        let mut first: Option<(i64, i64, u128)> = None;
        for r in 0..machine.ranks() {
            let mut bound = [0i64; 3];
            for (k, b) in bound.iter_mut().enumerate() {
                let value =
                    l.op.operand(k)
                        .map_err(|_| at(format!("has no operand #{k}")))?;
                *b = match machine.get(r, value) {
                    Some(RtValue::Index(v)) => *v,
                    _ => {
                        return Err(at(format!(
                            "{} is not an index computed by an op that sundial-run executed",
                            ["lower bound", "upper bound", "step"][k]
                        )));
                    }
                };
            }
            let [lower, upper, step] = bound;
            let trip = sundial_dialects::loops::trip_count(
                i128::from(lower),
                i128::from(upper),
                i128::from(step),
            )
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
            return Ok(());
        };
        let total = u128::from(machine.iterations).saturating_add(trip);
        if total > u128::from(exec::MAX_LOOP_ITERATIONS) {
            return Err(at(format!(
                "would run {trip} iterations, which brings the run to {total} loop iterations, more than the {} sundial-run executes (MAX_LOOP_ITERATIONS)",
                exec::MAX_LOOP_ITERATIONS
            )));
        }
        machine.iterations = total as u64;
        for k in 0..trip {
            // Below the upper bound, which is an i64: no overflow.
            let v = i128::from(lower) + k as i128 * i128::from(step);
            for r in 0..machine.ranks() {
                machine.bind(r, l.iv.into(), RtValue::Index(v as i64));
            }
            self.run_steps(machine, &l.body)?;
        }
        Ok(())
    }

    /// Runs the body as `config` says, argument `i` holding `inputs[i]` on a fresh machine:
    /// its elements as little-endian bytes, row-major, once per rank (rank-major: with
    /// `config.ranks = Some(n)`, `n` times the argument's size). Returns every argument's
    /// final contents in the same form, what `nisa.device_print` printed, and the time the
    /// phases took. A body with a collective needs `config.ranks`; it is refused at the
    /// collective before anything runs. A kernel on a launch grid runs each program in turn
    /// (row-major over the grid), all on the same arguments.
    pub fn execute(&self, inputs: &[Vec<u8>], config: &RunConfig) -> Result<Outputs, RunError> {
        let t0 = std::time::Instant::now();
        if config.ranks.is_none()
            && let Some(op) = self.first_collective()
        {
            return Err(RunError::at(
                &op,
                format!(
                    "'{}' is a collective: run the kernel on a rank group with --ranks N",
                    op_name(op.to_raw())
                ),
            ));
        }
        let ranks = config.rank_count();
        let mut machine =
            Machine::with_partitions(*config, self.partitions).map_err(RunError::new)?;
        machine.grid = self.grid.clone();
        let mut views = Vec::with_capacity(self.args.len());
        for (arg, value) in self.args.iter().zip(&self.block_args) {
            let input = inputs
                .get(arg.index)
                .ok_or_else(|| RunError::new(format!("no contents for argument {}", arg.index)))?;
            let want = arg.num_bytes().saturating_mul(ranks);
            if input.len() != want {
                let per = if ranks > 1 {
                    format!(", {ranks} ranks")
                } else {
                    String::new()
                };
                return Err(RunError::new(format!(
                    "argument {}: {} bytes given for {} ({want} bytes{per})",
                    arg.index,
                    input.len(),
                    arg.type_text,
                )));
            }
            let view = machine
                .alloc_argument(&arg.tile, &format!("argument {}", arg.index), input)
                .map_err(|m| {
                    RunError::at(
                        &self.func,
                        format!("cannot allocate argument {}: {m}", arg.index),
                    )
                })?;
            for r in 0..ranks {
                machine.bind(r, (*value).into(), RtValue::Tile(view.clone()));
            }
            views.push(view);
        }
        let t1 = std::time::Instant::now();
        let programs = self.programs();
        for n in 0..programs {
            machine.program = program_coords(self.grid.as_deref().unwrap_or(&[1]), n);
            self.run_steps(&mut machine, &self.steps).map_err(|mut e| {
                if programs > 1 {
                    e.notes.push(format!(
                        "in program {:?} of the launch grid {:?}",
                        machine.program,
                        self.grid.as_deref().unwrap_or(&[])
                    ));
                }
                e
            })?;
        }
        let t2 = std::time::Instant::now();
        let mut outputs = Vec::with_capacity(views.len());
        for (arg, view) in self.args.iter().zip(&views) {
            let mut all = Vec::new();
            for r in 0..ranks {
                let mem = machine.mem(r);
                // Every argument was written when the run began, so this read passes the
                // uninitialised-read check.
                let bytes = if arg.tile.space == Space::Hbm {
                    mem.bytes(view.alloc()).map(<[u8]>::to_vec)
                } else {
                    mem.read_bytes(view)
                };
                let bytes = bytes.map_err(|e| {
                    RunError::at(
                        &self.func,
                        format!("cannot read argument {}: {e}", arg.index),
                    )
                })?;
                all.extend_from_slice(&bytes);
            }
            outputs.push(all);
        }
        let t3 = std::time::Instant::now();
        Ok(Outputs {
            args: outputs,
            printed: std::mem::take(&mut machine.printed),
            timing: Timing {
                setup: t1 - t0,
                ops: t2 - t1,
                readback: t3 - t2,
            },
        })
    }
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// Every argument's final contents (as [`Program::execute`] takes them).
    pub args: Vec<Vec<u8>>,
    /// What `nisa.device_print` printed, line by line.
    pub printed: String,
    /// How long the phases of the run took.
    pub timing: Timing,
}

/// The phases of [`Program::execute`], timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Creating the machine and the arguments (copying the inputs in).
    pub setup: std::time::Duration,
    /// Executing the body's ops.
    pub ops: std::time::Duration,
    /// Copying the arguments out.
    pub readback: std::time::Duration,
}

/// The emulator target of a NISA target.
pub fn emu_target(target: sundial_dialects::enums::Target) -> sundial_emu::Target {
    match target.name() {
        "sunda" => sundial_emu::Target::Sunda,
        "cayman" => sundial_emu::Target::Cayman,
        _ => sundial_emu::Target::Mariana,
    }
}
