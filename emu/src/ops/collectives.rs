//! Collectives over a simulated rank group, in one process: NKI `nki.collectives.*`
//! (`all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all`, `all_to_all_v`,
//! `collective_permute`, `collective_permute_implicit`,
//! `collective_permute_implicit_reduce`, `collective_permute_implicit_current_processing_rank_id`,
//! `rank_id`), the NISA `rank_id_store`, and `nki.isa.sendrecv` (the NISA `send_recv`).
//!
//! A [`RankGroup`] holds one [`Memory`] per rank. A collective is one SPMD instruction, so
//! one call runs it on every rank: each operand is one [`View`] naming the same tensor on
//! every rank (allocate it with [`RankGroup::alloc_hbm`] / [`RankGroup::alloc_sbuf_named`],
//! which give it the same allocation id everywhere; an allocation that differs between
//! ranks is refused). Every source of every rank is read before anything is written, so
//! a failing collective writes nothing and `src` may be `dst`.
//!
//! Semantics restated from the public docstrings:
//!
//! - A replica group is a list of disjoint rank lists; each list runs the collective
//!   among its members, in list order ("position" below). Ranks in no list are untouched.
//! - **all_reduce**: every member's `dsts[t]` = `op` over the members' `srcs[t]`
//!   (`op` = add, min or max).
//! - **all_gather**: every member's `dsts[t]` = the members' `srcs[t]` concatenated along
//!   `collective_dim` in position order (0 for HBM; 0 or 1 for 2-D SBUF tensors).
//! - **reduce_scatter**: `srcs[t]` splits into as many equal chunks along dimension 0 as
//!   there are members; the member at position `j` receives `op` over chunk `j` of every
//!   member.
//! - **all_to_all** (HBM): chunk `j` of member `i`'s source becomes chunk `i` of member
//!   `j`'s destination (dimension 0).
//! - **all_to_all_v** (HBM, one tensor each): flat element buffers driven by a `uint32`
//!   metadata tensor `(rows, G)` in HBM or `(1, rows, G)` in SBUF, `rows` 3 or 4. Row 0
//!   `send_counts[j]`, row 1 `send_displs[j]`: what goes to position `j`; row 3
//!   `recv_displs[i]` (with `has_rdispls`): where the chunk from position `i` lands, else
//!   `i * (dst elements / G)`. Row 2 is never read; unless `recv_counts_known`, it receives
//!   the counts received. Chunks outside a buffer are refused, as are overlapping receives
//!   (their result is not public).
//! - **collective_permute** (HBM): for each `(source, target)` pair the target's `dst`
//!   receives the source's `src`; a rank may be a target once.
//! - **collective_permute_implicit**: a ring per rank list; each member sends to its
//!   successor and receives its predecessor's `srcs[c]` into `dsts[c]` (channel `c`).
//!   `..._reduce` sends `op(srcs0[c], srcs1[c])` instead.
//! - **..._current_processing_rank_id**: at iteration `k`, the rank `k` steps back along
//!   the ring (iteration 0 is the rank itself).
//! - **rank_id**: the rank; **rank_id_store** writes it into a one-element tile.
//! - **sendrecv** (v3+, LNC2: a group of two ranks): rank `r` sends `src` into `dst` of its
//!   `send_to_rank` and receives from its `recv_from_rank`; the pairs must agree. Both in
//!   SBUF with the same dtype and shape; with the GpSimd DMA at most 1024 / 512 / 256 bytes
//!   per partition for 32- / 16- / 8-bit types.
//!
//! Our choices where the docs are silent: source and destination dtypes must be equal (no
//! conversion is specified); float reductions accumulate in fp32 in position order and
//! round once to the dtype; integer ones are exact and wrap to the dtype's width (the
//! operators' fp32 and integer semantics are the ALU table's, `alu.rs`; on equal values,
//! `+0` vs `-0`, the earlier position wins); min/max of NaN is refused; every channel of an implicit permute uses the same ring direction.

use super::alu::alu_row;
use super::layout::part_free;
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::Target;
use crate::view::View;
use sundial_codegen::enums::BirAluOp;

/// Most ranks a [`RankGroup`] holds (each rank is a whole memory).
pub const MAX_RANKS: usize = 256;
/// Most channels of an implicit permute.
pub const MAX_CHANNELS: usize = 4;

/// N ranks, one [`Memory`] each.
#[derive(Debug)]
pub struct RankGroup {
    ranks: Vec<Memory>,
}

const OP_GROUP: &str = "rank_group";

impl RankGroup {
    /// `n` empty ranks of `target` (`1 <= n <= MAX_RANKS`).
    pub fn new(target: Target, n: usize) -> Result<RankGroup> {
        if n == 0 || n > MAX_RANKS {
            return Err(EmuError::collective(
                OP_GROUP,
                format!("a rank group has 1..={MAX_RANKS} ranks, not {n}"),
            ));
        }
        Ok(RankGroup {
            ranks: (0..n).map(|_| Memory::new(target)).collect(),
        })
    }

    /// `n` empty ranks of a logical machine of `target` with at least `partitions` on-chip
    /// partitions each ([`Memory::logical`]).
    pub fn logical(target: Target, n: usize, partitions: usize) -> Result<RankGroup> {
        let mut group = RankGroup::new(target, n)?;
        for m in &mut group.ranks {
            *m = Memory::logical(target, partitions)?;
        }
        Ok(group)
    }

    /// Number of ranks.
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    /// Always false: a group has at least one rank.
    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// The memory of rank `r`.
    pub fn rank(&self, r: usize) -> Result<&Memory> {
        let n = self.ranks.len();
        self.ranks
            .get(r)
            .ok_or_else(|| EmuError::collective(OP_GROUP, format!("no rank {r} of {n}")))
    }

    /// The memory of rank `r`, mutably (per-rank setup and per-rank ops).
    pub fn rank_mut(&mut self, r: usize) -> Result<&mut Memory> {
        let n = self.ranks.len();
        self.ranks
            .get_mut(r)
            .ok_or_else(|| EmuError::collective(OP_GROUP, format!("no rank {r} of {n}")))
    }

    /// Every rank's memory, in rank order (per-rank setup and per-rank ops).
    pub fn memories_mut(&mut self) -> &mut [Memory] {
        &mut self.ranks
    }

    /// Every rank's memory, in rank order.
    pub fn memories(&self) -> &[Memory] {
        &self.ranks
    }

    /// The same HBM tensor on every rank (one view valid on all).
    pub fn alloc_hbm(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        self.alloc_everywhere(|m| m.alloc_hbm(name, dtype, shape))
    }

    /// The same SBUF tile on every rank (one view valid on all).
    pub fn alloc_sbuf_named(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        self.alloc_everywhere(|m| m.alloc_sbuf_named(name, dtype, shape))
    }

    /// Turns the uninitialised-read check on or off on every rank.
    pub fn set_check_uninit(&mut self, on: bool) -> Result<()> {
        self.ranks
            .iter_mut()
            .try_for_each(|m| m.set_check_uninit(on))
    }

    fn alloc_everywhere(&mut self, mut f: impl FnMut(&mut Memory) -> Result<View>) -> Result<View> {
        let mut first: Option<View> = None;
        for m in &mut self.ranks {
            let v = f(m)?;
            match &first {
                None => first = Some(v),
                Some(f0) if *f0 == v => {}
                Some(_) => {
                    return Err(EmuError::collective(
                        OP_GROUP,
                        "the ranks' allocations have diverged; a shared tensor needs the same \
                         allocation on every rank",
                    ));
                }
            }
        }
        first.ok_or_else(|| EmuError::collective(OP_GROUP, "no ranks"))
    }

    /// Checks that `v` names the same allocation (name, space, size) on every rank.
    fn space_of(&self, op: &'static str, what: &str, v: &View) -> Result<MemSpace> {
        let m0 = &self.ranks[0];
        let (name, space, len) = (
            m0.name(v.alloc())?,
            m0.space(v.alloc())?,
            m0.bytes(v.alloc())?.len(),
        );
        for (r, m) in self.ranks.iter().enumerate().skip(1) {
            let same = m.name(v.alloc()).ok() == Some(name)
                && m.space(v.alloc()).ok() == Some(space)
                && m.bytes(v.alloc()).map(<[u8]>::len).ok() == Some(len);
            if !same {
                return Err(EmuError::collective(
                    op,
                    format!("{what} is not the same tensor on rank {r} as on rank 0"),
                ));
            }
        }
        Ok(space)
    }
}

/// Validates a replica group against `n` ranks: non-empty, disjoint lists of ranks `< n`.
fn replica_lists(op: &'static str, n: usize, groups: &[Vec<usize>]) -> Result<()> {
    if groups.is_empty() {
        return Err(EmuError::collective(op, "an empty replica group"));
    }
    let mut seen = vec![false; n];
    for g in groups {
        if g.is_empty() {
            return Err(EmuError::collective(
                op,
                "a replica group with an empty rank list",
            ));
        }
        for &r in g {
            if r >= n {
                return Err(EmuError::collective(
                    op,
                    format!("rank {r} in the replica group, but the group has {n} ranks"),
                ));
            }
            if std::mem::replace(&mut seen[r], true) {
                return Err(EmuError::collective(
                    op,
                    format!("rank {r} appears twice in the replica group"),
                ));
            }
        }
    }
    Ok(())
}

/// The reduction of a collective: add, min or max.
fn check_reduce(op: &'static str, alu: BirAluOp) -> Result<()> {
    match alu {
        BirAluOp::Add | BirAluOp::Min | BirAluOp::Max => Ok(()),
        other => Err(EmuError::unsupported(
            op,
            format!(
                "collectives reduce with add, min or max, not {}",
                other.name()
            ),
        )),
    }
}

/// Elementwise `alu` over the rows of `inputs` (one bit vector per member, position
/// order), with the ALU table's fp32 or exact integer semantics of the operator (the
/// accumulator is the left operand, so on equal values the earlier position wins).
fn reduce_bits(op: &'static str, alu: BirAluOp, d: DType, inputs: &[Vec<u64>]) -> Result<Vec<u64>> {
    let row = alu_row(alu);
    let n = inputs.first().map_or(0, Vec::len);
    let mut out = Vec::with_capacity(n);
    if d.is_float() && !d.is_x4() {
        let nan_refused = || {
            EmuError::unsupported(
                op,
                "min/max of NaN: the collective's NaN rule is not public",
            )
        };
        for e in 0..n {
            let mut acc = d.to_f32(inputs[0][e]).unwrap_or(f32::NAN);
            if alu != BirAluOp::Add && acc.is_nan() {
                return Err(nan_refused());
            }
            for inp in &inputs[1..] {
                let x = d.to_f32(inp[e]).unwrap_or(f32::NAN);
                if alu != BirAluOp::Add && x.is_nan() {
                    return Err(nan_refused());
                }
                acc = row.apply_f32(acc, x);
            }
            out.push(d.from_f32(acc).unwrap_or(0));
        }
    } else if d.is_integer() {
        let val = |b: u64| -> i128 {
            if d.is_signed_integer() {
                i128::from(d.to_i64(b).unwrap_or(0))
            } else {
                i128::from(b)
            }
        };
        for e in 0..n {
            let mut acc = val(inputs[0][e]);
            for inp in &inputs[1..] {
                acc = row.apply_int(acc, val(inp[e]));
            }
            // Truncating to the dtype's width wraps the exact result.
            out.push(d.from_i64(acc as i64).unwrap_or(0));
        }
    } else {
        return Err(EmuError::dtype(op, format!("cannot reduce {d} values")));
    }
    Ok(out)
}

/// Common operand rules: paired lists, equal dtypes, one space for all, no PSUM, no
/// coalescing in SBUF (and no SBUF at all when `hbm_only`).
fn check_pairs(
    group: &RankGroup,
    op: &'static str,
    dsts: &[&View],
    srcs: &[&View],
    hbm_only: bool,
) -> Result<MemSpace> {
    if dsts.is_empty() || dsts.len() != srcs.len() {
        return Err(EmuError::collective(
            op,
            format!("{} destinations for {} sources", dsts.len(), srcs.len()),
        ));
    }
    let mut space = None;
    for (t, (d, s)) in dsts.iter().zip(srcs).enumerate() {
        if d.dtype() != s.dtype() {
            return Err(EmuError::dtype(
                op,
                format!("tensor {t}: dst is {} but src is {}", d.dtype(), s.dtype()),
            ));
        }
        for (what, v) in [("dst", d), ("src", s)] {
            let sp = group.space_of(op, what, v)?;
            if sp == MemSpace::Psum || (hbm_only && sp != MemSpace::Hbm) {
                return Err(EmuError::memory(
                    op,
                    format!(
                        "tensor {t}'s {what} is in {sp:?}; this collective needs HBM{}",
                        if hbm_only { "" } else { " or SBUF" }
                    ),
                ));
            }
            if *space.get_or_insert(sp) != sp {
                return Err(EmuError::memory(
                    op,
                    "all tensors of a collective must be in HBM or all in SBUF",
                ));
            }
        }
    }
    let space = space.unwrap_or(MemSpace::Hbm);
    if space == MemSpace::Sbuf && dsts.len() > 1 {
        return Err(EmuError::unsupported(
            op,
            "coalesced collectives (several tensors) need HBM tensors",
        ));
    }
    Ok(space)
}

/// Reads `v` on every rank of `ranks`.
fn read_on(
    group: &RankGroup,
    op: &'static str,
    ranks: &[usize],
    v: &View,
) -> Result<Vec<Vec<u64>>> {
    ranks
        .iter()
        .map(|&r| group.ranks[r].read_bits_for(op, v))
        .collect()
}

/// One pending write: rank, view, bits.
type Write = (usize, View, Vec<u64>);

fn commit(group: &mut RankGroup, op: &'static str, writes: Vec<Write>) -> Result<()> {
    for (r, v, bits) in writes {
        group.ranks[r].write_bits_for(op, &v, &bits)?;
    }
    Ok(())
}

const OP_ALL_REDUCE: &str = "all_reduce";
const OP_ALL_GATHER: &str = "all_gather";
const OP_REDUCE_SCATTER: &str = "reduce_scatter";
const OP_ALL_TO_ALL: &str = "all_to_all";
const OP_ALL_TO_ALL_V: &str = "all_to_all_v";
const OP_PERMUTE: &str = "collective_permute";
const OP_IMPLICIT: &str = "collective_permute_implicit";
const OP_IMPLICIT_REDUCE: &str = "collective_permute_implicit_reduce";
const OP_CURRENT: &str = "collective_permute_implicit_current_processing_rank_id";
const OP_RANK_ID: &str = "rank_id";
const OP_RANK_ID_STORE: &str = "rank_id_store";
const OP_SENDRECV: &str = "send_recv";

/// `all_reduce`: see the module doc.
pub fn all_reduce(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs: &[&View],
    replica_group: &[Vec<usize>],
    op: BirAluOp,
) -> Result<()> {
    const OP: &str = OP_ALL_REDUCE;
    check_reduce(OP, op)?;
    replica_lists(OP, group.len(), replica_group)?;
    check_pairs(group, OP, dsts, srcs, false)?;
    for (d, s) in dsts.iter().zip(srcs) {
        if d.num_elements() != s.num_elements() {
            return Err(EmuError::shape(
                OP,
                format!(
                    "dst has {} elements but src {}",
                    d.num_elements(),
                    s.num_elements()
                ),
            ));
        }
    }
    let mut writes = Vec::new();
    for members in replica_group {
        for (d, s) in dsts.iter().zip(srcs) {
            let reduced = reduce_bits(OP, op, s.dtype(), &read_on(group, OP, members, s)?)?;
            writes.extend(members.iter().map(|&r| (r, (*d).clone(), reduced.clone())));
        }
    }
    commit(group, OP, writes)
}

/// `all_gather`: see the module doc.
pub fn all_gather(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs: &[&View],
    replica_group: &[Vec<usize>],
    collective_dim: usize,
) -> Result<()> {
    const OP: &str = OP_ALL_GATHER;
    replica_lists(OP, group.len(), replica_group)?;
    let space = check_pairs(group, OP, dsts, srcs, false)?;
    let dim_ok = match space {
        MemSpace::Sbuf => collective_dim <= 1 && dsts.iter().chain(srcs).all(|v| v.rank() == 2),
        _ => collective_dim == 0,
    };
    if !dim_ok {
        return Err(EmuError::unsupported(
            OP,
            format!(
                "collective_dim {collective_dim}: HBM tensors gather along 0, 2-D SBUF tensors \
                 along 0 or 1"
            ),
        ));
    }
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        for (d, s) in dsts.iter().zip(srcs) {
            let chunks = chunks_of(OP, d, s, collective_dim, g)?;
            for (i, &from) in members.iter().enumerate() {
                let bits = group.ranks[from].read_bits_for(OP, s)?;
                for &to in members {
                    writes.push((to, chunks[i].clone(), bits.clone()));
                }
            }
        }
    }
    commit(group, OP, writes)
}

/// The `g` chunks of `whole` along `dim`, each shaped like `part`.
fn chunks_of(
    op: &'static str,
    whole: &View,
    part: &View,
    dim: usize,
    g: usize,
) -> Result<Vec<View>> {
    let len = part.shape().get(dim).copied().unwrap_or(0);
    let mut want = part.shape().to_vec();
    if dim >= want.len() {
        return Err(EmuError::shape(
            op,
            format!("dimension {dim} of a rank-{} tensor", want.len()),
        ));
    }
    want[dim] = len * g;
    if whole.shape() != want.as_slice() {
        return Err(EmuError::shape(
            op,
            format!(
                "{g} chunks of {:?} along dimension {dim} make {want:?}, not {:?}",
                part.shape(),
                whole.shape()
            ),
        ));
    }
    (0..g).map(|i| whole.slice(dim, i * len, len, 1)).collect()
}

/// `reduce_scatter`: see the module doc.
pub fn reduce_scatter(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs: &[&View],
    replica_group: &[Vec<usize>],
    collective_dim: usize,
    op: BirAluOp,
) -> Result<()> {
    const OP: &str = OP_REDUCE_SCATTER;
    check_reduce(OP, op)?;
    replica_lists(OP, group.len(), replica_group)?;
    check_pairs(group, OP, dsts, srcs, false)?;
    if collective_dim != 0 {
        return Err(EmuError::unsupported(
            OP,
            format!("collective_dim {collective_dim}: reduce_scatter splits along 0"),
        ));
    }
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        for (d, s) in dsts.iter().zip(srcs) {
            let chunks = chunks_of(OP, s, d, 0, g)?;
            for (j, &to) in members.iter().enumerate() {
                let inputs = read_on(group, OP, members, &chunks[j])?;
                writes.push((to, (*d).clone(), reduce_bits(OP, op, s.dtype(), &inputs)?));
            }
        }
    }
    commit(group, OP, writes)
}

/// `all_to_all`: see the module doc.
pub fn all_to_all(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs: &[&View],
    replica_group: &[Vec<usize>],
    collective_dim: usize,
) -> Result<()> {
    const OP: &str = OP_ALL_TO_ALL;
    replica_lists(OP, group.len(), replica_group)?;
    check_pairs(group, OP, dsts, srcs, true)?;
    if collective_dim != 0 {
        return Err(EmuError::unsupported(
            OP,
            format!("collective_dim {collective_dim}: all_to_all splits along 0"),
        ));
    }
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        for (d, s) in dsts.iter().zip(srcs) {
            if d.shape() != s.shape() || s.shape().first().is_none_or(|&e| !e.is_multiple_of(g)) {
                return Err(EmuError::shape(
                    OP,
                    format!(
                        "src {:?} and dst {:?} must have one shape whose dimension 0 splits into {g}",
                        s.shape(),
                        d.shape()
                    ),
                ));
            }
            let len = s.shape()[0] / g;
            for (i, &from) in members.iter().enumerate() {
                for (j, &to) in members.iter().enumerate() {
                    let bits =
                        group.ranks[from].read_bits_for(OP, &s.slice(0, j * len, len, 1)?)?;
                    writes.push((to, d.slice(0, i * len, len, 1)?, bits));
                }
            }
        }
    }
    commit(group, OP, writes)
}

/// Options of `all_to_all_v`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllToAllV {
    /// Row 2 of the metadata is left untouched (not written with the received counts).
    pub recv_counts_known: bool,
    /// The metadata has row 3, the receive displacements.
    pub has_rdispls: bool,
}

/// `all_to_all_v`: see the module doc.
pub fn all_to_all_v(
    group: &mut RankGroup,
    dst: &View,
    src: &View,
    metadata: &View,
    replica_group: &[Vec<usize>],
    opts: AllToAllV,
) -> Result<()> {
    const OP: &str = OP_ALL_TO_ALL_V;
    replica_lists(OP, group.len(), replica_group)?;
    check_pairs(group, OP, &[dst], &[src], true)?;
    let meta_space = group.space_of(OP, "metadata", metadata)?;
    if metadata.dtype() != DType::U32 {
        return Err(EmuError::dtype(
            OP,
            format!("the metadata must be uint32, not {}", metadata.dtype()),
        ));
    }
    let rows = if opts.has_rdispls { 4 } else { 3 };
    let (n_src, n_dst) = (src.num_elements(), dst.num_elements());
    let flat_src = src.reshape(vec![n_src])?;
    let flat_dst = dst.reshape(vec![n_dst])?;
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        let meta_rows = match meta_space {
            MemSpace::Hbm if metadata.shape() == [rows, g] => metadata.clone(),
            MemSpace::Sbuf if metadata.shape() == [1, rows, g] => metadata.select(0, 0)?,
            _ => {
                return Err(EmuError::shape(
                    OP,
                    format!(
                        "the metadata must be [{rows}, {g}] in HBM or [1, {rows}, {g}] in SBUF, \
                         not {:?} in {meta_space:?}",
                        metadata.shape()
                    ),
                ));
            }
        };
        // Per member: send counts, send displacements, receive displacements.
        let mut meta = Vec::with_capacity(g);
        for &r in members {
            let row = |k: usize| -> Result<Vec<usize>> {
                Ok(group.ranks[r]
                    .read_bits_for(OP, &meta_rows.select(0, k)?)?
                    .into_iter()
                    .map(|b| b as usize)
                    .collect())
            };
            let recv = if opts.has_rdispls {
                row(3)?
            } else {
                (0..g).map(|i| i * (n_dst / g)).collect()
            };
            meta.push((row(0)?, row(1)?, recv));
        }
        for (j, &to) in members.iter().enumerate() {
            let mut placed: Vec<(usize, usize)> = Vec::with_capacity(g);
            let mut counts = Vec::with_capacity(g);
            for (i, &from) in members.iter().enumerate() {
                let (count, from_at, to_at) = (meta[i].0[j], meta[i].1[j], meta[j].2[i]);
                if from_at.checked_add(count).is_none_or(|e| e > n_src)
                    || to_at.checked_add(count).is_none_or(|e| e > n_dst)
                {
                    return Err(EmuError::shape(
                        OP,
                        format!(
                            "rank {from} sends {count} elements from {from_at} (of {n_src}) to \
                             rank {to} at {to_at} (of {n_dst})"
                        ),
                    ));
                }
                if count > 0 {
                    if let Some(&(a, b)) = placed
                        .iter()
                        .find(|&&(a, b)| to_at < b && a < to_at + count)
                    {
                        return Err(EmuError::unsupported(
                            OP,
                            format!(
                                "rank {to} receives overlapping chunks ({a}..{b} and {to_at}..{}): \
                                 the result is not public",
                                to_at + count
                            ),
                        ));
                    }
                    placed.push((to_at, to_at + count));
                    let bits = group.ranks[from]
                        .read_bits_for(OP, &flat_src.slice(0, from_at, count, 1)?)?;
                    writes.push((to, flat_dst.slice(0, to_at, count, 1)?, bits));
                }
                counts.push(count as u64);
            }
            if !opts.recv_counts_known {
                writes.push((to, meta_rows.select(0, 2)?, counts));
            }
        }
    }
    commit(group, OP, writes)
}

/// `collective_permute`: for each `(source, target)`, the target's `dst` receives the
/// source's `src`.
pub fn collective_permute(
    group: &mut RankGroup,
    dst: &View,
    src: &View,
    source_target_pairs: &[(usize, usize)],
) -> Result<()> {
    const OP: &str = OP_PERMUTE;
    check_pairs(group, OP, &[dst], &[src], true)?;
    same_shape(OP, dst, src)?;
    let n = group.len();
    let mut targeted = vec![false; n];
    let mut writes = Vec::new();
    for &(s, t) in source_target_pairs {
        if s >= n || t >= n {
            return Err(EmuError::collective(
                OP,
                format!("pair ({s}, {t}) names a rank outside 0..{n}"),
            ));
        }
        if std::mem::replace(&mut targeted[t], true) {
            return Err(EmuError::collective(
                OP,
                format!("rank {t} is the target of two pairs"),
            ));
        }
        writes.push((t, dst.clone(), group.ranks[s].read_bits_for(OP, src)?));
    }
    commit(group, OP, writes)
}

fn same_shape(op: &'static str, dst: &View, src: &View) -> Result<()> {
    if dst.shape() != src.shape() {
        return Err(EmuError::shape(
            op,
            format!(
                "dst {:?} and src {:?} must have the same shape",
                dst.shape(),
                src.shape()
            ),
        ));
    }
    Ok(())
}

fn check_channels(op: &'static str, n: usize, channel_ids: &[usize]) -> Result<()> {
    if n == 0
        || n > MAX_CHANNELS
        || channel_ids.len() != n
        || channel_ids.iter().enumerate().any(|(i, &c)| c != i)
    {
        return Err(EmuError::collective(
            op,
            format!(
                "{n} channels with channel_ids {channel_ids:?}: 1..={MAX_CHANNELS} channels, ids 0, 1, .."
            ),
        ));
    }
    Ok(())
}

/// `collective_permute_implicit`: a ring permute per rank list, one tensor per channel.
pub fn collective_permute_implicit(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs: &[&View],
    replica_group: &[Vec<usize>],
    channel_ids: &[usize],
) -> Result<()> {
    const OP: &str = OP_IMPLICIT;
    replica_lists(OP, group.len(), replica_group)?;
    check_channels(OP, dsts.len(), channel_ids)?;
    check_ring_tensors(group, OP, dsts, &[srcs])?;
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        for (d, s) in dsts.iter().zip(srcs) {
            for (i, &to) in members.iter().enumerate() {
                let from = members[(i + g - 1) % g];
                writes.push((to, (*d).clone(), group.ranks[from].read_bits_for(OP, s)?));
            }
        }
    }
    commit(group, OP, writes)
}

/// `collective_permute_implicit_reduce`: each member sends `op(srcs0[c], srcs1[c])` to its
/// successor.
pub fn collective_permute_implicit_reduce(
    group: &mut RankGroup,
    dsts: &[&View],
    srcs0: &[&View],
    srcs1: &[&View],
    replica_group: &[Vec<usize>],
    op: BirAluOp,
    channel_ids: &[usize],
) -> Result<()> {
    const OP: &str = OP_IMPLICIT_REDUCE;
    check_reduce(OP, op)?;
    replica_lists(OP, group.len(), replica_group)?;
    check_channels(OP, dsts.len(), channel_ids)?;
    check_ring_tensors(group, OP, dsts, &[srcs0, srcs1])?;
    let mut writes = Vec::new();
    for members in replica_group {
        let g = members.len();
        for ((d, a), b) in dsts.iter().zip(srcs0).zip(srcs1) {
            for (i, &to) in members.iter().enumerate() {
                let from = members[(i + g - 1) % g];
                let m = &group.ranks[from];
                let inputs = [m.read_bits_for(OP, a)?, m.read_bits_for(OP, b)?];
                writes.push((to, (*d).clone(), reduce_bits(OP, op, a.dtype(), &inputs)?));
            }
        }
    }
    commit(group, OP, writes)
}

fn check_ring_tensors(
    group: &RankGroup,
    op: &'static str,
    dsts: &[&View],
    sources: &[&[&View]],
) -> Result<()> {
    for srcs in sources {
        if srcs.len() != dsts.len() {
            return Err(EmuError::collective(
                op,
                format!("{} destinations for {} sources", dsts.len(), srcs.len()),
            ));
        }
        // Each channel is its own tensor (not a coalesced list), so SBUF is fine per channel.
        for (d, s) in dsts.iter().zip(srcs.iter()) {
            check_pairs(group, op, &[d], &[s], false)?;
            same_shape(op, d, s)?;
        }
    }
    Ok(())
}

/// `collective_permute_implicit_current_processing_rank_id`: the rank whose data `rank`
/// processes at ring iteration `iteration` (0: its own).
pub fn current_processing_rank_id(
    group_len: usize,
    replica_group: &[Vec<usize>],
    rank: usize,
    iteration: i64,
    channel_id: usize,
    num_channels: usize,
) -> Result<i64> {
    const OP: &str = OP_CURRENT;
    replica_lists(OP, group_len, replica_group)?;
    if num_channels == 0 || num_channels > MAX_CHANNELS || channel_id >= num_channels {
        return Err(EmuError::collective(
            OP,
            format!("channel {channel_id} of {num_channels} (1..={MAX_CHANNELS} channels)"),
        ));
    }
    let members = replica_group
        .iter()
        .find(|g| g.contains(&rank))
        .ok_or_else(|| EmuError::collective(OP, format!("rank {rank} is in no rank list")))?;
    let g = members.len() as i64;
    let pos = members.iter().position(|&r| r == rank).unwrap_or(0) as i64;
    Ok(members[(pos - iteration).rem_euclid(g) as usize] as i64)
}

/// `rank_id`: the rank's id in the group.
pub fn rank_id(group: &RankGroup, rank: usize) -> Result<i64> {
    group.rank(rank).map_err(|_| {
        EmuError::collective(OP_RANK_ID, format!("no rank {rank} of {}", group.len()))
    })?;
    Ok(rank as i64)
}

/// `rank_id_store`: every rank writes its id into the one-element SBUF tile `dst`.
pub fn rank_id_store(group: &mut RankGroup, dst: &View) -> Result<()> {
    const OP: &str = OP_RANK_ID_STORE;
    if group.space_of(OP, "dst", dst)? != MemSpace::Sbuf {
        return Err(EmuError::memory(OP, "dst must be in SBUF"));
    }
    if !matches!(dst.dtype(), DType::I32 | DType::U32) || dst.num_elements() != 1 {
        return Err(EmuError::shape(
            OP,
            format!(
                "dst must be one int32/uint32 element, not {:?} {}",
                dst.shape(),
                dst.dtype()
            ),
        ));
    }
    for (r, m) in group.ranks.iter_mut().enumerate() {
        m.write_i64_for(OP, dst, &[r as i64])?;
    }
    Ok(())
}

/// `sendrecv` (NISA `send_recv`): `peers[r] = (send_to_rank, recv_from_rank)` of rank `r`
/// in a group of two (LNC2).
pub fn send_recv(
    group: &mut RankGroup,
    dst: &View,
    src: &View,
    peers: &[(usize, usize)],
    gpsimd_dma: bool,
) -> Result<()> {
    const OP: &str = OP_SENDRECV;
    if group.ranks[0].target() == Target::Sunda {
        return Err(EmuError::unsupported(
            OP,
            "sendrecv needs NeuronCore v3 or newer",
        ));
    }
    if group.len() != 2 || peers.len() != 2 {
        return Err(EmuError::collective(
            OP,
            format!(
                "sendrecv runs between the two cores of an LNC2 pair: {} ranks, {} peer entries",
                group.len(),
                peers.len()
            ),
        ));
    }
    for (what, v) in [("dst", dst), ("src", src)] {
        if group.space_of(OP, what, v)? != MemSpace::Sbuf {
            return Err(EmuError::memory(OP, format!("{what} must be in SBUF")));
        }
    }
    if dst.dtype() != src.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!("dst is {} but src is {}", dst.dtype(), src.dtype()),
        ));
    }
    same_shape(OP, dst, src)?;
    if gpsimd_dma {
        let (_, f) = part_free(OP, "src", src)?;
        let es = src.dtype().size();
        let limit = match es {
            1 => 256,
            2 => 512,
            _ => 1024,
        };
        if f * es > limit {
            return Err(EmuError::shape(
                OP,
                format!(
                    "the GpSimd DMA moves at most {limit} bytes per partition of {}, not {}",
                    src.dtype(),
                    f * es
                ),
            ));
        }
    }
    for (r, &(to, from)) in peers.iter().enumerate() {
        if to > 1 || from > 1 {
            return Err(EmuError::collective(
                OP,
                format!("rank {r}: send_to_rank {to} / recv_from_rank {from} must be 0 or 1"),
            ));
        }
        if peers[to].1 != r {
            return Err(EmuError::collective(
                OP,
                format!(
                    "rank {r} sends to rank {to}, which receives from rank {}",
                    peers[to].1
                ),
            ));
        }
    }
    let mut writes = Vec::new();
    for (r, &(to, _)) in peers.iter().enumerate() {
        writes.push((to, dst.clone(), group.ranks[r].read_bits_for(OP, src)?));
    }
    commit(group, OP, writes)
}
