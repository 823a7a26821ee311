//! Data-movement op semantics built on the access engine.
//!
//! Every op here is "read an access into a tile, optionally convert, write the tile
//! through another access", expressed with [`Access`]es and run by [`transfer`]:
//!
//! 1. all accesses of the op are validated and all their offsets computed (index
//!    values are read here), so any error is raised before a byte is written: in
//!    `oob_mode = error` the destination is untouched;
//! 2. all sources are read into tiles through [`Memory::read_list`] (the data primitive
//!    [`crate::data::read`] plus the uninitialised-read check);
//! 3. the tiles are converted (via `f32` when the dtypes differ, the DMA rule) and
//!    written through [`Memory::write_list`] ([`crate::data::write`], replace or accumulate in
//!    `f32`, plus the written-shadow).
//!
//! A single-part copy with equal dtypes between two different allocations is not staged:
//! into a contiguous, in-bounds destination it reads straight into the destination bytes,
//! otherwise it copies run to run ([`crate::data::copy`]). Speed shortcuts with the same
//! result: with two allocations no write of the op can be seen by its reads, so the staged
//! tile would hold exactly what is copied.
//!
//! | module | op | public doc it restates |
//! |---|---|---|
//! | [`dma_copy`] | `dma_copy` (DMAMEMCPY) | `nki.isa.dma_copy` |
//! | [`dma_copy_indirect`] | `dma_copy_indirect`, GenericIndirectLoad/Save | `.ap(vector_offset=…)`, `scalar_offset` |
//! | [`gather`] | `gather` (nc_n_gather) | `nki.isa.nc_n_gather` |
//! | [`indirect_copy`] | `indirect_copy` (local_gather) | `nki.isa.local_gather` |
//! | [`indirect_save_accumulate`] | IndirectSaveAccumulate | scatter-add, DMA RMW rule |
//! | [`dma_compute`] | `dma_compute` (add) | `nki.isa.dma_compute` |
//!
//! Compute ops (on-chip tiles, fp32 math, the numerics table in [`crate::dtype`]):
//!
//! | module | ops | public doc it restates |
//! |---|---|---|
//! | [`alu`] | the ALU operator table | `nki-aluop` (Supported Math Operators for NKI ISA) |
//! | [`tile`] | operand checks, tile reads/writes, scalar operands, [`tile::Engine`] | the common tile rules |
//! | [`accumulator`] | Vector/Scalar accumulators, `reduce_cmd`, `dve_read_accumulator`, `activation_read_accumulator` | `nki.isa.reduce_cmd`, `nki.isa.activation` |
//! | [`tensor_tensor`] | `tensor_tensor_arith`, `tensor_tensor_bitvec`, `tensor_tensor_power` | `nki.isa.tensor_tensor` |
//! | [`tensor_scalar`] | `tensor_scalar_arith`, `tensor_scalar_bitvec`, `tensor_scalar_addr` | `nki.isa.tensor_scalar` |
//! | [`scalar_tensor_tensor`] | `scalar_tensor_tensor_arith` | `nki.isa.scalar_tensor_tensor` |
//! | [`tensor_scalar_reduce`] | `tensor_scalar_cache_reduce` | `nki.isa.tensor_scalar_reduce` |
//! | [`scan`] | `tensor_scalar_cache_cumulative`, `tensor_tensor_scan` | `nki.isa.tensor_scalar_cumulative`, `nki.isa.tensor_tensor_scan` |
//! | [`activation`] | `activation` (+ `activation_reduce` form), the function table | `nki.isa.activation`, `nki-act-func` |
//! | [`vector_unary`] | `reciprocal`, `exponential` | `nki.isa.reciprocal`, `nki.isa.exponential` |
//! | [`reduce`] | `tensor_reduce_arith`/`_bitvec`, `cross_lane_reduce_arith`/`_bitvec` | `nki.isa.tensor_reduce`, `nki.isa.tensor_partition_reduce` |
//! | [`iota`] | `iota`, `tensor_scalar_affine_select` | `nki.isa.iota`, `nki.isa.affine_select` |
//! | [`select`] | `copy_predicated`, `select_reduce`, `range_select` | `nki.isa.tensor_copy_predicated`, `nki.isa.select_reduce`, `nki.isa.range_select` |
//! | [`copy`] | `tensor_copy`, `memset` | `nki.isa.tensor_copy`, `nki.isa.memset` |
//! | [`matmul`] | `matmul`, `matmul_mx` (PSUM accumulation groups) | `nki.isa.nc_matmul`, `nki.isa.nc_matmul_mx` |
//! | [`transpose`] | `nc_transpose` (Tensor / Vector), `stream_transpose` | `nki.isa.nc_transpose` |
//! | [`dma_transpose`] | `dma_transpose`, `dma_gather_transpose` | `nki.isa.dma_transpose` |
//! | [`max8`] | `max8`, `find_index8`, `max_index_and_match_replace` | `nki.isa.max8`, `nki.isa.nc_find_index8`, `nki.isa.nc_match_replace8` |
//! | [`bn_stats`] | `bn_stats`, `bn_aggr` | `nki.isa.bn_stats`, `nki.isa.bn_aggr` |
//! | [`nonzero_with_count`] | `nonzero_with_count` | `nki.isa.nonzero_with_count` |
//! | [`sequence_bounds`] | `sequence_bounds` | `nki.isa.sequence_bounds` |
//! | [`quantize_mx`] | `quantize_mx` (two named scale rules) | `nki.isa.quantize_mx` |
//! | [`rng`] | `rng`, `rand2`, `rand_get_state`, `rand_set_state`, `set_rng_seed` (our generator) | `nki.isa.rng`, `rand2`, `rand_get_state`, `rand_set_state`, `set_rng_seed` |
//! | [`dropout`] | `dropout` (our generator) | `nki.isa.dropout` |
//! | [`registers`] | `load_register`, `store_register`, register alloc/move | `nki.isa.register_alloc/move/load/store` |
//! | [`collectives`] | all-reduce, all-gather, reduce-scatter, all-to-all(-v), permutes, rank ids, `send_recv` over a [`collectives::RankGroup`] | `nki.collectives.*`, `nki.isa.sendrecv` |
//! | [`stream_shuffle`] | `stream_shuffle` (quadrant partition shuffle, broadcast form) | `nki.isa.nc_stream_shuffle` |
//! | [`refused`] | the compute ops refused by name | — |

pub mod dma_compute;
pub mod dma_copy;
pub mod dma_copy_indirect;
pub mod gather;
pub mod indirect_copy;
pub mod indirect_save_accumulate;

// compute ops (elementwise, activation, reduce, select, copy)
pub mod accumulator;
pub mod activation;
pub mod alu;
pub mod copy;
pub mod iota;
pub mod reduce;
pub mod scalar_tensor_tensor;
pub mod scan;
pub mod select;
pub mod tensor_scalar;
pub mod tensor_scalar_reduce;
pub mod tensor_tensor;
pub mod tile;
pub mod vector_unary;
// compute ops (matmul, transpose, statistics, MX, RNG, registers, collectives)
pub mod bn_stats;
pub mod collectives;
pub mod dma_transpose;
pub mod dropout;
mod layout;
pub mod matmul;
pub mod max8;
pub mod nonzero_with_count;
pub mod quantize_mx;
pub mod refused;
pub mod registers;
pub mod rng;
pub mod sequence_bounds;
pub mod stream_shuffle;
pub mod transpose;

use crate::access::{Access, OobMode};
use crate::data::{Combine, SKIP};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::offsets::{Offsets, Planned};
use crate::view::View;

/// An operand of a DMA op: a plain view, or an access pattern (indirect or not).
#[derive(Debug, Clone, Copy)]
pub enum DmaOperand<'a> {
    /// Every element of the view, row-major.
    View(&'a View),
    /// The points of an access, in enumeration order.
    Access(&'a Access),
}

impl DmaOperand<'_> {
    /// The operand as an access.
    pub fn to_access(&self) -> Access {
        match self {
            DmaOperand::View(v) => Access::direct(v),
            DmaOperand::Access(a) => (*a).clone(),
        }
    }

    /// The operand as an access, borrowed when it is one (no copy of its index views and
    /// subscripts per op).
    pub fn as_access(&self) -> std::borrow::Cow<'_, Access> {
        match self {
            DmaOperand::View(v) => std::borrow::Cow::Owned(Access::direct(v)),
            DmaOperand::Access(a) => std::borrow::Cow::Borrowed(a),
        }
    }

    /// The view whose elements are moved.
    pub fn view(&self) -> &View {
        match self {
            DmaOperand::View(v) => v,
            DmaOperand::Access(a) => &a.source,
        }
    }

    /// True when the operand reads index values.
    pub fn is_indirect(&self) -> bool {
        match self {
            DmaOperand::View(_) => false,
            DmaOperand::Access(a) => a.subscripts.iter().any(|s| s.is_indirect()),
        }
    }
}

/// How the tile is combined into the destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `dst = convert(src)`: bit copy for equal dtypes, via `f32` otherwise.
    Copy,
    /// `dst = dst_dtype(f32(dst) + f32(src))` (the DMA read-modify-write rule).
    Accumulate,
}

/// One source/destination pair of a transfer (same number of points).
#[derive(Debug, Clone)]
pub struct Part {
    /// Where the tile is read from.
    pub src: Access,
    /// Where the tile is written to.
    pub dst: Access,
}

/// Runs an op made of one or more source/destination pairs (see the module doc).
pub fn transfer(
    mem: &mut Memory,
    op: &'static str,
    parts: &[Part],
    mode: Mode,
    oob: OobMode,
) -> Result<()> {
    let refs: Vec<PartRef<'_>> = parts
        .iter()
        .map(|p| PartRef {
            src: DmaOperand::Access(&p.src),
            dst: DmaOperand::Access(&p.dst),
        })
        .collect();
    transfer_refs(mem, op, &refs, mode, oob)
}

/// A [`Part`] by reference (an op's own accesses, not copied).
#[derive(Debug, Clone, Copy)]
pub struct PartRef<'a> {
    /// Where the tile is read from.
    pub src: DmaOperand<'a>,
    /// Where the tile is written to.
    pub dst: DmaOperand<'a>,
}

impl DmaOperand<'_> {
    /// The operand planned through the memory's plan cache (a plain view needs no access
    /// built for it when it is contiguous).
    fn planned(&self, mem: &mut Memory, op: &'static str) -> Result<Planned> {
        match self {
            DmaOperand::View(v) => Planned::cached_view(mem, v, op),
            DmaOperand::Access(a) => Planned::cached(mem, a, op),
        }
    }
}

/// [`transfer`] on borrowed parts.
pub fn transfer_refs(
    mem: &mut Memory,
    op: &'static str,
    parts: &[PartRef<'_>],
    mode: Mode,
    oob: OobMode,
) -> Result<()> {
    // 1. Validate and compute every offset list before touching memory. The usual single
    // part first, on the stack: its lists go straight to the shortcuts below.
    let mut planned: smallvec::SmallVec<[PlannedPart; 1]> = smallvec::SmallVec::new();
    if let [part] = parts {
        let (so, dof, sd, dd) = plan_part(mem, op, part, mode, oob)?;
        // Shortcut: a copy between two allocations with equal dtypes, the destination one
        // in-bounds run of its allocation: read the source straight into the destination
        // bytes; any other such copy: run to run, unstaged.
        let (sa, da) = (part.src.view().alloc(), part.dst.view().alloc());
        if mode == Mode::Copy && sd == dd && sa != da {
            return match whole_run(mem, part.dst.view(), &dof)? {
                Some(range) => mem.read_into(op, sa, sd.size(), so.as_list(), da, range),
                None => mem.copy_list(op, sa, sd.size(), so.as_list(), da, dof.as_list()),
            };
        }
        planned.push((so, dof, sd, dd));
    } else {
        planned.reserve(parts.len());
        for part in parts {
            planned.push(plan_part(mem, op, part, mode, oob)?);
        }
    }

    // 2. Read every source tile first, so parts never observe each other's writes.
    let mut tiles = Vec::with_capacity(parts.len());
    for (part, (so, _, sd, _)) in parts.iter().zip(&planned) {
        let mut tile = vec![0u8; so.num_points() * sd.size()];
        mem.read_list(
            op,
            part.src.view().alloc(),
            sd.size(),
            so.as_list(),
            &mut tile,
        )?;
        tiles.push(tile);
    }

    // 3. Convert and write.
    for ((part, (_, dof, sd, dd)), tile) in parts.iter().zip(&planned).zip(tiles) {
        let (bytes, combine) = match mode {
            Mode::Copy if sd == dd => (tile, Combine::Replace),
            Mode::Copy => (convert(&tile, *sd, *dd, op)?, Combine::Replace),
            Mode::Accumulate => (
                to_f32_bytes(&tile, *sd, op)?,
                Combine::AddF32 { dtype: *dd },
            ),
        };
        mem.write_list(
            op,
            part.dst.view().alloc(),
            dd.size(),
            dof.as_list(),
            &bytes,
            combine,
        )?;
    }
    Ok(())
}

/// A part's source and destination offsets and dtypes, checked against each other.
type PlannedPart = (Offsets, Offsets, DType, DType);

/// Plans one part: both operands through the plan cache, the point counts and dtypes
/// checked, both offset lists computed (nothing is read or written yet).
fn plan_part(
    mem: &mut Memory,
    op: &'static str,
    part: &PartRef<'_>,
    mode: Mode,
    oob: OobMode,
) -> Result<PlannedPart> {
    let sp = part.src.planned(mem, op)?;
    let dp = part.dst.planned(mem, op)?;
    if sp.num_points() != dp.num_points() {
        return Err(EmuError::shape(
            op,
            format!(
                "source has {} elements but destination has {}",
                sp.num_points(),
                dp.num_points()
            ),
        ));
    }
    let (sd, dd) = (sp.source_dtype(), dp.source_dtype());
    check_dtypes(op, sd, dd, mode)?;
    let so = sp.compute(mem, oob, mem.path_choice())?;
    let dof = dp.compute(mem, oob, mem.path_choice())?;
    Ok((so, dof, sd, dd))
}

/// The byte range of the destination when its offsets are one run of the whole tile,
/// entirely inside the allocation.
fn whole_run(mem: &Memory, dst: &View, offs: &Offsets) -> Result<Option<std::ops::Range<usize>>> {
    let n = offs.num_points();
    let es = dst.dtype().size();
    let len = mem.bytes(dst.alloc())?.len() / es;
    Ok(match offs.starts() {
        [s] if *s != SKIP && offs.run() == n && *s >= 0 => {
            let s = *s as usize;
            match s.checked_add(n) {
                Some(end) if end <= len => Some(s * es..end * es),
                _ => None,
            }
        }
        _ => None,
    })
}

fn check_dtypes(op: &'static str, src: DType, dst: DType, mode: Mode) -> Result<()> {
    match mode {
        Mode::Copy => {
            if src != dst && (src.is_x4() || dst.is_x4()) {
                return Err(EmuError::dtype(
                    op,
                    format!(
                        "cannot convert {src} to {dst}: x4 containers only copy to their own type"
                    ),
                ));
            }
        }
        Mode::Accumulate => {
            if src.is_x4() || dst.is_x4() {
                return Err(EmuError::dtype(
                    op,
                    format!(
                        "cannot accumulate {src} into {dst}: x4 containers have no scalar arithmetic"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Converts a tile of `src` elements to `dst` elements via `f32` (the DMA rule:
/// "converts dtype via fp32").
fn convert(tile: &[u8], src: DType, dst: DType, op: &'static str) -> Result<Vec<u8>> {
    let (ss, ds) = (src.size(), dst.size());
    let mut out = vec![0u8; tile.len() / ss * ds];
    for (i, o) in tile.chunks_exact(ss).zip(out.chunks_exact_mut(ds)) {
        let v = src
            .to_f32(src.load(i))
            .ok_or_else(|| EmuError::dtype(op, format!("{src} has no scalar value")))?;
        let bits = dst
            .from_f32(v)
            .ok_or_else(|| EmuError::dtype(op, format!("{dst} has no scalar encoding")))?;
        dst.store(bits, o);
    }
    Ok(out)
}

/// A tile of `src` elements as little-endian `f32` values.
fn to_f32_bytes(tile: &[u8], src: DType, op: &'static str) -> Result<Vec<u8>> {
    let ss = src.size();
    let mut out = Vec::with_capacity(tile.len() / ss * 4);
    for i in tile.chunks_exact(ss) {
        let v = src
            .to_f32(src.load(i))
            .ok_or_else(|| EmuError::dtype(op, format!("{src} has no scalar value")))?;
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(out)
}

/// Fails unless every view is in `space`.
pub(crate) fn require_space(
    mem: &Memory,
    op: &'static str,
    what: &str,
    view: &View,
    space: MemSpace,
) -> Result<()> {
    let got = mem.space(view.alloc())?;
    if got != space {
        return Err(EmuError::memory(
            op,
            format!("{what} must be in {space:?}, not {got:?}"),
        ));
    }
    Ok(())
}

/// Fails when a DMA would read PSUM (not readable by DMA since NKI 0.5).
pub(crate) fn forbid_psum_read(
    mem: &Memory,
    op: &'static str,
    what: &str,
    view: &View,
) -> Result<()> {
    if mem.space(view.alloc())? == MemSpace::Psum {
        return Err(EmuError::memory(
            op,
            format!("{what} is in PSUM, which DMA cannot read"),
        ));
    }
    Ok(())
}
