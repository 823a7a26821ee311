//! Per-target architecture models: the constants the encoders and validators read.
//!
//! Three targets: sunda (CoreV2), cayman (CoreV3), mariana (CoreV4). Every value carries a
//! comment with its source (seed = `spec/`, header = GPSIMD wiki, CC = compiler wiki, docs =
//! official geometry quoted in isa-table §3) or says "assumption" where the spec is silent.
//! `ArchModel` is plain data with public fields, so a caller (or a test) can substitute a
//! corrected value without touching any encoder.

use std::fmt;
use std::str::FromStr;

/// A code-generation target (ordered by core generation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// CoreV2 (Trn1 / Inf2).
    Sunda,
    /// CoreV3 (Trn2).
    Cayman,
    /// CoreV4 (Trn3).
    Mariana,
}

impl Target {
    /// All targets.
    pub const ALL: [Target; 3] = [Target::Sunda, Target::Cayman, Target::Mariana];

    /// The lower-case target name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Sunda => "sunda",
            Target::Cayman => "cayman",
            Target::Mariana => "mariana",
        }
    }

    /// Parses the lower-case target name (the NISA dialect's `sundial.target` spelling).
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Every name, in [`Target::ALL`] order.
    pub const NAMES: [&'static str; 3] = ["sunda", "cayman", "mariana"];

    /// NeuronCore version number (2, 3, 4: NKI's `nc_version` gen2 = trn1/inf2, gen3 = trn2,
    /// gen4 = trn3).
    pub fn nc_version(self) -> u32 {
        match self {
            Target::Sunda => 2,
            Target::Cayman => 3,
            Target::Mariana => 4,
        }
    }

    /// The built-in architecture model of this target.
    pub fn model(self) -> &'static ArchModel {
        match self {
            Target::Sunda => &SUNDA,
            Target::Cayman => &CAYMAN,
            Target::Mariana => &MARIANA,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown target `{s}` (expected sunda, cayman or mariana)"))
    }
}

/// Number of SBUF / PSUM partitions on every target (docs, isa-table §3 "128 partitions").
pub const PARTITIONS: u32 = 128;

/// PSUM banks per partition (docs, nki-semantics "Geometry": PSUM 2 MiB = 128 partitions x
/// 8 banks x 2 KiB).
pub const PSUM_BANKS: u32 = 8;

/// Bytes per PSUM bank per partition (2 KiB, 512 fp32; same source as [`PSUM_BANKS`]).
pub const PSUM_BANK_BYTES: u32 = 2 * 1024;

/// Partitions per SBUF quadrant (`get_sbuf_quadrant_id`, bundle-layouts §1f; docs: "Vector
/// quadrants of 32").
pub const QUADRANT_PARTITIONS: u32 = 32;

/// The core generation (the `CoreV*GenImpl` family a target's encoders live in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CoreGen {
    /// CoreV2 (sunda).
    V2,
    /// CoreV3 (cayman).
    V3,
    /// CoreV4 (mariana).
    V4,
}

/// An encoder family whose presence differs by target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Family {
    /// StreamShuffle {0x6A, 0x69}.
    StreamShuffle,
    /// StreamTranspose {0x6B} / {0x6B, 0x69}.
    StreamTranspose,
    /// Gather {0x68, 0x67} per 512-element chunk.
    Gather,
    /// Dropout 0x7F.
    Dropout,
    /// IndirectCopy 0xE7.
    IndirectCopy,
    /// RangeSelect 0xBC + companion 0x9B.
    RangeSelect,
    /// INDIRECT16B / INDIRECT20B records in ordinary 3-D / 4-D access-pattern slots.
    TensorIndirect,
    /// MXMEM_PATTERN1D / MXINDIRECT16B descriptors.
    Mx,
    /// DMA_INDIRECT1D 0xBB.
    DmaIndirect,
    // IndirectSaveAccumulate (BIR op 46).
    /// IndirectSaveAccumulate 0xCA (CoreV2 indirect family; opcode pinned, bytes unpinned).
    IndirectSaveAccumulate,
    // 4D-slot compute families.
    /// TensorReduce 0x42 / 0x52 (S4D4_TR).
    TensorReduce,
    /// TensorCopy: Copy 0x46 / Cast 0x47 (S4D4_TR).
    TensorCopy,
    /// Reciprocal 0x48 (S4D4_TR).
    Reciprocal,
    /// Memset 0x49.
    Memset,
    /// Pool 0x45 (S4D4_PL).
    Pool,
    /// CrossLaneReduce 0x7C / 0x7D (S4D4_CR).
    CrossLaneReduce,
    /// Iota 0x7E (D4_IOTA).
    Iota,
    /// TensorScalarAffineSelect 0x92 (S2D2_TS_AS).
    AffineSelect,
    // 3D-slot compute formats (TENSOR_TENSOR, TENSOR_SCALAR, select, read-accumulators).
    /// S3S3D3_TT 0x41/0x51/0x72/0x99 (0x41 also in its GpSimd int32 form).
    TensorTensor,
    /// The bf16 TENSOR_TENSOR opcodes 0x8a/0x8b/0x8f (sunda).
    TensorTensorBf16,
    /// S3D3_TS 0x43/0x53/0x93/0x9a/0xe6.
    TensorScalar,
    /// EXPONENTIAL 0x30 (S3D3_TS layout).
    Exponential,
    /// S3D3_TS_SELECT 0x98.
    TensorScalarSelect,
    /// The Scalar engine's D1_RD read-out 0x24.
    Activation,
    /// The Vector engine's D1_RD read-out 0x9b (RangeSelect's and TENSOR_SCALAR 0x9a's companion).
    DveReadAccumulator,
    // PE, MX, DMA and event families.
    /// The PE pair {0x01 LDWEIGHTS, 0x02 MATMUL} (every target; the layout differs per core,
    /// `formats::by_opcode_on`).
    Matmul,
    /// The MX PE pair {0x09 LDWEIGHTS_MX, 0x0A MATMUL_MX} (CoreV4 only).
    MatmulMx,
    /// QUANTIZE_MX 0xE3 (CoreV4 only; seed: the QuantizeMx encoders are "gated core_v4").
    QuantizeMx,
    /// DMA_DIRECT2D 0xB8.
    DmaDirect,
    /// EVENT_SEMAPHORE 0xA0.
    EventSemaphore,
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65)
    // (`formats::more`).
    /// SB2SB_COLLECTIVE 0xBF (S3D3_COLLECTIVE, the GpSimd SB-to-SB DMA).
    Sb2sbCollective,
    /// DMA_GATHER_XPOSE 0xF1 (NeuronCore v3+).
    DmaGatherTranspose,
    /// TENSOR_DEQUANTIZE 0x7B (S3D3_TENS_DEQUANT).
    TensorDequantize,
    /// BATCH_NORM_BACK_PROP 0x65 (the S3S3D3_TT struct, op BYPASS).
    BatchNormBackProp,
}

/// The constants one target's encoders and validators read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchModel {
    /// The target this model describes.
    pub target: Target,
    /// Its core generation.
    pub core: CoreGen,
    /// `archModel[+0x38]`, the mask the "TODO: support ... dynamic offset" asserts AND with byte 3
    /// of each indirect ADDR4. The seed calls it an opaque per-arch constructor constant.
    pub granularity_mask: u8,
    /// `archModel[+0x64]`, the divisor of the MX scale base partition.
    pub pe_count: u32,
    /// Number of SBUF/PSUM partitions.
    pub partitions: u32,
    /// `STATE_BUF_SZ`: the SBUF window is `[0, sbuf_window)`.
    pub sbuf_window: u32,
    /// `STATE_BUF_PARTITION_SIZE`: the SBUF partition stride in the address word.
    pub sbuf_partition_stride: u32,
    /// Usable bytes per SBUF partition.
    pub sbuf_active_bytes: u32,
    /// Partitions per SBUF quadrant.
    pub quadrant_partitions: u32,
    /// Number of SBUF quadrants.
    pub quadrants: u32,
    /// `PSUM_BUF_OFFSET`: first PSUM address.
    pub psum_base: u32,
    /// `PSUM_BUF_SZ`: size of the PSUM window.
    pub psum_window: u32,
    /// `PSUM_BUF_PARTITION_SIZE`: PSUM partition stride.
    pub psum_partition_stride: u32,
    /// Usable bytes per PSUM partition.
    pub psum_active_bytes: u32,
    /// Bytes of one PSUM bank in a partition (a matmul accumulates within one bank).
    pub psum_bank_bytes: u32,
    /// Encoder families present on this target.
    pub families: FamilySet,
}

/// A set of encoder families (a bit mask, so the per-instruction gate is one AND). 64 bits: room
/// for every family of the full ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilySet(u64);

impl FamilySet {
    /// The set of the listed families.
    pub const fn of(fs: &[Family]) -> FamilySet {
        let mut m = 0u64;
        let mut i = 0;
        while i < fs.len() {
            m |= 1 << fs[i] as u8;
            i += 1;
        }
        FamilySet(m)
    }

    /// The families in either set.
    pub const fn union(self, other: FamilySet) -> FamilySet {
        FamilySet(self.0 | other.0)
    }

    /// Whether `f` is in the set.
    pub const fn contains(self, f: Family) -> bool {
        self.0 & (1 << f as u8) != 0
    }
}

// Shared geometry, one comment per value.
// partitions: 128 (docs, isa-table §3 "128 partitions").
// sbuf_window 0x2000000: STATE_BUF_SZ (header constant, bundle-layouts §1c, HIGH/OBSERVED).
// sbuf_partition_stride 2^18: STATE_BUF_PARTITION_SIZE sunda/cayman/mariana (§1c); also the
//   `<<18` of the CC partition folding.
// quadrants 4 x 32 partitions: get_sbuf_quadrant_id (§1f) and "Vector quadrants of 32" (docs).
// psum window [0x2000000, 0x2400000), stride 2^15, active 16 KiB: header constants (§1c).
// psum_bank_bytes: header constants (bundle-layouts §1c "banks: sunda 16x1024 B, cayman+
//   8x2048 B"). CONFLICT recorded: isa-table §3 quotes the docs' "8 banks x 2 KiB" for every
//   generation; the header's per-generation value is kept (a 2 KiB bank on sunda would let a
//   tile straddle two of its 1 KiB banks).
// pe_count 128: "PE array 128x128" (docs, isa-table §3); bundle-layouts §2c quotes the MX
//   scale partition as `% 128`, which agrees.
// granularity_mask 0xC0: ASSUMPTION. The seed gives no value. The mask must cover the
//   register-mode flag 0x80 (a register/dynamic start address is what the asserts reject, and
//   register mode is the only dynamic form the instruction model produces) and bit 30 (0x40,
//   CC "ACTIVE/dynamic-AP", header SHAPE_REG); it must not cover 0x20 (the marker is ORed after
//   the asserts) nor 0x02 (set by every legal PSUM address, and the spec allows PSUM data).

// The 4D-slot compute families are on every target: the header structs S4D4_TR, S4D4_CR, D4_IOTA
// and S2D2_TS_AS are byte-identical across the generations (GPSIMD, compile-verified);
// ASSUMPTION for Pool and Memset, which only the CC (CoreV2 visitors) describes: the later cores
// inherit them as they inherit the other CoreV2 visitors.
const COMPUTE4D: FamilySet = FamilySet::of(&[
    Family::TensorReduce,
    Family::TensorCopy,
    Family::Reciprocal,
    Family::Memset,
    Family::Pool,
    Family::CrossLaneReduce,
    Family::Iota,
    Family::AffineSelect,
]);

const FAMILIES_V2: FamilySet = FamilySet::of(&[
    // The five DVE/Pool visitors are CoreV2GenImpl members (seed); IndirectCopy and
    // DMA-indirect are the CoreV2 indirect family (seed, "CoreV2 / CoreV4").
    Family::StreamShuffle,
    Family::StreamTranspose,
    Family::Gather,
    Family::Dropout,
    Family::IndirectCopy,
    Family::DmaIndirect,
    // Seed: "the CoreV2 indirect opcode family (IndirectCopy 0xE7, IndirectSaveAccumulate 0xCA,
    // DMA-indirect 0xBB)".
    Family::IndirectSaveAccumulate,
    // 3D-slot compute: every target (isa-table rows 10, 12, 14, 15, 20, 28, 40; the 0x98 struct
    // is identical on all gens), plus the bf16 TENSOR_TENSOR opcodes (sunda only, isa-table §3).
    Family::TensorTensor,
    Family::TensorTensorBf16,
    Family::TensorScalar,
    Family::TensorScalarSelect,
    Family::Activation,
    Family::DveReadAccumulator,
    // PE, DMA and event families: header structs exist on every generation (bundle-layouts
    // §4.5, §4.13, §3c); the PE layout is picked per core by `formats::by_opcode_on`.
    Family::Matmul,
    Family::DmaDirect,
    Family::EventSemaphore,
    // Tensor dequantize and batch-norm back-prop (`formats::more`). ASSUMPTION: on every
    // target; the header page of S3D3_TENS_DEQUANT names no generation, and 0x65 shares the
    // S3S3D3_TT struct, which every generation has. SB2SB_COLLECTIVE is not here: CONFLICT
    // settled for the seed, whose gpsimd_dma path is "for low-latency SB-to-SB swaps in LNC=2"
    // (a Trn2+ mode; the ISA table's send_recv row starts at cayman too), over the default of
    // every target when the header page names none.
    Family::TensorDequantize,
    Family::BatchNormBackProp,
])
.union(COMPUTE4D);

const FAMILIES_V3: FamilySet = FamilySet::of(&[
    // ASSUMPTION: CoreV3 keeps the CoreV2 visitors (the seed names CoreV2GenImpl for them and
    // says only that RangeSelect is added in CoreV3).
    Family::StreamShuffle,
    Family::StreamTranspose,
    Family::Gather,
    Family::Dropout,
    Family::IndirectCopy,
    Family::DmaIndirect,
    Family::IndirectSaveAccumulate,
    // PE, DMA and event families (as for V2).
    Family::Matmul,
    Family::DmaDirect,
    Family::EventSemaphore,
    // Seed: "RangeSelect is CoreV3-only".
    Family::RangeSelect,
    // 3D-slot compute (see FAMILIES_V2; no bf16 TENSOR_TENSOR opcodes past sunda).
    Family::TensorTensor,
    Family::TensorScalar,
    Family::TensorScalarSelect,
    Family::Activation,
    Family::DveReadAccumulator,
    // SB2SB collective (cayman+, the seed's LNC=2 path, see V2), tensor dequantize, batch-norm
    // back-prop (ASSUMPTION as for V2), and DMA_GATHER_XPOSE ("NC-v3+", bundle-layouts §5).
    Family::Sb2sbCollective,
    Family::TensorDequantize,
    Family::BatchNormBackProp,
    Family::DmaGatherTranspose,
])
.union(COMPUTE4D);

const FAMILIES_V4: FamilySet = FamilySet::of(&[
    // ASSUMPTION as for V3: the CoreV2 datamove visitors are inherited.
    Family::StreamShuffle,
    Family::StreamTranspose,
    Family::Gather,
    Family::Dropout,
    Family::IndirectCopy,
    Family::DmaIndirect,
    Family::IndirectSaveAccumulate,
    // Seed: INDIRECT16B/20B and MX encoders are CoreV4-family; MX is CoreV4-only.
    Family::TensorIndirect,
    Family::Mx,
    // PE, MX, DMA and event families: MX (0x09/0x0A, 0xE3) is CoreV4-only (seed; isa-table §3).
    Family::Matmul,
    Family::MatmulMx,
    Family::QuantizeMx,
    Family::DmaDirect,
    Family::EventSemaphore,
    // CONFLICT (settled for the seed): the header defines S2D2_RS on mariana too; the seed says
    // RangeSelect is CoreV3-only, so mariana has no RangeSelect encoder here.
    // 3D-slot compute (see FAMILIES_V2), plus EXPONENTIAL 0x30 ("v4 only", isa-table row 38).
    Family::TensorTensor,
    Family::TensorScalar,
    Family::TensorScalarSelect,
    Family::Activation,
    Family::DveReadAccumulator,
    Family::Exponential,
    // SB2SB collective, tensor dequantize, batch-norm back-prop, DMA_GATHER_XPOSE (see V3).
    Family::Sb2sbCollective,
    Family::TensorDequantize,
    Family::BatchNormBackProp,
    Family::DmaGatherTranspose,
])
.union(COMPUTE4D);

/// sunda (CoreV2).
pub static SUNDA: ArchModel = SUNDA_MODEL;

/// The value of [`SUNDA`] as a constant: encoders handed the static use this copy, whose fields
/// every crate that inlines them can fold.
pub(crate) const SUNDA_MODEL: ArchModel = ArchModel {
    target: Target::Sunda,
    core: CoreGen::V2,
    granularity_mask: 0xC0, // assumption, see above
    pe_count: 128,
    partitions: PARTITIONS,
    sbuf_window: 0x0200_0000,
    sbuf_partition_stride: 1 << 18,
    sbuf_active_bytes: 192 * 1024, // header ACTIVE size 192 KiB (§1c); docs: 24 MiB SBUF
    quadrant_partitions: QUADRANT_PARTITIONS,
    quadrants: 4,
    psum_base: 0x0200_0000,
    psum_window: 0x0040_0000,
    psum_partition_stride: 1 << 15,
    // 16 KiB: the header's active size (§1c), which is the docs' 8 banks x 2 KiB.
    psum_active_bytes: PSUM_BANKS * PSUM_BANK_BYTES,
    psum_bank_bytes: 1024, // header: 16 banks x 1 KiB on sunda (see above)
    families: FAMILIES_V2,
};

/// cayman (CoreV3).
pub static CAYMAN: ArchModel = CAYMAN_MODEL;

/// The value of [`CAYMAN`] as a constant: encoders handed the static use this copy, whose fields
/// every crate that inlines them can fold.
pub(crate) const CAYMAN_MODEL: ArchModel = ArchModel {
    target: Target::Cayman,
    core: CoreGen::V3,
    sbuf_active_bytes: 224 * 1024, // header ACTIVE size 224 KiB (§1c); docs: 28 MiB SBUF
    psum_bank_bytes: 2048,         // header: 8 banks x 2 KiB from cayman on (see above)
    families: FAMILIES_V3,
    // Everything else as sunda: the same address map, strides, PSUM geometry, PE count and
    // (assumed) granularity mask.
    ..SUNDA_MODEL
};

/// mariana (CoreV4).
pub static MARIANA: ArchModel = MARIANA_MODEL;

/// The value of [`MARIANA`] as a constant: encoders handed the static use this copy, whose fields
/// every crate that inlines them can fold.
pub(crate) const MARIANA_MODEL: ArchModel = ArchModel {
    target: Target::Mariana,
    core: CoreGen::V4,
    sbuf_active_bytes: 256 * 1024, // header ACTIVE size 256 KiB (§1c); docs: 32 MiB SBUF
    psum_bank_bytes: 2048,         // header: 8 banks x 2 KiB from cayman on (see above)
    families: FAMILIES_V4,
    // Everything else as sunda (see CAYMAN_MODEL).
    ..SUNDA_MODEL
};

impl ArchModel {
    /// Whether this target has the encoder family.
    #[inline(always)]
    pub fn has(&self, f: Family) -> bool {
        self.families.contains(f)
    }

    /// SBUF size in bytes (partitions x active bytes).
    pub fn sbuf_bytes(&self) -> u64 {
        self.partitions as u64 * self.sbuf_active_bytes as u64
    }

    /// Whether a 29-bit address lies in the PSUM window. The libwalrus decoder form
    /// `(addr29 - 0x2000000) <= 0x3FFFFF` (bundle-layouts §1c, CERTAIN).
    pub fn in_psum(&self, addr29: u32) -> bool {
        addr29.wrapping_sub(self.psum_base) < self.psum_window
    }

    /// Whether a 29-bit address lies in the SBUF window (`addr_in_sbuf`, §1c).
    pub fn in_sbuf(&self, addr29: u32) -> bool {
        addr29 < self.sbuf_window
    }

    /// `get_sbuf_quadrant_id`: `addr / (STATE_BUF_PARTITION_SIZE * 32)` (§1f).
    pub fn sbuf_quadrant(&self, addr29: u32) -> u32 {
        let size = self.sbuf_partition_stride * self.quadrant_partitions;
        // A shift for the power-of-two quadrant sizes of every target (the validator asks per
        // operand pair); a division only for a custom model.
        if size.is_power_of_two() {
            addr29 >> size.trailing_zeros()
        } else {
            addr29 / size
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_gates() {
        assert!(!SUNDA.has(Family::Mx) && !CAYMAN.has(Family::Mx) && MARIANA.has(Family::Mx));
        assert!(!SUNDA.has(Family::RangeSelect) && CAYMAN.has(Family::RangeSelect));
        assert!(!MARIANA.has(Family::RangeSelect));
        assert!(MARIANA.has(Family::TensorIndirect) && !CAYMAN.has(Family::TensorIndirect));
        // The 4D-slot compute families are on every target.
        for t in Target::ALL {
            assert!(t.model().has(Family::TensorReduce) && t.model().has(Family::AffineSelect));
        }
        assert_eq!(
            FamilySet::of(&[Family::Pool]).union(FamilySet::of(&[Family::Iota])),
            FamilySet::of(&[Family::Iota, Family::Pool])
        );
    }

    #[test]
    fn windows() {
        let a = &MARIANA;
        assert!(a.in_sbuf(0x1ff_ffff) && !a.in_sbuf(0x200_0000));
        assert!(a.in_psum(0x200_0000) && a.in_psum(0x23f_ffff) && !a.in_psum(0x240_0000));
        assert!(!a.in_psum(0x1ff_ffff));
        assert_eq!(a.sbuf_quadrant(32 << 18), 1);
        assert_eq!(a.sbuf_quadrant((32 << 18) - 1), 0);
        assert_eq!(a.sbuf_bytes(), 32 * 1024 * 1024);
        // Docs: SBUF 24 / 28 / 32 MiB (192 / 224 / 256 KiB per partition); PSUM 2 MiB.
        assert_eq!(SUNDA.sbuf_bytes(), 24 << 20);
        assert_eq!(CAYMAN.sbuf_bytes(), 28 << 20);
        for t in Target::ALL {
            let m = t.model();
            assert_eq!(u64::from(m.partitions * m.psum_active_bytes), 2 << 20);
            assert_eq!(m.psum_active_bytes, 16 * 1024);
        }
        assert_eq!("cayman".parse::<Target>().unwrap(), Target::Cayman);
    }
}
