//! The instruction model: what the encoders take as input.
//!
//! A backend instruction is an op kind with its operands' access patterns (each carrying a BIR
//! dtype), op-specific fields and optional sync info. A later MLIR `bir` dialect converts into
//! these types, so every field says where on the wire it ends up. The model mirrors the BIR
//! accessors the spec names (`isTensorIndirectDynamicAP`, `getTensorIndirectIndicesAP`,
//! `getNumIndirectIndices`) under their snake-case names.

use crate::dtype::BirDtype;
use crate::enums::{BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode};
use crate::formats;

// 4D-slot compute ops (TensorReduce, TensorCopy, Reciprocal, Memset, Pool, CrossLaneReduce,
// Iota, AffineSelect).
pub mod compute4d;
use crate::formats::compute3d as c3;
use crate::formats::compute4d::opcode as compute4d_opcode;
pub use compute4d::*;
pub mod compute3d;
pub use compute3d::{
    Activation, ActivationReadAccumulator, CopyPredicated, ImmOperand, TensorScalar,
    TensorScalarSelect, TensorTensor, TsForm,
};

// PE, MX, DMA and event ops.
mod pe_dma;
pub use pe_dma::*;

// The `more` group (0xBF, 0xF1, 0x7B, 0x65).
mod more;
pub use more::*;

/// Identifier of a BIR instruction (an access pattern's parent instruction).
pub type InstId = u32;

/// On-chip memory space of an immediate start address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// State buffer: word = partition * 2^18 + byte offset.
    Sbuf,
    /// Partial-sum buffer: word = 0x2000000 + partition * 2^15 + byte offset.
    Psum,
}

/// An immediate start location, folded into the ADDR4 word by `addr4::fold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemLoc {
    /// SBUF or PSUM.
    pub space: Space,
    /// Home (start) partition.
    pub partition: u32,
    /// Byte offset from the start of the home partition; an offset past the partition stride
    /// carries into the partition number exactly as the CC folding does.
    pub offset: u32,
}

/// Where an access pattern starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// A static address.
    Imm(MemLoc),
    /// Register mode: the address is in register `r` (0..63). This is the "dynamic offset" the
    /// indirect encoders' asserts reject.
    Reg(u8),
}

/// One free dimension of a BIR `Pattern[]` entry: step in elements (not bytes) and count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// Signed step in elements (0 = broadcast).
    pub step: i16,
    /// Element count (1..=65535).
    pub num: u16,
}

impl Dim {
    /// A dim.
    pub const fn new(step: i16, num: u16) -> Dim {
        Dim { step, num }
    }
}

/// The most free dims an access pattern has: a BIR `Pattern[]` is the partition axis plus at
/// most four free dims (TENSOR4D, the widest slot, holds four).
pub const MAX_DIMS: usize = 4;

/// Why a [`Dims`] edit failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DimsError {
    /// The edit would make more than [`MAX_DIMS`] dims.
    #[error("an access pattern has at most {MAX_DIMS} free dims")]
    Full,
    /// The index is past the end.
    #[error("dim index {index} is out of range for {len} dims")]
    OutOfRange {
        /// The index.
        index: usize,
        /// The number of dims.
        len: usize,
    },
}

/// The free dims of a static access pattern (`Pattern[1..]`): up to [`MAX_DIMS`] [`Dim`]s,
/// outermost first and innermost last as in BIR, held inline (no allocation).
///
/// Every method numbers the dims outermost first. Build one from an array or a slice
/// (`Dims::from([Dim::new(4, 4), Dim::new(1, 16)])`, `Dims::try_from(slice)`), or start from
/// [`Dims::new`] and [`Dims::try_push`].
///
/// The storage is the layout of a TENSOR4D slot: the steps and the counts as two runs of four
/// 16-bit lanes, innermost in lane 0, the lanes past the last dim holding the unit dim (step 1,
/// count 1). The encoders read a slot's runs straight from it when no dim is a unit dim; two
/// values with the same dims are equal in every byte, so the derived `Eq` and `Hash` compare dims.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    /// Steps as little-endian `i16` lanes.
    steps: [u8; 8],
    /// Counts as little-endian `u16` lanes.
    nums: [u8; 8],
    /// Number of dims (0..=4).
    len: u8,
}

impl Dims {
    /// No dims.
    pub const fn new() -> Dims {
        Dims {
            steps: [1, 0, 1, 0, 1, 0, 1, 0],
            nums: [1, 0, 1, 0, 1, 0, 1, 0],
            len: 0,
        }
    }

    /// Number of dims.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no dims.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lane of dim `i` (outermost first).
    const fn lane(&self, i: usize) -> usize {
        self.len as usize - 1 - i
    }

    /// Reads a lane.
    const fn read(&self, lane: usize) -> Dim {
        let s = [self.steps[2 * lane], self.steps[2 * lane + 1]];
        let n = [self.nums[2 * lane], self.nums[2 * lane + 1]];
        Dim::new(i16::from_le_bytes(s), u16::from_le_bytes(n))
    }

    /// Writes a lane.
    const fn write(&mut self, lane: usize, d: Dim) {
        let [s0, s1] = d.step.to_le_bytes();
        let [n0, n1] = d.num.to_le_bytes();
        self.steps[2 * lane] = s0;
        self.steps[2 * lane + 1] = s1;
        self.nums[2 * lane] = n0;
        self.nums[2 * lane + 1] = n1;
    }

    /// Dim `i` (outermost first), if there is one.
    pub const fn get(&self, i: usize) -> Option<Dim> {
        if i < self.len() {
            Some(self.read(self.lane(i)))
        } else {
            None
        }
    }

    /// Replaces dim `i` (outermost first).
    pub fn set(&mut self, i: usize, d: Dim) -> Result<(), DimsError> {
        if i >= self.len() {
            return Err(DimsError::OutOfRange {
                index: i,
                len: self.len(),
            });
        }
        self.write(self.lane(i), d);
        Ok(())
    }

    /// Appends `d` as the new innermost dim.
    pub fn try_push(&mut self, d: Dim) -> Result<(), DimsError> {
        self.try_insert(self.len(), d)
    }

    /// Inserts `d` before dim `i` (outermost first; `i == len` appends).
    pub fn try_insert(&mut self, i: usize, d: Dim) -> Result<(), DimsError> {
        let len = self.len();
        if i > len {
            return Err(DimsError::OutOfRange { index: i, len });
        }
        if len == MAX_DIMS {
            return Err(DimsError::Full);
        }
        // Dim i sits in lane len - i after the insert: the lanes from there up shift one up.
        let lane = len - i;
        let mut k = len;
        while k > lane {
            let below = self.read(k - 1);
            self.write(k, below);
            k -= 1;
        }
        self.write(lane, d);
        self.len += 1;
        Ok(())
    }

    /// Removes every dim.
    pub fn clear(&mut self) {
        *self = Dims::new();
    }

    /// The dims, outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Dim> + ExactSizeIterator + '_ {
        (0..self.len()).rev().map(|lane| self.read(lane))
    }

    /// The dims in a vector, outermost first.
    pub fn to_vec(&self) -> Vec<Dim> {
        self.iter().collect()
    }

    /// The step and count runs of the lanes as little-endian `u64`s (innermost in the low lane,
    /// unit lanes past the end) and the number of dims: what a TENSORnD slot holds when no dim
    /// is a unit dim.
    #[inline(always)]
    pub(crate) fn runs(&self) -> (u64, u64, usize) {
        (
            u64::from_le_bytes(self.steps),
            u64::from_le_bytes(self.nums),
            self.len as usize,
        )
    }
}

impl Default for Dims {
    fn default() -> Dims {
        Dims::new()
    }
}

impl std::fmt::Debug for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl TryFrom<&[Dim]> for Dims {
    type Error = DimsError;

    /// The dims of a slice (outermost first); `Full` past [`MAX_DIMS`].
    fn try_from(dims: &[Dim]) -> Result<Dims, DimsError> {
        let mut out = Dims::new();
        for &d in dims {
            out.try_push(d)?;
        }
        Ok(out)
    }
}

/// `From` an array of up to [`MAX_DIMS`] dims, outermost first.
macro_rules! dims_from_array {
    ($($k:literal)*) => {$(
        impl From<[Dim; $k]> for Dims {
            fn from(dims: [Dim; $k]) -> Dims {
                let mut out = Dims::new();
                for (i, d) in dims.into_iter().enumerate() {
                    out.write($k - (i + 1), d);
                }
                out.len = $k;
                out
            }
        }
    )*};
}

dims_from_array!(0 1 2 3 4);

/// A static access pattern: BIR `Pattern[0]` is the partition axis (folded into the start
/// address and the active-channels byte), `dims` are `Pattern[1..]`, outermost first and
/// innermost last, as in BIR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StaticAp {
    /// Start address.
    pub start: Start,
    /// Number of partitions (`Pattern[0].num`).
    pub partitions: u32,
    /// Free dims, innermost last.
    pub dims: Dims,
    /// Element dtype.
    pub dtype: BirDtype,
    /// The BIR instruction this AP belongs to.
    pub parent: InstId,
}

impl StaticAp {
    /// An SBUF access pattern starting at (partition, byte offset). `dims` is a [`Dims`] or an
    /// array of up to four [`Dim`]s, outermost first.
    pub fn sbuf(
        partition: u32,
        offset: u32,
        partitions: u32,
        dims: impl Into<Dims>,
        dtype: BirDtype,
    ) -> Self {
        StaticAp {
            start: Start::Imm(MemLoc {
                space: Space::Sbuf,
                partition,
                offset,
            }),
            partitions,
            dims: dims.into(),
            dtype,
            parent: 0,
        }
    }

    /// A PSUM access pattern starting at (partition, byte offset); `dims` as for
    /// [`StaticAp::sbuf`].
    pub fn psum(
        partition: u32,
        offset: u32,
        partitions: u32,
        dims: impl Into<Dims>,
        dtype: BirDtype,
    ) -> Self {
        StaticAp {
            start: Start::Imm(MemLoc {
                space: Space::Psum,
                partition,
                offset,
            }),
            partitions,
            dims: dims.into(),
            dtype,
            parent: 0,
        }
    }

    /// Elements per partition (product of the free dims; 1 for none). At most four factors
    /// below 2^16 cannot overflow.
    pub fn num_elements_per_partition(&self) -> u64 {
        self.dims.iter().map(|d| d.num as u64).product()
    }

    /// Sets the parent instruction.
    pub fn with_parent(mut self, parent: InstId) -> Self {
        self.parent = parent;
        self
    }
}

/// A tensor-indirect access pattern: `out[p][i] = data[p][index[p][i]]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndirectAp {
    /// The data operand (its start address is the DATA ADDR4; its dtype gates the MX x4).
    pub data: StaticAp,
    /// `getTensorIndirectIndicesAP()`: the index vector (its start address is the INDEX ADDR4).
    pub index: StaticAp,
    /// `getNumIndirectIndices()`: the gather count written to NUM.
    pub num_indirect_indices: u32,
    /// `DynamicAPINFO+0xf0`: which argument supplies the indices (MX assert #4 compares it).
    pub index_arg_id: u32,
}

/// An operand access pattern.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AccessPattern {
    /// Static strides.
    Static(StaticAp),
    /// Runtime index vector.
    TensorIndirect(IndirectAp),
}

impl AccessPattern {
    /// `isTensorIndirectDynamicAP()`.
    pub fn is_tensor_indirect_dynamic_ap(&self) -> bool {
        matches!(self, AccessPattern::TensorIndirect(_))
    }

    /// `getTensorIndirectIndicesAP()`.
    pub fn get_tensor_indirect_indices_ap(&self) -> Option<&StaticAp> {
        match self {
            AccessPattern::TensorIndirect(i) => Some(&i.index),
            AccessPattern::Static(_) => None,
        }
    }

    /// `getNumIndirectIndices()`: the base implementation returns 0 (libBIR `xor eax,eax; ret`);
    /// the indirect override returns the gather count.
    pub fn get_num_indirect_indices(&self) -> u32 {
        match self {
            AccessPattern::TensorIndirect(i) => i.num_indirect_indices,
            AccessPattern::Static(_) => 0,
        }
    }

    /// The static part that carries the start address, partitions and dtype (the AP itself for
    /// a static AP, the data operand for an indirect one).
    pub fn base(&self) -> &StaticAp {
        match self {
            AccessPattern::Static(s) => s,
            AccessPattern::TensorIndirect(i) => &i.data,
        }
    }

    /// The element dtype.
    pub fn dtype(&self) -> BirDtype {
        self.base().dtype
    }

    /// The parent instruction (`AP.parentInstr`).
    pub fn parent_instr(&self) -> InstId {
        self.base().parent
    }

    /// Partition count.
    pub fn partitions(&self) -> u32 {
        self.base().partitions
    }

    /// Elements per partition: the static product, or the gather count for an indirect AP.
    pub fn num_elements_per_partition(&self) -> u64 {
        match self {
            AccessPattern::Static(s) => s.num_elements_per_partition(),
            AccessPattern::TensorIndirect(i) => i.num_indirect_indices as u64,
        }
    }

    /// The indirection key MX assert #4 compares (`indexArgId`), if indirect.
    pub fn index_arg_id(&self) -> Option<u32> {
        match self {
            AccessPattern::TensorIndirect(i) => Some(i.index_arg_id),
            AccessPattern::Static(_) => None,
        }
    }
}

impl From<StaticAp> for AccessPattern {
    fn from(s: StaticAp) -> Self {
        AccessPattern::Static(s)
    }
}

impl From<IndirectAp> for AccessPattern {
    fn from(i: IndirectAp) -> Self {
        AccessPattern::TensorIndirect(i)
    }
}

/// The engine an instruction is issued to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Vector engine (DVE).
    Vector,
    /// GpSimd (Pool) engine.
    GpSimd,
    /// Scalar (activation) engine.
    Scalar,
    /// Tensor (PE) engine.
    Tensor,
    /// DMA queues.
    Dma,
    /// The sync engine's sequencer (NKI `engine.sync`): no datapath of its own; it runs
    /// register loads/stores and DMA triggers.
    Sync,
}

// ---- engine names (the NISA dialect's `engine = "..."` spellings)
impl Engine {
    /// Every engine, in declaration order.
    pub const ALL: [Engine; 6] = [
        Engine::Vector,
        Engine::GpSimd,
        Engine::Scalar,
        Engine::Tensor,
        Engine::Dma,
        Engine::Sync,
    ];

    /// The spelling NKI and the NISA dialect write for "let the compiler choose"; it names no
    /// engine, so [`Engine::from_name`] rejects it and an unknown engine is `None` wherever an
    /// `Option<Engine>` is taken.
    pub const UNKNOWN_NAME: &'static str = "unknown";

    /// The NISA dialect spelling (`engine = "vector"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Vector => "vector",
            Engine::GpSimd => "gpsimd",
            Engine::Scalar => "scalar",
            Engine::Tensor => "tensor",
            Engine::Dma => "dma",
            Engine::Sync => "sync",
        }
    }

    /// Parses a NISA dialect spelling of a concrete engine (`"unknown"` is not one).
    pub fn from_name(name: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The public NKI `engine` value (`nki.isa.engine`: unknown=0, tensor=1, scalar=2,
    /// gpsimd=3, dma=4, vector=5, sync=6; compiler-map seed §2.1).
    pub fn nki_code(self) -> u8 {
        match self {
            Engine::Tensor => 1,
            Engine::Scalar => 2,
            Engine::GpSimd => 3,
            Engine::Dma => 4,
            Engine::Vector => 5,
            Engine::Sync => 6,
        }
    }

    /// The engine with NKI value `code`: `Some(None)` for 0 (unknown), `None` past 6.
    pub fn from_nki_code(code: u8) -> Option<Option<Engine>> {
        if code == 0 {
            return Some(None);
        }
        Engine::ALL
            .into_iter()
            .find(|e| e.nki_code() == code)
            .map(Some)
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A semaphore wait: wire bytes +0x04 (mode), +0x05 (index), +0x08 (threshold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncWait {
    /// BIR wait mode.
    pub mode: BirWaitMode,
    /// Semaphore index.
    pub sem: u8,
    /// Threshold (a register id for `SemGeReg`).
    pub value: u32,
}

/// A semaphore update: wire bytes +0x06 (mode), +0x07 (index), +0x08 (value unless inc/dec).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncUpdate {
    /// BIR update mode.
    pub mode: BirUpdateMode,
    /// Semaphore index.
    pub sem: u8,
    /// Operand (ignored for inc/dec).
    pub value: u32,
}

/// Optional sync info. For a multi-bundle sequence the wait goes on the first bundle and the
/// update on the last (an assumption: the seeds do not say which bundle of a pair carries it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SyncInfo {
    /// Wait before issue.
    pub wait: Option<SyncWait>,
    /// Update on completion.
    pub update: Option<SyncUpdate>,
}

/// A scalar operand of RangeSelect's bounds (`IMM_SRC` + `IMM_VAL_INST_FIELD`, header).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarOperand {
    /// An inline fp32 immediate (`IMM_SRC` 0).
    Imm(f32),
    /// A pointer (`PARTITION_OFFSET`) to the value (`IMM_SRC` 1).
    Ptr(u32),
    /// A register holding the pointer (`IMM_SRC` 2).
    RegPtr(u8),
}

/// StreamShuffle: lowers to {0x6A stream_transpose, 0x69 stream_shuffle}.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamShuffle {
    /// Source (0x6A +0x0C and 0x69 +0x0C).
    pub src: AccessPattern,
    /// Destination (0x6A +0x2C; also stored at 0x69 +0x2C, where the lane map overwrites it).
    pub dst: AccessPattern,
    /// Lane map; must have exactly 32 entries. 0xFF = passthrough.
    pub mask: Vec<u8>,
}

/// StreamTranspose: {0x6B} when the dst spans <= 31 partitions, else {0x6B, 0x69}.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamTranspose {
    /// Source; must be static with `num_elem[3] == 1`.
    pub src: AccessPattern,
    /// Destination.
    pub dst: AccessPattern,
    /// Lane map of the 0x69 half (wide path only); must then have 32 entries.
    pub mask: Vec<u8>,
}

/// Gather: one {0x68 reg_load, 0x67 pool_buffer_load} pair per 512-element chunk of the index.
#[derive(Clone, Debug, PartialEq)]
pub struct Gather {
    /// `getArgument(0)`: the data table (0x68 +0x0C); must be static.
    pub data: AccessPattern,
    /// `getArgument(1)`: the index vector (0x67 +0x0C).
    pub index: AccessPattern,
    /// `getOutput()` (0x68 +0x2C).
    pub dst: AccessPattern,
}

/// Dropout 0x7F.
#[derive(Clone, Debug, PartialEq)]
pub struct Dropout {
    /// Source (+0x10 TENSOR3D).
    pub src: AccessPattern,
    /// Destination (+0x30 TENSOR3D).
    pub dst: AccessPattern,
    /// +0x23: index of the threshold in the engine's scalar-operand bank (resolved by the caller).
    pub threshold_imm_ptr: u8,
    /// +0x24: the threshold's dtype.
    pub threshold_dtype: BirDtype,
    /// +0x2B: RNG mode, read by the compiler from a generator-wide setting (`*(this+0xF0)`);
    /// caller-supplied. It selects an RNG variant; it is not the RNG seed.
    pub rng_mode: u8,
    /// The RNG seed to establish ahead of the dropout. The seed document: "there is NO RNG seed
    /// field in the dropout bundle ... the RNG seed/state is established out-of-band by a
    /// separate PseudoSetRngSeed pseudo-instruction (s_rng_opcode) ... a reimplementation must
    /// emit a seed-setter ahead of the dropout". `Some(tile)` (the tile holding the seed values)
    /// asks for that setter; no source pins its opcode or bytes, so the lowering is refused
    /// with [`crate::EncodeError::Unpinned`] in every mode rather than invented. `None`: the
    /// dropout draws from the engine's current RNG stream as an earlier setter (or the runtime)
    /// left it, and the sequence is the single 0x7F bundle. Lifting gives `None` (the 0x7F
    /// bundle carries no seed).
    pub rng_seed: Option<AccessPattern>,
}

/// IndirectCopy 0xE7.
#[derive(Clone, Debug, PartialEq)]
pub struct IndirectCopy {
    /// Must be tensor-indirect; its {index, data, count} is embedded at +0x0C..+0x15.
    pub src: AccessPattern,
    /// Destination (+0x2C TENSOR4D).
    pub dst: AccessPattern,
    /// +0x23 `src_num_elem_per_idx`.
    pub num_elem_per_idx: u8,
    /// +0x26 `src_buffer_size` (u16).
    pub src_buffer_size: u16,
}

/// RangeSelect 0xBC (cayman) with its 0x9B companion.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeSelect {
    /// `getArgument(0)`: on-true data (+0x18 TENSOR2D).
    pub src: AccessPattern,
    /// `getOutput()` (+0x30 TENSOR2D).
    pub dst: AccessPattern,
    /// +0x10: `getArgument(1)`, the integer lower bound the encoder converts to f32 (seed
    /// "LOWER"; the header calls the byte `base`).
    pub lower_bound: i32,
    /// +0x14: `getArgument(2)`, the upper bound, written as raw f32 bits (seed "UPPER"; the
    /// header calls the byte `fill_val` and fixes it to -FLT_MAX; the seed wins).
    pub upper_bound: f32,
    /// +0x24 comparison op 0.
    pub comp_op0: BirAluOp,
    /// +0x25 comparison op 1.
    pub comp_op1: BirAluOp,
    /// +0x26 / +0x28 bound 0.
    pub bound0: ScalarOperand,
    /// +0x27 / +0x2C bound 1.
    pub bound1: ScalarOperand,
    /// +0x0E reduce command.
    pub reduce_cmd: BirAccumulation,
    /// Destination of the 0x9B read-accumulator companion (+0x2C TENSOR1D).
    pub reduce_res: AccessPattern,
}

// IndirectSaveAccumulate (BIR op 46, CoreV2 indirect family, opcode 0xCA).
/// IndirectSaveAccumulate: the scatter back of a gather, `dst[p][index[p][i]] += data[p][i]`
/// (BIR op 46, `InstIndirectSaveAccumulate`). The seed (indirect-gather descriptors) gives its
/// opcode in the CoreV2 indirect family (0xCA, not to be confused with the PSEUDO band's 0xCA
/// PSEUDO_EMBEDDING_UPDATE: a different axis) and says it is "a plain ADDR4 RMW that carries no
/// 0x20 indirect mode bit"; no source gives its byte layout, so GENERATE and RUN_ISA_CHECKS
/// refuse it as unpinned ([`crate::EncodeError::Unpinned`]); COLLECT reports 0xCA. The operand
/// list is this model's reading of that sentence (values, index vector, accumulated table).
#[derive(Clone, Debug, PartialEq)]
pub struct IndirectSaveAccumulate {
    /// The values accumulated.
    pub data: AccessPattern,
    /// The index vector that picks the destination rows.
    pub index: AccessPattern,
    /// The table read, added to and written back.
    pub dst: AccessPattern,
}

/// The op and its operands.
// An explicit one-byte tag: the encoders dispatch on it once per instruction, and a plain tag
// load is cheaper than decoding a niche in an operand's fields.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
pub enum Op {
    /// StreamShuffle.
    StreamShuffle(StreamShuffle),
    /// StreamTranspose.
    StreamTranspose(StreamTranspose),
    /// Gather.
    Gather(Gather),
    /// Dropout.
    Dropout(Dropout),
    /// IndirectCopy.
    IndirectCopy(IndirectCopy),
    /// RangeSelect.
    RangeSelect(RangeSelect),
    // IndirectSaveAccumulate (BIR op 46).
    /// IndirectSaveAccumulate.
    IndirectSaveAccumulate(IndirectSaveAccumulate),
    // 4D-slot compute ops.
    /// TensorReduce, arith opcode 0x42.
    TensorReduceArith(TensorReduce),
    /// TensorReduce, bitvec opcode 0x52.
    TensorReduceBitvec(TensorReduce),
    /// TensorCopy: 0x46 Copy or 0x47 Cast.
    TensorCopy(TensorCopy),
    /// Reciprocal 0x48.
    Reciprocal(Reciprocal),
    /// Memset 0x49.
    Memset(Memset),
    /// Pool 0x45.
    Pool(Pool),
    /// CrossLaneReduce, arith opcode 0x7C.
    CrossLaneReduceArith(CrossLaneReduce),
    /// CrossLaneReduce, bitvec opcode 0x7D.
    CrossLaneReduceBitvec(CrossLaneReduce),
    /// Iota 0x7E.
    Iota(Iota),
    /// TensorScalarAffineSelect 0x92.
    AffineSelect(AffineSelect),
    // 3D-slot compute formats (model::compute3d).
    /// TensorTensor (S3S3D3_TT).
    TensorTensor(TensorTensor),
    /// CopyPredicated / CastPredicated (S3S3D3_TT).
    CopyPredicated(CopyPredicated),
    /// TensorScalar (S3D3_TS and its forms).
    TensorScalar(TensorScalar),
    /// TensorScalarSelect (S3D3_TS_SELECT).
    TensorScalarSelect(TensorScalarSelect),
    /// Activation (ACTIVATE 0x21).
    Activation(Activation),
    /// ActivationReadAccumulator (D1_RD 0x24).
    ActivationReadAccumulator(ActivationReadAccumulator),
    // PE, MX, DMA and event ops.
    /// Matmul {0x01, 0x02}.
    Matmul(Matmul),
    /// MatmulMx {0x09, 0x0A} (mariana).
    MatmulMx(MatmulMx),
    /// QuantizeMx 0xE3 (mariana).
    QuantizeMx(QuantizeMx),
    /// DmaDirect2d 0xB8.
    DmaDirect2d(DmaDirect2d),
    /// DmaIndirect 0xBB.
    DmaIndirect(DmaIndirect),
    /// EventSemaphore 0xA0.
    EventSemaphore(EventSemaphore),
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65) (model::more).
    /// Sb2sbCollective 0xBF.
    Sb2sbCollective(Sb2sbCollective),
    /// TensorDequantize 0x7B.
    TensorDequantize(TensorDequantize),
    /// BatchNormBackProp 0x65.
    BatchNormBackProp(BatchNormBackProp),
    /// DmaGatherTranspose 0xF1.
    DmaGatherTranspose(DmaGatherTranspose),
}

/// The op kinds, with their opcode sequences and engines as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// StreamShuffle.
    StreamShuffle,
    /// StreamTranspose.
    StreamTranspose,
    /// Gather.
    Gather,
    /// Dropout.
    Dropout,
    /// IndirectCopy.
    IndirectCopy,
    /// RangeSelect.
    RangeSelect,
    // IndirectSaveAccumulate (BIR op 46).
    /// IndirectSaveAccumulate.
    IndirectSaveAccumulate,
    // 4D-slot compute ops.
    /// TensorReduce 0x42.
    TensorReduceArith,
    /// TensorReduce 0x52.
    TensorReduceBitvec,
    /// TensorCopy 0x46 / 0x47.
    TensorCopy,
    /// Reciprocal 0x48.
    Reciprocal,
    /// Memset 0x49.
    Memset,
    /// Pool 0x45.
    Pool,
    /// CrossLaneReduce 0x7C.
    CrossLaneReduceArith,
    /// CrossLaneReduce 0x7D.
    CrossLaneReduceBitvec,
    /// Iota 0x7E.
    Iota,
    /// TensorScalarAffineSelect 0x92.
    AffineSelect,
    // 3D-slot compute formats.
    /// TensorTensor.
    TensorTensor,
    /// CopyPredicated.
    CopyPredicated,
    /// TensorScalar.
    TensorScalar,
    /// TensorScalarSelect.
    TensorScalarSelect,
    /// Activation.
    Activation,
    /// ActivationReadAccumulator.
    ActivationReadAccumulator,
    // PE, MX, DMA and event ops.
    /// Matmul.
    Matmul,
    /// MatmulMx.
    MatmulMx,
    /// QuantizeMx.
    QuantizeMx,
    /// DmaDirect2d.
    DmaDirect2d,
    /// DmaIndirect.
    DmaIndirect,
    /// EventSemaphore.
    EventSemaphore,
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
    /// Sb2sbCollective.
    Sb2sbCollective,
    /// TensorDequantize.
    TensorDequantize,
    /// BatchNormBackProp.
    BatchNormBackProp,
    /// DmaGatherTranspose.
    DmaGatherTranspose,
}

/// One row of the op table.
pub struct OpInfo {
    /// Kind.
    pub kind: OpKind,
    /// Name.
    pub name: &'static str,
    /// Every opcode the op can emit (the COLLECT set), in emission order.
    pub opcodes: &'static [u8],
    /// Engine (isa-table §1).
    pub engine: Engine,
    /// Encoder family (arch gate).
    pub family: crate::arch::Family,
}

/// The op table (seed DVE page; engines from isa-table §1). The opcodes of the seed ops are read
/// from the formats' tables.
pub const OPS: [OpInfo; 33] = [
    OpInfo {
        kind: OpKind::StreamShuffle,
        name: "stream_shuffle",
        opcodes: &[
            formats::STREAM_TRANSPOSE_FWD.opcode,
            formats::STREAM_SHUFFLE.opcode,
        ],
        engine: Engine::Vector,
        family: crate::arch::Family::StreamShuffle,
    },
    OpInfo {
        kind: OpKind::StreamTranspose,
        name: "stream_transpose",
        opcodes: &[
            formats::STREAM_TRANSPOSE.opcode,
            formats::STREAM_SHUFFLE.opcode,
        ],
        engine: Engine::Vector,
        family: crate::arch::Family::StreamTranspose,
    },
    OpInfo {
        kind: OpKind::Gather,
        name: "gather",
        opcodes: &[formats::REG_LOAD.opcode, formats::POOL_BUFFER_LOAD.opcode],
        engine: Engine::GpSimd,
        family: crate::arch::Family::Gather,
    },
    OpInfo {
        kind: OpKind::Dropout,
        name: "dropout",
        opcodes: &[formats::DROPOUT.opcode],
        engine: Engine::Vector,
        family: crate::arch::Family::Dropout,
    },
    OpInfo {
        kind: OpKind::IndirectCopy,
        name: "indirect_copy",
        opcodes: &[formats::INDIRECT_COPY.opcode],
        engine: Engine::GpSimd,
        family: crate::arch::Family::IndirectCopy,
    },
    OpInfo {
        kind: OpKind::RangeSelect,
        name: "range_select",
        opcodes: &[
            formats::RANGE_SELECT.opcode,
            formats::DVE_READ_ACCUMULATOR.opcode,
        ],
        engine: Engine::Vector,
        family: crate::arch::Family::RangeSelect,
    },
    // IndirectSaveAccumulate (BIR op 46): opcode 0xCA (seed, CoreV2 indirect family; no field
    // table, so the literal; the ISA table's generic_indirect_save row names the same 0xca). Engine
    // ASSUMPTION: GpSimd, as its gather counterpart IndirectCopy (no source names the engine).
    OpInfo {
        kind: OpKind::IndirectSaveAccumulate,
        name: "indirect_save_accumulate",
        opcodes: &[0xca],
        engine: Engine::GpSimd,
        family: crate::arch::Family::IndirectSaveAccumulate,
    },
    // 4D-slot compute ops; engines are the isa-table §1 defaults (Pool: ASSUMPTION, the Pool
    // engine, which this crate calls GpSimd). Poly-engine ops (tensor_copy, memset) take their
    // default engine only.
    OpInfo {
        kind: OpKind::TensorReduceArith,
        name: "tensor_reduce_arith",
        opcodes: &[compute4d_opcode::TENSOR_REDUCE_ARITH],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorReduce,
    },
    OpInfo {
        kind: OpKind::TensorReduceBitvec,
        name: "tensor_reduce_bitvec",
        opcodes: &[compute4d_opcode::TENSOR_REDUCE_BITVEC],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorReduce,
    },
    OpInfo {
        kind: OpKind::TensorCopy,
        name: "tensor_copy",
        opcodes: &[compute4d_opcode::COPY, compute4d_opcode::CAST],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorCopy,
    },
    OpInfo {
        kind: OpKind::Reciprocal,
        name: "reciprocal",
        opcodes: &[compute4d_opcode::RECIPROCAL],
        engine: Engine::Vector,
        family: crate::arch::Family::Reciprocal,
    },
    OpInfo {
        kind: OpKind::Memset,
        name: "memset",
        opcodes: &[compute4d_opcode::MEMSET],
        engine: Engine::Vector,
        family: crate::arch::Family::Memset,
    },
    OpInfo {
        kind: OpKind::Pool,
        name: "pool",
        opcodes: &[compute4d_opcode::POOL],
        engine: Engine::GpSimd,
        family: crate::arch::Family::Pool,
    },
    OpInfo {
        kind: OpKind::CrossLaneReduceArith,
        name: "cross_lane_reduce_arith",
        opcodes: &[compute4d_opcode::CROSS_LANE_REDUCE_ARITH],
        engine: Engine::GpSimd,
        family: crate::arch::Family::CrossLaneReduce,
    },
    OpInfo {
        kind: OpKind::CrossLaneReduceBitvec,
        name: "cross_lane_reduce_bitvec",
        opcodes: &[compute4d_opcode::CROSS_LANE_REDUCE_BITVEC],
        engine: Engine::GpSimd,
        family: crate::arch::Family::CrossLaneReduce,
    },
    OpInfo {
        kind: OpKind::Iota,
        name: "iota",
        opcodes: &[compute4d_opcode::IOTA],
        engine: Engine::GpSimd,
        family: crate::arch::Family::Iota,
    },
    OpInfo {
        kind: OpKind::AffineSelect,
        name: "tensor_scalar_affine_select",
        opcodes: &[compute4d_opcode::AFFINE_SELECT],
        engine: Engine::GpSimd,
        family: crate::arch::Family::AffineSelect,
    },
    // 3D-slot compute formats (isa-table rows 10/24, 20, 12/14/15/25/38 and 40; 0x98 per
    // bundle-layouts §4.11, a DVE op).
    OpInfo {
        kind: OpKind::TensorTensor,
        name: "tensor_tensor",
        opcodes: &[
            c3::TENSOR_TENSOR_ARITH.opcode,
            c3::TENSOR_TENSOR_BITVEC.opcode,
            c3::TENSOR_TENSOR_ADD_BF16.opcode,
            c3::TENSOR_TENSOR_MULT_BF16.opcode,
            c3::TENSOR_TENSOR_SUB_BF16.opcode,
        ],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorTensor,
    },
    OpInfo {
        kind: OpKind::CopyPredicated,
        name: "copy_predicated",
        opcodes: &[c3::COPY_PREDICATED.opcode, c3::CAST_PREDICATED.opcode],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorTensor,
    },
    OpInfo {
        kind: OpKind::TensorScalar,
        name: "tensor_scalar",
        opcodes: &[
            c3::TENSOR_SCALAR_ARITH.opcode,
            c3::TENSOR_SCALAR_BITVEC.opcode,
            c3::TENSOR_SCALAR_TRANSPOSE.opcode,
            c3::TENSOR_SCALAR_CACHE_REDUCE.opcode,
            formats::DVE_READ_ACCUMULATOR.opcode,
            c3::TENSOR_SCALAR_CACHE_CUMULATIVE.opcode,
            c3::EXPONENTIAL.opcode,
        ],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorScalar,
    },
    OpInfo {
        kind: OpKind::TensorScalarSelect,
        name: "tensor_scalar_select",
        opcodes: &[c3::TENSOR_SCALAR_SELECT.opcode],
        engine: Engine::Vector,
        family: crate::arch::Family::TensorScalarSelect,
    },
    OpInfo {
        kind: OpKind::Activation,
        name: "activation",
        opcodes: &[c3::ACTIVATE.opcode],
        engine: Engine::Scalar,
        family: crate::arch::Family::Activation,
    },
    OpInfo {
        kind: OpKind::ActivationReadAccumulator,
        name: "activation_read_accumulator",
        opcodes: &[c3::ACTIVATION_READ_ACCUMULATOR.opcode],
        engine: Engine::Scalar,
        family: crate::arch::Family::Activation,
    },
    // PE, MX, DMA and event ops (engines: isa-table §1 rows 41/42/8/56/57).
    OpInfo {
        kind: OpKind::Matmul,
        name: "matmul",
        opcodes: &[formats::LDWEIGHTS.opcode, formats::MATMUL.opcode],
        engine: Engine::Tensor,
        family: crate::arch::Family::Matmul,
    },
    OpInfo {
        kind: OpKind::MatmulMx,
        name: "matmul_mx",
        // isa-table conflict 2: one wiki page says 0x02; the header and CC pages give the
        // LdweightsMX/MatmulMX opcodes 0x09/0x0A (provenance: wiki).
        opcodes: &[formats::LDWEIGHTS_MX.opcode, formats::MATMUL_MX.opcode],
        engine: Engine::Tensor,
        family: crate::arch::Family::MatmulMx,
    },
    OpInfo {
        kind: OpKind::QuantizeMx,
        name: "quantize_mx",
        opcodes: &[formats::QUANTIZE_MX.opcode],
        engine: Engine::Vector,
        family: crate::arch::Family::QuantizeMx,
    },
    OpInfo {
        kind: OpKind::DmaDirect2d,
        name: "dma_direct2d",
        opcodes: &[formats::DMA_DIRECT2D.opcode],
        engine: Engine::Dma,
        family: crate::arch::Family::DmaDirect,
    },
    OpInfo {
        kind: OpKind::DmaIndirect,
        name: "dma_indirect",
        opcodes: &[formats::DMA_INDIRECT.opcode],
        engine: Engine::Dma,
        family: crate::arch::Family::DmaIndirect,
    },
    OpInfo {
        kind: OpKind::EventSemaphore,
        name: "event_semaphore",
        opcodes: &[formats::EVENT_SEMAPHORE.opcode],
        // Any engine's queue issues it and the wire does not say which: Vector is only the
        // default (the engine gate accepts every engine for this op).
        engine: Engine::Vector,
        family: crate::arch::Family::EventSemaphore,
    },
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
    OpInfo {
        kind: OpKind::Sb2sbCollective,
        name: "sb2sb_collective",
        opcodes: &[formats::more::SB2SB_COLLECTIVE.opcode],
        // isa-table row 55 send_recv: "real 0xbf SB2SB_COLLECTIVE (gpsimd_dma)", GpSimd.
        engine: Engine::GpSimd,
        family: crate::arch::Family::Sb2sbCollective,
    },
    OpInfo {
        kind: OpKind::TensorDequantize,
        name: "tensor_dequantize",
        opcodes: &[formats::more::TENSOR_DEQUANTIZE.opcode],
        // The seed (compiler-map-emit-to-opcode §3 CORRECTION) puts "the inverse standalone
        // dequant ... TENSOR_DEQUANTIZE 0x7b on POOL", the engine this crate calls GpSimd. The
        // digests name no engine; the seed wins over the Vector (DVE) alternative.
        engine: Engine::GpSimd,
        family: crate::arch::Family::TensorDequantize,
    },
    OpInfo {
        kind: OpKind::BatchNormBackProp,
        name: "batch_norm_back_prop",
        opcodes: &[formats::more::BATCH_NORM_BACK_PROP.opcode],
        // ASSUMPTION: Vector, as the other batch-norm ops (isa-table rows 34/35) and the
        // S3S3D3_TT struct's default engine.
        engine: Engine::Vector,
        family: crate::arch::Family::BatchNormBackProp,
    },
    OpInfo {
        kind: OpKind::DmaGatherTranspose,
        name: "dma_gather_transpose",
        opcodes: &[formats::more::DMA_GATHER_XPOSE.opcode],
        // isa-table row 59 dma_gather_transpose: 0xf1, DMA.
        engine: Engine::Dma,
        family: crate::arch::Family::DmaGatherTranspose,
    },
];

impl Op {
    /// The op kind.
    pub fn kind(&self) -> OpKind {
        match self {
            Op::StreamShuffle(_) => OpKind::StreamShuffle,
            Op::StreamTranspose(_) => OpKind::StreamTranspose,
            Op::Gather(_) => OpKind::Gather,
            Op::Dropout(_) => OpKind::Dropout,
            Op::IndirectCopy(_) => OpKind::IndirectCopy,
            Op::RangeSelect(_) => OpKind::RangeSelect,
            Op::IndirectSaveAccumulate(_) => OpKind::IndirectSaveAccumulate,
            // 4D-slot compute ops.
            Op::TensorReduceArith(_) => OpKind::TensorReduceArith,
            Op::TensorReduceBitvec(_) => OpKind::TensorReduceBitvec,
            Op::TensorCopy(_) => OpKind::TensorCopy,
            Op::Reciprocal(_) => OpKind::Reciprocal,
            Op::Memset(_) => OpKind::Memset,
            Op::Pool(_) => OpKind::Pool,
            Op::CrossLaneReduceArith(_) => OpKind::CrossLaneReduceArith,
            Op::CrossLaneReduceBitvec(_) => OpKind::CrossLaneReduceBitvec,
            Op::Iota(_) => OpKind::Iota,
            Op::AffineSelect(_) => OpKind::AffineSelect,
            // 3D-slot compute formats.
            Op::TensorTensor(_) => OpKind::TensorTensor,
            Op::CopyPredicated(_) => OpKind::CopyPredicated,
            Op::TensorScalar(_) => OpKind::TensorScalar,
            Op::TensorScalarSelect(_) => OpKind::TensorScalarSelect,
            Op::Activation(_) => OpKind::Activation,
            Op::ActivationReadAccumulator(_) => OpKind::ActivationReadAccumulator,
            // PE, MX, DMA and event ops.
            Op::Matmul(_) => OpKind::Matmul,
            Op::MatmulMx(_) => OpKind::MatmulMx,
            Op::QuantizeMx(_) => OpKind::QuantizeMx,
            Op::DmaDirect2d(_) => OpKind::DmaDirect2d,
            Op::DmaIndirect(_) => OpKind::DmaIndirect,
            Op::EventSemaphore(_) => OpKind::EventSemaphore,
            // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
            Op::Sb2sbCollective(_) => OpKind::Sb2sbCollective,
            Op::TensorDequantize(_) => OpKind::TensorDequantize,
            Op::BatchNormBackProp(_) => OpKind::BatchNormBackProp,
            Op::DmaGatherTranspose(_) => OpKind::DmaGatherTranspose,
        }
    }
}

impl OpKind {
    /// The op-table row.
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The ISA-table row ([`crate::isa::ROWS`]) that states the op's legal engines, for the
    /// ops the table has a row of that name for (the TensorTensor and TensorScalar kinds read
    /// their arithmetic rows, the engine-polymorphic ones).
    pub const fn isa_row(self) -> Option<&'static crate::isa::Row> {
        use crate::isa::row_const as r;
        // Each row is looked up by name at compile time (`row_const` searches the table).
        Some(match self {
            OpKind::StreamShuffle => const { r("stream_shuffle") },
            OpKind::StreamTranspose => const { r("stream_transpose") },
            OpKind::Gather => const { r("gather") },
            OpKind::Dropout => const { r("dropout") },
            OpKind::IndirectCopy => const { r("indirect_copy") },
            OpKind::RangeSelect => const { r("range_select") },
            OpKind::TensorReduceArith => const { r("tensor_reduce_arith") },
            OpKind::TensorReduceBitvec => const { r("tensor_reduce_bitvec") },
            OpKind::TensorCopy => const { r("tensor_copy") },
            OpKind::Reciprocal => const { r("reciprocal") },
            OpKind::Memset => const { r("memset") },
            OpKind::CrossLaneReduceArith => const { r("cross_lane_reduce_arith") },
            OpKind::CrossLaneReduceBitvec => const { r("cross_lane_reduce_bitvec") },
            OpKind::Iota => const { r("iota") },
            OpKind::AffineSelect => const { r("tensor_scalar_affine_select") },
            OpKind::TensorTensor => const { r("tensor_tensor_arith") },
            OpKind::CopyPredicated => const { r("copy_predicated") },
            OpKind::TensorScalar => const { r("tensor_scalar_arith") },
            OpKind::Activation => const { r("activation") },
            OpKind::ActivationReadAccumulator => const { r("activation_read_accumulator") },
            OpKind::Matmul => const { r("matmul") },
            OpKind::MatmulMx => const { r("matmul_mx") },
            OpKind::QuantizeMx => const { r("quantize_mx") },
            OpKind::DmaDirect2d => const { r("dma_copy") },
            OpKind::DmaIndirect => const { r("dma_copy_indirect") },
            OpKind::DmaGatherTranspose => const { r("dma_gather_transpose") },
            // No row of the table is this op alone (a BIR-level op, an irbuilder-internal
            // form, or a sync bundle): its one engine is the op table's.
            OpKind::IndirectSaveAccumulate
            | OpKind::Pool
            | OpKind::TensorScalarSelect
            | OpKind::EventSemaphore
            | OpKind::Sb2sbCollective
            | OpKind::TensorDequantize
            | OpKind::BatchNormBackProp => return None,
        })
    }

    /// Whether the op runs on `engine`: one of the legal engines of its ISA-table row
    /// ([`OpKind::isa_row`]; the one statement of which engines an op may run on), or, for an
    /// op without a row, its op-table engine.
    pub const fn runs_on(self, engine: Engine) -> bool {
        // (The encoders' gate reads the compiled form, [`OpKind::runs_on_fast`].)
        match self.isa_row() {
            Some(row) => {
                let mut i = 0;
                while i < row.engines.len() {
                    if row.engines[i] as u8 == engine as u8 {
                        return true;
                    }
                    i += 1;
                }
                false
            }
            None => engine as u8 == OPS[self as usize].engine as u8,
        }
    }
}

impl OpKind {
    /// [`OpKind::runs_on`] read from its compiled form: one engine bit mask per op kind,
    /// evaluated from the ISA rows at build time ([`ENGINE_MASKS`]), so the per-instruction
    /// gate is one load and a bit test instead of a walk of the row's engine list.
    #[inline(always)]
    pub fn runs_on_fast(self, engine: Engine) -> bool {
        ENGINE_MASKS[self as usize] >> (engine as u8) & 1 != 0
    }
}

/// Bit `e` of entry `k` is `OPS[k].kind.runs_on(e)` for `e` an [`Engine`] discriminant: the
/// engine lists of the ISA rows compiled at build time (a unit test compares every entry).
static ENGINE_MASKS: [u8; OPS.len()] = {
    let mut m = [0u8; OPS.len()];
    let mut k = 0;
    while k < OPS.len() {
        // `info()` indexes OPS by kind: the table is in kind order.
        assert!(OPS[k].kind as usize == k, "OPS is in OpKind order");
        let mut i = 0;
        while i < Engine::ALL.len() {
            let e = Engine::ALL[i];
            assert!((e as u8) < 8, "an engine bit fits the mask");
            if OPS[k].kind.runs_on(e) {
                m[k] |= 1 << (e as u8);
            }
            i += 1;
        }
        k += 1;
    }
    m
};

/// A backend instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// BIR instruction id.
    pub id: InstId,
    /// Engine it is issued to.
    pub engine: Engine,
    /// Optional sync.
    pub sync: SyncInfo,
    /// Op and operands.
    pub op: Op,
}

impl Instruction {
    /// An instruction on the op's default engine, without sync.
    pub fn new(op: Op) -> Instruction {
        let engine = op.kind().info().engine;
        Instruction {
            id: 0,
            engine,
            sync: SyncInfo::default(),
            op,
        }
    }

    /// Sets the sync info.
    pub fn with_sync(mut self, sync: SyncInfo) -> Instruction {
        self.sync = sync;
        self
    }
}

// ---------------------------------------------------------------- text

/// One line per instruction: the op name, `id=` and `engine=` when they are not the defaults, the
/// op's fields as `name=value`, then `wait=` / `update=` when present. Values:
///
/// | value | text |
/// |-------|------|
/// | start | `sb[P]+0xOFF`, `ps[P]+0xOFF` or `rN` |
/// | static AP | `DTYPE@START/PARTITIONS[STEP:NUM,..]`, dims outermost first, e.g. `Bfloat16@sb[0]+0x100/64[4:4,1:16]` |
/// | indirect AP | `indirect(data=STATIC,index=STATIC,num=N,arg=A)` |
/// | lane map | the bytes in hex (64 digits for 32 lanes), `-` when empty |
/// | scalar operand | `imm:F`, `ptr:0xP`, `reg:R` |
/// | generator pattern (DATA4D) | `BASE[STEP:NUM,..]`, dims outermost first |
/// | sync | `MODE:SEM:VALUE` |
/// | dropout RNG seed | `rng_seed=STATIC` only when present |
/// | enums, dtypes | their BIR names |
impl std::fmt::Display for Instruction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = self.op.kind().info();
        f.write_str(info.name)?;
        if self.id != 0 {
            write!(f, " id={}", self.id)?;
        }
        if self.engine != info.engine {
            write!(f, " engine={:?}", self.engine)?;
        }
        match &self.op {
            Op::StreamShuffle(o) => {
                write!(f, " src={} dst={} mask={}", o.src, o.dst, Lanes(&o.mask))?
            }
            Op::StreamTranspose(o) => {
                write!(f, " src={} dst={} mask={}", o.src, o.dst, Lanes(&o.mask))?
            }
            Op::Gather(o) => write!(f, " data={} index={} dst={}", o.data, o.index, o.dst)?,
            Op::Dropout(o) => {
                write!(
                    f,
                    " src={} dst={} threshold_imm_ptr={} threshold_dtype={:?} rng_mode={}",
                    o.src, o.dst, o.threshold_imm_ptr, o.threshold_dtype, o.rng_mode
                )?;
                if let Some(seed) = &o.rng_seed {
                    write!(f, " rng_seed={seed}")?;
                }
            }
            Op::IndirectSaveAccumulate(o) => {
                write!(f, " data={} index={} dst={}", o.data, o.index, o.dst)?
            }
            Op::IndirectCopy(o) => write!(
                f,
                " src={} dst={} num_elem_per_idx={} src_buffer_size={}",
                o.src, o.dst, o.num_elem_per_idx, o.src_buffer_size
            )?,
            Op::RangeSelect(o) => write!(
                f,
                " src={} dst={} lower_bound={} upper_bound={:?} comp_op0={:?} comp_op1={:?} \
                 bound0={} bound1={} reduce_cmd={:?} reduce_res={}",
                o.src,
                o.dst,
                o.lower_bound,
                o.upper_bound,
                o.comp_op0,
                o.comp_op1,
                o.bound0,
                o.bound1,
                o.reduce_cmd,
                o.reduce_res
            )?,
            // 4D-slot compute ops.
            Op::TensorReduceArith(o) | Op::TensorReduceBitvec(o) => o.fmt_fields(f)?,
            Op::TensorCopy(o) => write!(f, " src={} dst={}", o.src, o.dst)?,
            Op::Reciprocal(o) => write!(f, " src={} dst={}", o.src, o.dst)?,
            Op::Memset(o) => o.fmt_fields(f)?,
            Op::Pool(o) => o.fmt_fields(f)?,
            Op::CrossLaneReduceArith(o) | Op::CrossLaneReduceBitvec(o) => o.fmt_fields(f)?,
            Op::Iota(o) => o.fmt_fields(f)?,
            Op::AffineSelect(o) => o.fmt_fields(f)?,
            // 3D-slot compute formats.
            Op::TensorTensor(o) => o.fmt_fields(f)?,
            Op::CopyPredicated(o) => o.fmt_fields(f)?,
            Op::TensorScalar(o) => o.fmt_fields(f)?,
            Op::TensorScalarSelect(o) => o.fmt_fields(f)?,
            Op::Activation(o) => o.fmt_fields(f)?,
            Op::ActivationReadAccumulator(o) => o.fmt_fields(f)?,
            // PE, MX, DMA and event ops.
            Op::Matmul(_)
            | Op::MatmulMx(_)
            | Op::QuantizeMx(_)
            | Op::DmaDirect2d(_)
            | Op::DmaIndirect(_)
            | Op::EventSemaphore(_) => pe_dma::fmt_fields(&self.op, f)?,
            // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
            Op::Sb2sbCollective(_)
            | Op::TensorDequantize(_)
            | Op::BatchNormBackProp(_)
            | Op::DmaGatherTranspose(_) => more::fmt_fields(&self.op, f)?,
        }
        if let Some(w) = self.sync.wait {
            write!(f, " wait={:?}:{}:{}", w.mode, w.sem, w.value)?;
        }
        if let Some(u) = self.sync.update {
            write!(f, " update={:?}:{}:{}", u.mode, u.sem, u.value)?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Start {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Start::Imm(MemLoc {
                space,
                partition,
                offset,
            }) => {
                let s = if space == Space::Sbuf { "sb" } else { "ps" };
                write!(f, "{s}[{partition}]+{offset:#x}")
            }
            Start::Reg(r) => write!(f, "r{r}"),
        }
    }
}

impl std::fmt::Display for StaticAp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{}/{}[", self.dtype, self.start, self.partitions)?;
        for (i, d) in self.dims.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{}:{}", d.step, d.num)?;
        }
        f.write_str("]")
    }
}

impl std::fmt::Display for AccessPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccessPattern::Static(s) => s.fmt(f),
            AccessPattern::TensorIndirect(i) => write!(
                f,
                "indirect(data={},index={},num={},arg={})",
                i.data, i.index, i.num_indirect_indices, i.index_arg_id
            ),
        }
    }
}

impl std::fmt::Display for ScalarOperand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ScalarOperand::Imm(x) => write!(f, "imm:{x:?}"),
            ScalarOperand::Ptr(p) => write!(f, "ptr:{p:#x}"),
            ScalarOperand::RegPtr(r) => write!(f, "reg:{r}"),
        }
    }
}

/// A lane map in hex, `-` when empty.
struct Lanes<'a>(&'a [u8]);

impl std::fmt::Display for Lanes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiled engine masks answer what the ISA rows' engine lists answer.
    #[test]
    fn engine_masks_are_the_rows_compiled() {
        for o in OPS.iter() {
            for e in Engine::ALL {
                assert_eq!(
                    o.kind.runs_on_fast(e),
                    o.kind.runs_on(e),
                    "{} {e:?}",
                    o.name
                );
            }
        }
    }

    #[test]
    fn op_table_is_indexed_by_kind() {
        for (i, o) in OPS.iter().enumerate() {
            assert_eq!(o.kind as usize, i);
        }
    }

    #[test]
    fn text_form() {
        let inst = Instruction::new(Op::Dropout(Dropout {
            src: AccessPattern::Static(StaticAp::sbuf(
                0,
                0x100,
                64,
                [Dim::new(4, 4), Dim::new(1, 16)],
                BirDtype::Bfloat16,
            )),
            dst: AccessPattern::Static(StaticAp::psum(1, 0x40, 64, [], BirDtype::Float32)),
            threshold_imm_ptr: 3,
            threshold_dtype: BirDtype::Float32,
            rng_mode: 1,
            rng_seed: None,
        }));
        assert_eq!(
            inst.to_string(),
            "dropout src=Bfloat16@sb[0]+0x100/64[4:4,1:16] dst=Float32@ps[1]+0x40/64[] \
             threshold_imm_ptr=3 threshold_dtype=Float32 rng_mode=1"
        );
    }

    #[test]
    fn dims_are_a_fixed_capacity_list() {
        let (a, b, c) = (Dim::new(4, 4), Dim::new(-1, 16), Dim::new(7, 1));
        let mut d = Dims::new();
        assert!(d.is_empty());
        d.try_push(a).unwrap();
        d.try_push(c).unwrap();
        d.try_insert(1, b).unwrap();
        assert_eq!(d.to_vec(), vec![a, b, c]);
        assert_eq!(d, Dims::from([a, b, c]));
        assert_eq!(Dims::try_from(&[a, b, c][..]), Ok(d));
        assert_eq!(format!("{d:?}"), format!("{:?}", [a, b, c]));
        assert_eq!((d.get(0), d.get(2), d.get(3)), (Some(a), Some(c), None));
        d.set(2, a).unwrap();
        assert_eq!(d.to_vec(), vec![a, b, a]);
        assert_eq!(d.set(3, a), Err(DimsError::OutOfRange { index: 3, len: 3 }));
        assert_eq!(
            d.try_insert(4, a),
            Err(DimsError::OutOfRange { index: 4, len: 3 })
        );
        d.try_insert(0, c).unwrap();
        assert_eq!(d.to_vec(), vec![c, a, b, a]);
        assert_eq!(d.try_push(a), Err(DimsError::Full));
        assert_eq!(Dims::try_from(&[a; 5][..]), Err(DimsError::Full));
        // The lanes: innermost first, unit lanes past the end.
        let d = Dims::from([a, b]);
        assert_eq!(d.runs(), (0x0001_0001_0004_ffff, 0x0001_0001_0004_0010, 2));
        let mut e = d;
        e.clear();
        assert_eq!(e, Dims::default());
        assert_eq!(e.runs(), (0x0001_0001_0001_0001, 0x0001_0001_0001_0001, 0));
    }

    #[test]
    fn base_num_indirect_is_zero() {
        let s = StaticAp::sbuf(0, 0, 1, [Dim::new(1, 4)], BirDtype::Float32);
        let ap = AccessPattern::Static(s.clone());
        assert_eq!(ap.get_num_indirect_indices(), 0);
        assert!(!ap.is_tensor_indirect_dynamic_ap());
        let ind = AccessPattern::TensorIndirect(IndirectAp {
            data: s.clone(),
            index: s,
            num_indirect_indices: 7,
            index_arg_id: 1,
        });
        assert_eq!(ind.get_num_indirect_indices(), 7);
        assert!(ind.get_tensor_indirect_indices_ap().is_some());
    }
}
