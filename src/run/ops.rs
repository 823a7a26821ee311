//! The op table of `sundial-run`: which ops execute, and the handler each one runs.
//!
//! [`HANDLERS`] is the one list: an op executes exactly when it has a row here (looked up by
//! its full name); `super::Program::prepare` refuses every other op by name before anything
//! runs. A handler reads its op through [`Exec`] (operands by the group names of the op's row
//! in `sundial_dialects::nisa::OPS`, attributes with that row's defaults) and calls the
//! emulator; see the parent module's doc for a worked example.
//!
//! | row | emulator call | notes |
//! |---|---|---|
//! | `nisa.alloc` | `Memory::alloc_hbm` / `alloc_sbuf` / `alloc_psum` | the uninitialised fill |
//! | `nisa.ap` | a view, or an access with `vector_offset` / `scalar_offset` | see [`super::ap`] |
//! | `nisa.dma_copy` | `dma_copy` | |
//! | `nisa.dma_copy_indirect` | `dma_copy_indirect` | duplicate scatter targets: last writer wins, whatever `unique_indices` says |
//! | `nisa.gather` | `gather` (nc_n_gather) | |
//! | `nisa.indirect_copy` | `indirect_copy` (local_gather) | |
//! | `nisa.dma_compute` | `dma_compute` | |
//! | `nisa.generic_load` | `dma_copy_indirect` | a direct or indirect source |
//! | `nisa.generic_indirect_load` | `indirect_load` | `src[..., indices[i], ...]` |
//! | `nisa.generic_indirect_save` | `indirect_save` / `indirect_save_accumulate` | |
//! | `nisa.load_register` / `nisa.store_register` | `read_i64` / `write_i64` of a `[1, 1]` tile | registers are SSA values of the run |
//! | `func.return` | — | ends the body |

use sundial_emu::{OobMode, ReduceOp};

use super::exec::{Exec, Operand, RtValue};
use super::{RunError, ap};

/// A handler: executes one op.
pub type Run = fn(&mut Exec<'_, '_, '_>) -> Result<(), RunError>;

/// One row of the op table.
#[derive(Clone, Copy)]
pub struct Handler {
    /// The op's full name (`nisa.dma_copy`).
    pub op: &'static str,
    /// What executes it.
    pub run: Run,
}

/// `table!["nisa.x" => handler, ...]`: the rows of [`HANDLERS`], one line each.
macro_rules! table {
    ($($op:literal => $run:ident),* $(,)?) => {
        &[$(Handler { op: $op, run: $run }),*]
    };
}

/// Every op `sundial-run` executes (see the module doc). Adding an op is adding a row.
pub static HANDLERS: &[Handler] = table![
    "nisa.alloc" => alloc,
    "nisa.ap" => access_pattern,
    "nisa.dma_copy" => dma_copy,
    "nisa.dma_copy_indirect" => dma_copy_indirect,
    "nisa.gather" => gather,
    "nisa.indirect_copy" => indirect_copy,
    "nisa.dma_compute" => dma_compute,
    "nisa.generic_load" => generic_load,
    "nisa.generic_indirect_load" => generic_indirect_load,
    "nisa.generic_indirect_save" => generic_indirect_save,
    "nisa.load_register" => load_register,
    "nisa.store_register" => store_register,
    "func.return" => func_return,
];

/// The row of the op named `name`, if it executes.
pub fn handler(name: &str) -> Option<&'static Handler> {
    HANDLERS.iter().find(|h| h.op == name)
}

/// A non-negative integer attribute as an extent or index.
fn uint(op: &Exec<'_, '_, '_>, name: &str, value: i64) -> Result<usize, RunError> {
    usize::try_from(value).map_err(|_| op.error(format!("attribute '{name}': {value} is negative")))
}

fn alloc(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let tile = op.result_tile(0)?;
    let name = match op.opt_word("name")? {
        Some(n) => format!("tile '{n}'"),
        None => match super::exec::position(&op.op()) {
            Some(p) => format!("the nisa.alloc at line {} col {}", p.line, p.col),
            None => "a nisa.alloc".to_string(),
        },
    };
    let allocated = op.machine().alloc(&tile, name);
    let view = allocated.map_err(|m| op.error(format!("cannot allocate the tile: {m}")))?;
    op.set_result(0, RtValue::Tile(view))
}

fn access_pattern(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let base = op.tile("tensor")?;
    let result = op.result_tile(0)?;
    let res = super::npy::format_of(result.dtype).emu;
    let pattern = op.ints("pattern")?;
    if pattern.len() % 2 != 0 {
        return Err(op.error("attribute 'pattern': expected [step, num] pairs"));
    }
    let pairs: Vec<(i64, i64)> = pattern.chunks(2).map(|c| (c[0], c[1])).collect();
    let offset = op.int("offset")?;
    let vector = op.opt_tile("vector_offset")?;
    let scalar = op.opt_raw("scalar_offset")?;
    let indirect = if vector.is_some() || scalar.is_some() {
        let d = op.int("indirect_dim")?;
        Some(uint(op, "indirect_dim", d)?)
    } else {
        None
    };
    let on_chip = op.mem().space(base.alloc()) != Ok(sundial_emu::MemSpace::Hbm);
    let view = ap::view(&base, on_chip, res, &pairs, offset, indirect)
        .map_err(|m| op.error(format!("cannot be emulated: {m}")))?;
    let nums: Vec<usize> = pairs.iter().map(|&(_, n)| n as usize).collect();
    let value = match (indirect, vector, scalar) {
        (Some(d), Some(index), _) => RtValue::Access(
            ap::vector_access(view, d, &index, &nums)
                .map_err(|m| op.error(format!("operand 'vector_offset': {m}")))?,
        ),
        (Some(d), None, Some(scalar)) => {
            let scalar_view = match scalar {
                RtValue::Tile(v) => v,
                RtValue::Reg(r) => {
                    let made = op.machine().register_view(r);
                    made.map_err(|m| op.error(format!("operand 'scalar_offset': {m}")))?
                }
                RtValue::Access(_) => {
                    return Err(op.error(
                        "operand 'scalar_offset' is an indirect access pattern, not a tile or register",
                    ));
                }
            };
            RtValue::Access(
                ap::scalar_access(view, d, &scalar_view, &nums)
                    .map_err(|m| op.error(format!("operand 'scalar_offset': {m}")))?,
            )
        }
        _ => RtValue::Tile(view),
    };
    op.set_result(0, value)
}

fn dma_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let r = sundial_emu::dma_copy(op.mem(), &dst, &src);
    op.emu(r)
}

fn dma_copy_indirect(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.operand("dst")?, op.operand("src")?);
    let oob = op.oob()?;
    let r = sundial_emu::dma_copy_indirect(op.mem(), dst.as_dma(), src.as_dma(), oob);
    op.emu(r)
}

fn gather(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, indices) = (op.tile("dst")?, op.tile("data")?, op.tile("indices")?);
    let r = sundial_emu::gather(op.mem(), &dst, &data, &indices);
    op.emu(r)
}

fn indirect_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, index) = (op.tile("dst")?, op.tile("src_buffer")?, op.tile("index")?);
    let per_index = op.int("num_elem_per_idx")?;
    let per_index = uint(op, "num_elem_per_idx", per_index)?;
    let valid = match op.opt_int("num_valid_indices")? {
        Some(v) => Some(uint(op, "num_valid_indices", v)?),
        None => None,
    };
    let r = sundial_emu::indirect_copy(op.mem(), &dst, &src, &index, per_index, valid);
    op.emu(r)
}

fn dma_compute(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.operand("dst")?;
    let srcs = op.operands("srcs")?;
    let reduce = match op.word("reduce_op")?.as_str() {
        "add" => ReduceOp::Add,
        other => {
            return Err(op.error(format!(
                "attribute 'reduce_op': \"{other}\" has no emulator semantics (only add)"
            )));
        }
    };
    let scales = op.opt_floats("scales")?;
    let unique = op.flag("unique_indices")?;
    let oob = op.oob()?;
    let src_ops: Vec<_> = srcs.iter().map(Operand::as_dma).collect();
    let r = sundial_emu::dma_compute(
        op.mem(),
        dst.as_dma(),
        &src_ops,
        reduce,
        scales.as_deref(),
        unique,
        oob,
    );
    op.emu(r)
}

fn generic_load(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.operand("src")?);
    let oob = op.oob()?;
    let r = sundial_emu::dma_copy_indirect(
        op.mem(),
        sundial_emu::DmaOperand::View(&dst),
        src.as_dma(),
        oob,
    );
    op.emu(r)
}

/// The access `table[..., indices[i], ...]` along attribute `indirect_dim`, over the shape of
/// `other` (the gathered side).
fn indexed(
    op: &Exec<'_, '_, '_>,
    table: &sundial_emu::View,
    other: &sundial_emu::View,
    indices: &sundial_emu::View,
) -> Result<(sundial_emu::Access, OobMode), RunError> {
    let d = op.int("indirect_dim")?;
    let d = uint(op, "indirect_dim", d)?;
    if d >= table.rank() {
        return Err(op.error(format!(
            "attribute 'indirect_dim': {d} is not a dimension of a rank-{} tile",
            table.rank()
        )));
    }
    let access = ap::vector_access(table.clone(), d, indices, other.shape())
        .map_err(|m| op.error(format!("operand 'indices': {m}")))?;
    Ok((access, op.oob()?))
}

fn generic_indirect_load(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, indices) = (op.tile("dst")?, op.tile("src")?, op.tile("indices")?);
    let (access, oob) = indexed(op, &src, &dst, &indices)?;
    let r = sundial_emu::indirect_load(op.mem(), &dst, &access, oob);
    op.emu(r)
}

fn generic_indirect_save(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, indices) = (op.tile("dst")?, op.tile("src")?, op.tile("indices")?);
    let (access, oob) = indexed(op, &dst, &src, &indices)?;
    let r = if op.flag("accumulate")? {
        sundial_emu::indirect_save_accumulate(op.mem(), &access, &src, oob)
    } else {
        sundial_emu::indirect_save(op.mem(), &access, &src, oob)
    };
    op.emu(r)
}

fn load_register(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let src = op.tile("src")?;
    let r = op.mem().read_i64(&src);
    let values = op.emu(r)?;
    let [value] = values[..] else {
        return Err(op.error(format!(
            "operand 'src' must hold one value, not {}",
            values.len()
        )));
    };
    op.set_result(0, RtValue::Reg(value))
}

fn store_register(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, value) = (op.tile("dst")?, op.reg("src")?);
    if dst.num_elements() != 1 {
        return Err(op.error(format!(
            "operand 'dst' must hold one value, not {}",
            dst.num_elements()
        )));
    }
    let r = op.mem().write_i64(&dst, &[value]);
    op.emu(r)
}

/// The body's terminator: kernels return nothing (`Program::prepare` refuses a return with
/// values), so there is nothing to do.
fn func_return(_: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    Ok(())
}
