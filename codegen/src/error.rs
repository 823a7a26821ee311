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
    /// An instruction would lower to more bundles than any real one can (a Gather over more
    /// indices than an SBUF partition holds): refused before anything is allocated.
    #[error("the instruction lowers to {needed} bundles; at most {limit} are supported")]
    TooManyBundles {
        /// Bundles the instruction lowers to.
        needed: usize,
        /// The limit ([`crate::bundle::MAX_BUNDLES_PER_INSTRUCTION`]).
        limit: usize,
    },
    /// A custom [`crate::arch::ArchModel`] with a value the encoders divide by set to zero.
    #[error("invalid arch model: {0} is zero")]
    InvalidArchModel(&'static str),
    // GENERATE's ISA check and unpinned lowerings.
    /// GENERATE ran the validator on a bundle it produced (the seed's `runISACheck` before the
    /// write) and a rule failed; nothing is handed out. The diagnostic's bundle index counts from
    /// the instruction's first bundle.
    #[error("ISA check failed: {0}")]
    IsaCheck(crate::validate::Diagnostic),
    /// The lowering needs bundles whose bytes no source pins; the encoder refuses rather than
    /// invent them.
    #[error("{op}: unpinned: {missing}")]
    Unpinned {
        /// The instruction (or the part of its lowering) that cannot be encoded.
        op: &'static str,
        /// The fact no source gives.
        missing: &'static str,
    },
    // 4D-slot compute ops.
    /// A TensorReduce op outside its opcode's class (arith 0x42 / bitvec 0x52).
    #[error("ALU op {op:?} is not in the ALU class of opcode {opcode:#04x}")]
    ReduceOpClass {
        /// The BIR op.
        op: crate::enums::BirAluOp,
        /// The opcode the instruction kind emits.
        opcode: u8,
    },
    /// A CrossLaneReduce op of the other opcode's class (arith 0x7C / bitvec 0x7D).
    #[error("cross-lane reduce op {op:?} belongs to the other opcode than {opcode:#04x}")]
    CrossLaneOpClass {
        /// The op.
        op: crate::model::CrossLaneReduceOp,
        /// The opcode the instruction kind emits.
        opcode: u8,
    },
    /// Two operands (or a generator pattern and an operand) whose element counts must agree.
    #[error("{what}: element counts {left} and {right} must agree")]
    ElementCountMismatch {
        /// The rule, in the header's words.
        what: &'static str,
        /// The first count.
        left: u64,
        /// The second count.
        right: u64,
    },
    /// An element count that does not fit its u32 field.
    #[error("element count {0} does not fit the u32 field")]
    ElementCountOverflow(u64),
    // 3D-slot compute formats.
    /// Rule `gpsimd_no_psum` (the CC assert of the TENSOR_TENSOR encoder, "GPSIMD engine
    /// cannot access PSUM", which holds for every GpSimd instruction: the POOL cores reach SBUF
    /// only): an operand of an instruction on GpSimd starts in PSUM.
    #[error("GPSIMD engine cannot access PSUM: {op} operand {operand} (rule: gpsimd_no_psum)")]
    GpsimdPsum {
        /// The op.
        op: &'static str,
        /// The operand in PSUM.
        operand: &'static str,
    },
    /// An inline immediate of the wrong kind for its field (fp32 on the arithmetic forms,
    /// an integer on the bitvec form and for integer data).
    #[error("{field}: an inline immediate here must be {expected}")]
    ImmKind {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// TENSOR_SCALAR 0x43/0x53/0x93 carry `accumulator_cmd` forced IDLE (header); accumulating
    /// takes the cache-reduce form 0x9A.
    #[error(
        "accumulator_cmd is forced IDLE on TENSOR_SCALAR 0x43/0x53/0x93 (accumulate with 0x9A)"
    )]
    AccumulateNotIdle,
    /// TENSOR_SCALAR op0/op1 mix a bitvec op with an arithmetic one (0x43 and 0x53 each take
    /// one class).
    #[error("TENSOR_SCALAR op0 {0:?} and op1 {1:?} mix the arithmetic and bitvec classes")]
    AluClassMix(crate::enums::BirAluOp, crate::enums::BirAluOp),
    /// A one-dtype format (TENSOR_SCALAR_SELECT `dtype`) given operands of two wire dtypes.
    #[error("{0}: source and destination must have the same dtype")]
    SingleDtype(&'static str),
    /// TENSOR_SCALAR_SELECT: an inline predicate must be 0 or 1 (header).
    #[error("pred_imm: an inline predicate must be 0 or 1, found {0}")]
    PredImmNotBool(u32),
    /// ACTIVATE: the second immediate (+0x2C) is written exactly for the functions of the CC
    /// gate (Prelu, Copy, Reciprocal; bundle-layouts §4x.2).
    #[error(
        "activation {func}: the second immediate `imm` is {} for this function (only prelu, copy \
         and reciprocal take one)",
        if *takes { "required" } else { "not allowed" }
    )]
    ActivationImm {
        /// The function's dialect name.
        func: &'static str,
        /// Whether the function takes the immediate.
        takes: bool,
    },
    // PE, MX, DMA and event encoders.
    /// The MATMUL bundle has no sync band (conflict #8, settled for the CC capstone): the wait
    /// of a Matmul goes on its LDWEIGHTS bundle, an update has nowhere to go.
    #[error(
        "the MATMUL bundle carries no sync band: signal matmul completion with an EventSemaphore"
    )]
    MatmulSyncUpdate,
    /// `psum_accumulate_flags` outside {0, 1, 2, 3, 4, 6} (CC valid set).
    #[error("psum_accumulate_flags {0} not in {{0, 1, 2, 3, 4, 6}}")]
    PsumAccumulateFlags(u8),
    /// `psum_zero_region` outside what the target defines.
    #[error("psum_zero_region {value} not valid on {target} (sunda/cayman: 0; mariana: 0..=3)")]
    PsumZeroRegion {
        /// The value.
        value: u8,
        /// The target.
        target: Target,
    },
    /// The matmul operands do not agree in shape.
    #[error("matmul shape: {0}")]
    MatmulShape(&'static str),
    /// A matmul operand in the wrong memory (weights/moving SBUF, dst PSUM).
    #[error("matmul operand {0} is in the wrong memory (weights/moving in SBUF, dst in PSUM)")]
    MatmulSpace(&'static str),
    /// The PSUM result of a matmul needs a 4-byte dtype (header: fp32, or uint32 for uint8 in).
    #[error("matmul dst dtype {0:?} is not a 4-byte PSUM dtype")]
    MatmulDstDtype(crate::dtype::BirDtype),
    /// `fp32_mode` must be set exactly for fp32 inputs (header PE_FP32MODE), and be High for an
    /// fp32r input (the CC writes fp32r as the fp32 tag with +0x21 = 2).
    #[error("fp32_mode {mode:?} does not fit the moving dtype {dtype:?}")]
    Fp32Mode {
        /// The mode.
        mode: crate::model::PeFp32Mode,
        /// The moving dtype.
        dtype: crate::dtype::BirDtype,
    },
    /// A row/column range that no 4-bit quadrant group mask covers (conflict #14).
    #[error("PE group: partitions {start}..{end} do not fill one 32/64/128-partition group")]
    PeGroup {
        /// First partition.
        start: u32,
        /// One past the last partition.
        end: u32,
    },
    /// An ADDR8 immediate past the assumed 48-bit field.
    #[error("ADDR8 immediate {0:#x} does not fit the 48-bit address field (assumption)")]
    Addr8OutOfRange(u64),
    /// DMA_DIRECT2D memcpy: both sides must move the same bytes.
    #[error("DMA memcpy moves {src} source bytes but {dst} destination bytes")]
    DmaMemcpySize {
        /// Source bytes.
        src: u64,
        /// Destination bytes.
        dst: u64,
    },
    /// A DMA count or element size of zero (header: shape-from-register only, not encodable).
    #[error("DMA {0} is zero")]
    DmaZero(&'static str),
    /// A DMA_INDIRECT1D count past 4096 (header).
    #[error("DMA indirect num_elem {0} exceeds 4096")]
    DmaIndirectNum(u16),
    /// `dma_configs.priority_class` outside 0..=4.
    #[error("DMA priority_class {0} not in 0..=4")]
    DmaPriorityClass(u8),
    /// A `BOUND_CHECK_REG` that is neither inert nor an enabled register < 64.
    #[error("bound check register {0:?} is neither inert nor an enabled register below 64")]
    BoundCheckReg(crate::model::BoundCheckReg),
    /// The DMA_INDIRECT1D index vector placement the validator rejects.
    #[error("DMA indirect {0}")]
    DmaIndirectIndex(&'static str),
    /// EventSemaphore carries its waits and update in its own fields.
    #[error(
        "EventSemaphore takes its waits and update as op fields; the instruction sync must be empty"
    )]
    EventSemaphoreSync,
    /// A QuantizeMx operand the header rules out (the message says which).
    #[error("quantize_mx: {0}")]
    QuantizeMx(&'static str),
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
    /// SB2SB_COLLECTIVE: a TENSOR3D slot past the header's 256 elements.
    #[error("sb2sb_collective {slot}: t3d element count {count} > 256")]
    Sb2sbElementCount {
        /// The slot.
        slot: &'static str,
        /// Its element count.
        count: u64,
    },
    /// TENSOR_DEQUANTIZE: an operand dtype other than UINT32 (header: in and out are UINT32).
    #[error("tensor_dequantize: dtype {0:?} is not uint32")]
    DequantDtype(crate::dtype::BirDtype),
    /// DMA_GATHER_XPOSE: a `gather_dim` past W (3).
    #[error("dma_gather_xpose: gather_dim {0} not in 0..=3")]
    GatherXposeDim(u8),
    /// TENSOR_DEQUANTIZE: a `group_size` other than 0 or 8.
    #[error("tensor_dequantize: group_size {0} not in {{0, 8}}")]
    DequantGroupSize(u8),
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
    /// A bundle sequence that no instruction of the model lowers to
    /// ([`crate::lift::decode_instructions`]).
    #[error("bundle {bundle} (byte offset {offset:#x}): {problem}")]
    Sequence {
        /// Index of the bundle where the sequence departs from encoder output.
        bundle: usize,
        /// Offset of the offending byte from the start of the input.
        offset: usize,
        /// What is wrong.
        problem: SequenceProblem,
    },
}

/// Why a bundle sequence does not lift to an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceProblem {
    /// Byte 0 names no known format.
    UnknownOpcode(u8),
    /// A known format that no op of the instruction model emits (0xBB DMA_INDIRECT1D).
    NoInstruction(u8),
    /// The second half of a micro-pair without its first half (a 0x69 without a 0x6A or 0x6B
    /// before it, a 0x67 without a 0x68, a 0x9B without a 0xBC or 0x9A).
    /// before it, a 0x67 without a 0x68, a 0x9B without a 0xBC, a 0x02 without a 0x01, a 0x0A
    /// without a 0x09).
    Orphan(u8),
    /// The first half of a micro-pair not followed by its second half (`None`: end of input).
    Unpaired {
        /// The first half's opcode.
        opcode: u8,
        /// The opcode that must follow.
        expected: u8,
        /// The opcode found instead.
        found: Option<u8>,
    },
    /// A Gather chunk's continuation flag (0x68 +0x24) is not 0 on the first chunk.
    Continuation(u16),
    /// The number of {0x68, 0x67} chunks is not the one the index's element count needs.
    ChunkCount {
        /// Chunks the decoded index needs.
        needed: usize,
        /// Chunks present.
        found: usize,
    },
    /// The decoded instruction fails an encoder check (the bundles are not encoder output).
    NotEncodable(EncodeError),
    /// Re-encoding the decoded instruction gives a different byte here: the bundles carry
    /// something the instruction model cannot express (a reserved or inert byte, a field the
    /// encoder derives, a non-canonical packing).
    Differs {
        /// The byte the encoder writes.
        expected: u8,
        /// The byte found.
        found: u8,
    },
}

impl std::fmt::Display for SequenceProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |op: u8| crate::formats::by_opcode(op).map_or("?", |fm| fm.mnemonic);
        match *self {
            SequenceProblem::UnknownOpcode(op) => write!(f, "unknown opcode {op:#04x}"),
            SequenceProblem::NoInstruction(op) => write!(
                f,
                "{op:#04x} {} is not emitted by any instruction of the model",
                name(op)
            ),
            SequenceProblem::Orphan(op) => {
                let first = match op {
                    0x69 => "0x6a or 0x6b",
                    0x67 => "0x68",
                    0x02 => "0x01",
                    0x0A => "0x09",
                    _ => "0xbc or 0x9a",
                };
                write!(f, "{op:#04x} {} without its {first} before it", name(op))
            }
            SequenceProblem::Unpaired {
                opcode,
                expected,
                found,
            } => {
                write!(
                    f,
                    "{opcode:#04x} {} must be followed by {expected:#04x} {}, found ",
                    name(opcode),
                    name(expected)
                )?;
                match found {
                    Some(op) => write!(f, "{op:#04x}"),
                    None => f.write_str("the end of the input"),
                }
            }
            SequenceProblem::Continuation(flag) => write!(
                f,
                "gather chunk with continuation flag {flag} where a new gather starts (expected 0)"
            ),
            SequenceProblem::ChunkCount { needed, found } => write!(
                f,
                "the gather index needs {needed} chunk(s) of 512 elements, found {found}"
            ),
            SequenceProblem::NotEncodable(ref e) => {
                write!(f, "the decoded instruction does not encode: {e}")
            }
            SequenceProblem::Differs { expected, found } => write!(
                f,
                "found {found:#04x} where the decoded instruction encodes {expected:#04x} \
                 (not encoder output)"
            ),
        }
    }
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
