//! Error values. Nothing in this crate panics on bad input: every assert of the spec is an
//! [`EncodeError`] whose `Display` text is the spec's assert string verbatim, and the decoder and
//! assembler return [`DecodeError`] / [`ParseError`].

use thiserror::Error;

use crate::arch::{Family, Target};

/// An encoder failure. Variants marked "spec assert" print the spec's string exactly.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EncodeError {
    /// Spec assert (assignAccess3D/4D/MX, index ADDR4 byte 3 vs the granularity mask).
    #[error("TODO: support Tensor Indirect Indices AP to have dynamic offset")]
    IndicesDynamicOffset,
    /// Spec assert (assignAccess3D/4D/MX, data ADDR4 byte 7).
    #[error("TODO: support Tensor Indirect Data AP to have dynamic offset")]
    DataDynamicOffset,
    /// Spec assert (assignIndirectPatternForMX, scale ADDR4 byte 0xB).
    #[error("TODO: support MX scale AP to have dynamic offset")]
    MxScaleDynamicOffset,
    /// Spec assert (MX #1).
    #[error("MX DataAP and ScaleAP are not from the same parent instruction")]
    MxParentMismatch,
    /// Spec assert (MX #2).
    #[error("DataAP must be a Tensor Indirect AP")]
    MxDataNotIndirect,
    /// Spec assert (MX #3).
    #[error(
        "If the argument of matmult MX is indirect, the corresponding scale should also have indirection"
    )]
    MxScaleNotIndirect,
    /// Spec assert (MX #4).
    #[error(
        "Furthermore, the corresponding scale must have exactly the same indirection as the argument"
    )]
    MxScaleIndirectionMismatch,
    /// Spec assert (StreamShuffle / StreamTranspose 0x69 half).
    #[error("Mask.size() == 32")]
    MaskSize,
    /// Spec assert (StreamTranspose guard A).
    #[error("STREAM_TRANSPOSE cannot have TensorIndirect AP as src")]
    TransposeIndirectSrc,
    /// Spec assert (StreamTranspose guard B).
    #[error("instr.src_mem_pattern.num_elem[3] == 1")]
    TransposeNumElem3,
    /// Spec assert (Gather pre-amble, DATA AP).
    #[error("TODO: support POOL_BUFFER_LOAD with TensorIndirect AP once ISA supports it")]
    PoolBufferLoadIndirect,
    /// Spec assert (IndirectCopy guard). The spec itself truncates the string with an ellipsis.
    #[error("INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not …")]
    IndirectCopyNotIndirect,
    /// Spec assert (RangeSelect).
    #[error("fill_val in RangeSelect must be float MAX_NEG")]
    FillValNotMaxNeg,
    /// Spec assert (RangeSelect `NeuronAssertion`).
    #[error("inNumEles == outNumEles")]
    NumElesMismatch,
    /// The StreamShuffle 0x6A guard "both element counts nonzero" (the spec gives no string).
    #[error("stream transpose element counts must be nonzero (d4_tr_transpose_src_dst_count)")]
    TransposeZeroCount,
    /// CC assert string of the ADDR4 encoder.
    #[error("memory address out of uint32 range")]
    AddressOutOfU32,
    /// The MX scale resolver is SBUF-only (CC string).
    #[error("MX Scale Tensor can only be in SB")]
    MxScaleNotSbuf,
    /// A folded start address falls outside the SBUF/PSUM window or the active partition bytes.
    #[error(
        "start address (partition {partition}, byte offset {offset:#x}) is outside the {space} window"
    )]
    AddressOutsideWindow {
        /// "SBUF" or "PSUM".
        space: &'static str,
        /// Home partition.
        partition: u32,
        /// Byte offset.
        offset: u32,
    },
    /// Register ids must be < 64 (bundle-layouts §1a).
    #[error("address register r{0} out of range (0..63)")]
    RegisterOutOfRange(u8),
    /// An access pattern spans zero or more than the target's partitions.
    #[error("partition count {0} out of range (1..=128)")]
    PartitionCount(u32),
    /// Packing rule: at most N non-degenerate free dims fit TENSORnD.
    #[error(
        "TENSOR{n}D access pattern must be [1, {n}]D after dropping unit dims; found {found} free dims"
    )]
    TooManyDims {
        /// Slot rank.
        n: u8,
        /// Non-unit free dims found.
        found: usize,
    },
    /// Validators reject `num_elem == 0`.
    #[error("access pattern dim has num_elem 0")]
    ZeroNumElem,
    /// A count does not fit the u16 NUM field (the compiler truncates silently; this crate refuses).
    #[error("count {0} does not fit the u16 NUM field")]
    CountOverflow(u32),
    /// The op's encoder family is absent on the target.
    #[error("target {target} has no {family:?} encoder")]
    NotOnTarget {
        /// Target.
        target: Target,
        /// Missing family.
        family: Family,
    },
    /// The op runs on another engine.
    #[error("{op} does not run on the {engine:?} engine")]
    EngineMismatch {
        /// Op mnemonic.
        op: &'static str,
        /// Requested engine.
        engine: crate::model::Engine,
    },
    /// A BIR dtype has no wire code usable here (e.g. a DTYPE_PAIR nibble needs code <= 0xF).
    #[error("dtype {0:?} cannot be encoded in this field")]
    DtypeNotEncodable(crate::dtype::BirDtype),
    /// A BIR ALU op has no wire byte on this core, or is not legal in this field.
    #[error("ALU op {0:?} cannot be encoded in this field")]
    AluNotEncodable(crate::enums::BirAluOp),
    /// A BIR accumulation type has no wire byte, or is not legal in this field.
    #[error("accumulation {0:?} cannot be encoded in this field")]
    AccumNotEncodable(crate::enums::BirAccumulation),
    /// Wait threshold and update value both need the shared +0x08 dword with different values.
    #[error("sync wait threshold {wait:#x} and update value {update:#x} share the +0x08 dword")]
    SyncValueConflict {
        /// Wait threshold.
        wait: u32,
        /// Update value.
        update: u32,
    },
    /// A TENSOR1D/2D slot (no indirect sibling) was given a TensorIndirect AP.
    #[error("{0} is a plain TENSOR slot and cannot hold a TensorIndirect AP")]
    StaticOnly(&'static str),
    /// A static MX access pattern must be 1-D with step +1 or -1 (MXMEM_PATTERN1D).
    #[error("MXMEM_PATTERN1D needs a 1-D access pattern with step +1 or -1")]
    MxStaticShape,
    /// The output slice is too short.
    #[error("output buffer holds {available} bundles, {needed} needed")]
    OutputFull {
        /// Bundles needed.
        needed: usize,
        /// Bundles available.
        available: usize,
    },
}

/// A decoder failure on a 64-byte bundle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// Byte 0 names no known format.
    #[error("unknown opcode {0:#04x}")]
    UnknownOpcode(u8),
    /// The input is not a whole number of 64-byte bundles.
    #[error(
        "truncated input: {trailing} trailing bytes at byte offset {offset:#x} (bundles are 64 bytes)"
    )]
    Truncated {
        /// Offset of the partial bundle.
        offset: usize,
        /// Its length.
        trailing: usize,
    },
}

/// An assembler failure, located by 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{col}: {msg}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}
