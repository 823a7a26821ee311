//! Handlers of the data-movement ops, `nisa.alloc`, registers and `device_print` (the view
//! ops and access patterns are [`super::view`]).
//!
//! | row | emulator call | attributes that change nothing modelled |
//! |---|---|---|
//! | `nisa.alloc` | `Memory::alloc_hbm` / `alloc_sbuf_named` / `alloc_psum_named` | — (`name` names the tile in messages) |
//! | `nisa.dma_copy` | `dma_copy` | `dge_mode`, `priority` (scheduling); `oob_mode` (a direct copy has no index to check) |
//! | `nisa.dma_copy_indirect` | `dma_copy_indirect` | `dge_mode`, `priority`; `unique_indices` (duplicate scatter targets: last writer wins either way) |
//! | `nisa.gather` | `gather` (nc_n_gather) | |
//! | `nisa.indirect_copy` | `indirect_copy` (local_gather) | |
//! | `nisa.dma_compute` | `dma_compute` | |
//! | `nisa.dma_transpose` | `dma_transpose` | `dge_mode`; `oob_mode` (a direct transpose has no index) |
//! | `nisa.dma_gather_transpose` | `dma_gather_transpose` | `dge_mode` |
//! | `nisa.generic_load` | `dma_copy_indirect` | a direct or indirect source |
//! | `nisa.generic_indirect_load` | `indirect_load` | `dge_mode`; `src[..., indices[i], ...]` |
//! | `nisa.generic_indirect_save` | `indirect_save` / `indirect_save_accumulate` | `dge_mode`, `unique_indices` |
//! | `nisa.load_register` / `nisa.store_register` | `register_load` / `register_store` | the register file of the rank's [`super::super::exec::Core`] |
//! | `nisa.register_alloc` / `nisa.register_move` | `Registers::register_alloc` / `register_move` | |
//! | `nisa.register_index` | `Registers::get` | the value becomes an `index` |
//! | `nisa.device_print` | — (host side: the tool prints the tile) | |
//! | `nisa.core_barrier` | — (the run stops the program until the others arrive) | `engine`; `data` (the programs run one at a time, so nothing is in flight) |
//! | `func.return` | — | ends the body |

use std::fmt::Write as _;

use melior::ir::ValueLike;
use sundial_emu::fused::RowOp;
use sundial_emu::{OobMode, ReduceOp, RegSource};

use super::super::exec::{Exec, Operand, RtValue, tile_name};
use super::super::{RunError, ap};
use super::{uint, uints};

/// `nisa.alloc`: a tile on every rank, named after its `name` attribute or its position.
/// Executed again (a later iteration of a loop, a later program of the launch grid) it is a
/// new tile of the same type: the same bytes, holding the uninitialised pattern and counting
/// as never written again, since nothing of the earlier tile can be reached any more (a loop
/// carries no SSA values). A `shared_hbm` tensor is one tensor for the whole launch grid: it
/// is allocated once.
pub fn alloc(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let tile = op.result_tile(0)?;
    let name = tile_name(
        op.opt_word("name")?.as_deref(),
        super::super::exec::position(&op.op()).as_ref(),
    );
    // One call allocates on every rank: only rank 0's pass does it.
    if op.rank() != 0 {
        return Ok(());
    }
    let o = op.op();
    let ranks = op.machine().ranks();
    let cached = op.machine().allocated(&o).cloned();
    // The fused ops waiting run first when the new tile's bytes may be theirs (a tile
    // allocated again, on-chip space the SBUF allocator hands out next, PSUM).
    op.machine()
        .flush_fused_before_alloc(cached.as_ref(), tile.space);
    let view = match cached {
        Some(view) => {
            let shared = o
                .result(0)
                .is_ok_and(|r| sundial_dialects::loops::hbm_buffer(r.to_raw()) == "shared_hbm");
            if !shared {
                for r in 0..ranks {
                    let fresh = op.machine().mem(r).fill_uninit(&view);
                    op.emu(fresh)?;
                }
            }
            view
        }
        None => {
            let allocated = op.machine().alloc(&tile, &name);
            let view = allocated.map_err(|m| op.error(format!("cannot allocate the tile: {m}")))?;
            op.machine().set_allocated(&o, view.clone());
            let shared = o
                .result(0)
                .is_ok_and(|r| sundial_dialects::loops::hbm_buffer(r.to_raw()) == "shared_hbm");
            if !shared {
                // Each program of a launch grid has its own (on-chip tiles are noted by the
                // machine's allocator).
                op.machine().note_private(view.alloc());
            }
            view
        }
    };
    for r in 0..ranks {
        op.set_rank(r);
        op.set_result(0, RtValue::Tile(view.clone()))?;
    }
    op.set_rank(0);
    Ok(())
}

/// `nisa.dma_copy`.
pub fn dma_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    op.row_op(RowOp::DmaCopy { dst, src })
}

/// `nisa.dma_copy_indirect`.
pub fn dma_copy_indirect(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.operand("dst")?, op.operand("src")?);
    let oob = op.oob()?;
    let r = sundial_emu::dma_copy_indirect(op.mem(), dst.as_dma(), src.as_dma(), oob);
    op.emu(r)
}

/// `nisa.gather`.
pub fn gather(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, indices) = (op.tile("dst")?, op.tile("data")?, op.tile("indices")?);
    let r = sundial_emu::gather(op.mem(), &dst, &data, &indices);
    op.emu(r)
}

/// `nisa.indirect_copy`.
pub fn indirect_copy(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, index) = (op.tile("dst")?, op.tile("src_buffer")?, op.tile("index")?);
    let per_index = super::uint_attr(op, "num_elem_per_idx")?;
    let valid = match op.opt_int("num_valid_indices")? {
        Some(v) => Some(uint(op, "num_valid_indices", v)?),
        None => None,
    };
    let r = sundial_emu::indirect_copy(op.mem(), &dst, &src, &index, per_index, valid);
    op.emu(r)
}

/// `nisa.dma_compute`.
pub fn dma_compute(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.operand("dst")?;
    let mut srcs = Vec::new();
    for group in sundial_dialects::nisa::DMA_COMPUTE_SOURCES {
        srcs.extend(op.operands(group)?);
    }
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

/// `nisa.generic_load`.
pub fn generic_load(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
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
    let d = super::uint_attr(op, "indirect_dim")?;
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

/// `nisa.generic_indirect_load`.
pub fn generic_indirect_load(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, indices) = (op.tile("dst")?, op.tile("src")?, op.tile("indices")?);
    let (access, oob) = indexed(op, &src, &dst, &indices)?;
    let r = sundial_emu::indirect_load(op.mem(), &dst, &access, oob);
    op.emu(r)
}

/// `nisa.generic_indirect_save`.
pub fn generic_indirect_save(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, indices) = (op.tile("dst")?, op.tile("src")?, op.tile("indices")?);
    let (access, oob) = indexed(op, &dst, &src, &indices)?;
    let r = if op.flag("accumulate")? {
        sundial_emu::indirect_save_accumulate(op.mem(), &access, &src, oob)
    } else {
        sundial_emu::indirect_save(op.mem(), &access, &src, oob)
    };
    op.emu(r)
}

/// `nisa.dma_transpose`: `dst` = `src` with its dimensions permuted by `axes`.
pub fn dma_transpose(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let axes = uints(op, "axes")?;
    let r = sundial_emu::dma_transpose(op.mem(), &dst, &src, &axes);
    op.emu(r)
}

/// `nisa.dma_gather_transpose`: the transpose of the rows an indirect `src` gathers.
pub fn dma_gather_transpose(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.operand("src")?);
    let Operand::Access(access) = src else {
        return Err(op.error(
            "operand 'src' must be an indirect access pattern (nisa.ap with vector_offset); use nisa.dma_transpose for a tile",
        ));
    };
    let axes = uints(op, "axes")?;
    let oob = op.oob()?;
    let r = sundial_emu::dma_gather_transpose(op.mem(), &dst, &access, &axes, oob);
    op.emu(r)
}

/// `nisa.load_register`: a new register of the rank holding the one value of `src`.
pub fn load_register(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let src = op.tile("src")?;
    let (mem, core) = op.mem_core();
    let r = core
        .regs
        .register_alloc(None)
        .and_then(|id| sundial_emu::register_load(mem, &mut core.regs, id, &src).map(|()| id));
    let id = op.emu(r)?;
    op.set_result(0, RtValue::Reg(id))
}

/// `nisa.register_alloc`: a new register of the rank, holding `value` when given.
pub fn register_alloc(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let value = op.opt_int("value")?;
    let (_, core) = op.mem_core();
    let r = core.regs.register_alloc(value);
    let id = op.emu(r)?;
    op.set_result(0, RtValue::Reg(id))
}

/// `nisa.register_move`: `dst` = the immediate `imm` or register `src`.
pub fn register_move(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.reg_id("dst")?;
    let src = match (op.opt_int("imm")?, op.opt_raw("src")?) {
        (Some(v), None) => RegSource::Imm(v),
        (None, Some(RtValue::Reg(id))) => RegSource::Reg(id),
        (None, Some(_)) => return Err(op.error("operand 'src' is not a register")),
        (Some(_), Some(_)) => {
            return Err(op.error("give either attribute 'imm' or operand 'src', not both"));
        }
        (None, None) => return Err(op.error("needs attribute 'imm' or operand 'src'")),
    };
    let (_, core) = op.mem_core();
    let r = sundial_emu::register_move(&mut core.regs, dst, src);
    op.emu(r)
}

/// `nisa.register_index`: the register's value as an index (reading a register never
/// written is an error).
pub fn register_index(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let v = op.reg("src")?;
    op.set_result(0, RtValue::Index(v))
}

/// `nisa.store_register`: the register's value into the one element of `dst`.
pub fn store_register(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, id) = (op.tile("dst")?, op.reg_id("src")?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::register_store(mem, &core.regs, &dst, id);
    op.emu(r)
}

/// `nisa.device_print` (`nl.device_print`): appends `PREFIX 2x4xfloat32: v v v ...` (the
/// tile's elements in row-major order, as `--save` would write them) to what the run prints;
/// with several ranks each line starts `rank R: `. The read is an ordinary read of the tile,
/// so the uninitialised-read check applies.
pub fn device_print(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let src = op.tile("src")?;
    let prefix = op.word("prefix")?;
    let r = op.mem().read_bits_for("device_print", &src);
    let bits = op.emu(r)?;
    let d = src.dtype();
    let shape = src
        .shape()
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("x");
    let mut line = String::new();
    if op.machine().ranks() > 1 {
        let _ = write!(line, "rank {}: ", op.rank());
    }
    let _ = write!(line, "{prefix} {shape}x{d}:");
    for b in bits {
        let _ = write!(line, " {}", element_text(d, b));
    }
    line.push('\n');
    op.machine().printed.push_str(&line);
    Ok(())
}

/// An element as `device_print` shows it: integers in decimal, floats as Rust's shortest
/// round-trip form of their f32 value, the x4 containers as their packed word in hex.
fn element_text(d: sundial_emu::DType, bits: u64) -> String {
    if d.is_x4() {
        return format!("0x{:0width$x}", bits, width = d.size() * 2);
    }
    if d == sundial_emu::DType::U64 {
        return bits.to_string();
    }
    if let Some(i) = d.to_i64(bits) {
        return i.to_string();
    }
    match d.to_f32(bits) {
        Some(v) => format!("{v:?}"),
        None => format!("0x{bits:x}"),
    }
}

/// `nisa.core_barrier`: the program stops after it until every program of `cores` has
/// arrived (`super::super::Program::execute` does that); the memory needs nothing, since the
/// programs run one at a time and every write before the barrier is complete.
pub fn core_barrier(_: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    Ok(())
}

/// The body's terminator: kernels return nothing (`Program::prepare` refuses a return with
/// values), so there is nothing to do.
pub fn func_return(_: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    Ok(())
}
