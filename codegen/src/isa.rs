//! The ISA table: the one statement of which TPB opcodes each NISA op selects to.
//!
//! [`ROWS`] has one [`Row`] per NISA op the selector can meet: the 62 `emit_*` mnemonics of
//! isa-table.md §1 (spelled as the NISA dialect spells them), the six `_nki_irbuilder` extras
//! (`rand2`, `rng`, `rand_get_state`, `rand_set_state`, `set_rng_seed`, `dma_compute`), the
//! public NKI functions without an emit builder (`nc_transpose`, `core_barrier`) and the three
//! generic loads/stores, which never reach selection (their row names the pass that lowers
//! them). A row holds the legal engines, the default engine, the oldest target, the
//! dtype rule and an ordered list of [`Case`]s: the first case whose conditions hold gives the
//! BIR op, the opcode sequence ([`Seq`]) and any ALU byte override. Every fact carries its
//! [`Source`]; every conflict settled for it is a comment or `note` next to it.
//!
//! Nothing here restates a bundle layout. Whether a row's *encoding* is pinned is derived:
//! every opcode its sequence can emit on a target must have a field table in
//! [`formats::by_opcode`] whose family the target has ([`crate::ArchModel::has`]), so rows
//! become pinned as formats are added. [`select`] answers the selector's question (which
//! opcodes, which engine, which ALU byte); [`Selection::require_pinned`] adds the encoder's
//! (can this crate write the bytes). A value no source pins is never invented: selecting it
//! fails with [`SelectError::Unpinned`] naming the missing fact.
//!
//! The encoders read the same rows: [`dispatch`] is the case choice alone (no engine
//! resolution, legality or dtype rule, which the encoders check with their own errors), so
//! the TensorTensor, CopyPredicated, TensorScalar and TensorCopy encoders, COLLECT and the
//! validator's bf16 rule take their opcodes, and the GpSimd int32 ALU byte, from here.

use crate::arch::{ArchModel, CoreGen, Family, Target};
use crate::bundle::OpcodeSet;
use crate::dtype::BirDtype;
use crate::enums::{BirAluOp, alu_to_wire};
use crate::formats;
use crate::model::{Engine, TsForm};
use crate::{TRANSPOSE_WIDE_PARTITIONS, gather_chunks};

use BirAluOp as A;
use BirDtype as D;

/// Where a fact comes from: the marks of isa-table.md plus the bundle-layouts precedence
/// classes. Precedence on conflict: `Seed`, then `Header`, then `CompilerWiki`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A seed document (`spec/`); wins every conflict.
    Seed,
    /// Header-derived (GPSIMD wiki, compile-verified structs).
    Header,
    /// The neuronx-cc compiler wiki (CC) only.
    CompilerWiki,
    /// isa-table's `wiki` mark: the third-party GPSIMD wiki's opcode roster, unverified.
    Wiki,
    /// AWS's own public code (nkipy) or the official NKI docs.
    Aws,
    /// The name equals a public `nki.isa` / `nki.collectives` function.
    Api,
    /// No source: this crate's assumption, stated in the row's note.
    Assumption,
}

impl Source {
    /// The mark as isa-table.md writes it (`compiler wiki` for CC facts).
    pub fn name(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Header => "header",
            Source::CompilerWiki => "compiler wiki",
            Source::Wiki => "wiki",
            Source::Aws => "aws",
            Source::Api => "api",
            Source::Assumption => "assumption",
        }
    }
}

/// The oldest target a row or case exists on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinTarget {
    /// Every modelled target.
    Any,
    /// This target and later ones (by core generation).
    From(Target),
    /// Only a target this crate does not model (e.g. maverick, CoreV5): never selectable.
    Unmodelled(&'static str),
}

impl MinTarget {
    /// Whether `t` is at or past the minimum.
    pub fn admits(self, t: Target) -> bool {
        match self {
            MinTarget::Any => true,
            MinTarget::From(m) => t.model().core >= m.model().core,
            MinTarget::Unmodelled(_) => false,
        }
    }
}

/// How an unknown engine (`engine = "unknown"`, a `None` in [`SelectQuery::engine`]) resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultEngine {
    /// The emit signature's `engine=` default (for single-engine rows, that engine).
    Emit(Engine),
    /// The `tensor_tensor` front-end rule (compiler-map seed §4.4, NKI tensor_ops.py:104-115):
    /// GpSimd when the op is add/subtract/mult, dst and both inputs are int32/uint32 and no
    /// operand is in PSUM; otherwise the emit default, Vector.
    TensorTensorRule,
    /// No default and no rule: the engine must be given (the register ops run on whichever
    /// sequencer the kernel names).
    Required,
    /// The op takes no engine (host side).
    NoEngine,
}

/// Which operand dtypes a row accepts. Checked on the dtypes the query gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DtypeRule {
    /// No rule here (the dialect verifier checks the op's dtype classes).
    Any,
    /// No input may be float32r: the header structs' `in_dtype` excludes FP32R ("output
    /// only", isa-table §4); dst may be float32r.
    NoFp32rIn,
    /// Every operand is an integer (bit-vector ops work on raw integer bits).
    Int,
    /// Every input is one of these; the text says who requires it.
    InputsIn(&'static [BirDtype], &'static str),
}

/// A condition of a [`Case`]. Conditions reading a query field the query leaves `None` make
/// [`select`] fail with [`SelectError::Incomplete`] rather than guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// The target is one of these.
    On(&'static [Target]),
    /// The resolved engine is this one.
    Engine(Engine),
    /// The resolved engine is not this one.
    NotEngine(Engine),
    /// The query's ALU op (`op` / `op0`) is one of these.
    Alu(&'static [BirAluOp]),
    /// dst and every input (the row's [`Row::inputs`]) have one of these dtypes.
    AllDtypes(&'static [BirDtype]),
    /// dst or some input has one of these dtypes.
    AnyDtype(&'static [BirDtype]),
    /// dst's dtype differs from the first input's.
    DtypeChanges,
    /// [`SelectQuery::accumulate`].
    Accumulates,
    /// [`SelectQuery::transpose`].
    Transposes,
    /// dst spans at least [`TRANSPOSE_WIDE_PARTITIONS`] partitions.
    WideDst,
    /// [`SelectQuery::needs_rng_seed`].
    NeedsRngSeed,
    /// [`SelectQuery::gpsimd_dma`].
    GpsimdDma,
    /// [`SelectQuery::indirect`].
    Indirect,
}

/// The opcode sequence of a case, in emission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seq {
    /// These opcodes, once.
    Ops(&'static [u8]),
    /// These opcodes once per 512-element chunk of the index ([`gather_chunks`]).
    PerChunk(&'static [u8]),
    /// No selectable sequence: a fact is missing. `named` lists opcodes the sources name for
    /// this case (legal on its BIR op) without pinning the sequence.
    Missing {
        /// Opcodes the sources name for the case.
        named: &'static [u8],
        /// The missing fact.
        missing: &'static str,
    },
    /// Never reaches selection: `pass` rewrites the op first; `named` lists the opcodes of the
    /// BIR op it may become.
    Lowered {
        /// The pass flag.
        pass: &'static str,
        /// Opcodes of the lowered form.
        named: &'static [u8],
    },
}

impl Seq {
    /// Every opcode the sequence names.
    pub fn named(&self) -> &'static [u8] {
        match *self {
            Seq::Ops(o) | Seq::PerChunk(o) => o,
            Seq::Missing { named, .. } | Seq::Lowered { named, .. } => named,
        }
    }

    /// The opcodes emitted when the case is selected (none for `Missing` / `Lowered`).
    pub fn emitted(&self) -> &'static [u8] {
        match *self {
            Seq::Ops(o) | Seq::PerChunk(o) => o,
            Seq::Missing { .. } | Seq::Lowered { .. } => &[],
        }
    }
}

/// The ALU byte a case forces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluByte {
    /// None: the encoder maps the op with [`alu_to_wire`].
    Plain,
    /// The op is implied by the row (no `op` attribute): this op's wire byte.
    Implied(BirAluOp),
    /// The GpSimd int32 override of [`GPSIMD_INT32_ALU`] where the op has an entry.
    GpsimdInt32,
}

/// One case of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// Conditions, all of which must hold; empty = always. Target and engine conditions come
    /// first, so a case for another target never asks for an operand fact.
    pub when: &'static [When],
    /// The BIR op (`dialects/src/bir.rs` name) the case produces, if there is one.
    pub bir: Option<&'static str>,
    /// The opcode sequence.
    pub seq: Seq,
    /// ALU byte override.
    pub alu: AluByte,
    /// The oldest target the case exists on (beyond the row's).
    pub min: MinTarget,
    /// Sources of the case's opcode facts.
    pub source: &'static [Source],
    /// Conflicts settled and other remarks.
    pub note: &'static str,
}

/// One row of the ISA table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// NISA mnemonic (`dialects/src/nisa.rs` spelling).
    pub name: &'static str,
    /// Row number of isa-table.md §1 (1..=62); `None` for the irbuilder extras and the
    /// generic loads/stores.
    pub emit: Option<u8>,
    /// Legal engines (empty: the op takes none).
    pub engines: &'static [Engine],
    /// How an unknown engine resolves.
    pub default: DefaultEngine,
    /// Oldest target.
    pub min: MinTarget,
    /// Per-engine floors past [`Row::min`]: on this engine the op needs this target or a
    /// later one (the PRNG ops: rng on GpSimd from v3, the XORWOW state transfers on Vector
    /// from v4). [`Row::min_on`] combines the two.
    pub engine_min: &'static [(Engine, Target)],
    /// How many input dtypes the cases read (`src[0..inputs]` of the query).
    pub inputs: u8,
    /// Dtype rule.
    pub dtypes: DtypeRule,
    /// Cases, in evaluation order; the last one is unconditional.
    pub cases: &'static [Case],
    /// Sources of the row (op name, engine).
    pub source: &'static [Source],
    /// Conflicts settled and other remarks.
    pub note: &'static str,
}

/// The GpSimd int32 `tensor_tensor` ALU override (bundle-layouts §4x.1 "GPSIMD int32
/// override", CC 59659692757, CERTAIN): `(op, sunda byte, cayman/mariana byte)`. CC gives the
/// CoreV2 form for add and mult only and the CoreV3 band for all five; an op without an entry
/// keeps its plain byte (CC forces only these). ASSUMPTION: mariana uses the CoreV3 band.
/// The opcode stays 0x41: the seed (`compiler-map-emit-to-opcode`, the engine rule "->
/// TENSOR_TENSOR_ARITH 0x41 on POOL" and S3 "the opcode does not change with engine") pins it.
/// CONFLICT settled for the seed: the CC wiki's walrus encoder also rewrites the opcode to
/// 0x8A/0x8E; that is not followed (0x8a is sunda's bf16 add, 0x8e is not emitted).
pub const GPSIMD_INT32_ALU: [(BirAluOp, Option<u8>, u8); 5] = [
    (A::Add, Some(0xc4), 0xc4),
    (A::Subtract, None, 0xc6),
    (A::Mult, Some(0xc5), 0xc5),
    (A::Divide, None, 0xc7),
    (A::ModInt, None, 0xc8),
];

// ---------------------------------------------------------------- row building blocks

const ALL_SEQUENCERS: &[Engine] = &[
    Engine::Tensor,
    Engine::Scalar,
    Engine::GpSimd,
    Engine::Dma,
    Engine::Vector,
    Engine::Sync,
];
const VEC: &[Engine] = &[Engine::Vector];
const POOL: &[Engine] = &[Engine::GpSimd];
const ACT: &[Engine] = &[Engine::Scalar];
const PE: &[Engine] = &[Engine::Tensor];
const DMA: &[Engine] = &[Engine::Dma];
const VEC_POOL: &[Engine] = &[Engine::Vector, Engine::GpSimd];
const VEC_ACT_POOL: &[Engine] = &[Engine::Vector, Engine::Scalar, Engine::GpSimd];

const SEED: &[Source] = &[Source::Seed];
const SEED_AWS: &[Source] = &[Source::Seed, Source::Aws];
const SEED_WIKI: &[Source] = &[Source::Seed, Source::Wiki];
const API: &[Source] = &[Source::Api];
const API_WIKI: &[Source] = &[Source::Api, Source::Wiki];
const AWS_WIKI: &[Source] = &[Source::Aws, Source::Wiki];
const WIKI: &[Source] = &[Source::Wiki];
const CC: &[Source] = &[Source::CompilerWiki];

const WIDE_INT: &[BirDtype] = &[D::Int64, D::Uint64];
const MAVERICK: MinTarget = MinTarget::Unmodelled("maverick (CoreV5)");

/// A case with a plain ALU byte and no target floor of its own.
const fn case(
    when: &'static [When],
    bir: Option<&'static str>,
    seq: Seq,
    source: &'static [Source],
    note: &'static str,
) -> Case {
    Case {
        when,
        bir,
        seq,
        alu: AluByte::Plain,
        min: MinTarget::Any,
        source,
        note,
    }
}

/// The single unconditional case `opcodes` of BIR op `bir`.
const fn only(bir: &'static str, opcodes: &'static [u8], source: &'static [Source]) -> Case {
    case(&[], Some(bir), Seq::Ops(opcodes), source, "")
}

/// A row on fixed engines with the first engine as default and no target floor.
#[allow(clippy::too_many_arguments)]
const fn entry(
    name: &'static str,
    emit: Option<u8>,
    engines: &'static [Engine],
    inputs: u8,
    dtypes: DtypeRule,
    cases: &'static [Case],
    source: &'static [Source],
    note: &'static str,
) -> Row {
    Row {
        name,
        emit,
        engines,
        default: DefaultEngine::Emit(engines[0]),
        min: MinTarget::Any,
        engine_min: &[],
        inputs,
        dtypes,
        cases,
        source,
        note,
    }
}

/// A collective: GpSimd (the collective spine), lowered into the PSEUDO band.
const fn collective(name: &'static str, emit: u8, source: &'static [Source]) -> Row {
    entry(
        name,
        Some(emit),
        POOL,
        0,
        DtypeRule::Any,
        &[COLLECTIVE_CASE],
        source,
        "",
    )
}

const COLLECTIVE_CASE: Case = case(
    &[],
    Some("collective"),
    Seq::Missing {
        // isa-table §1 rows 43-52 name these as examples of the band (0xc8
        // PSEUDO_TRIGGER_COLLECTIVE, 0xdc PSEUDO_GID_LOAD, 0xde PSEUDO_TENSOR_COMPLETION).
        named: &[0xc8, 0xdc, 0xde],
        missing: "collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, \
                  translated by the runtime): no public byte layout and no per-op pseudo \
                  sequence is recovered",
    },
    SEED,
    "the PSEUDO names shadow real opcodes (0xca PSEUDO_EMBEDDING_UPDATE vs 0x79 \
     EMBEDDING_UPDATE, 0xcd/0xce vs 0xab/0xaa): keep the axes apart",
);

const TR_NOTE: &str = "CONFLICT #3 (bundle-layouts §6) settled for the header: 0x42/0x52 are \
                       S4D4_TR free-axis reduces, 0x7c/0x7d S4D4_CR cross-lane reduces (a CC \
                       page has them reversed)";

/// The ISA table.
pub static ROWS: &[Row] = &[
    // ---- GpSimd ------------------------------------------------------------------------------
    entry(
        "iota",
        Some(1),
        POOL,
        0,
        DtypeRule::Any,
        &[only("iota", &[0x7e], API_WIKI)],
        API_WIKI,
        "",
    ),
    entry(
        "tensor_scalar_affine_select",
        Some(2),
        POOL,
        1,
        DtypeRule::Any,
        &[only("tensor_scalar_affine_select", &[0x92], SEED)],
        SEED,
        "0x92 is not 0x98 TENSOR_SCALAR_SELECT (the data-predicate select): never bind by the \
         word select",
    ),
    entry(
        "cross_lane_reduce_arith",
        Some(3),
        POOL,
        1,
        DtypeRule::NoFp32rIn,
        &[only("cross_lane_reduce", &[0x7c], SEED)],
        SEED_AWS,
        TR_NOTE,
    ),
    entry(
        "cross_lane_reduce_bitvec",
        Some(4),
        POOL,
        1,
        DtypeRule::Int,
        &[only("cross_lane_reduce", &[0x7d], SEED)],
        SEED,
        TR_NOTE,
    ),
    entry(
        "gather",
        Some(5),
        POOL,
        2,
        DtypeRule::Any,
        &[case(
            &[],
            Some("gather"),
            Seq::PerChunk(&[0x68, 0x67]),
            SEED,
            "{0x68 reg_load, 0x67 pool_buffer_load} per 512-element chunk of the index: \
             ceil(n / 512) chunks (the seed's floor would emit nothing below 512; see \
             gather_chunks). An empty index is an error, as in the encoder (ZeroNumElem)",
        )],
        SEED,
        "nc_n_gather; within one partition, uint32 indices",
    ),
    entry(
        "indirect_copy",
        Some(6),
        POOL,
        1,
        DtypeRule::Any,
        &[only("indirect_copy", &[0xe7], SEED)],
        SEED,
        "public name local_gather is a trap: this is not GATHER 0x68",
    ),
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[],
        ..entry(
            "nonzero_with_count",
            Some(7),
            POOL,
            1,
            DtypeRule::Any,
            &[only("nonzero_with_count", &[0xf2], API_WIKI)],
            API_WIKI,
            "NeuronCore v3+ (NKI docs)",
        )
    },
    Row {
        min: MinTarget::From(Target::Mariana),
        engine_min: &[],
        ..entry(
            "quantize_mx",
            Some(8),
            VEC,
            1,
            DtypeRule::InputsIn(
                &[D::Bfloat16, D::Float16],
                "S3DMX1_QUANT in_dtype is FP16 or BFLOAT16 (header)",
            ),
            &[only("quantize_mx", &[0xe3], SEED)],
            SEED,
            "Vector, not GpSimd; never 0x7b TENSOR_DEQUANTIZE (no forward producer)",
        )
    },
    entry(
        "sequence_bounds",
        Some(9),
        POOL,
        1,
        DtypeRule::Any,
        &[only("get_sequence_bounds", &[0xbe], API_WIKI)],
        API_WIKI,
        "",
    ),
    // ---- Vector / GpSimd elementwise ----------------------------------------------------------
    Row {
        default: DefaultEngine::TensorTensorRule,
        ..entry(
            "tensor_tensor_arith",
            Some(10),
            VEC_POOL,
            2,
            DtypeRule::NoFp32rIn,
            &[
                Case {
                    min: MAVERICK,
                    ..case(
                        &[When::AnyDtype(WIDE_INT)],
                        Some("tensor_tensor"),
                        Seq::Ops(&[0xf3]),
                        SEED,
                        "TENSOR_TENSOR_INT_WIDE 0xf3 is maverick-only and not byte-pinned: 64-bit \
                         integer elementwise ops are refused (pass-rules §9)",
                    )
                },
                case(
                    &[
                        When::On(&[Target::Sunda]),
                        When::Alu(&[A::Add]),
                        When::AllDtypes(&[D::Bfloat16]),
                    ],
                    Some("tensor_tensor"),
                    Seq::Ops(&[0x8a]),
                    SEED,
                    "TENSOR_TENSOR_ADD_BF16, a sunda lowering target; condition (dst and both \
                     inputs bf16) from pass-rules §9",
                ),
                case(
                    &[
                        When::On(&[Target::Sunda]),
                        When::Alu(&[A::Mult]),
                        When::AllDtypes(&[D::Bfloat16]),
                    ],
                    Some("tensor_tensor"),
                    Seq::Ops(&[0x8b]),
                    SEED,
                    "TENSOR_TENSOR_MULT_BF16 (sunda)",
                ),
                case(
                    &[
                        When::On(&[Target::Sunda]),
                        When::Alu(&[A::Subtract]),
                        When::AllDtypes(&[D::Bfloat16]),
                    ],
                    Some("tensor_tensor"),
                    Seq::Ops(&[0x8f]),
                    SEED,
                    "TENSOR_TENSOR_SUB_BF16 (sunda)",
                ),
                Case {
                    alu: AluByte::GpsimdInt32,
                    source: &[Source::Seed, Source::CompilerWiki],
                    ..case(
                        &[When::Engine(Engine::GpSimd), When::AllDtypes(&[D::Int32])],
                        Some("tensor_tensor"),
                        Seq::Ops(&[0x41]),
                        SEED,
                        "CONFLICT settled for the seed (pass-rules §11.4): CC gives opcodes \
                         0x8a/0x8e for GpSimd int32, the seed 0x41 on POOL (0x8a is sunda's bf16 \
                         add); the ALU byte comes from the integer band (CC), GPSIMD_INT32_ALU",
                    )
                },
                case(
                    &[],
                    Some("tensor_tensor"),
                    Seq::Ops(&[0x41]),
                    SEED,
                    "the engine never changes the opcode: 0x41 on Vector or GpSimd",
                ),
            ],
            SEED_AWS,
            "emit default Vector; unknown resolves by the int32 GpSimd rule. Refused elsewhere \
             (sundial-resolve-engine): GpSimd with a PSUM operand, both inputs in PSUM",
        )
    },
    entry(
        "tensor_tensor_power",
        Some(11),
        POOL,
        2,
        DtypeRule::NoFp32rIn,
        &[Case {
            alu: AluByte::Implied(A::Pow),
            ..case(
                &[],
                Some("tensor_tensor"),
                Seq::Ops(&[0x41]),
                AWS_WIKI,
                "0x41 with ALU POW 0x1a (header: POW is Pool only)",
            )
        }],
        AWS_WIKI,
        "",
    ),
    entry(
        "tensor_scalar_arith",
        Some(12),
        VEC_ACT_POOL,
        1,
        DtypeRule::NoFp32rIn,
        &[
            Case {
                min: MAVERICK,
                ..case(
                    &[When::AnyDtype(WIDE_INT)],
                    Some("tensor_scalar"),
                    Seq::Ops(&[0xf4]),
                    SEED,
                    "TENSOR_SCALAR_INT_WIDE 0xf4 is maverick-only and not byte-pinned",
                )
            },
            case(
                &[When::Accumulates, When::Transposes],
                Some("tensor_scalar"),
                Seq::Missing {
                    named: &[],
                    missing: "the opcode of a tensor_scalar that both transposes and \
                              accumulates (CC states the 0x93 and 0x9a forks only one at a time)",
                },
                CC,
                "",
            ),
            case(
                &[When::Accumulates, When::NotEngine(Engine::Vector)],
                Some("tensor_scalar_cache"),
                Seq::Missing {
                    named: &[],
                    missing: "an accumulating tensor_scalar off Vector (the trailing 0x9b \
                              read-out is the Vector accumulator's; no source gives another \
                              engine's form)",
                },
                CC,
                "",
            ),
            case(
                &[When::Accumulates],
                Some("tensor_scalar_cache"),
                Seq::Ops(&[0x9a, 0x9b]),
                CC,
                "CC generateTensorScalarOrPtr: two outputs or accumulation -> 0x9a and a \
                 trailing DveReadAccumulator 0x9b",
            ),
            case(
                &[When::Transposes],
                Some("tensor_scalar"),
                Seq::Ops(&[0x93]),
                CC,
                "apply_transpose -> 0x93 (CC)",
            ),
            case(
                &[],
                Some("tensor_scalar"),
                Seq::Ops(&[0x43]),
                SEED,
                "the same opcode on Vector, Scalar or GpSimd",
            ),
        ],
        SEED_AWS,
        "emit default Vector (isa-table §1). Front-end policy left to sundial-resolve-engine: \
         GpSimd only for rsqrt, Scalar on cayman only (mult,add), (mult,-), (add,-)",
    ),
    entry(
        "tensor_scalar_addr",
        Some(13),
        POOL,
        1,
        DtypeRule::Any,
        &[only("tensor_scalar", &[0x74], WIKI)],
        SEED_WIKI,
        "engine from the seed (irbuilder docstring: Gpsimd), opcode 0x74 from the wiki",
    ),
    entry(
        "tensor_scalar_cache_reduce",
        Some(14),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[case(
            &[],
            Some("tensor_scalar_cache"),
            Seq::Ops(&[0x9a, 0x9b]),
            &[Source::Seed, Source::CompilerWiki],
            "0x9a (seed) with the trailing 0x9b read-out of reduce_res (CC: an accumulating \
             tensor_scalar); the accumulating form by definition",
        )],
        SEED,
        "Vector, not GpSimd (seed CORRECTION)",
    ),
    entry(
        "tensor_scalar_cache_cumulative",
        Some(15),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[only("tensor_scalar_cache", &[0xe6], SEED)],
        SEED,
        "Vector, not GpSimd (seed CORRECTION)",
    ),
    entry(
        "tensor_tensor_scan",
        Some(16),
        VEC,
        2,
        DtypeRule::Any,
        &[only("tensor_tensor_scan", &[0xe5], API_WIKI)],
        API_WIKI,
        "",
    ),
    entry(
        "scalar_tensor_tensor_arith",
        Some(17),
        VEC,
        2,
        DtypeRule::Any,
        &[only("scalar_tensor_tensor", &[0x9d], WIKI)],
        WIKI,
        "",
    ),
    entry(
        "scalar_tensor_tensor_bitvec",
        Some(18),
        VEC,
        2,
        DtypeRule::Int,
        &[only("scalar_tensor_tensor", &[0x9e], WIKI)],
        WIKI,
        "",
    ),
    entry(
        "select_reduce",
        Some(19),
        VEC,
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::Accumulates],
                Some("select_reduce"),
                Seq::Ops(&[0xea, 0x9b]),
                &[Source::Wiki, Source::Assumption],
                "ASSUMPTION: a reduce into reduce_res is read out by a trailing 0x9b, as \
                 RangeSelect's and TensorScalar's are (no source states it for 0xea)",
            ),
            only("select_reduce", &[0xea], API_WIKI),
        ],
        API_WIKI,
        "",
    ),
    entry(
        "copy_predicated",
        Some(20),
        VEC,
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::DtypeChanges],
                Some("copy_predicated"),
                Seq::Ops(&[0x99]),
                &[Source::Header, Source::Assumption],
                "ASSUMPTION: a dtype-changing predicated copy is CAST_PREDICATED 0x99 (header: \
                 same S3S3D3_TT struct as 0x72), by analogy with tensor_copy's 0x46/0x47",
            ),
            only("copy_predicated", &[0x72], WIKI),
        ],
        WIKI,
        "",
    ),
    entry(
        "memset",
        Some(21),
        VEC_POOL,
        0,
        DtypeRule::Any,
        // The opcode number: 0x49 Memset in the CC opcode enum (bundle-layouts §3a).
        &[only("memset", &[0x49], CC)],
        SEED_AWS,
        "Vector or GpSimd, never DMA (seed: \"Memset engine can only be Vector or GpSIMD or \
         Unknown.\"); emit default Vector (pass-rules §2)",
    ),
    entry(
        "tensor_copy",
        Some(22),
        VEC_ACT_POOL,
        1,
        DtypeRule::NoFp32rIn,
        &[
            case(
                &[When::DtypeChanges],
                Some("tensor_copy"),
                Seq::Ops(&[0x47]),
                CC,
                "CAST: CC visitInstTensorCopy, opcode = (src dtype != dst dtype) + 0x46",
            ),
            case(
                &[],
                Some("tensor_copy"),
                Seq::Ops(&[0x46]),
                CC,
                "COPY: in dtype == out dtype (header: Copy requires it)",
            ),
        ],
        AWS_WIKI,
        "emit default Vector (isa-table §1); Scalar on sunda is refused by \
         sundial-resolve-engine (NKI docs)",
    ),
    entry(
        "reciprocal",
        Some(23),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[only("reciprocal", &[0x48], AWS_WIKI)],
        AWS_WIKI,
        "",
    ),
    entry(
        "tensor_tensor_bitvec",
        Some(24),
        VEC,
        2,
        DtypeRule::Int,
        &[only("tensor_tensor", &[0x51], WIKI)],
        WIKI,
        "CC: 0x51 when bir::isBitVecInstruction",
    ),
    entry(
        "tensor_scalar_bitvec",
        Some(25),
        VEC,
        1,
        DtypeRule::Int,
        &[only("tensor_scalar", &[0x53], WIKI)],
        WIKI,
        "",
    ),
    entry(
        "tensor_reduce_arith",
        Some(26),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[only("tensor_reduce", &[0x42], AWS_WIKI)],
        AWS_WIKI,
        TR_NOTE,
    ),
    entry(
        "tensor_reduce_bitvec",
        Some(27),
        VEC,
        1,
        DtypeRule::Int,
        &[only("tensor_reduce", &[0x52], WIKI)],
        WIKI,
        TR_NOTE,
    ),
    entry(
        "dve_read_accumulator",
        Some(28),
        VEC,
        0,
        DtypeRule::Any,
        &[only("read_accumulator", &[0x9b], SEED_WIKI)],
        SEED_WIKI,
        "also RangeSelect's companion; its format's family is RangeSelect's, so today it is \
         pinned where RangeSelect is",
    ),
    entry(
        "max8",
        Some(29),
        VEC,
        1,
        DtypeRule::Any,
        &[only("max8", &[0x6c], SEED)],
        SEED,
        "",
    ),
    entry(
        "find_index8",
        Some(30),
        VEC,
        2,
        DtypeRule::Any,
        &[only("find_index8", &[0x6e], SEED)],
        SEED,
        "",
    ),
    entry(
        "max_index_and_match_replace",
        Some(31),
        VEC,
        2,
        DtypeRule::Any,
        &[only("match_replace8", &[0x6f], WIKI)],
        WIKI,
        "",
    ),
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[],
        ..entry(
            "range_select",
            Some(32),
            VEC,
            1,
            DtypeRule::NoFp32rIn,
            &[only("range_select", &[0xbc, 0x9b], SEED)],
            SEED,
            "CoreV3 encoder; the seed says CoreV3-only while the header defines S2D2_RS on \
             mariana too: arch.rs settles for the seed (no RangeSelect family on mariana), so \
             the row is unpinned there",
        )
    },
    entry(
        "dropout",
        Some(33),
        VEC,
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::NeedsRngSeed],
                Some("dropout"),
                Seq::Missing {
                    named: &[0x7f],
                    missing: "the seed-setter PseudoSetRngSeed (s_rng_opcode) that must precede \
                              an unseeded dropout: the seed names it but gives no opcode",
                },
                SEED,
                "the dropout bundle has no seed field; the seed is set out of band",
            ),
            only("dropout", &[0x7f], SEED),
        ],
        SEED,
        "",
    ),
    entry(
        "bn_stats",
        Some(34),
        VEC,
        1,
        DtypeRule::Any,
        &[only("bn_stats", &[0x61], API_WIKI)],
        API_WIKI,
        "",
    ),
    entry(
        "bn_aggr",
        Some(35),
        VEC,
        1,
        DtypeRule::Any,
        &[only("bn_aggr", &[0x62], API_WIKI)],
        API_WIKI,
        "",
    ),
    entry(
        "stream_shuffle",
        Some(36),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[only("stream_shuffle", &[0x6a, 0x69], SEED)],
        SEED,
        "CONFLICT #1 (isa-table §5) settled for the seed: 0x6a is the transpose half and 0x69 \
         the shuffle half (the wiki roster: 0x69 LOAD_MASK_SELECT, 0x6a STREAM_SHUFFLE)",
    ),
    entry(
        "stream_transpose",
        Some(37),
        VEC,
        1,
        DtypeRule::NoFp32rIn,
        &[
            case(
                &[When::WideDst],
                Some("stream_transpose"),
                Seq::Ops(&[0x6b, 0x69]),
                SEED,
                "dst partitions >= 32 (seed: cmp ebx,0x1f)",
            ),
            only("stream_transpose", &[0x6b], SEED),
        ],
        SEED,
        "0x6b standalone transpose (CONFLICT #1 as for stream_shuffle)",
    ),
    Row {
        min: MinTarget::From(Target::Mariana),
        engine_min: &[],
        ..entry(
            "exponential",
            Some(38),
            VEC,
            1,
            DtypeRule::Any,
            &[only("exponential", &[0x30], API_WIKI)],
            API_WIKI,
            "NeuronCore v4",
        )
    },
    // ---- Scalar (activation) ---------------------------------------------------------------------
    entry(
        "activation",
        Some(39),
        ACT,
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::On(&[Target::Mariana])],
                Some("activation"),
                Seq::Ops(&[0x25]),
                CC,
                "CC opcode enum: CoreV4 emits 0x25 ACTIVATE2 for activation (isa-table §1 gives \
                 0x21 with no target; no source disagrees on v4)",
            ),
            only("activation", &[0x21], AWS_WIKI),
        ],
        AWS_WIKI,
        "",
    ),
    entry(
        "activation_read_accumulator",
        Some(40),
        ACT,
        0,
        DtypeRule::Any,
        &[only("read_accumulator", &[0x24], WIKI)],
        WIKI,
        "",
    ),
    // ---- Tensor (PE) -----------------------------------------------------------------------------
    entry(
        "matmul",
        Some(41),
        PE,
        2,
        DtypeRule::Any,
        &[only("matmult", &[0x01, 0x02], AWS_WIKI)],
        AWS_WIKI,
        "LDWEIGHTS 0x01 then MATMUL 0x02",
    ),
    Row {
        min: MinTarget::From(Target::Mariana),
        engine_min: &[],
        ..entry(
            "matmul_mx",
            Some(42),
            PE,
            2,
            DtypeRule::Any,
            &[case(
                &[],
                Some("matmult_mx"),
                Seq::Ops(&[0x09, 0x0a]),
                WIKI,
                "CONFLICT #2 (isa-table §5), unsettled: one wiki page says 0x02, others \
                 LDWEIGHTS_MX 0x09 + MATMUL_MX 0x0a (CC: WORD[0] = 0x1009 / 0x100a); the \
                 majority reading is kept and the row is unpinned until a format lands",
            )],
            WIKI,
            "",
        )
    },
    // ---- collectives (PSEUDO band) --------------------------------------------------------------
    collective("all_reduce", 43, &[Source::Seed, Source::Api]),
    collective("all_gather", 44, &[Source::Seed, Source::Api]),
    collective("reduce_scatter", 45, &[Source::Seed, Source::Api]),
    collective("all_to_all", 46, &[Source::Seed, Source::Api]),
    collective("all_to_all_v", 47, &[Source::Seed, Source::Api]),
    collective("collective_permute", 48, &[Source::Seed, Source::Api]),
    collective(
        "collective_permute_implicit",
        49,
        &[Source::Seed, Source::Api],
    ),
    collective(
        "collective_permute_implicit_reduce",
        50,
        &[Source::Seed, Source::Api],
    ),
    collective(
        "collective_permute_implicit_current_processing_rank_id",
        51,
        &[Source::Seed, Source::Api],
    ),
    collective("rank_id", 52, &[Source::Seed, Source::Api]),
    collective("collective_permute_reduce", 53, WIKI),
    collective("rank_id_store", 54, WIKI),
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[],
        ..entry(
            "send_recv",
            Some(55),
            POOL,
            1,
            DtypeRule::Any,
            &[
                case(
                    &[When::GpsimdDma],
                    Some("sb2sb_collective"),
                    Seq::Ops(&[0xbf]),
                    SEED,
                    "dma_engine = gpsimd_dma: the real SB2SB_COLLECTIVE 0xbf",
                ),
                case(
                    &[],
                    Some("collective"),
                    Seq::Missing {
                        named: &[],
                        missing: "send_recv over the shared DMA (dma_engine = dma) lowers into \
                                  the PSEUDO band, which has no public byte layout",
                    },
                    &[Source::Seed, Source::Wiki],
                    "",
                ),
            ],
            SEED_WIKI,
            "LNC2, NeuronCore v3+",
        )
    },
    // ---- DMA -------------------------------------------------------------------------------------
    entry(
        "dma_copy",
        Some(56),
        DMA,
        1,
        DtypeRule::Any,
        &[only("dma_copy", &[0xb8], AWS_WIKI)],
        AWS_WIKI,
        "DMAMEMCPY / DMA_DIRECT2D",
    ),
    entry(
        "dma_copy_indirect",
        Some(57),
        DMA,
        1,
        DtypeRule::Any,
        &[only("dma_indirect", &[0xbb], SEED)],
        SEED_AWS,
        "",
    ),
    entry(
        "dma_transpose",
        Some(58),
        DMA,
        1,
        DtypeRule::Any,
        &[only("dma_transpose", &[0xbd], AWS_WIKI)],
        AWS_WIKI,
        "",
    ),
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[],
        ..entry(
            "dma_gather_transpose",
            Some(59),
            DMA,
            1,
            DtypeRule::Any,
            &[only("dma_transpose", &[0xf1], WIKI)],
            WIKI,
            "DMA_GATHER_XPOSE, NeuronCore v3+",
        )
    },
    // ---- registers / host --------------------------------------------------------------------------
    Row {
        default: DefaultEngine::Required,
        ..entry(
            "load_register",
            Some(60),
            ALL_SEQUENCERS,
            1,
            DtypeRule::Any,
            &[only("register_load", &[0x4a], WIKI)],
            WIKI,
            "0x4a REG_LOAD is not the seed's 0x68 reg_load (Gather's first half, the format \
             named reg_load here); the seed's reg_load validator dispatches on 0x4a too",
        )
    },
    Row {
        default: DefaultEngine::Required,
        ..entry(
            "store_register",
            Some(61),
            ALL_SEQUENCERS,
            0,
            DtypeRule::Any,
            &[case(
                &[],
                None,
                Seq::Missing {
                    named: &[],
                    missing: "no source gives the register-store opcode (isa-table: \"register \
                              store\")",
                },
                WIKI,
                "",
            )],
            WIKI,
            "",
        )
    },
    Row {
        name: "device_print",
        emit: Some(62),
        engines: &[],
        default: DefaultEngine::NoEngine,
        min: MinTarget::Any,
        engine_min: &[],
        inputs: 1,
        dtypes: DtypeRule::Any,
        cases: &[case(
            &[],
            None,
            Seq::Missing {
                named: &[],
                missing: "device_print is host side (nl.device_print): no device instruction",
            },
            API,
            "",
        )],
        source: API,
        note: "",
    },
    // ---- irbuilder methods outside the 62 (seed) ------------------------------------------------------
    // The PRNG engines and floors: nki-semantics (the NKI API docs of nki.isa.rand2, rng,
    // rand_get_state / rand_set_state and set_rng_seed). The dialect verifier reads them from
    // these rows.
    Row {
        min: MinTarget::From(Target::Mariana),
        ..entry(
            "rand2",
            None,
            VEC,
            0,
            DtypeRule::Any,
            &[only("rng", &[0xe2], SEED)],
            &[Source::Seed, Source::Aws],
            "Vector only, NeuronCore v4 (NKI docs: rand2 draws from the Vector engine's XORWOW \
             stream); an earlier row listed GpSimd too",
        )
    },
    Row {
        engine_min: &[(Engine::GpSimd, Target::Cayman)],
        ..entry(
            "rng",
            None,
            VEC_POOL,
            0,
            DtypeRule::Int,
            &[only("rng", &[0x4d], SEED)],
            &[Source::Seed, Source::Aws],
            "emit default Vector; GpSimd from NeuronCore v3 (NKI docs)",
        )
    },
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[(Engine::Vector, Target::Mariana)],
        ..entry(
            "rand_get_state",
            None,
            &[Engine::GpSimd, Engine::Vector],
            0,
            DtypeRule::Any,
            &[only("rand_state", &[0x77], SEED)],
            &[Source::Seed, Source::Aws],
            "emit default GpSimd; NeuronCore v3 or newer, on Vector v4 or newer (NKI docs)",
        )
    },
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[(Engine::Vector, Target::Mariana)],
        ..entry(
            "rand_set_state",
            None,
            &[Engine::GpSimd, Engine::Vector],
            1,
            DtypeRule::Any,
            &[only("rand_state", &[0x78], SEED)],
            &[Source::Seed, Source::Aws],
            "emit default GpSimd; NeuronCore v3 or newer, on Vector v4 or newer (NKI docs)",
        )
    },
    entry(
        "set_rng_seed",
        None,
        VEC,
        1,
        DtypeRule::Any,
        &[case(
            &[],
            None,
            Seq::Missing {
                named: &[],
                missing: "PseudoSetRngSeed (s_rng_opcode): the seed names the pseudo-instruction \
                          but gives no opcode",
            },
            SEED,
            "",
        )],
        SEED,
        "Vector only (NKI docs: set_rng_seed seeds the Vector engine's generator; GpSimd's state is \
         set with rand_set_state); an earlier row listed GpSimd too",
    ),
    entry(
        "dma_compute",
        None,
        DMA,
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::Indirect],
                Some("dma_indirect"),
                Seq::Ops(&[0xbb]),
                &[Source::Header, Source::Assumption],
                "ASSUMPTION: a gather/scatter read-modify-write is DMA_INDIRECT1D with \
                 compute_op (header field +60)",
            ),
            case(
                &[],
                Some("dma_copy"),
                Seq::Ops(&[0xb8]),
                &[Source::Header, Source::Assumption],
                "ASSUMPTION: a direct sum is DMA_DIRECT2D with compute_op (header field +15)",
            ),
        ],
        SEED,
        "reduce_op add only (front-end policy; the firmware has more)",
    ),
    // ---- public nki.isa / nki.lnc functions outside the emit builders ------------------------------
    Row {
        default: DefaultEngine::Required,
        ..entry(
            "nc_transpose",
            None,
            &[Engine::Tensor, Engine::Vector],
            1,
            DtypeRule::NoFp32rIn,
            &[
                case(
                    &[When::Engine(Engine::Vector), When::WideDst],
                    Some("stream_transpose"),
                    Seq::Ops(&[0x6b, 0x69]),
                    SEED,
                    "on Vector: the stream_transpose pair when dst spans >= 32 partitions",
                ),
                case(
                    &[When::Engine(Engine::Vector)],
                    Some("stream_transpose"),
                    Seq::Ops(&[0x6b]),
                    SEED,
                    "on Vector: the standalone stream_transpose",
                ),
                case(
                    &[],
                    Some("matmult"),
                    Seq::Missing {
                        named: &[0x01, 0x02],
                        missing: "the Tensor-engine transpose is LDWEIGHTS + MATMUL of data by an \
                                  identity moving tile: sundial-decompose builds that matmul \
                                  (is_transpose) on cayman and newer for the dtypes matmul takes, \
                                  and keeps this op on sunda, whose PE transpose is not \
                                  bit-accurate for NaN/Inf",
                    },
                    &[Source::Api, Source::Aws],
                    "nki.isa.nc_transpose docstring: equivalent to nc_matmul with is_transpose",
                ),
            ],
            API,
            "NKI picks the engine from the tile shape (only the Tensor engine beyond 32x32); its \
             choice for smaller tiles is not public, so selection needs the engine",
        )
    },
    Row {
        min: MinTarget::From(Target::Cayman),
        engine_min: &[],
        ..entry(
            "core_barrier",
            None,
            &[
                Engine::GpSimd,
                Engine::Tensor,
                Engine::Scalar,
                Engine::Dma,
                Engine::Vector,
                Engine::Sync,
            ],
            0,
            DtypeRule::Any,
            &[case(
                &[],
                None,
                Seq::Missing {
                    named: &[],
                    missing: "the barrier is a remote semaphore update to the peer core plus a \
                              local semaphore wait; no source gives those instructions or their \
                              encoding",
                },
                API,
                "",
            )],
            API,
            "nki.isa.core_barrier / nki.lnc.core_barrier: NeuronCore v3+, cores (0, 1); the \
             engine defaults to GpSimd",
        )
    },
    // ---- generic loads and stores (rewritten before selection) ---------------------------------------
    Row {
        default: DefaultEngine::Emit(Engine::Dma),
        ..entry(
            "generic_load",
            None,
            &[Engine::Dma, Engine::GpSimd],
            1,
            DtypeRule::Any,
            &[case(
                &[],
                None,
                Seq::Lowered {
                    pass: "sundial-generic-load-to-gather",
                    named: &[],
                },
                SEED,
                "becomes nisa.gather where can_lower_generic_load_to_gather holds, a DMA copy \
                 otherwise",
            )],
            SEED,
            "",
        )
    },
    entry(
        "generic_indirect_load",
        None,
        DMA,
        1,
        DtypeRule::Any,
        &[case(
            &[],
            Some("generic_indirect_load"),
            Seq::Lowered {
                pass: "sundial-lower-generic-indirect",
                named: &[0xbb],
            },
            SEED,
            "offsets + DMA_INDIRECT 0xbb",
        )],
        SEED,
        "",
    ),
    entry(
        "generic_indirect_save",
        None,
        &[Engine::Dma, Engine::GpSimd],
        1,
        DtypeRule::Any,
        &[
            case(
                &[When::On(&[Target::Sunda]), When::Accumulates],
                Some("indirect_save_accumulate"),
                Seq::Lowered {
                    pass: "sundial-lower-generic-indirect",
                    named: &[0xca],
                },
                SEED,
                "CoreV2 IndirectSaveAccumulate 0xca (BIR op 46). CONFLICT #4 (isa-table §5): \
                 0xca is also PSEUDO_EMBEDDING_UPDATE on the pseudo axis; different axes, kept \
                 apart",
            ),
            case(
                &[When::Accumulates],
                Some("dma_indirect"),
                Seq::Lowered {
                    pass: "sundial-lower-generic-indirect",
                    named: &[0xbb],
                },
                &[Source::Aws],
                "cayman+: dma_compute through vector_offset (pass-rules §7.1)",
            ),
            case(
                &[],
                Some("generic_indirect_save"),
                Seq::Lowered {
                    pass: "sundial-lower-generic-indirect",
                    named: &[0xbb],
                },
                SEED,
                "offsets + DMA_INDIRECT 0xbb",
            ),
        ],
        SEED,
        "",
    ),
    // ---- virtual registers (nki.isa.register_alloc / register_move) --------------------------------
    Row {
        name: "register_alloc",
        emit: None,
        engines: &[],
        default: DefaultEngine::NoEngine,
        min: MinTarget::Any,
        engine_min: &[],
        inputs: 0,
        dtypes: DtypeRule::Any,
        cases: &[case(
            &[],
            None,
            Seq::Missing {
                named: &[],
                missing: "no source gives the sequencer's register-move opcode (an allocation \
                          without a value emits nothing: the compiler maps virtual registers \
                          onto the sequencers' physical ones)",
            },
            API,
            "",
        )],
        source: API,
        note: "nki.isa.register_alloc: the register lives on the sequencers that read it",
    },
    Row {
        name: "register_move",
        emit: None,
        engines: &[],
        default: DefaultEngine::NoEngine,
        min: MinTarget::Any,
        engine_min: &[],
        inputs: 0,
        dtypes: DtypeRule::Any,
        cases: &[case(
            &[],
            None,
            Seq::Missing {
                named: &[],
                missing: "no source gives the sequencer's register-move opcode",
            },
            API,
            "",
        )],
        source: API,
        note: "nki.isa.register_move: touches no SBUF, PSUM or HBM",
    },
    // ---- the generic partition reduction (rewritten before selection) ------------------------------
    Row {
        name: "tensor_partition_reduce",
        emit: None,
        engines: &[],
        default: DefaultEngine::NoEngine,
        min: MinTarget::Any,
        engine_min: &[],
        inputs: 1,
        dtypes: DtypeRule::Any,
        cases: &[case(
            &[],
            Some("cross_lane_reduce"),
            Seq::Lowered {
                pass: "sundial-legalize-partition-reduce",
                named: &[0x7c, 0x7d],
            },
            SEED,
            "LegalizePartitionReduce: cross_lane_reduce_arith 0x7c / _bitvec 0x7d, after free-axis \
             tensor_reduce and before combine steps",
        )],
        source: SEED,
        note: "the generic PartitionReduceOp; takes no engine of its own",
    },
];

// ---------------------------------------------------------------- lookups

/// The row of NISA op `name`.
pub fn row(name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.name == name)
}

/// The row of NISA op `name`, for a `const` item: evaluated at compile time, a name with no
/// row fails the build (so an encoder never meets an unknown row at run time). Use [`row`]
/// for a name known only at run time.
///
/// # Panics
///
/// When no row has the name: in a `const` item that is a compile error, never a run-time
/// panic.
pub const fn row_const(name: &str) -> &'static Row {
    let mut i = 0;
    while i < ROWS.len() {
        let r = &ROWS[i];
        if r.name.len() == name.len() {
            let (a, b) = (r.name.as_bytes(), name.as_bytes());
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return r;
            }
        }
        i += 1;
    }
    panic!("no ISA row of this name")
}

/// Every BIR op name some case produces, in first-use order.
pub fn bir_ops() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for c in ROWS.iter().flat_map(|r| r.cases) {
        if let Some(b) = c.bir
            && !out.contains(&b)
        {
            out.push(b);
        }
    }
    out
}

/// The opcodes a BIR op may carry: every opcode named by a case producing `bir_op` on some
/// modelled target (maverick-only cases excluded). Empty for a BIR op no case produces.
pub fn legal_opcodes(bir_op: &str) -> OpcodeSet {
    // The sets of every BIR op, gathered from the rows once (the verifier asks for each BIR
    // op it checks), sorted by name.
    static SETS: std::sync::OnceLock<Vec<(&'static str, OpcodeSet)>> = std::sync::OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let mut sets: Vec<(&'static str, OpcodeSet)> = Vec::new();
        let mut add = |bir: &'static str, opcodes: &[u8]| {
            let i = match sets.binary_search_by(|(n, _)| (*n).cmp(bir)) {
                Ok(i) => i,
                Err(i) => {
                    sets.insert(i, (bir, OpcodeSet::default()));
                    i
                }
            };
            for &o in opcodes {
                sets[i].1.insert(o);
            }
        };
        for c in ROWS.iter().flat_map(|r| r.cases) {
            if let Some(bir) = c.bir
                && !matches!(c.min, MinTarget::Unmodelled(_))
            {
                add(bir, c.seq.named());
            }
        }
        for b in &BIR_ONLY {
            add(b.bir_op, b.opcodes);
        }
        sets
    });
    match sets.binary_search_by(|(n, _)| (*n).cmp(bir_op)) {
        Ok(i) => sets[i].1,
        Err(_) => OpcodeSet::default(),
    }
}

/// A BIR instruction (or an opcode of one) that no NISA row emits: passes produce it or a
/// front end writes it directly, so its opcodes are stated here, once.
#[derive(Clone, Copy, Debug)]
pub struct BirOnly {
    /// The BIR op (`dialects/src/bir.rs` spelling).
    pub bir_op: &'static str,
    /// Its opcodes beyond those the NISA rows give it.
    pub opcodes: &'static [u8],
    /// Where the opcodes come from.
    pub source: Source,
    /// Who produces it, and the sources' words.
    pub note: &'static str,
}

/// The BIR-only instructions and opcodes ([`legal_opcodes`] includes them).
pub const BIR_ONLY: [BirOnly; 3] = [
    BirOnly {
        bir_op: "select",
        opcodes: &[0x98],
        source: Source::Seed,
        note: "TENSOR_SCALAR_SELECT, the data-predicate select: decomposing NKI's select \
               produces it (affine_select is 0x92; isa-table §2: never bind by the word select)",
    },
    BirOnly {
        bir_op: "copy_predicated",
        opcodes: &[0xe8],
        source: Source::CompilerWiki,
        note: "CopyPredicatedScalar 0xE8 (opcode roster): BIR Select lowers to GenericCopy + \
               CopyPredicated 0x72/0x99/0xE8 (bundle-layouts §4.11); no byte layout, unpinned",
    },
    BirOnly {
        bir_op: "inline_asm_bytes",
        opcodes: &[0xf0],
        source: Source::Seed,
        note: "EXTENDED_INST: custom ops with an inline byte string and {events:...}, \
               {srcs[N]:...}, {dsts[N]:...} placeholders (isa-table §2)",
    },
];

/// Why `opcodes` cannot be encoded on `target` today, or `None` when each has a field table
/// whose family the target has.
pub fn encoding_gap(opcodes: &[u8], target: Target) -> Option<String> {
    opcodes.iter().find_map(|&o| match formats::by_opcode(o) {
        None => Some(format!(
            "no field table for opcode {o:#04x}: {}",
            formats::layout_gap(o)
        )),
        Some(f) if !target.model().has(f.family) => Some(format!(
            "opcode {o:#04x}'s format family {:?} is not on {target}",
            f.family
        )),
        Some(_) => None,
    })
}

impl Case {
    /// Whether `arch` has a field table for every opcode the case emits (each opcode in
    /// [`formats::by_opcode`] with a family `arch` has); false for a case that emits nothing.
    pub fn encodable(&self, arch: &ArchModel) -> bool {
        let ops = self.seq.emitted();
        !ops.is_empty()
            && ops
                .iter()
                .all(|&o| formats::by_opcode(o).is_some_and(|f| arch.has(f.family)))
    }

    /// Whether the case emits an opcode whose format is of `family`.
    pub fn emits_family(&self, family: Family) -> bool {
        self.seq
            .emitted()
            .iter()
            .any(|&o| formats::by_opcode(o).is_some_and(|f| f.family == family))
    }

    /// Whether the case can be taken on `t` (its target conditions and floor admit `t`).
    pub fn possible_on(&self, t: Target) -> bool {
        self.min.admits(t)
            && self.when.iter().all(|w| match w {
                When::On(ts) => ts.contains(&t),
                _ => true,
            })
    }
}

impl Row {
    /// The oldest target the row exists on when it runs on `engine`: [`Row::min`], raised to
    /// the engine's floor of [`Row::engine_min`] where it has one.
    pub fn min_on(&self, engine: Engine) -> MinTarget {
        let floor = self.engine_min.iter().find(|(e, _)| *e == engine);
        match (self.min, floor) {
            (MinTarget::Unmodelled(m), _) => MinTarget::Unmodelled(m),
            (m, None) => m,
            (MinTarget::Any, Some(&(_, t))) => MinTarget::From(t),
            (MinTarget::From(a), Some(&(_, b))) => {
                MinTarget::From(if a.model().core >= b.model().core {
                    a
                } else {
                    b
                })
            }
        }
    }

    /// The BIR ops the row's cases produce.
    pub fn bir_ops(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for b in self.cases.iter().filter_map(|c| c.bir) {
            if !out.contains(&b) {
                out.push(b);
            }
        }
        out
    }

    /// Every opcode the row's cases name (on any target, maverick-only ones included).
    pub fn opcodes(&self) -> OpcodeSet {
        let mut set = OpcodeSet::default();
        for c in self.cases {
            for &o in c.seq.named() {
                set.insert(o);
            }
        }
        set
    }

    /// The opcodes the row's selectable sequences can emit on `t`.
    pub fn emitted_on(&self, t: Target) -> OpcodeSet {
        let mut set = OpcodeSet::default();
        if self.min.admits(t) {
            for c in self.cases.iter().filter(|c| c.possible_on(t)) {
                for &o in c.seq.emitted() {
                    set.insert(o);
                }
            }
        }
        set
    }

    /// The missing facts of the row (the `missing` strings of its cases).
    pub fn missing(&self) -> Vec<&'static str> {
        self.cases
            .iter()
            .filter_map(|c| match c.seq {
                Seq::Missing { missing, .. } => Some(missing),
                _ => None,
            })
            .collect()
    }

    /// The pass that rewrites the op before selection, when every case is lowered.
    pub fn lowered_by(&self) -> Option<&'static str> {
        let mut pass = None;
        for c in self.cases {
            match c.seq {
                Seq::Lowered { pass: p, .. } => pass = Some(p),
                _ => return None,
            }
        }
        pass
    }

    /// Why the row's encoding is not pinned on `t`, or `None` when it is: the row exists on
    /// `t`, its sequences can emit at least one opcode there, and every such opcode has a field
    /// table whose family `t` has.
    pub fn unpinned(&self, t: Target) -> Option<String> {
        if let Some(pass) = self.lowered_by() {
            return Some(format!("never selected: lowered by {pass}"));
        }
        if !self.min.admits(t) {
            return Some(format!("not on {t} ({})", min_text(self.min)));
        }
        let ops: Vec<u8> = self.emitted_on(t).iter().collect();
        if ops.is_empty() {
            let missing = self.missing();
            return Some(if missing.is_empty() {
                format!("no opcode on {t}")
            } else {
                missing.join("; ")
            });
        }
        encoding_gap(&ops, t)
    }

    /// Whether the row's encoding is pinned on `t` (see [`Row::unpinned`]).
    pub fn pinned(&self, t: Target) -> bool {
        self.unpinned(t).is_none()
    }
}

fn min_text(m: MinTarget) -> String {
    match m {
        MinTarget::Any => "every target".to_string(),
        MinTarget::From(t) => format!("{t} or later"),
        MinTarget::Unmodelled(t) => format!("{t} only, which is not a modelled target"),
    }
}

// ---------------------------------------------------------------- selection

/// What the selector knows about one NISA op. Fields a row's rules do not read may stay at
/// their defaults; a rule that reads a `None` fails with [`SelectError::Incomplete`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectQuery {
    /// Code-generation target.
    pub target: Target,
    /// The op's engine; `None` = `unknown`, resolved by the row's [`DefaultEngine`].
    pub engine: Option<Engine>,
    /// dst dtype.
    pub dst: Option<BirDtype>,
    /// Input dtypes, in operand order (lhs/rhs, data/...; see [`Row::inputs`]).
    pub src: [Option<BirDtype>; 2],
    /// The ALU op (`op`, or `op0` of a two-op form).
    pub alu: Option<BirAluOp>,
    /// Some operand is in PSUM (the `tensor_tensor` engine rule reads it).
    pub psum: bool,
    /// The op accumulates into its engine's accumulator and reads it out (reduce_res).
    pub accumulate: bool,
    /// The op applies a transpose (tensor_scalar 0x93).
    pub transpose: bool,
    /// Partitions dst spans (stream_transpose).
    pub dst_partitions: Option<u32>,
    /// Index elements per partition (gather).
    pub index_elements: Option<u64>,
    /// No earlier `set_rng_seed` / `rand_set_state` seeds the engine's RNG stream, so a dropout
    /// must be preceded by the seed-setter.
    pub needs_rng_seed: bool,
    /// `send_recv` with `dma_engine = gpsimd_dma`.
    pub gpsimd_dma: bool,
    /// An operand is an indirect access pattern (`vector_offset`).
    pub indirect: bool,
}

impl SelectQuery {
    /// A query on `target` with every fact unknown or false.
    pub fn new(target: Target) -> SelectQuery {
        SelectQuery {
            target,
            engine: None,
            dst: None,
            src: [None, None],
            alu: None,
            psum: false,
            accumulate: false,
            transpose: false,
            dst_partitions: None,
            index_elements: None,
            needs_rng_seed: false,
            gpsimd_dma: false,
            indirect: false,
        }
    }

    /// Sets the engine.
    pub fn on_engine(mut self, e: Engine) -> SelectQuery {
        self.engine = Some(e);
        self
    }

    /// Sets the dst dtype and up to two input dtypes (extra ones are ignored).
    pub fn with_dtypes(mut self, dst: BirDtype, src: &[BirDtype]) -> SelectQuery {
        self.dst = Some(dst);
        self.src = [src.first().copied(), src.get(1).copied()];
        self
    }

    /// Sets the ALU op.
    pub fn with_alu(mut self, op: BirAluOp) -> SelectQuery {
        self.alu = Some(op);
        self
    }
}

/// The selector's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The NISA op.
    pub op: &'static str,
    /// The BIR op it becomes.
    pub bir: &'static str,
    /// The concrete engine.
    pub engine: Engine,
    /// The target.
    pub target: Target,
    /// The opcode pattern, in emission order.
    pub pattern: &'static [u8],
    /// How many times the pattern is emitted (the Gather chunk count; 1 otherwise). The
    /// sequence is kept as pattern + count so a large index allocates nothing.
    pub repeat: u64,
    /// The ALU byte the rule forces, if any (otherwise the encoder maps the op with
    /// [`alu_to_wire`]).
    pub alu_byte: Option<u8>,
    /// Whether this crate has the field tables to encode every opcode on the target.
    pub pinned: bool,
    /// Sources of the case taken.
    pub source: &'static [Source],
}

impl Selection {
    /// The opcodes in emission order, the pattern repeated.
    pub fn opcodes(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.repeat).flat_map(move |_| self.pattern.iter().copied())
    }

    /// Number of bundles (saturating).
    pub fn bundle_count(&self) -> u64 {
        self.repeat.saturating_mul(self.pattern.len() as u64)
    }

    /// The selection if its encoding is pinned, else [`SelectError::Unpinned`] naming the
    /// opcode without a field table (or whose family the target lacks).
    pub fn require_pinned(self) -> Result<Selection, SelectError> {
        match encoding_gap(self.pattern, self.target) {
            None => Ok(self),
            Some(missing) => Err(SelectError::Unpinned {
                op: self.op,
                missing,
            }),
        }
    }
}

/// Why a selection failed. Each message names the op and the fact.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// No row has this name.
    #[error("{op}: unknown op (no row in the ISA table)")]
    UnknownOp {
        /// The name asked for.
        op: String,
    },
    /// A fact the selection needs is pinned by no source (or, from
    /// [`Selection::require_pinned`], this crate has no field table for it).
    #[error("{op}: unpinned: {missing}")]
    Unpinned {
        /// The op.
        op: &'static str,
        /// The missing fact.
        missing: String,
    },
    /// The engine is not one the row allows (or is unknown where the row has no default).
    #[error("{op}: engine {} is not legal; legal engines: {}", engine_text(*.engine), engines_text(.legal))]
    IllegalEngine {
        /// The op.
        op: &'static str,
        /// The engine asked for (`None` = unknown).
        engine: Option<Engine>,
        /// The row's legal engines.
        legal: &'static [Engine],
    },
    /// The target is older than the row's or case's minimum.
    #[error("{op}: not on {target}: needs {min} or later")]
    NotOnTarget {
        /// The op.
        op: &'static str,
        /// The target asked for.
        target: Target,
        /// The minimum target.
        min: Target,
    },
    /// An operand dtype the row does not accept.
    #[error("{op}: {operand} dtype {} is illegal: {rule}", .dtype.name())]
    IllegalDtype {
        /// The op.
        op: &'static str,
        /// `dst` or `src0` / `src1`.
        operand: &'static str,
        /// The dtype.
        dtype: BirDtype,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// The query leaves out a fact the row's rule reads.
    #[error("{op}: the query lacks {needs}, which the selection rule reads")]
    Incomplete {
        /// The op.
        op: &'static str,
        /// The missing query field.
        needs: &'static str,
    },
    /// A gather over an empty index. DECISION: an error, not an empty sequence: the encoder
    /// rejects it (`ZeroNumElem`) and an instruction that emits no bundle has no place in the
    /// stream (the seed's floor(n/512) and a verifier's max(1) chunk disagree here; neither
    /// is taken).
    #[error("{op}: the index has 0 elements per partition: a gather needs at least one")]
    EmptyIndex {
        /// The op.
        op: &'static str,
    },
    /// The op is rewritten by a pass and never reaches selection.
    #[error("{op}: never reaches selection: {pass} lowers it first")]
    LoweredByPass {
        /// The op.
        op: &'static str,
        /// The pass flag.
        pass: &'static str,
    },
}

/// `opcode 0x41` / `opcodes 0x6a, 0x69`.
fn hex_list(what: &str, ops: &[u8]) -> String {
    let list: Vec<String> = ops.iter().map(|o| format!("{o:#04x}")).collect();
    let plural = if ops.len() == 1 { "" } else { "s" };
    format!("{what}{plural} {}", list.join(", "))
}

fn engine_text(e: Option<Engine>) -> &'static str {
    e.map_or(Engine::UNKNOWN_NAME, Engine::name)
}

fn engines_text(es: &[Engine]) -> String {
    if es.is_empty() {
        return "none (the op takes no engine)".to_string();
    }
    es.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
}

fn is_int(d: BirDtype) -> bool {
    matches!(
        d,
        D::Uint8 | D::Int8 | D::Uint16 | D::Int16 | D::Uint32 | D::Int32 | D::Uint64 | D::Int64
    )
}

/// Selects NISA op `op` under `q`: the BIR op, the opcode sequence, the engine and any ALU
/// byte override. The checks run in this order: row, target floor, lowering pass, engine,
/// dtypes, then the first case whose conditions hold.
pub fn select(op: &str, q: &SelectQuery) -> Result<Selection, SelectError> {
    let r = row(op).ok_or_else(|| SelectError::UnknownOp { op: op.to_string() })?;
    let name = r.name;
    check_min(name, r.min, q.target, || "the op".into())?;
    if let Some(pass) = r.lowered_by() {
        return Err(SelectError::LoweredByPass { op: name, pass });
    }
    let engine = resolve_engine(r, q)?;
    if let Some(e) = engine {
        check_min(name, r.min_on(e), q.target, || {
            "the op on this engine".into()
        })?;
    }
    check_dtypes(r, q)?;
    let c = pick_case(r, q, engine)?;
    check_min(name, c.min, q.target, || hex_list("opcode", c.seq.named()))?;
    let (pattern, repeat) = match c.seq {
        Seq::Ops(p) => (p, 1),
        Seq::PerChunk(p) => {
            let n = q.index_elements.ok_or(SelectError::Incomplete {
                op: name,
                needs: "index_elements",
            })?;
            if n == 0 {
                return Err(SelectError::EmptyIndex { op: name });
            }
            (p, gather_chunks(n))
        }
        Seq::Missing { missing, .. } => {
            return Err(SelectError::Unpinned {
                op: name,
                missing: missing.to_string(),
            });
        }
        Seq::Lowered { pass, .. } => return Err(SelectError::LoweredByPass { op: name, pass }),
    };
    // A row without an engine has only Missing cases (a table invariant the tests check).
    let engine = engine.ok_or_else(|| SelectError::Unpinned {
        op: name,
        missing: "the op takes no engine".to_string(),
    })?;
    let alu_byte = case_alu_byte(name, c, q)?;
    Ok(Selection {
        op: name,
        bir: c.bir.unwrap_or_default(),
        engine,
        target: q.target,
        pattern,
        repeat,
        alu_byte,
        pinned: encoding_gap(pattern, q.target).is_none(),
        source: c.source,
    })
}

/// The ALU byte case `c` forces under `q` (`None`: the op's plain byte).
fn case_alu_byte(name: &'static str, c: &Case, q: &SelectQuery) -> Result<Option<u8>, SelectError> {
    Ok(match c.alu {
        AluByte::Plain => None,
        AluByte::Implied(a) => alu_to_wire(a, q.target.model().core),
        AluByte::GpsimdInt32 => {
            let a = q.alu.ok_or(SelectError::Incomplete {
                op: name,
                needs: "alu",
            })?;
            gpsimd_int32_alu(a, q.target)
        }
    })
}

/// The integer-band ALU byte of a GpSimd int32 `tensor_tensor` of `op` on `target`, from
/// [`GPSIMD_INT32_ALU`]: the sunda column on CoreV2, the CoreV3 band elsewhere; `None` when
/// the op keeps its plain byte there.
pub fn gpsimd_int32_alu(op: BirAluOp, target: Target) -> Option<u8> {
    let &(_, v2, v3) = GPSIMD_INT32_ALU.iter().find(|r| r.0 == op)?;
    if target.model().core == CoreGen::V2 {
        v2
    } else {
        Some(v3)
    }
}

/// The op whose GpSimd int32 override on `target` is the ALU byte `alu` (lifting's and the
/// validator's inverse of [`gpsimd_int32_alu`]).
pub fn gpsimd_int32_op(alu: u8, target: Target) -> Option<BirAluOp> {
    GPSIMD_INT32_ALU
        .iter()
        .map(|r| r.0)
        .find(|&op| gpsimd_int32_alu(op, target) == Some(alu))
}

// ---------------------------------------------------------------- encoder dispatch

/// The case an encoder (or a validator rule) takes for an instruction: see [`dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    /// The opcode pattern of the case, in emission order (a [`Seq::PerChunk`] pattern once).
    pub opcodes: &'static [u8],
    /// The ALU byte the case forces, if any (otherwise the op's plain byte).
    pub alu_byte: Option<u8>,
    /// The case taken.
    pub case: &'static Case,
}

/// The encoder's half of [`select`]: the first case of row `r` that exists on `q.target`
/// ([`Case::possible_on`]: its own floor and target conditions), that `admit` accepts and
/// whose conditions hold for `q` (an unknown `q.engine` matches no `When::Engine`).
///
/// Unlike [`select`] it checks neither the row's engines, floor nor dtype rule and resolves
/// no engine: an encoder states what the instruction gives it and reports a bad engine, target
/// or operand with its own error (the family gates read the formats table). `admit` lets the
/// caller skip a case it cannot write (typically one whose formats the target's model lacks,
/// [`Case::encodable`]).
pub fn dispatch(
    r: &'static Row,
    q: &SelectQuery,
    admit: impl Fn(&Case) -> bool,
) -> Result<Dispatch, SelectError> {
    let mut taken = None;
    // `possible_on` and the conditions in one pass: a case's target conditions precede every
    // condition that reads an operand fact (a table invariant, tested), so a case for another
    // target fails on its `On` before anything could report a missing fact.
    for c in r.cases.iter().filter(|c| c.min.admits(q.target)) {
        let mut holds = true;
        for w in c.when {
            if !test(r, q, q.engine, w).map_err(|n| n.of(r.name))? {
                holds = false;
                break;
            }
        }
        if holds && admit(c) {
            taken = Some(c);
            break;
        }
    }
    let c = taken.ok_or_else(|| SelectError::Unpinned {
        op: r.name,
        missing: format!(
            "no case of the row applies on {} that the encoder can write",
            q.target
        ),
    })?;
    let opcodes = match c.seq {
        Seq::Ops(p) | Seq::PerChunk(p) => p,
        Seq::Missing { missing, .. } => {
            return Err(SelectError::Unpinned {
                op: r.name,
                missing: missing.to_string(),
            });
        }
        Seq::Lowered { pass, .. } => return Err(SelectError::LoweredByPass { op: r.name, pass }),
    };
    Ok(Dispatch {
        opcodes,
        alu_byte: case_alu_byte(r.name, c, q)?,
        case: c,
    })
}

/// The ISA row of a TensorScalar instruction of `form` whose ALU ops are of the bitvec class
/// (`bitvec`), and whether its query transposes: the plain form is `tensor_scalar_bitvec` or
/// `tensor_scalar_arith`, the transpose that row's transposing case, and each cache form and
/// EXPONENTIAL its own row. The encoder and lifting both read it.
pub fn tensor_scalar_row(form: &TsForm, bitvec: bool) -> (&'static Row, bool) {
    const ARITH: &Row = row_const("tensor_scalar_arith");
    const BITVEC: &Row = row_const("tensor_scalar_bitvec");
    const CACHE_REDUCE: &Row = row_const("tensor_scalar_cache_reduce");
    const CACHE_CUMULATIVE: &Row = row_const("tensor_scalar_cache_cumulative");
    const EXPONENTIAL: &Row = row_const("exponential");
    match form {
        TsForm::Plain if bitvec => (BITVEC, false),
        TsForm::Plain => (ARITH, false),
        TsForm::Transpose => (ARITH, true),
        TsForm::CacheReduce { .. } => (CACHE_REDUCE, false),
        TsForm::CacheCumulative => (CACHE_CUMULATIVE, false),
        TsForm::Exponential => (EXPONENTIAL, false),
    }
}

/// `what` names the subject in the error; built only when there is one (selection runs per op
/// of a kernel).
fn check_min(
    op: &'static str,
    m: MinTarget,
    t: Target,
    what: impl FnOnce() -> String,
) -> Result<(), SelectError> {
    match m {
        MinTarget::From(min) if !m.admits(t) => {
            Err(SelectError::NotOnTarget { op, target: t, min })
        }
        MinTarget::Unmodelled(_) => Err(SelectError::Unpinned {
            op,
            missing: format!("{} exists on {}", what(), min_text(m)),
        }),
        _ => Ok(()),
    }
}

fn resolve_engine(r: &'static Row, q: &SelectQuery) -> Result<Option<Engine>, SelectError> {
    let illegal = |engine| SelectError::IllegalEngine {
        op: r.name,
        engine,
        legal: if r.default == DefaultEngine::NoEngine {
            &[]
        } else {
            r.engines
        },
    };
    if r.default == DefaultEngine::NoEngine {
        return match q.engine {
            None => Ok(None),
            Some(e) => Err(illegal(Some(e))),
        };
    }
    match q.engine {
        Some(e) if r.engines.contains(&e) => Ok(Some(e)),
        Some(e) => Err(illegal(Some(e))),
        None => match r.default {
            DefaultEngine::Emit(e) => Ok(Some(e)),
            DefaultEngine::Required => Err(illegal(None)),
            DefaultEngine::NoEngine => Ok(None),
            DefaultEngine::TensorTensorRule => {
                let a = q.alu.ok_or(SelectError::Incomplete {
                    op: r.name,
                    needs: "alu (the tensor_tensor engine rule reads it)",
                })?;
                let ints = operand_dtypes(r, q)
                    .map_err(|n| n.of(r.name))?
                    .as_slice()
                    .iter()
                    .all(|d| matches!(d, D::Int32 | D::Uint32));
                let gpsimd = matches!(a, A::Add | A::Subtract | A::Mult) && ints && !q.psum;
                Ok(Some(if gpsimd {
                    Engine::GpSimd
                } else {
                    Engine::Vector
                }))
            }
        },
    }
}

/// dst then the row's inputs, all required (a fixed array and its length: the encoders call
/// this per instruction, so it does not allocate).
fn operand_dtypes(r: &Row, q: &SelectQuery) -> Result<Operands, Needs> {
    let need = |d: Option<BirDtype>, what| d.ok_or(what);
    let mut out = Operands {
        dtypes: [need(q.dst, Needs::DstDtype)?; 3],
        len: 1,
    };
    for (i, what) in [Needs::Src0Dtype, Needs::Src1Dtype]
        .into_iter()
        .enumerate()
        .take(r.inputs as usize)
    {
        let d = need(q.src.get(i).copied().flatten(), what)?;
        if let Some(slot) = out.dtypes.get_mut(out.len) {
            *slot = d;
            out.len += 1;
        }
    }
    Ok(out)
}

/// A fact a case condition reads that the query leaves unknown: the `needs` of
/// [`SelectError::Incomplete`], carried as one byte until the error is built (the conditions
/// are tested per instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Needs {
    Alu,
    DstPartitions,
    DstDtype,
    Src0Dtype,
    Src1Dtype,
}

impl Needs {
    /// The [`SelectError::Incomplete`] of row `op`.
    fn of(self, op: &'static str) -> SelectError {
        let needs = match self {
            Needs::Alu => "alu",
            Needs::DstPartitions => "dst_partitions",
            Needs::DstDtype => "dst dtype",
            Needs::Src0Dtype => "src0 dtype",
            Needs::Src1Dtype => "src1 dtype",
        };
        SelectError::Incomplete { op, needs }
    }
}

/// dst's and the inputs' dtypes (at most three).
struct Operands {
    dtypes: [BirDtype; 3],
    len: usize,
}

impl Operands {
    fn as_slice(&self) -> &[BirDtype] {
        self.dtypes.get(..self.len).unwrap_or(&self.dtypes)
    }
}

fn check_dtypes(r: &Row, q: &SelectQuery) -> Result<(), SelectError> {
    let given = [("dst", q.dst), ("src0", q.src[0]), ("src1", q.src[1])];
    for (operand, d) in given {
        let Some(d) = d else { continue };
        let input = operand != "dst";
        let bad = match r.dtypes {
            DtypeRule::Any => None,
            DtypeRule::NoFp32rIn => (input && d == D::Float32r)
                .then_some("float32r is output only (isa-table §4; header in_dtype has no FP32R)"),
            DtypeRule::Int => (!is_int(d))
                .then_some("bit-vector ops work on raw integer bits: integer dtypes only"),
            DtypeRule::InputsIn(set, why) => (input && !set.contains(&d)).then_some(why),
        };
        if let Some(rule) = bad {
            return Err(SelectError::IllegalDtype {
                op: r.name,
                operand,
                dtype: d,
                rule,
            });
        }
    }
    Ok(())
}

fn pick_case(
    r: &'static Row,
    q: &SelectQuery,
    engine: Option<Engine>,
) -> Result<&'static Case, SelectError> {
    for c in r.cases {
        let mut holds = true;
        for w in c.when {
            if !test(r, q, engine, w).map_err(|n| n.of(r.name))? {
                holds = false;
                break;
            }
        }
        if holds {
            return Ok(c);
        }
    }
    // The last case of every row is unconditional (a table invariant the tests check).
    Err(SelectError::Unpinned {
        op: r.name,
        missing: "no case of the row applies".to_string(),
    })
}

#[inline]
fn test(r: &Row, q: &SelectQuery, engine: Option<Engine>, w: &When) -> Result<bool, Needs> {
    Ok(match *w {
        When::On(ts) => ts.contains(&q.target),
        When::Engine(e) => engine == Some(e),
        When::NotEngine(e) => engine != Some(e),
        When::Alu(ops) => ops.contains(&q.alu.ok_or(Needs::Alu)?),
        When::AllDtypes(set) => operand_dtypes(r, q)?
            .as_slice()
            .iter()
            .all(|d| set.contains(d)),
        When::AnyDtype(set) => operand_dtypes(r, q)?
            .as_slice()
            .iter()
            .any(|d| set.contains(d)),
        When::DtypeChanges => {
            let ds = operand_dtypes(r, q)?;
            let ds = ds.as_slice();
            ds.first() != ds.get(1)
        }
        When::Accumulates => q.accumulate,
        When::Transposes => q.transpose,
        When::WideDst => q.dst_partitions.ok_or(Needs::DstPartitions)? >= TRANSPOSE_WIDE_PARTITIONS,
        When::NeedsRngSeed => q.needs_rng_seed,
        When::GpsimdDma => q.gpsimd_dma,
        When::Indirect => q.indirect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The invariant `dispatch`'s single pass rests on: within a case, no condition that reads
    /// an operand fact (and could find it missing) precedes a target condition.
    #[test]
    fn target_conditions_come_before_operand_facts() {
        for r in ROWS {
            for c in r.cases {
                let first_fact = c.when.iter().position(|w| {
                    matches!(
                        w,
                        When::Alu(_)
                            | When::AllDtypes(_)
                            | When::AnyDtype(_)
                            | When::DtypeChanges
                            | When::WideDst
                    )
                });
                let last_on = c.when.iter().rposition(|w| matches!(w, When::On(_)));
                if let (Some(f), Some(o)) = (first_fact, last_on) {
                    assert!(
                        o < f,
                        "{}: a target condition after an operand fact",
                        r.name
                    );
                }
            }
        }
    }

    #[test]
    fn every_row_ends_with_an_unconditional_case() {
        for r in ROWS {
            let last = r.cases.last().map(|c| c.when.is_empty());
            assert_eq!(last, Some(true), "{}", r.name);
        }
    }

    #[test]
    fn selectable_cases_name_a_bir_op_and_opcodes() {
        for r in ROWS {
            for c in r.cases {
                if let Seq::Ops(o) | Seq::PerChunk(o) = c.seq {
                    assert!(c.bir.is_some(), "{}", r.name);
                    assert!(!o.is_empty(), "{}", r.name);
                }
            }
        }
    }

    #[test]
    fn engine_free_rows_only_miss() {
        // Host-side ops have no instruction; the generic partition reduction is rewritten by
        // a pass before selection: neither ever selects an engine.
        for r in ROWS.iter().filter(|r| r.default == DefaultEngine::NoEngine) {
            assert!(
                r.cases
                    .iter()
                    .all(|c| matches!(c.seq, Seq::Missing { .. } | Seq::Lowered { .. }))
            );
        }
    }

    #[test]
    fn emit_numbers_are_1_to_62_once() {
        let mut nums: Vec<u8> = ROWS.iter().filter_map(|r| r.emit).collect();
        nums.sort_unstable();
        assert_eq!(nums, (1..=62).collect::<Vec<u8>>());
    }

    #[test]
    fn defaults_are_legal_engines() {
        for r in ROWS {
            if let DefaultEngine::Emit(e) = r.default {
                assert!(r.engines.contains(&e), "{}", r.name);
            }
            if r.default == DefaultEngine::TensorTensorRule {
                assert!(r.engines.contains(&Engine::GpSimd) && r.engines.contains(&Engine::Vector));
            }
        }
    }

    #[test]
    fn gpsimd_override_bytes_are_in_the_int_band() {
        for (op, v2, v3) in GPSIMD_INT32_ALU {
            assert!((0xc4..=0xe1).contains(&v3), "{op:?}");
            if let Some(b) = v2 {
                assert_eq!(
                    b, v3,
                    "{op:?}: the sunda and CoreV3 bytes agree where both exist"
                );
            }
        }
    }
}
