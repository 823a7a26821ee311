//! `sundial-run`: executes one function of a NISA module on the pure-Rust emulator
//! (`sundial_emu`), with its arguments read from and written to `.npy` files.
//!
//! The pieces, in the order a run uses them:
//!
//! - [`cli`]: the command line (mlir-opt conventions), the order of checks and the output;
//! - [`Program::prepare`]: picks the function, reads its argument types ([`ArgInfo`]) and
//!   checks, before anything runs, that the body is one block whose every op has a handler
//!   (an op without one is refused with the reason [`ops::REFUSED`] gives);
//! - [`npy`]: the argument arrays (dtype and shape checked against the argument's type);
//!   [`random`]: `--random-inputs`;
//! - [`Program::execute`]: sets up a [`Machine`] as a [`RunConfig`] says (ranks, the
//!   uninitialised-read check, the MX scale rule), creates the arguments (HBM tensors with
//!   their contents through `Memory::alloc_hbm_from_bytes`, so they count as written; SBUF and
//!   PSUM tiles through the named on-chip allocators), walks the body op by op and runs each
//!   through its handler on every rank (a collective once for the whole group), then returns
//!   every argument's final contents, what `device_print` printed and the phase timings;
//! - [`ops`]: the handler table and the refusals, and [`exec`]: the machine and what a handler
//!   reads an op through; [`ap`]: `nisa.ap` as emulator views and access patterns;
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
    BlockLike, Module, RegionLike, ValueLike,
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

/// A function ready to run: its arguments and its body's ops with their handlers.
pub struct Program<'c, 'a> {
    /// The `func.func`.
    pub func: OperationRef<'c, 'a>,
    /// The arguments.
    pub args: Vec<ArgInfo>,
    block_args: Vec<BlockArgument<'c, 'a>>,
    steps: Vec<(OperationRef<'c, 'a>, Handler)>,
}

impl<'c, 'a> Program<'c, 'a> {
    /// Reads `func`'s arguments and checks its body: one block, every op with a handler and
    /// without regions. The first op that cannot run is the error, before anything runs.
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
                    "function @{fname} has more than one block; sundial-run executes straight-line bodies"
                ),
            ));
        }
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
            args.push(ArgInfo {
                index,
                format: npy::format_of(tile.dtype),
                shape: exec::shape_of(&tile),
                type_text: print_type(ty),
                tile,
            });
            block_args.push(arg);
        }
        let mut steps = Vec::new();
        let mut op = block.first_operation();
        while let Some(o) = op {
            let name = op_name(o.to_raw());
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
            steps.push((o, *handler));
            op = o.next_in_block();
        }
        Ok(Program {
            func,
            args,
            block_args,
            steps,
        })
    }

    /// The first collective of the body (an op that needs `--ranks`), if any.
    pub fn first_collective(&self) -> Option<OperationRef<'c, 'a>> {
        self.steps
            .iter()
            .find(|(_, h)| h.scope == Scope::Group)
            .map(|(o, _)| *o)
    }

    /// Runs the body as `config` says, argument `i` holding `inputs[i]` on a fresh machine:
    /// its elements as little-endian bytes, row-major, once per rank (rank-major: with
    /// `config.ranks = Some(n)`, `n` times the argument's size). Returns every argument's
    /// final contents in the same form, what `nisa.device_print` printed, and the time the
    /// phases took. A body with a collective needs `config.ranks`; it is refused at the
    /// collective before anything runs.
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
        let mut machine = Machine::new(*config).map_err(RunError::new)?;
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
        for (op, handler) in &self.steps {
            let mut exec = Exec::new(&mut machine, *op)?;
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
