//! The on-chip geometry the memory model is built from, read from the codegen crate's
//! architecture model ([`sundial_codegen::arch`]), which owns the target vocabulary
//! ([`Target`]) and the geometry facts (partitions, SBUF bytes per partition, PSUM banks).
//! This module restates none of them: it gives them as `usize` for indexing, and adds the
//! one fact the codegen model has no field for, the GpSimd core wiring (8 cores x 16
//! partitions, nki-semantics "Geometry and MX rules").

use sundial_codegen::arch;

/// A codegen target (NeuronCore generation): the codegen crate's vocabulary.
pub use sundial_codegen::arch::Target;

/// Number of SBUF / PSUM partitions on every modelled target.
pub const PARTITIONS: usize = arch::PARTITIONS as usize;
/// PSUM banks per partition.
pub const PSUM_BANKS: usize = arch::PSUM_BANKS as usize;
/// Bytes per PSUM bank per partition (512 fp32).
pub const PSUM_BANK_BYTES: usize = arch::PSUM_BANK_BYTES as usize;
/// PSUM bytes per partition (8 banks x 2 KiB = 16 KiB).
pub const PSUM_BYTES_PER_PARTITION: usize = PSUM_BANKS * PSUM_BANK_BYTES;
/// Partitions per SBUF quadrant (the MX scale layout and quadrant-aligned tiles).
pub const QUADRANT_PARTITIONS: usize = arch::QUADRANT_PARTITIONS as usize;
/// GpSimd cores; core `c` is wired to partitions `16c .. 16c+16`.
pub const GPSIMD_CORES: usize = 8;
/// Partitions per GpSimd core.
pub const PARTITIONS_PER_GPSIMD_CORE: usize = 16;

/// SBUF bytes per partition of `target` (the architecture model's active bytes:
/// 192 KiB on v2, 224 KiB on v3, 256 KiB on v4).
pub fn sbuf_bytes_per_partition(target: Target) -> usize {
    target.model().sbuf_active_bytes as usize
}

/// Total SBUF bytes of `target` (all partitions).
pub fn sbuf_bytes(target: Target) -> usize {
    PARTITIONS * sbuf_bytes_per_partition(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_emulator_geometry_is_the_architecture_model() {
        // Docs: SBUF 24 / 28 / 32 MiB, PSUM 2 MiB, GpSimd 8 cores x 16 partitions.
        assert_eq!(sbuf_bytes(Target::Sunda), 24 << 20);
        assert_eq!(sbuf_bytes(Target::Cayman), 28 << 20);
        assert_eq!(sbuf_bytes(Target::Mariana), 32 << 20);
        assert_eq!(PARTITIONS * PSUM_BYTES_PER_PARTITION, 2 << 20);
        for t in Target::ALL {
            assert_eq!(
                PSUM_BYTES_PER_PARTITION,
                t.model().psum_active_bytes as usize
            );
            assert_eq!(PARTITIONS, t.model().partitions as usize);
        }
        assert_eq!(GPSIMD_CORES * PARTITIONS_PER_GPSIMD_CORE, PARTITIONS);
        assert_eq!(QUADRANT_PARTITIONS, 32);
    }
}
