//! The DMA address map: the 64-bit address a DMA descriptor's ADDR8 immediate holds for an
//! on-chip location or a byte of an HBM tensor.
//!
//! The bundles know no symbols, so a DMA names memory by address. The sources give the
//! on-chip apertures of the SoC map (bundle-layouts §4x.6: `TPB_0_STATE_BUF` at
//! 0x20_0000_0000, 32 MiB; `PSUM_BUF` at 0x28_0200_0000, 4 MiB) but nothing about where the
//! runtime puts a kernel's HBM tensors, and no public loader format. So:
//!
//! - SBUF: [`SBUF_APERTURE`] + `partition * STATE_BUF_PARTITION_SIZE + offset`, the on-chip
//!   address word (`sbuf_addr`, bundle-layouts §1c) inside the state-buffer aperture.
//!   ASSUMPTION: the DMA sees the state buffer with the on-chip partition stride.
//! - PSUM: [`PSUM_APERTURE`] + the on-chip PSUM word (`0x2000000 + partition * 2^15 +
//!   offset`), which puts partition 0 at the aperture's 0x28_0200_0000. ASSUMPTION as for SBUF.
//! - HBM tensor `t` (kernel argument `t`, or a kernel-local tensor numbered after them):
//!   `(t + 1) << 40 | byte offset`. OUR CONVENTION, not a hardware fact: each tensor gets a
//!   1 TiB window above the on-chip apertures, so the address itself names (tensor, offset)
//!   and a loader relocates a DMA by the tensor number in bits 40..47 (the manifest's argument
//!   table lists the windows). It fits the 48-bit immediate codegen assumes for ADDR8 for
//!   tensors 0..=254 of up to 1 TiB.

use sundial_codegen::arch::ArchModel;
use sundial_dialects::enums::Space;

/// Base of the state buffer in the DMA's address space (`TPB_0_STATE_BUF`).
pub const SBUF_APERTURE: u64 = 0x20_0000_0000;
/// Base of the PSUM aperture, so that on-chip PSUM word `0x2000000` (partition 0, byte 0) is
/// `PSUM_BUF` at 0x28_0200_0000.
pub const PSUM_APERTURE: u64 = 0x28_0000_0000;
/// The bit from which an HBM address holds its tensor number plus one.
pub const HBM_TENSOR_SHIFT: u32 = 40;
/// Tensors an address can name (numbers `0..MAX_HBM_TENSORS`, below the 48-bit immediate).
pub const MAX_HBM_TENSORS: i64 = 255;
/// Bytes of one HBM tensor's window.
pub const HBM_WINDOW: u64 = 1 << HBM_TENSOR_SHIFT;

/// The DMA address of byte `offset` of partition `partition` in `space` (SBUF or PSUM).
pub fn on_chip(space: Space, partition: u32, offset: u32, arch: &ArchModel) -> Option<u64> {
    match space {
        Space::Sbuf => Some(
            SBUF_APERTURE + partition as u64 * arch.sbuf_partition_stride as u64 + offset as u64,
        ),
        Space::Psum => Some(
            PSUM_APERTURE
                + arch.psum_base as u64
                + partition as u64 * arch.psum_partition_stride as u64
                + offset as u64,
        ),
        Space::Hbm => None,
    }
}

/// The DMA address of byte `offset` of HBM tensor `tensor`.
pub fn hbm(tensor: i64, offset: u64) -> Result<u64, String> {
    if !(0..MAX_HBM_TENSORS).contains(&tensor) {
        return Err(format!(
            "HBM tensor {tensor} has no address window: a DMA address names tensors 0..{} (tensor number in bits {HBM_TENSOR_SHIFT}..47)",
            MAX_HBM_TENSORS - 1
        ));
    }
    if offset >= HBM_WINDOW {
        return Err(format!(
            "byte {offset} of HBM tensor {tensor} is past its {HBM_WINDOW}-byte address window"
        ));
    }
    Ok(((tensor as u64 + 1) << HBM_TENSOR_SHIFT) | offset)
}

/// The (tensor, byte offset) an HBM DMA address names, if it is one.
pub fn hbm_identity(addr: u64) -> Option<(i64, u64)> {
    let t = addr >> HBM_TENSOR_SHIFT;
    (1..=MAX_HBM_TENSORS as u64)
        .contains(&t)
        .then(|| (t as i64 - 1, addr & (HBM_WINDOW - 1)))
}
