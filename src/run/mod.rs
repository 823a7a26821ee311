//! `sundial-run`: executes one function of a NISA module on the pure-Rust emulator
//! (`sundial_emu`), with its arguments read from and written to `.npy` files.
//!
//! The pieces, in the order a run uses them:
//!
//! - [`cli`]: the command line (mlir-opt conventions), the order of checks and the output;
//! - [`Program::prepare`]: picks the function, reads its arguments ([`ArgInfo`]: tiles, index
//!   and integer values, registers) and its launch grid (`sundial.grid`), and checks, before
//!   anything runs, that the body is one block of ops with handlers, `scf.for` loops and
//!   `scf.if` conditionals ([`control`]: their regions are checked the same way; an op
//!   without a handler is refused with the reason [`ops::REFUSED`] gives) and counts the
//!   iterations of the constant-bound loops ([`Program::check_loop_budget`]); it also finds
//!   the widest on-chip tile ([`Program::partitions`]): a kernel before partition tiling may hold logical
//!   tiles of more than 128 partitions, and runs on a logical machine that wide
//!   (`sundial_emu::Memory::logical`, at most `sundial_emu::MAX_LOGICAL_PARTITIONS`, refused
//!   beyond at the op or argument before anything runs);
//! - [`npy`]: the argument arrays (dtype and shape checked against the argument's type);
//!   [`random`]: `--random-inputs`;
//! - [`Program::run`] (and [`Program::execute`], which reads every argument back): checks that
//!   the constant-bound loops stay within the run's loop budget
//!   ([`RunConfig::max_loop_iterations`], default [`exec::MAX_LOOP_ITERATIONS`]; `cli` checks
//!   it first, before the inputs are read), sets up a
//!   [`Machine`] as a [`RunConfig`] says (ranks, the uninitialised-read check, the MX scale
//!   rule), creates the arguments (HBM tensors with their contents moved in through
//!   `Memory::alloc_hbm_from_vec`, so they count as written; SBUF and PSUM tiles through the
//!   named on-chip allocators; index values and registers bound), and runs the programs of
//!   the launch grid as cooperative coroutines: each a [`control::Thread`] (an explicit stack
//!   of the regions it is in) that runs op by op, each op through its handler on every rank
//!   (a collective once for the whole group), until the body ends or it reaches a
//!   `nisa.core_barrier`, which releases the programs it names once all have arrived (a
//!   barrier that cannot be passed is a deadlock error). Each program has its own engine
//!   state, values and private memory (`Machine::switch_program`). It returns the contents of
//!   the arguments asked for, what `device_print` printed and the phase timings;
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
pub mod control;
pub mod exec;
pub mod npy;
pub mod ops;
pub mod random;

pub use control::MAX_LOOP_DEPTH;
pub use exec::{Exec, Machine, Operand, RtValue, RunConfig};
pub use ops::{HANDLERS, Handler, REFUSED, Run, Scope};

use melior::ir::{
    BlockLike, Module, RegionLike, TypeLike, ValueLike,
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

/// What an argument of the function run is.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgKind {
    /// A tile (an HBM tensor or an on-chip tile).
    Tile(Tile),
    /// An `index` (`width` 64) or signless integer value of `width` bits: a value the body
    /// reads (a loop bound, an offset), one element of [`ArgInfo::format`].
    Index {
        /// The bit width.
        width: u32,
    },
    /// A sequencer register (`!nisa.reg`) holding a value at the start, which the body may
    /// change (`register_move`): one int64 element.
    Reg,
}

/// One argument of the function run.
#[derive(Clone, Debug)]
pub struct ArgInfo {
    /// Its position.
    pub index: usize,
    /// What it is.
    pub kind: ArgKind,
    /// How its elements are stored (emulator and `.npy`).
    pub format: &'static npy::Format,
    /// Its shape as emulator extents (`[]` for an index, integer or register: one element).
    pub shape: Vec<usize>,
    /// Its type as written (`memref<128x512xf32, "hbm">`, `index`, `!nisa.reg`).
    pub type_text: String,
    /// Whether each program of the launch grid has its own copy: an on-chip tile, a
    /// `private_hbm` tensor or a register, under a grid of more than one program (each
    /// program is a NeuronCore with its own SBUF, PSUM, private HBM and registers).
    pub per_program: bool,
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

    /// The tile, for a tile argument.
    pub fn tile(&self) -> Option<&Tile> {
        match &self.kind {
            ArgKind::Tile(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the argument is memory a run can write (a tile or a register), so that
    /// `--save` has something to write: an index or integer value is not.
    pub fn is_memory(&self) -> bool {
        !matches!(self.kind, ArgKind::Index { .. })
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

/// A function ready to run: its arguments, its launch grid and its body's steps (ops with
/// their handlers, loops, conditionals and barriers).
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
    /// Whether a PSUM tile of the kernel holds more than one bank per partition (a logical
    /// tile, before the free-axis cut): the run's PSUM then lets tiles span consecutive banks
    /// (`sundial_emu::Memory::set_logical_psum`).
    pub logical_psum: bool,
    block_args: Vec<BlockArgument<'c, 'a>>,
    body: control::Region<'c, 'a>,
    /// The iterations of the constant-bound loops (counted once, by [`Program::prepare`]):
    /// what [`Program::check_loop_budget`] compares with a run's budget.
    static_loop_iterations: u128,
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

/// What an argument of a non-tile type is.
fn scalar_kind(ty: melior::ir::Type<'_>) -> Option<ArgKind> {
    if sundial_dialects::ffi::print_type(ty) == "!nisa.reg" {
        return Some(ArgKind::Reg);
    }
    let w = ops::index::width(ty)?;
    let is_index = unsafe { mlir_sys::mlirTypeIsAIndex(ty.to_raw()) };
    match (is_index, w) {
        (true, _) => Some(ArgKind::Index { width: 64 }),
        (false, 8 | 16 | 32 | 64) => Some(ArgKind::Index { width: w }),
        _ => None,
    }
}

/// The element format that holds a scalar argument of `kind` (an integer of its width, or
/// int64 for `index` and registers).
fn scalar_format(kind: &ArgKind) -> &'static npy::Format {
    use sundial_dialects::dtype::Dtype;
    npy::format_of(match kind {
        ArgKind::Index { width: 8 } => Dtype::I8,
        ArgKind::Index { width: 16 } => Dtype::I16,
        ArgKind::Index { width: 32 } => Dtype::I32,
        _ => Dtype::I64,
    })
}

impl<'c, 'a> Program<'c, 'a> {
    /// Reads `func`'s arguments and checks its body: one block, every op with a handler and
    /// without regions except `scf.for` loops and `scf.if` conditionals (whose regions are
    /// checked the same way), the launch grid within [`exec::MAX_PROGRAMS`]; it counts the
    /// iterations of the constant-bound loops, which [`Program::check_loop_budget`] holds
    /// against a run's budget. The first problem is the error, before anything runs.
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
                    "function @{fname} has more than one block; sundial-run executes structured bodies (scf.for and scf.if, no branches)"
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
            let info = match Tile::from_type(ty) {
                Ok(tile) => {
                    let private = tile.space != Space::Hbm
                        || sundial_dialects::loops::hbm_buffer(arg.to_raw()) == "private_hbm";
                    ArgInfo {
                        index,
                        format: npy::format_of(tile.dtype),
                        shape: exec::shape_of(&tile),
                        type_text: print_type(ty),
                        per_program: several && private,
                        kind: ArgKind::Tile(tile),
                    }
                }
                Err(m) => {
                    let kind = scalar_kind(ty).ok_or_else(|| {
                        RunError::at(
                            &func,
                            format!(
                                "argument {index} of @{fname} has type '{}': sundial-run passes tiles (memref<..., \"hbm\"|\"sbuf\"|\"psum\">), index and integer values (i8 to i64) and registers (!nisa.reg) ({m})",
                                print_type(ty)
                            ),
                        )
                    })?;
                    ArgInfo {
                        index,
                        format: scalar_format(&kind),
                        shape: Vec::new(),
                        type_text: print_type(ty),
                        per_program: several && kind == ArgKind::Reg,
                        kind,
                    }
                }
            };
            args.push(info);
            block_args.push(arg);
        }
        let body = control::prepare_block(block, &fname, 0)?;
        // No budget (a u64) admits more than u64::MAX iterations: such a nest is refused here.
        let mut static_loop_iterations = 0u128;
        control::static_iterations(&body.steps, 1, &mut static_loop_iterations, u64::MAX)?;
        let widest = control::widest_tile(&body.steps);
        let arg_parts = args
            .iter()
            .filter_map(|a| a.tile())
            .filter(|t| t.space != Space::Hbm)
            .map(Tile::partitions)
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
        let psum_bytes = args
            .iter()
            .filter_map(|a| a.tile())
            .filter(|t| t.space == Space::Psum)
            .filter_map(Tile::free_bytes)
            .chain(control::widest_psum_tile(&body.steps))
            .max()
            .unwrap_or(0);
        let logical_psum = psum_bytes > sundial_emu::target::PSUM_BANK_BYTES as i64;
        Ok(Program {
            func,
            args,
            grid,
            partitions: (width.max(0) as usize).max(physical),
            logical_psum,
            block_args,
            body,
            static_loop_iterations,
        })
    }

    /// Whether the constant-bound loops fit a run's loop budget (`limit`,
    /// [`RunConfig::max_loop_iterations`]): the error names the first loop that takes the run
    /// past it. [`Program::run`] checks before anything runs; a driver calls this first to
    /// refuse before it reads or fills the inputs.
    pub fn check_loop_budget(&self, limit: u64) -> Result<(), RunError> {
        if self.static_loop_iterations <= u128::from(limit) {
            return Ok(());
        }
        // Over: walk again against the limit, for the loop that crosses it.
        control::static_iterations(&self.body.steps, 1, &mut 0u128, limit)
    }

    /// The first collective of the body (an op that needs `--ranks`), if any.
    pub fn first_collective(&self) -> Option<OperationRef<'c, 'a>> {
        let mut found = None;
        control::walk(&self.body.steps, &mut |s| {
            if let control::Step::Op(o, h) = s
                && h.scope == Scope::Group
                && found.is_none()
            {
                found = Some(*o);
            }
        });
        found
    }

    /// The number of programs of the launch grid (1 without one).
    pub fn programs(&self) -> i64 {
        self.grid.as_deref().map_or(1, |g| g.iter().product())
    }

    /// How many copies of argument `arg` a run holds: one per program for a per-program
    /// argument ([`ArgInfo::per_program`]), else one per rank.
    pub fn copies(&self, arg: &ArgInfo, ranks: usize) -> usize {
        if arg.per_program {
            self.programs() as usize
        } else {
            ranks
        }
    }

    /// Runs the body as `config` says, argument `i` holding `inputs[i]` on a fresh machine:
    /// its elements as little-endian bytes, row-major (a scalar argument: one element of its
    /// [`ArgInfo::format`]), once per copy ([`Program::copies`]: per rank, or per program for
    /// a per-program argument, copy-major). Returns every argument's final contents in the
    /// same form, what `nisa.device_print` printed, and the time the phases took. A body
    /// with a collective needs `config.ranks`; it is refused at the collective before
    /// anything runs. A kernel on a launch grid runs its programs as cooperative coroutines:
    /// each in turn (row-major over the grid) until it ends or reaches a
    /// `nisa.core_barrier`, which it passes once every program the barrier synchronises has
    /// arrived.
    pub fn execute(&self, inputs: &[Vec<u8>], config: &RunConfig) -> Result<Outputs, RunError> {
        let keep: Vec<usize> = (0..self.args.len()).collect();
        self.run(inputs.to_vec(), config, &keep)
    }

    /// [`Program::execute`] taking the inputs by value (each moves into the emulator's
    /// memory rather than being copied) and reading back only the arguments `keep` lists:
    /// the others' entries of [`Outputs::args`] are empty.
    pub fn run(
        &self,
        inputs: Vec<Vec<u8>>,
        config: &RunConfig,
        keep: &[usize],
    ) -> Result<Outputs, RunError> {
        let t0 = std::time::Instant::now();
        self.check_loop_budget(config.max_loop_iterations)?;
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
        let programs = self.programs() as usize;
        if let Some(arg) = self.args.iter().find(|a| a.per_program)
            && ranks > 1
        {
            return Err(RunError::new(format!(
                "argument {} ({}) has one copy per program of the launch grid: sundial-run runs such a kernel on one rank, not with --ranks",
                arg.index, arg.type_text
            )));
        }
        let mut machine = Machine::with_partitions(*config, self.partitions, self.logical_psum)
            .map_err(RunError::new)?;
        machine.grid = self.grid.clone();
        machine.program = program_coords(self.grid.as_deref().unwrap_or(&[1]), 0);
        if inputs.len() != self.args.len() {
            return Err(RunError::new(format!(
                "{} argument contents given for {} arguments",
                inputs.len(),
                self.args.len()
            )));
        }
        for (arg, input) in self.args.iter().zip(&inputs) {
            let copies = self.copies(arg, ranks);
            let want = arg.num_bytes().saturating_mul(copies);
            if input.len() != want {
                let per = if copies > 1 {
                    format!(
                        ", {copies} {}",
                        if arg.per_program { "programs" } else { "ranks" }
                    )
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
        }
        // Where each argument lives: a view (tiles), a register, or an index value.
        let mut places: Vec<Place> = Vec::with_capacity(self.args.len());
        let mut per_program: Vec<(usize, Vec<u8>)> = Vec::new();
        for ((arg, value), input) in self.args.iter().zip(&self.block_args).zip(inputs) {
            let name = format!("argument {}", arg.index);
            let per = arg.num_bytes();
            match &arg.kind {
                ArgKind::Tile(tile) => {
                    let first = if arg.per_program {
                        let first = input[..per].to_vec();
                        per_program.push((arg.index, input));
                        first
                    } else {
                        input
                    };
                    let view = machine.alloc_argument(tile, &name, first).map_err(|m| {
                        RunError::at(
                            &self.func,
                            format!("cannot allocate argument {}: {m}", arg.index),
                        )
                    })?;
                    if arg.per_program && tile.space == Space::Hbm {
                        machine.note_private(view.alloc());
                    }
                    for r in 0..ranks {
                        machine.bind_argument(r, (*value).into(), RtValue::Tile(view.clone()));
                    }
                    places.push(Place::View(view));
                }
                ArgKind::Index { width } => {
                    let mut values = Vec::with_capacity(ranks);
                    for r in 0..ranks {
                        let v = scalar_value(&input[r * per..(r + 1) * per]);
                        let v = ops::index::wrap(i128::from(v), *width);
                        machine.bind_argument(r, (*value).into(), RtValue::Index(v));
                        values.push(v);
                    }
                    places.push(Place::Index(values));
                }
                ArgKind::Reg => {
                    let mut id = None;
                    for r in 0..ranks {
                        let v = scalar_value(&input[r * per..(r + 1) * per]);
                        let got = machine
                            .new_register(r, v)
                            .map_err(|m| RunError::at(&self.func, format!("{name}: {m}")))?;
                        machine.bind_argument(r, (*value).into(), RtValue::Reg(got));
                        id = Some(got);
                    }
                    if arg.per_program {
                        per_program.push((arg.index, input));
                    }
                    places.push(Place::Reg(id.unwrap_or(sundial_emu::RegisterId(0))));
                }
            }
        }
        let t1 = std::time::Instant::now();
        let mut outputs: Vec<Vec<u8>> = vec![Vec::new(); self.args.len()];
        for &(i, _) in &per_program {
            if keep.contains(&i) {
                outputs[i] = vec![0u8; self.args[i].num_bytes() * programs];
            }
        }
        self.schedule(&mut machine, &places, &per_program, keep, &mut outputs)?;
        let t2 = std::time::Instant::now();
        for &i in keep {
            let (Some(arg), Some(place)) = (self.args.get(i), places.get(i)) else {
                continue;
            };
            if arg.per_program {
                continue;
            }
            let mut all = Vec::new();
            for r in 0..ranks {
                let bytes = read_back(&mut machine, r, arg, place, ranks == 1).map_err(|e| {
                    RunError::at(
                        &self.func,
                        format!("cannot read argument {}: {e}", arg.index),
                    )
                })?;
                if ranks == 1 {
                    all = bytes;
                } else {
                    all.extend_from_slice(&bytes);
                }
            }
            outputs[i] = all;
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

    /// Runs every program of the launch grid (see [`Program::execute`]): each until it ends
    /// or arrives at a barrier, in turn; the arrivals at a barrier are released together
    /// once all the programs it synchronises are there. A program starts with its own
    /// engine state and on-chip memory (`Machine::switch_program`) holding its copy of the
    /// per-program arguments, whose final contents go to `outputs` when it ends.
    fn schedule(
        &self,
        machine: &mut Machine,
        places: &[Place],
        per_program: &[(usize, Vec<u8>)],
        keep: &[usize],
        outputs: &mut [Vec<u8>],
    ) -> Result<(), RunError> {
        let programs = self.programs() as usize;
        let grid = self.grid.as_deref().unwrap_or(&[1]);
        let in_program = |machine: &Machine, mut e: RunError| {
            if programs > 1 {
                e.notes.push(format!(
                    "in program {:?} of the launch grid {:?}",
                    machine.program,
                    self.grid.as_deref().unwrap_or(&[])
                ));
            }
            e
        };
        let mut threads: Vec<Option<control::Thread<'_, 'c, 'a>>> =
            (0..programs).map(|_| None).collect();
        // For each program: running (None) or waiting at a barrier (the op and its cores).
        let mut waiting: Vec<Option<(OperationRef<'c, 'a>, Vec<usize>)>> = vec![None; programs];
        let mut done = vec![false; programs];
        let mut current = 0usize;
        loop {
            let mut progressed = false;
            for p in 0..programs {
                if done[p] || waiting[p].is_some() {
                    continue;
                }
                if p != current {
                    let fresh = machine
                        .switch_program(p, !done[current])
                        .map_err(|m| RunError::at(&self.func, m))?;
                    current = p;
                    machine.program = program_coords(grid, p as i64);
                    if fresh {
                        self.start_program(machine, p, places, per_program)?;
                    }
                }
                let thread = threads[p].get_or_insert_with(|| control::Thread::new(&self.body));
                progressed = true;
                match thread.run(machine).map_err(|e| in_program(machine, e))? {
                    control::Status::Done => {
                        done[p] = true;
                        threads[p] = None;
                        self.finish_program(machine, p, places, per_program, keep, outputs)?;
                    }
                    control::Status::Barrier(op) => {
                        let cores =
                            barrier_cores(&op, p, programs).map_err(|e| in_program(machine, e))?;
                        waiting[p] = Some((op, cores.clone()));
                        let all = cores
                            .iter()
                            .all(|&q| waiting[q].as_ref().is_some_and(|(_, c)| *c == cores));
                        if all {
                            for &q in &cores {
                                waiting[q] = None;
                            }
                        }
                    }
                }
            }
            if done.iter().all(|&d| d) {
                return Ok(());
            }
            if !progressed {
                return Err(deadlock(
                    &waiting,
                    &done,
                    self.grid.as_deref().unwrap_or(&[]),
                ));
            }
        }
    }

    /// Gives program `p`, starting on fresh state, its copy of the per-program arguments.
    fn start_program(
        &self,
        machine: &mut Machine,
        p: usize,
        places: &[Place],
        per_program: &[(usize, Vec<u8>)],
    ) -> Result<(), RunError> {
        for (i, input) in per_program {
            let arg = &self.args[*i];
            let n = arg.num_bytes();
            let bytes = &input[p * n..(p + 1) * n];
            let r = match &places[*i] {
                Place::View(view) => machine
                    .mem(0)
                    .write_bytes(view, bytes)
                    .map_err(|e| e.to_string()),
                Place::Reg(id) => machine.set_register(0, *id, scalar_value(bytes)),
                Place::Index(_) => Ok(()),
            };
            r.map_err(|m| {
                RunError::at(
                    &self.func,
                    format!("argument {i}: cannot give program {p} its copy: {m}"),
                )
            })?;
        }
        Ok(())
    }

    /// Copies program `p`'s per-program arguments that `keep` lists into `outputs`.
    fn finish_program(
        &self,
        machine: &mut Machine,
        p: usize,
        places: &[Place],
        per_program: &[(usize, Vec<u8>)],
        keep: &[usize],
        outputs: &mut [Vec<u8>],
    ) -> Result<(), RunError> {
        for (i, _) in per_program {
            if !keep.contains(i) {
                continue;
            }
            let arg = &self.args[*i];
            let n = arg.num_bytes();
            let bytes = read_back(machine, 0, arg, &places[*i], false).map_err(|e| {
                RunError::at(
                    &self.func,
                    format!("cannot read argument {i} of program {p}: {e}"),
                )
            })?;
            outputs[*i][p * n..(p + 1) * n].copy_from_slice(&bytes);
        }
        Ok(())
    }
}

/// Where an argument lives during a run.
enum Place {
    /// A tile.
    View(sundial_emu::View),
    /// A register.
    Reg(sundial_emu::RegisterId),
    /// An index or integer value (immutable), per rank.
    Index(Vec<i64>),
}

/// The one little-endian integer of a scalar argument's bytes (1, 2, 4 or 8 of them),
/// sign-extended.
fn scalar_value(bytes: &[u8]) -> i64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    let v = i64::from_le_bytes(b);
    let shift = 64 - 8 * n as u32;
    if n == 0 { 0 } else { (v << shift) >> shift }
}

/// The final contents of argument `arg` on `rank`. `take`: the run is over and the bytes of
/// an HBM tensor may move out of the memory instead of being copied.
fn read_back(
    machine: &mut Machine,
    rank: usize,
    arg: &ArgInfo,
    place: &Place,
    take: bool,
) -> Result<Vec<u8>, String> {
    match place {
        Place::View(view) => {
            let hbm = arg.tile().is_some_and(|t| t.space == Space::Hbm);
            let mem = machine.mem(rank);
            // Every argument was written when the run began, so the read of an on-chip
            // one passes the uninitialised-read check.
            let bytes = match (hbm, take) {
                (true, true) => mem.take_bytes(view.alloc()),
                (true, false) => mem.bytes(view.alloc()).map(<[u8]>::to_vec),
                (false, _) => mem.read_bytes(view),
            };
            bytes.map_err(|e| e.to_string())
        }
        Place::Reg(id) => {
            let v = machine.register(rank, *id)?;
            Ok(v.to_le_bytes()[..arg.format.size()].to_vec())
        }
        // A value the run cannot change: its contents are what it started with.
        Place::Index(values) => {
            let v = values.get(rank).copied().unwrap_or(0);
            Ok(v.to_le_bytes()[..arg.format.size()].to_vec())
        }
    }
}

/// The programs (linear indices of the grid) the barrier `op` that program `p` arrived at
/// synchronises: its `cores`, each a program of the grid, `p` among them.
fn barrier_cores(
    op: &OperationRef<'_, '_>,
    p: usize,
    programs: usize,
) -> Result<Vec<usize>, RunError> {
    let cores = op
        .attribute("cores")
        .ok()
        .and_then(sundial_dialects::verify::i64_array_value)
        .ok_or_else(|| RunError::at(op, "'nisa.core_barrier' op has no attribute 'cores'"))?;
    let mut out = Vec::new();
    for c in &cores {
        match usize::try_from(*c) {
            Ok(c) if c < programs => out.push(c),
            _ => {
                return Err(RunError::at(
                    op,
                    format!(
                        "'nisa.core_barrier' op synchronises the programs {cores:?}, but the launch grid has {programs} program{} (0..{}): the barrier would wait forever",
                        if programs == 1 { "" } else { "s" },
                        programs - 1
                    ),
                ));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    if !out.contains(&p) {
        return Err(RunError::at(
            op,
            format!(
                "'nisa.core_barrier' op is reached by program {p}, which is not one of the programs {cores:?} it synchronises"
            ),
        ));
    }
    Ok(out)
}

/// The error of a run where no program can go on: some wait at a barrier for programs that
/// ended (or wait elsewhere).
fn deadlock(
    waiting: &[Option<(OperationRef<'_, '_>, Vec<usize>)>],
    done: &[bool],
    grid: &[i64],
) -> RunError {
    let Some((p, (op, cores))) = waiting
        .iter()
        .enumerate()
        .find_map(|(p, w)| w.as_ref().map(|w| (p, w)))
    else {
        return RunError::new("no program of the launch grid can run");
    };
    let here: Vec<usize> = waiting
        .iter()
        .enumerate()
        .filter(|(_, w)| w.as_ref().is_some_and(|(o, _)| o == op))
        .map(|(q, _)| q)
        .collect();
    let ended: Vec<usize> = cores.iter().copied().filter(|&q| done[q]).collect();
    let elsewhere: Vec<usize> = cores
        .iter()
        .copied()
        .filter(|&q| !done[q] && !here.contains(&q))
        .collect();
    let mut why = Vec::new();
    if !ended.is_empty() {
        why.push(format!(
            "program{} {ended:?} ended without reaching it",
            plural(ended.len())
        ));
    }
    if !elsewhere.is_empty() {
        why.push(format!(
            "program{} {elsewhere:?} wait{} at another barrier",
            plural(elsewhere.len()),
            if elsewhere.len() == 1 { "s" } else { "" }
        ));
    }
    let _ = p;
    RunError::at(
        op,
        format!(
            "'nisa.core_barrier' op deadlocks: program{} {here:?} of the launch grid {grid:?} wait{} here for the programs {cores:?}, but {}",
            plural(here.len()),
            if here.len() == 1 { "s" } else { "" },
            why.join(" and ")
        ),
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
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
