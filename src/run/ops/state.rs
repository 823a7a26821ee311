//! Handlers of the ops on engine state that lives between ops: the accumulator read-outs and
//! the random generators (and dropout, which draws from them). The state is the rank's
//! [`super::super::exec::Core`]: a `reduce_res`-producing op followed by a read-out sees the
//! value the first left, and a seeded generator continues its stream across ops.
//!
//! The generators are the emulator's deterministic XORWOW model, not bit-identical to the
//! hardware's (the emulator's `rng` module says so); `engine` picks the Vector or GpSimd
//! generators (default: the op's table default). Dropout draws from the Vector generators.

use sundial_emu::DropProb;

use super::super::RunError;
use super::super::exec::Exec;
use super::concrete_engine;

/// `nisa.dve_read_accumulator`: the Vector accumulators into `dst`.
pub fn dve_read_accumulator(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, negate) = (op.tile("dst")?, op.flag("negate")?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::dve_read_accumulator(mem, &core.acc, &dst, negate);
    op.emu(r)
}

/// `nisa.activation_read_accumulator`: the Scalar engine's `reduce_regs` into `dst`.
pub fn activation_read_accumulator(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, negate) = (op.tile("dst")?, op.flag("negate")?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::activation_read_accumulator(mem, &core.acc, &dst, negate);
    op.emu(r)
}

/// `nisa.dropout`: `prob` or a `[P, 1]` `prob_tile`.
pub fn dropout(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, data, tile) = (op.tile("dst")?, op.tile("data")?, op.opt_tile("prob_tile")?);
    let prob = match (&tile, op.opt_float("prob")?) {
        (Some(t), None) => DropProb::Tile(t),
        (None, Some(p)) => DropProb::Scalar(p),
        (Some(_), Some(_)) => {
            return Err(op.error("give either attribute 'prob' or operand 'prob_tile', not both"));
        }
        (None, None) => return Err(op.error("needs attribute 'prob' or operand 'prob_tile'")),
    };
    let (mem, core) = op.mem_core();
    let r = sundial_emu::dropout(mem, &mut core.rng, &dst, &data, prob);
    op.emu(r)
}

/// `nisa.rng`: raw random bits.
pub fn rng(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, engine) = (op.tile("dst")?, concrete_engine(op)?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::rng(mem, &mut core.rng, &dst, engine);
    op.emu(r)
}

/// `nisa.rand2`: uniform values in `[min, max)`.
pub fn rand2(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, engine) = (op.tile("dst")?, concrete_engine(op)?);
    let (min, max) = (op.float("min")?, op.float("max")?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::rand2(mem, &mut core.rng, &dst, min, max, engine);
    op.emu(r)
}

/// `nisa.set_rng_seed`.
pub fn set_rng_seed(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (seed, engine) = (op.tile("seed")?, concrete_engine(op)?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::set_rng_seed(mem, &mut core.rng, &seed, engine);
    op.emu(r)
}

/// `nisa.rand_set_state`.
pub fn rand_set_state(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (src, engine) = (op.tile("src")?, concrete_engine(op)?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::rand_set_state(mem, &mut core.rng, &src, engine);
    op.emu(r)
}

/// `nisa.rand_get_state`.
pub fn rand_get_state(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, engine) = (op.tile("dst")?, concrete_engine(op)?);
    let (mem, core) = op.mem_core();
    let r = sundial_emu::rand_get_state(mem, &core.rng, &dst, engine);
    op.emu(r)
}
