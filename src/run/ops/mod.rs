//! The op table of `sundial-run`: which ops execute, the handler each one runs, and why the
//! others cannot.
//!
//! [`HANDLERS`] is the one list of what executes: an op runs exactly when it has a row here
//! (looked up by its full name). [`REFUSED`] lists every NISA op without a row and why;
//! `super::Program::prepare` refuses those, and every op of another dialect without a row
//! (the `arith` index and float scalar ops have rows; `scf.for` and `scf.if` are run by the
//! program itself, `super::control`), by name before anything runs. A test checks that every op of `sundial_dialects::nisa::OPS` is in exactly
//! one of the two tables, so the set stays complete when the dialect grows.
//!
//! A handler reads its op through [`Exec`] (operands by the group names of the op's row in
//! `sundial_dialects::nisa::OPS`, attributes with that row's defaults) and calls the emulator;
//! see the parent module's doc for a worked example. A row marked `[group]` is one instruction
//! of the whole rank group (a collective: it runs once, over every rank's memory); every other
//! row runs once per rank.
//!
//! The handlers, by family (each module's doc says how the op's operands and attributes map
//! onto the emulator's function, and which attributes change nothing the emulator models):
//!
//! - [`data`]: `nisa.alloc`, the DMA ops, the generic loads and stores, registers,
//!   `device_print`, `core_barrier`;
//! - [`view`]: the access patterns (`nisa.ap`, `nisa.dynamic_ap`) and views (reshape, slice,
//!   permute, broadcast), folded through `sundial_dialects::fold`;
//! - [`index`]: the `arith` index arithmetic and the launch-grid queries; [`float`]: `arith`
//!   on float scalars;
//! - [`compute`]: the element-wise, reduction, select, copy, transpose, matmul, top-8,
//!   statistics and MX ops of the Vector, Scalar, GpSimd and Tensor engines;
//! - [`state`]: the ops on engine state kept across ops (accumulator read-outs, the random
//!   generators, dropout);
//! - [`collective`]: the collectives over `--ranks N`.

/// One handler per `arith` binary op: `name => Bin`, each calling the module's own
/// `binary(op, Bin::X)` (the index and float modules share the shape, not the semantics).
macro_rules! binaries {
    ($($name:ident => $bin:ident),* $(,)?) => {$(
        #[doc = concat!("`arith.", stringify!($name), "`.")]
        pub fn $name(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
            binary(op, Bin::$bin)
        }
    )*};
}

pub mod collective;
pub mod compute;
pub mod data;
pub mod float;
pub mod index;
pub mod state;
pub mod view;

use sundial_emu::{AluOp, ReduceCmd};

use super::RunError;
use super::exec::Exec;

/// A handler: executes one op (on the rank the [`Exec`] is set to, or on the whole group for
/// a [`Scope::Group`] row).
pub type Run = fn(&mut Exec<'_, '_, '_>) -> Result<(), RunError>;

/// Where a row's handler runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Once per rank, on that rank's memory and engine state.
    Core,
    /// Once for the whole rank group (collectives); needs `--ranks N`.
    Group,
}

/// One row of the op table.
#[derive(Clone, Copy)]
pub struct Handler {
    /// The op's full name (`nisa.dma_copy`).
    pub op: &'static str,
    /// What executes it.
    pub run: Run,
    /// Where it runs.
    pub scope: Scope,
}

/// `table!["nisa.x" => handler, "nisa.y" => [group] handler, ...]`: the rows of [`HANDLERS`],
/// one line each.
macro_rules! table {
    (@scope) => { Scope::Core };
    (@scope group) => { Scope::Group };
    ($($op:literal => $([$scope:ident])? $run:path),* $(,)?) => {
        &[$(Handler { op: $op, run: $run, scope: table!(@scope $($scope)?) }),*]
    };
}

/// The handlers that may run while fused ops wait (`sundial_emu::fused`, the `Core::fusion`
/// of `super::exec`): they touch neither memory nor engine state (views, access patterns,
/// index and float scalars, the launch-grid queries), or run the batch themselves when they
/// would (`nisa.alloc`, `super::exec::Machine::flush_fused_before_alloc`), and the row-local
/// ops themselves, which go through the batch. Before any other op the batch runs.
pub fn keeps_fused_batch(op: &str) -> bool {
    matches!(
        op,
        "nisa.alloc"
            | "nisa.ap"
            | "nisa.dynamic_ap"
            | "nisa.reshape"
            | "nisa.slice"
            | "nisa.permute"
            | "nisa.broadcast"
            | "nisa.program_id"
            | "nisa.num_programs"
            | "nisa.dma_copy"
            | "nisa.tensor_tensor_arith"
            | "nisa.tensor_scalar_arith"
            | "nisa.activation"
    ) || op.starts_with("arith.")
}

/// Every op `sundial-run` executes (see the module doc). Adding an op is adding a row.
pub static HANDLERS: &[Handler] = table![
    // structural
    "nisa.alloc" => data::alloc,
    // views and access patterns (folded by sundial_dialects::fold)
    "nisa.ap" => view::view,
    "nisa.dynamic_ap" => view::view,
    "nisa.reshape" => view::view,
    "nisa.slice" => view::view,
    "nisa.permute" => view::view,
    "nisa.broadcast" => view::view,
    // launch grid
    "nisa.program_id" => index::program_id,
    "nisa.num_programs" => index::num_programs,
    // GpSimd
    "nisa.iota" => compute::iota,
    "nisa.tensor_scalar_affine_select" => compute::affine_select,
    "nisa.cross_lane_reduce_arith" => compute::cross_lane_reduce_arith,
    "nisa.cross_lane_reduce_bitvec" => compute::cross_lane_reduce_bitvec,
    "nisa.tensor_partition_reduce" => compute::tensor_partition_reduce,
    "nisa.gather" => data::gather,
    "nisa.indirect_copy" => data::indirect_copy,
    "nisa.nonzero_with_count" => compute::nonzero_with_count,
    "nisa.quantize_mx" => compute::quantize_mx,
    "nisa.sequence_bounds" => compute::sequence_bounds,
    // Vector / GpSimd element-wise
    "nisa.tensor_tensor_arith" => compute::tensor_tensor_arith,
    "nisa.tensor_tensor_power" => compute::tensor_tensor_power,
    "nisa.tensor_scalar_arith" => compute::tensor_scalar_arith,
    "nisa.tensor_scalar_addr" => compute::tensor_scalar_addr,
    "nisa.tensor_scalar_cache_reduce" => compute::tensor_scalar_cache_reduce,
    "nisa.tensor_scalar_cache_cumulative" => compute::tensor_scalar_cache_cumulative,
    "nisa.tensor_tensor_scan" => compute::tensor_tensor_scan,
    "nisa.scalar_tensor_tensor_arith" => compute::scalar_tensor_tensor_arith,
    "nisa.select_reduce" => compute::select_reduce,
    "nisa.copy_predicated" => compute::copy_predicated,
    "nisa.memset" => compute::memset,
    "nisa.tensor_copy" => compute::tensor_copy,
    "nisa.reciprocal" => compute::reciprocal,
    "nisa.tensor_tensor_bitvec" => compute::tensor_tensor_bitvec,
    "nisa.tensor_scalar_bitvec" => compute::tensor_scalar_bitvec,
    "nisa.tensor_reduce_arith" => compute::tensor_reduce_arith,
    "nisa.tensor_reduce_bitvec" => compute::tensor_reduce_bitvec,
    "nisa.dve_read_accumulator" => state::dve_read_accumulator,
    "nisa.max8" => compute::max8,
    "nisa.find_index8" => compute::find_index8,
    "nisa.max_index_and_match_replace" => compute::match_replace8,
    "nisa.range_select" => compute::range_select,
    "nisa.dropout" => state::dropout,
    "nisa.bn_stats" => compute::bn_stats,
    "nisa.bn_aggr" => compute::bn_aggr,
    "nisa.stream_transpose" => compute::stream_transpose,
    "nisa.stream_shuffle" => compute::stream_shuffle,
    "nisa.nc_transpose" => compute::nc_transpose,
    "nisa.exponential" => compute::exponential,
    // Scalar (Activation)
    "nisa.activation" => compute::activation,
    "nisa.activation_read_accumulator" => state::activation_read_accumulator,
    // Tensor (PE)
    "nisa.matmul" => compute::matmul,
    "nisa.matmul_mx" => compute::matmul_mx,
    // collectives
    "nisa.all_reduce" => [group] collective::all_reduce,
    "nisa.all_gather" => [group] collective::all_gather,
    "nisa.reduce_scatter" => [group] collective::reduce_scatter,
    "nisa.all_to_all" => [group] collective::all_to_all,
    "nisa.all_to_all_v" => [group] collective::all_to_all_v,
    "nisa.collective_permute" => [group] collective::collective_permute,
    "nisa.collective_permute_implicit" => [group] collective::collective_permute_implicit,
    "nisa.collective_permute_implicit_reduce" => [group] collective::collective_permute_implicit_reduce,
    "nisa.collective_permute_implicit_current_processing_rank_id" => [group] collective::current_processing_rank_id,
    "nisa.rank_id" => [group] collective::rank_id,
    "nisa.rank_id_store" => [group] collective::rank_id_store,
    // DMA
    "nisa.dma_copy" => data::dma_copy,
    "nisa.dma_copy_indirect" => data::dma_copy_indirect,
    "nisa.dma_transpose" => data::dma_transpose,
    "nisa.dma_gather_transpose" => data::dma_gather_transpose,
    "nisa.dma_compute" => data::dma_compute,
    "nisa.generic_load" => data::generic_load,
    "nisa.generic_indirect_load" => data::generic_indirect_load,
    "nisa.generic_indirect_save" => data::generic_indirect_save,
    // registers and host
    "nisa.load_register" => data::load_register,
    "nisa.store_register" => data::store_register,
    "nisa.register_alloc" => data::register_alloc,
    "nisa.register_move" => data::register_move,
    "nisa.register_index" => data::register_index,
    "nisa.device_print" => data::device_print,
    // synchronisation between the programs of a launch grid (the run stops the program here)
    "nisa.core_barrier" => data::core_barrier,
    // random numbers
    "nisa.rand2" => state::rand2,
    "nisa.rng" => state::rng,
    "nisa.rand_get_state" => state::rand_get_state,
    "nisa.rand_set_state" => state::rand_set_state,
    "nisa.set_rng_seed" => state::set_rng_seed,
    "func.return" => data::func_return,
    // the index arithmetic of loop bounds and dynamic offsets (upstream arith)
    "arith.constant" => index::constant,
    "arith.addi" => index::addi,
    "arith.subi" => index::subi,
    "arith.muli" => index::muli,
    "arith.divsi" => index::divsi,
    "arith.divui" => index::divui,
    "arith.remsi" => index::remsi,
    "arith.remui" => index::remui,
    "arith.floordivsi" => index::floordivsi,
    "arith.ceildivsi" => index::ceildivsi,
    "arith.ceildivui" => index::ceildivui,
    "arith.minsi" => index::minsi,
    "arith.maxsi" => index::maxsi,
    "arith.minui" => index::minui,
    "arith.maxui" => index::maxui,
    "arith.andi" => index::andi,
    "arith.ori" => index::ori,
    "arith.xori" => index::xori,
    "arith.shli" => index::shli,
    "arith.shrsi" => index::shrsi,
    "arith.shrui" => index::shrui,
    "arith.index_cast" => index::index_cast,
    "arith.index_castui" => index::index_castui,
    "arith.extsi" => index::extsi,
    "arith.extui" => index::extui,
    "arith.trunci" => index::trunci,
    "arith.cmpi" => index::cmpi,
    "arith.select" => index::select,
    // float scalars (upstream arith): reach the kernel through integers (see ops::float)
    "arith.addf" => float::addf,
    "arith.subf" => float::subf,
    "arith.mulf" => float::mulf,
    "arith.divf" => float::divf,
    "arith.remf" => float::remf,
    "arith.negf" => float::negf,
    "arith.maximumf" => float::maximumf,
    "arith.minimumf" => float::minimumf,
    "arith.maxnumf" => float::maxnumf,
    "arith.minnumf" => float::minnumf,
    "arith.cmpf" => float::cmpf,
    "arith.sitofp" => float::sitofp,
    "arith.uitofp" => float::uitofp,
    "arith.fptosi" => float::fptosi,
    "arith.fptoui" => float::fptoui,
    "arith.extf" => float::convertf,
    "arith.truncf" => float::convertf,
];

/// The row of the op named `name`, if it executes.
pub fn handler(name: &str) -> Option<&'static Handler> {
    HANDLERS.iter().find(|h| h.op == name)
}

/// Why a NISA op cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The emulator refuses the op by name because its semantics are not public; the
    /// diagnostic gives the emulator's reason (`sundial_emu::refusal`).
    NoPublicSemantics,
    /// The op has public semantics but no emulator function yet.
    NotInEmulator(&'static str),
    /// What the op's operands and attributes can say does not fit a run of the emulator.
    Vocabulary(&'static str),
}

/// Every NISA op without a row in [`HANDLERS`], and why.
pub static REFUSED: &[(&str, Why)] = &[
    ("nisa.scalar_tensor_tensor_bitvec", Why::NoPublicSemantics),
    ("nisa.collective_permute_reduce", Why::NoPublicSemantics),
    (
        "nisa.send_recv",
        Why::Vocabulary(
            "send_to_rank and recv_from_rank are attributes, the same on every rank of an SPMD \
             run, so no two ranks can name each other as the LNC2 swap needs (the emulator's \
             send_recv takes one (send_to, recv_from) pair per rank)",
        ),
    ),
];

/// Why the op named `name` cannot run, if it is a NISA op in [`REFUSED`]: the sentence the
/// diagnostic gives.
pub fn refusal(name: &str) -> Option<String> {
    let (_, why) = REFUSED.iter().find(|(n, _)| *n == name)?;
    Some(match why {
        Why::NoPublicSemantics => {
            let mnemonic = name.strip_prefix("nisa.").unwrap_or(name);
            match sundial_emu::check_op(mnemonic) {
                Err(e) => format!("the emulator refuses it: {e}"),
                Ok(()) => "the emulator has no public semantics for it".to_string(),
            }
        }
        Why::NotInEmulator(why) | Why::Vocabulary(why) => why.to_string(),
    })
}

// ---- attribute conversions shared by the handlers ---------------------------------------

/// A non-negative integer attribute as an extent or index.
pub(crate) fn uint(op: &Exec<'_, '_, '_>, name: &str, value: i64) -> Result<usize, RunError> {
    usize::try_from(value).map_err(|_| op.error(format!("attribute '{name}': {value} is negative")))
}

/// Integer attribute `name` (or its default) as an extent or index.
pub(crate) fn uint_attr(op: &Exec<'_, '_, '_>, name: &str) -> Result<usize, RunError> {
    let v = op.int(name)?;
    uint(op, name, v)
}

/// Integer array attribute `name` (or its default) as extents or indices.
pub(crate) fn uints(op: &Exec<'_, '_, '_>, name: &str) -> Result<Vec<usize>, RunError> {
    op.ints(name)?
        .into_iter()
        .map(|v| uint(op, name, v))
        .collect()
}

/// Optional two-element integer array attribute `name` (`tile_position`, `tile_size`).
pub(crate) fn opt_pair(op: &Exec<'_, '_, '_>, name: &str) -> Result<Option<[usize; 2]>, RunError> {
    let Some(v) = op.opt_ints(name)? else {
        return Ok(None);
    };
    match v[..] {
        [a, b] => Ok(Some([uint(op, name, a)?, uint(op, name, b)?])),
        _ => Err(op.error(format!(
            "attribute '{name}': expected two values, not {}",
            v.len()
        ))),
    }
}

/// ALU attribute `name` (or its default) as the emulator's operator.
pub(crate) fn alu(op: &Exec<'_, '_, '_>, name: &str) -> Result<AluOp, RunError> {
    let word = op.word(name)?;
    AluOp::from_name(&word)
        .ok_or_else(|| op.error(format!("attribute '{name}': unknown ALU op \"{word}\"")))
}

/// Optional ALU attribute `name`.
pub(crate) fn opt_alu(op: &Exec<'_, '_, '_>, name: &str) -> Result<Option<AluOp>, RunError> {
    match op.opt_word(name)? {
        None => Ok(None),
        Some(word) => AluOp::from_name(&word)
            .map(Some)
            .ok_or_else(|| op.error(format!("attribute '{name}': unknown ALU op \"{word}\""))),
    }
}

/// The op's `reduce_cmd` (or its default).
pub(crate) fn reduce_cmd(op: &Exec<'_, '_, '_>) -> Result<ReduceCmd, RunError> {
    let word = op.word("reduce_cmd")?;
    ReduceCmd::from_name(&word).ok_or_else(|| {
        op.error(format!(
            "attribute 'reduce_cmd': unknown command \"{word}\""
        ))
    })
}

/// The op's engine as the emulator's compute ops take it: `None` for `unknown` (the emulator
/// chooses as the NKI docs say the compiler does).
pub(crate) fn compute_engine(
    op: &Exec<'_, '_, '_>,
) -> Result<Option<sundial_emu::Engine>, RunError> {
    let e = op.engine()?;
    Ok(sundial_emu::Engine::from_name(e.as_str()))
}

/// The op's engine where the emulator needs a concrete one (the random generators): the one
/// written, else the op's default engine.
pub(crate) fn concrete_engine(op: &Exec<'_, '_, '_>) -> Result<sundial_emu::Engine, RunError> {
    let e = op.engine()?;
    sundial_emu::Engine::from_name(e.as_str()).ok_or_else(|| {
        op.error(format!(
            "needs a concrete engine (one of its table's engines), not \"{}\"",
            e.as_str()
        ))
    })
}

/// `value` as an `i32` attribute value.
pub(crate) fn int32(op: &Exec<'_, '_, '_>, name: &str) -> Result<i32, RunError> {
    let v = op.int(name)?;
    i32::try_from(v).map_err(|_| {
        op.error(format!(
            "attribute '{name}': {v} does not fit the op's int32 value"
        ))
    })
}
