//! NeuronCore targets and the on-chip geometry the memory model is built from.
//!
//! Figures are from the official NKI docs as digested in isa-table §3 and
//! nki-semantics ("Geometry and MX rules"): 128 partitions; SBUF 24/28/32 MiB on
//! v2/v3/v4 (192/224/256 KiB per partition); PSUM 2 MiB = 128 partitions x 8 banks x
//! 2 KiB; GpSimd 8 cores x 16 partitions.

/// Number of SBUF / PSUM partitions on every modelled target.
pub const PARTITIONS: usize = 128;
/// PSUM banks per partition.
pub const PSUM_BANKS: usize = 8;
/// Bytes per PSUM bank per partition (512 fp32).
pub const PSUM_BANK_BYTES: usize = 2 * 1024;
/// PSUM bytes per partition (8 banks x 2 KiB = 16 KiB).
pub const PSUM_BYTES_PER_PARTITION: usize = PSUM_BANKS * PSUM_BANK_BYTES;
/// GpSimd cores; core `c` is wired to partitions `16c .. 16c+16`.
pub const GPSIMD_CORES: usize = 8;
/// Partitions per GpSimd core.
pub const PARTITIONS_PER_GPSIMD_CORE: usize = 16;

/// A codegen target (NeuronCore generation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// CoreV2 (Trn1 / Inf2).
    Sunda,
    /// CoreV3 (Trn2).
    Cayman,
    /// CoreV4 (Trn3).
    Mariana,
}

impl Target {
    /// The NeuronCore version number (`nc_version`: 2, 3, 4).
    pub const fn nc_version(self) -> u32 {
        match self {
            Target::Sunda => 2,
            Target::Cayman => 3,
            Target::Mariana => 4,
        }
    }

    /// SBUF bytes per partition: 192 KiB (v2), 224 KiB (v3), 256 KiB (v4).
    pub const fn sbuf_bytes_per_partition(self) -> usize {
        match self {
            Target::Sunda => 192 * 1024,
            Target::Cayman => 224 * 1024,
            Target::Mariana => 256 * 1024,
        }
    }

    /// Total SBUF bytes (128 partitions).
    pub const fn sbuf_bytes(self) -> usize {
        PARTITIONS * self.sbuf_bytes_per_partition()
    }

    /// The codegen name of the target.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Sunda => "sunda",
            Target::Cayman => "cayman",
            Target::Mariana => "mariana",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbuf_totals_are_24_28_32_mib() {
        assert_eq!(Target::Sunda.sbuf_bytes(), 24 << 20);
        assert_eq!(Target::Cayman.sbuf_bytes(), 28 << 20);
        assert_eq!(Target::Mariana.sbuf_bytes(), 32 << 20);
        assert_eq!(PARTITIONS * PSUM_BYTES_PER_PARTITION, 2 << 20);
        assert_eq!(GPSIMD_CORES * PARTITIONS_PER_GPSIMD_CORE, PARTITIONS);
    }
}
