//! `dma_transpose` (NKI `dma_transpose`) and its indirect form `dma_gather_transpose`
//! (NKI `dma_transpose` with an indirect `src`, DMA_GATHER_XPOSE 0xF1).
//!
//! Semantics restated from `nki.isa.dma_transpose`: `dst = src.transpose(axes)` (NumPy
//! order: axis `i` of `dst` is axis `axes[i]` of `src`), with `axes` one of `(1, 0)`,
//! `(2, 1, 0)`, `(3, 1, 2, 0)` for a 2-, 3- or 4-D `src`; `src.dtype == dst.dtype`, a 2- or
//! 4-byte type (the docstring's 2-byte limit is the hardware DGE's: "If hwdge ... src.dtype is
//! 2 bytes"; the other modes move 4-byte elements too, as the dialect admits, e.g. int32 token
//! ids); `src` in HBM or SBUF, `dst` in SBUF (the docstring's "must be a tile in SBUF").
//!
//! The indirect form takes `src` as an access with a `vector_offset` (our [`Access`]): its
//! tile is gathered (`gathered = src[indices, ...]`) and transposed the same way. It needs
//! NeuronCore v3+, an HBM source and `uint32` SBUF indices; `oob_mode` applies to the
//! indices. The docstring's remaining shape rules (multiples of 16, at most 128 elements on
//! the last axis, index-tile shapes, the hwdge rules) constrain how the compiler lowers the
//! op, not its result; they are the dialect verifier's to enforce, not checked here.

use super::{Mode, Part, forbid_psum_read, require_space, transfer};
use crate::access::{Access, OobMode};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::Target;
use crate::view::View;

const OP: &str = "dma_transpose";
const OP_GATHER: &str = "dma_gather_transpose";

/// The permutations `dma_transpose` supports, by source rank.
pub const DMA_TRANSPOSE_AXES: [&[usize]; 3] = [&[1, 0], &[2, 1, 0], &[3, 1, 2, 0]];

/// `dst = src.transpose(axes)` by DMA.
pub fn dma_transpose(mem: &mut Memory, dst: &View, src: &View, axes: &[usize]) -> Result<()> {
    forbid_psum_read(mem, OP, "src", src)?;
    run(
        mem,
        OP,
        dst,
        Access::direct(src),
        src.dtype(),
        axes,
        OobMode::Error,
    )
}

/// The indirect form: `dst = (src gathered through its index tile).transpose(axes)`.
pub fn dma_gather_transpose(
    mem: &mut Memory,
    dst: &View,
    src: &Access,
    axes: &[usize],
    oob: OobMode,
) -> Result<()> {
    if mem.target() == Target::Sunda {
        return Err(EmuError::unsupported(
            OP_GATHER,
            "the indirect DMA transpose needs NeuronCore v3 or newer",
        ));
    }
    require_space(mem, OP_GATHER, "src", &src.source, MemSpace::Hbm)?;
    if src.index_views.is_empty() {
        return Err(EmuError::invalid(
            OP_GATHER,
            "src has no index tile: use dma_transpose",
        ));
    }
    for iv in &src.index_views {
        require_space(mem, OP_GATHER, "the indices", iv, MemSpace::Sbuf)?;
        if iv.dtype() != DType::U32 {
            return Err(EmuError::dtype(
                OP_GATHER,
                format!("the indices must be uint32, not {}", iv.dtype()),
            ));
        }
    }
    run(
        mem,
        OP_GATHER,
        dst,
        src.clone(),
        src.source.dtype(),
        axes,
        oob,
    )
}

fn run(
    mem: &mut Memory,
    op: &'static str,
    dst: &View,
    src: Access,
    sd: DType,
    axes: &[usize],
    oob: OobMode,
) -> Result<()> {
    require_space(mem, op, "dst", dst, MemSpace::Sbuf)?;
    if !matches!(sd.size(), 2 | 4) || dst.dtype() != sd {
        return Err(EmuError::dtype(
            op,
            format!(
                "src and dst must share a 2- or 4-byte dtype; src is {sd}, dst {}",
                dst.dtype()
            ),
        ));
    }
    let tile = src.tile_shape(op)?;
    if DMA_TRANSPOSE_AXES.get(tile.len().wrapping_sub(2)) != Some(&axes) {
        return Err(EmuError::invalid(
            op,
            format!(
                "axes {axes:?} for a rank-{} src; supported: (1, 0), (2, 1, 0), (3, 1, 2, 0)",
                tile.len()
            ),
        ));
    }
    let want: Vec<usize> = axes.iter().map(|&a| tile[a]).collect();
    if dst.shape() != want.as_slice() {
        return Err(EmuError::shape(
            op,
            format!(
                "dst must be {want:?} (src {tile:?} transposed by {axes:?}), not {:?}",
                dst.shape()
            ),
        ));
    }
    // Tile point t lands at dst[d] with d[i] = t[axes[i]]: enumerate dst permuted by the
    // inverse permutation, whose coordinate j is t[j].
    let mut inverse = vec![0usize; axes.len()];
    for (i, &a) in axes.iter().enumerate() {
        inverse[a] = i;
    }
    let part = Part {
        src,
        dst: Access::direct(&dst.permute(&inverse)?),
    };
    transfer(mem, op, &[part], Mode::Copy, oob)
}
