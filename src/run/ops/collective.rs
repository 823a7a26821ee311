//! Handlers of the collectives: one instruction of the whole rank group (`--ranks N`), run
//! once over every rank's memory through the emulator's `RankGroup` functions.
//!
//! Every rank executes the same ops, so an operand's tile is the same [`View`] on every rank
//! (the handler reads rank 0's); the collective reads each rank's own contents. Attributes
//! map one to one (`replica_group` as rank lists, `source_target_pairs` as pairs,
//! `channel_ids`); `reduce_scatter`'s `priority` is a scheduling hint with no effect on the
//! result. The register-producing ops (`rank_id`, `..._current_processing_rank_id`) give each
//! rank its own register.

use sundial_emu::{AllToAllV, View};

use super::super::RunError;
use super::super::exec::{Exec, RtValue};
use super::{alu, uint, uint_attr, uints};

fn refs(views: &[View]) -> Vec<&View> {
    views.iter().collect()
}

/// Attribute `replica_group` as rank lists.
fn replica_group(op: &Exec<'_, '_, '_>) -> Result<Vec<Vec<usize>>, RunError> {
    op.int_lists("replica_group")?
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|r| uint(op, "replica_group", r))
                .collect()
        })
        .collect()
}

/// `nisa.all_reduce`.
pub fn all_reduce(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, srcs) = (op.tiles("dsts")?, op.tiles("srcs")?);
    let (groups, alu) = (replica_group(op)?, alu(op, "op")?);
    let r = sundial_emu::all_reduce(op.group(), &refs(&dsts), &refs(&srcs), &groups, alu);
    op.emu(r)
}

/// `nisa.all_gather`.
pub fn all_gather(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, srcs) = (op.tiles("dsts")?, op.tiles("srcs")?);
    let (groups, dim) = (replica_group(op)?, uint_attr(op, "collective_dim")?);
    let r = sundial_emu::all_gather(op.group(), &refs(&dsts), &refs(&srcs), &groups, dim);
    op.emu(r)
}

/// `nisa.reduce_scatter`.
pub fn reduce_scatter(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, srcs) = (op.tiles("dsts")?, op.tiles("srcs")?);
    let (groups, dim) = (replica_group(op)?, uint_attr(op, "collective_dim")?);
    let alu = alu(op, "op")?;
    let r = sundial_emu::reduce_scatter(op.group(), &refs(&dsts), &refs(&srcs), &groups, dim, alu);
    op.emu(r)
}

/// `nisa.all_to_all`.
pub fn all_to_all(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, srcs) = (op.tiles("dsts")?, op.tiles("srcs")?);
    let (groups, dim) = (replica_group(op)?, uint_attr(op, "collective_dim")?);
    let r = sundial_emu::all_to_all(op.group(), &refs(&dsts), &refs(&srcs), &groups, dim);
    op.emu(r)
}

/// `nisa.all_to_all_v`.
pub fn all_to_all_v(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src, meta) = (op.tile("dst")?, op.tile("src")?, op.tile("metadata")?);
    let groups = replica_group(op)?;
    let opts = AllToAllV {
        recv_counts_known: op.flag("recv_counts_known")?,
        has_rdispls: op.flag("has_rdispls")?,
    };
    let r = sundial_emu::all_to_all_v(op.group(), &dst, &src, &meta, &groups, opts);
    op.emu(r)
}

/// `nisa.collective_permute`.
pub fn collective_permute(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dst, src) = (op.tile("dst")?, op.tile("src")?);
    let mut pairs = Vec::new();
    for p in op.int_lists("source_target_pairs")? {
        let [s, t] = p[..] else {
            return Err(op.error(format!(
                "attribute 'source_target_pairs': a pair has {} ranks, not 2",
                p.len()
            )));
        };
        pairs.push((
            uint(op, "source_target_pairs", s)?,
            uint(op, "source_target_pairs", t)?,
        ));
    }
    let r = sundial_emu::collective_permute(op.group(), &dst, &src, &pairs);
    op.emu(r)
}

/// `nisa.collective_permute_implicit`.
pub fn collective_permute_implicit(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, srcs) = (op.tiles("dsts")?, op.tiles("srcs")?);
    let (groups, channels) = (replica_group(op)?, uints(op, "channel_ids")?);
    let r = sundial_emu::collective_permute_implicit(
        op.group(),
        &refs(&dsts),
        &refs(&srcs),
        &groups,
        &channels,
    );
    op.emu(r)
}

/// `nisa.collective_permute_implicit_reduce`.
pub fn collective_permute_implicit_reduce(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (dsts, s0, s1) = (op.tiles("dsts")?, op.tiles("srcs0")?, op.tiles("srcs1")?);
    let (groups, channels) = (replica_group(op)?, uints(op, "channel_ids")?);
    let alu = alu(op, "op")?;
    let r = sundial_emu::collective_permute_implicit_reduce(
        op.group(),
        &refs(&dsts),
        &refs(&s0),
        &refs(&s1),
        &groups,
        alu,
        &channels,
    );
    op.emu(r)
}

/// Binds result 0 on every rank to a new register holding `value(rank)`.
fn per_rank_register(
    op: &mut Exec<'_, '_, '_>,
    mut value: impl FnMut(&mut Exec<'_, '_, '_>, usize) -> Result<i64, RunError>,
) -> Result<(), RunError> {
    let ranks = op.machine().ranks();
    for r in 0..ranks {
        op.set_rank(r);
        let v = value(op, r)?;
        let (_, core) = op.mem_core();
        let id = core.regs.register_alloc(Some(v));
        let id = op.emu(id)?;
        op.set_result(0, RtValue::Reg(id))?;
    }
    op.set_rank(0);
    Ok(())
}

/// `nisa.collective_permute_implicit_current_processing_rank_id`: per rank, from its
/// `iteration_id` register.
pub fn current_processing_rank_id(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let groups = replica_group(op)?;
    let (channel, channels) = (uint_attr(op, "channel_id")?, uint_attr(op, "num_channels")?);
    let n = op.machine().ranks();
    per_rank_register(op, |op, r| {
        let iteration = op.reg("iteration_id")?;
        let v =
            sundial_emu::current_processing_rank_id(n, &groups, r, iteration, channel, channels);
        op.emu(v)
    })
}

/// `nisa.rank_id`: each rank's own id in a register.
pub fn rank_id(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    per_rank_register(op, |op, r| {
        let v = sundial_emu::rank_id(op.group(), r);
        op.emu(v)
    })
}

/// `nisa.rank_id_store`: each rank's id into its `dst`.
pub fn rank_id_store(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let dst = op.tile("dst")?;
    let r = sundial_emu::rank_id_store(op.group(), &dst);
    op.emu(r)
}
