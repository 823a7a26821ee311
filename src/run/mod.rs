//! `sundial-run`: executes one function of a NISA module on the pure-Rust emulator
//! (`sundial_emu`), with its arguments read from and written to `.npy` files.
//!
//! The pieces, in the order a run uses them:
//!
//! - [`cli`]: the command line (mlir-opt conventions), the order of checks and the output;
//! - [`Program::prepare`]: picks the function, reads its argument types ([`ArgInfo`]) and
//!   checks, before anything runs, that the body is one block whose every op has a handler;
//! - [`npy`]: the argument arrays (dtype and shape checked against the argument's type);
//!   [`random`]: `--random-inputs`;
//! - [`Program::execute`]: allocates the arguments (HBM tensors through `Memory::alloc_hbm`,
//!   SBUF and PSUM tiles through the on-chip allocators), walks the body op by op and runs each
//!   through its handler, then returns every argument's final contents;
//! - [`ops`]: the handler table, and [`exec`]: what a handler reads an op through;
//!   [`ap`]: `nisa.ap` as emulator views and access patterns;
//! - [`compare`]: `--compare-pipeline`'s bit-exact comparison.
//!
//! # Adding an op
//!
//! An op runs when [`ops::HANDLERS`] has a row for it; every other op is refused by name
//! before the run starts (`op 'nisa.X' has no emulator semantics yet`), never skipped. A row
//! is the op's full name and a function that reads the op through an [`Exec`] and calls the
//! emulator. The `nisa.indirect_copy` row, as it is:
//!
//! ```ignore
//! "nisa.indirect_copy" => indirect_copy,      // in the table![...] of ops.rs
//!
//! fn indirect_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
//!     // Operand groups by their names in the op's row of nisa::OPS.
//!     let (dst, src, index) = (op.tile("dst")?, op.tile("src_buffer")?, op.tile("index")?);
//!     // Attributes: the value written, else the row's default; opt_ forms for optional ones.
//!     let per_index = op.int("num_elem_per_idx")?;
//!     let per_index = uint(op, "num_elem_per_idx", per_index)?;
//!     let valid = match op.opt_int("num_valid_indices")? { ... };
//!     let r = sundial_emu::indirect_copy(op.mem(), &dst, &src, &index, per_index, valid);
//!     op.emu(r) // an emulator error, reported at the op's file:line:col with its tiles
//! }
//! ```
//!
//! Operand getters ([`Exec::tile`], [`Exec::opt_tile`], [`Exec::tiles`], [`Exec::operand`] for
//! DMA operands that may be indirect access patterns, [`Exec::reg`]) take the group names of
//! the op's row in `sundial_dialects::nisa::OPS`; attribute getters ([`Exec::int`],
//! [`Exec::float`], [`Exec::flag`], [`Exec::word`], [`Exec::ints`], their `opt_` forms,
//! [`Exec::oob`], [`Exec::engine`]) return the attribute or the row's default, and the `opt_`
//! forms `None` for an absent optional attribute. A name that is not in the row is an error
//! (a handler bug), not a panic. Ops that produce values bind them with [`Exec::set_result`].

pub mod ap;
pub mod cli;
pub mod compare;
pub mod exec;
pub mod npy;
pub mod ops;
pub mod random;

pub use exec::{Exec, Machine, Operand, RtValue};
pub use ops::{HANDLERS, Handler, Run};

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
    steps: Vec<(OperationRef<'c, 'a>, Run)>,
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
                return Err(RunError::at(
                    &o,
                    format!("op '{name}' has no emulator semantics yet"),
                ));
            };
            if name == "func.return" && o.operand_count() > 0 {
                return Err(RunError::at(
                    &o,
                    format!(
                        "function @{fname} returns values; sundial-run runs destination-passing kernels (results are written to arguments)"
                    ),
                ));
            }
            steps.push((o, handler.run));
            op = o.next_in_block();
        }
        Ok(Program {
            func,
            args,
            block_args,
            steps,
        })
    }

    /// Runs the body with argument `i` holding `inputs[i]` (its elements as little-endian
    /// bytes, row-major) on a fresh machine for `target`; returns every argument's final
    /// contents in the same form.
    pub fn execute(
        &self,
        inputs: &[Vec<u8>],
        target: sundial_emu::Target,
    ) -> Result<Vec<Vec<u8>>, RunError> {
        let mut machine = Machine::new(target);
        let mut views = Vec::with_capacity(self.args.len());
        for (arg, value) in self.args.iter().zip(&self.block_args) {
            let input = inputs
                .get(arg.index)
                .ok_or_else(|| RunError::new(format!("no contents for argument {}", arg.index)))?;
            if input.len() != arg.num_bytes() {
                return Err(RunError::new(format!(
                    "argument {}: {} bytes given for {} ({} bytes)",
                    arg.index,
                    input.len(),
                    arg.type_text,
                    arg.num_bytes()
                )));
            }
            let view = machine
                .alloc(&arg.tile, format!("argument {}", arg.index))
                .map_err(|m| {
                    RunError::at(
                        &self.func,
                        format!("cannot allocate argument {}: {m}", arg.index),
                    )
                })?;
            let written = if arg.tile.space == Space::Hbm {
                // A whole HBM tensor is its allocation: copied in one go, whatever its size.
                machine
                    .mem
                    .bytes_mut(view.alloc())
                    .map(|bytes| bytes.copy_from_slice(input))
            } else {
                machine.mem.write_bytes(&view, input)
            };
            written.map_err(|e| {
                RunError::at(
                    &self.func,
                    format!("cannot set argument {}: {e}", arg.index),
                )
            })?;
            machine.bind((*value).into(), RtValue::Tile(view.clone()));
            views.push(view);
        }
        for (op, run) in &self.steps {
            let mut exec = Exec::new(&mut machine, *op)?;
            run(&mut exec)?;
        }
        let mut outputs = Vec::with_capacity(views.len());
        for (arg, view) in self.args.iter().zip(&views) {
            let bytes = if arg.tile.space == Space::Hbm {
                machine.mem.bytes(view.alloc()).map(<[u8]>::to_vec)
            } else {
                machine.mem.read_bytes(view)
            };
            outputs.push(bytes.map_err(|e| {
                RunError::at(
                    &self.func,
                    format!("cannot read argument {}: {e}", arg.index),
                )
            })?);
        }
        Ok(outputs)
    }
}

/// The emulator target of a NISA target.
pub fn emu_target(target: sundial_dialects::enums::Target) -> sundial_emu::Target {
    match target.name() {
        "sunda" => sundial_emu::Target::Sunda,
        "cayman" => sundial_emu::Target::Cayman,
        _ => sundial_emu::Target::Mariana,
    }
}
