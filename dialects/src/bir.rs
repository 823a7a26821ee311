//! The BIR dialect: backend instructions after selection, as data.
//!
//! A BIR op is one selected backend instruction. It has no SSA operands: everything it
//! touches is a *physical* access pattern, an attribute. Every BIR op carries
//! - `opcodes = array<i64: ...>`: the selected TPB opcode(s), in emission order (the
//!   micro-pairs of StreamShuffle {0x6A, 0x69}, Gather {0x68, 0x67}, ... are listed whole);
//!   each must be one of the op's legal opcodes ([`BirOpSpec::opcodes`]);
//! - `engine = "vector"`: the engine it was selected for (never `unknown`);
//! - one access-pattern attribute per memory operand, named by role (`dst`, `src`, `index`,
//!   ...), each a dictionary:
//!   - static: `{space = "sbuf", partition = 0, num_partitions = 128, offset = 0,
//!     pattern = array<i64: step0, num0, step1, num1, ...>, dtype = "bfloat16"}` with
//!     `offset` the byte offset inside the partition (or inside the HBM tensor), `pattern`
//!     the free dimensions as [step in elements, num] pairs, outermost first (at most 4), and
//!     `dtype` a libBIR dtype name; `start_reg = N` instead of `offset` makes the start
//!     address register-sourced (a dynamic offset);
//!   - tensor-indirect: `{kind = "indirect", index = {static}, data = {static},
//!     num_indices = N, index_arg = K}` (and, for MX operands, the operand's scale AP is a
//!     second indirect dictionary that must carry the same `index` and `index_arg`);
//! - op-specific control attributes (ALU op, shuffle mask, bounds, ...).
//!
//! [`OPS`] lists them; `number` is the libBIR op number where the seeds give one
//! (Gather 92, IndirectCopy 26, GenericIndirectLoad 42, GenericIndirectSave 44,
//! IndirectSaveAccumulate 46).

use crate::{
    enums::{ACTIVATION_VOCAB, Engine, Engine as E, ReduceCmd},
    nisa::{ARITH_OPS, BITVEC_OPS, COMPARE_OPS, RANGE_COMPARE_OPS},
    spec::{AttrKind, AttrSpec, OpSpec, Provenance, dsl::*},
};

/// The dialect namespace.
pub const DIALECT: &str = "bir";

/// A BIR op: its generic row plus what is specific to backend instructions.
#[derive(Clone, Copy, Debug)]
pub struct BirOpSpec {
    /// The generic row (attributes, engines, provenance).
    pub spec: OpSpec,
    /// The libBIR op number, where the seeds pin one.
    pub number: Option<u8>,
    /// The libBIR class it mirrors (`InstGather`, ...).
    pub bir_class: &'static str,
}

const ALU: crate::spec::Vocab = crate::enums::ALU_VOCAB;
const AP: AttrKind = AttrKind::Ap { indirect: false };
const AP_IND: AttrKind = AttrKind::Ap { indirect: true };
const OPCODES: AttrSpec = req(
    "opcodes",
    AttrKind::I64Array {
        min_len: 1,
        max_len: 64,
    },
);
const ENGINE: AttrSpec = req("engine", AttrKind::Enum(Engine::VOCAB));
const P_SEED: Provenance = Provenance("seed");
const P_WIKI: Provenance = Provenance("wiki");
const P_API: Provenance = Provenance("api, wiki");

macro_rules! bir {
    ($name:literal, $class:literal, $num:expr, $summary:literal,
     attrs: [$($a:expr),* $(,)?], engines: [$($e:expr),+], prov: $p:expr) => {
        BirOpSpec {
            spec: OpSpec {
                name: $name,
                emit: None,
                summary: $summary,
                api: $class,
                operands: &[],
                results: &[],
                attrs: &[OPCODES, ENGINE, $($a),*],
                engines: &[$($e),+],
                default_engine: Engine::Unknown,
                min_target: None,
                provenance: $p,
            },
            number: $num,
            bir_class: $class,
        }
    };
}

/// Every BIR op.
pub static OPS: &[BirOpSpec] = &[
    // ---- the seeds' indirect family -----------------------------------------------------------
    bir!("gather", "InstGather", Some(92), "Per-partition gather (nc_n_gather): {reg_load 0x68, pool_buffer_load 0x67} per 512-element chunk.",
        attrs: [req("dst", AP), req("data", AP), req("index", AP)], engines: [E::Gpsimd], prov: P_SEED),
    bir!("indirect_copy", "InstIndirectCopy", Some(26), "local_gather across 16-partition core groups; src is tensor-indirect (index + data), dst static.",
        attrs: [req("dst", AP), req("src", AP_IND), def("num_elem_per_idx", AttrKind::Int { min: 1, max: 32 }, "1"),
                opt("src_buffer_size", UINT)],
        engines: [E::Gpsimd], prov: P_SEED),
    bir!("generic_indirect_load", "InstGenericIndirectLoad", Some(42), "Indirect DMA load (gather): src is tensor-indirect; expanded by LowerGenericIndirect into offsets + DMA_INDIRECT.",
        attrs: [req("dst", AP), req("src", AP_IND), def("oob_mode", AttrKind::Enum(crate::enums::OobMode::VOCAB), "error")],
        engines: [E::Dma], prov: P_SEED),
    bir!("generic_indirect_save", "InstGenericIndirectSave", Some(44), "Indirect DMA save (scatter): dst is tensor-indirect.",
        attrs: [req("dst", AP_IND), req("src", AP), def("oob_mode", AttrKind::Enum(crate::enums::OobMode::VOCAB), "error"),
                def("unique_indices", BOOL, "true")],
        engines: [E::Dma], prov: P_SEED),
    bir!("indirect_save_accumulate", "InstIndirectSaveAccumulate", Some(46), "Scatter-add (read-modify-write) through a plain ADDR4 (no 0x20 indirect bit); CoreV2 family. 0xCA here is the CoreV2 opcode, not PSEUDO_EMBEDDING_UPDATE.",
        attrs: [req("dst", AP_IND), req("src", AP)], engines: [E::Gpsimd, E::Dma], prov: P_SEED),
    // ---- DVE datamove -------------------------------------------------------------------------
    bir!("stream_shuffle", "InstStreamShuffle", None, "Quadrant partition shuffle: {stream_transpose 0x6A, stream_shuffle 0x69} with a 32-byte lane mask.",
        attrs: [req("dst", AP), req("src", AP), req("shuffle_mask", AttrKind::I64Array { min_len: 32, max_len: 32 })],
        engines: [E::Vector], prov: P_SEED),
    bir!("stream_transpose", "InstStreamTranspose", None, "Vector transpose: {0x6B} or {0x6B, 0x69} when dst has >= 32 partitions; the wide form carries the 32-lane map of its 0x69 half (lane_mask).",
        attrs: [req("dst", AP), req("src", AP), opt("lane_mask", AttrKind::I64Array { min_len: 32, max_len: 32 })],
        engines: [E::Vector], prov: P_SEED),
    bir!("dropout", "InstDropout", None, "Dropout with a threshold operand pointer (+0x23) and an RNG mode (+0x2B); the seed is set out of band.",
        attrs: [req("dst", AP), req("src", AP), req("threshold_imm_ptr", AttrKind::Int { min: 0, max: 255 }),
                req("threshold_dtype", AttrKind::Enum(crate::dtype::BIR_DTYPE_VOCAB)),
                def("rng_mode", AttrKind::Int { min: 0, max: 255 }, "0")],
        engines: [E::Vector], prov: P_SEED),
    bir!("range_select", "InstRangeSelect", None, "CoreV3 RangeSelect (S2D2_RS, TENSOR2D) with its 0x9B read-accumulator companion: each bound an fp32 immediate (bound0/bound1) or a per-partition operand pattern (bound0_ap/bound1_ap); the integer range start is the header's base (+0x10), the fill value its fill_val (+0x14); the max-reduction is read out to reduce_res.",
        attrs: [req("dst", AP), req("src", AP), req("comp_op0", AttrKind::EnumSubset(ALU, RANGE_COMPARE_OPS)),
                req("comp_op1", AttrKind::EnumSubset(ALU, RANGE_COMPARE_OPS)), opt("bound0", FLOAT), opt("bound1", FLOAT),
                opt("bound0_ap", AP), opt("bound1_ap", AP), req("reduce_res", AP),
                def("range_start", INT, "0"), def("fill_value", FLOAT, "-3.40282347e+38"),
                def("reduce_cmd", AttrKind::Enum(ReduceCmd::VOCAB), "reset_reduce")],
        engines: [E::Vector], prov: P_SEED),
    // ---- MX -------------------------------------------------------------------------------------
    bir!("quantize_mx", "InstQuantizeMx", None, "MX quantization (S3DMX1_QUANT): src MEM_PATTERN3D, dst MXMEM_PATTERN1D (data + E8M0 scale).",
        attrs: [req("dst", AP_IND), req("dst_scale", AP_IND), req("src", AP)], engines: [E::Vector], prov: P_SEED),
    bir!("matmult_mx", "InstMatmultMx", None, "MX matmul: LdWeightsMX 0x09 + MatmulMX 0x0A (opcodes not byte-pinned); operands may be tensor-indirect (MXINDIRECT16B) with scales of the same indirection.",
        attrs: [req("dst", AP), req("stationary", AP_IND), req("stationary_scale", AP_IND), req("moving", AP_IND),
                req("moving_scale", AP_IND), def("accumulate_flags", AttrKind::Int { min: 0, max: 7 }, "3")],
        engines: [E::Tensor], prov: P_WIKI),
    // ---- PE / ACT / DVE compute --------------------------------------------------------------------
    bir!("matmult", "InstMatmult", None, "Dense matmul: LdWeights 0x01 + Matmul 0x02.",
        attrs: [req("dst", AP), req("stationary", AP), req("moving", AP), def("accumulate_flags", AttrKind::Int { min: 0, max: 7 }, "3"),
                def("is_transpose", BOOL, "false"), def("perf_mode", AttrKind::Enum(crate::enums::PerfMode::VOCAB), "none"),
                def("tf32", BOOL, "false")],
        engines: [E::Tensor], prov: P_API),
    bir!("tensor_tensor", "InstTensorTensor", None, "Elementwise tensor-tensor (arith 0x41, bitvec 0x51, sunda bf16 add/mult/sub 0x8A/0x8B/0x8F).",
        attrs: [req("dst", AP_IND), req("src0", AP_IND), req("src1", AP_IND), req("op", AttrKind::Enum(ALU))],
        engines: [E::Vector, E::Gpsimd], prov: P_SEED),
    bir!("tensor_scalar", "InstTensorScalar", None, "Tensor-scalar (arith 0x43, bitvec 0x53, 64-bit address 0x74, transpose 0x93).",
        attrs: [req("dst", AP_IND), req("src", AP_IND), req("op0", AttrKind::Enum(ALU)), opt("imm0", AttrKind::Number),
                opt("operand0", AP), def("reverse0", BOOL, "false"), def("op1", AttrKind::Enum(ALU), "bypass"),
                opt("imm1", AttrKind::Number), opt("operand1", AP), def("reverse1", BOOL, "false")],
        engines: [E::Vector, E::Scalar, E::Gpsimd], prov: P_SEED),
    bir!("tensor_scalar_cache", "InstTensorScalarCache", None, "Tensor-scalar fused with a free-axis reduce (0x9A + 0x9B read-out) or a cumulative scan (0xE6); the first operand is imm0 or a per-partition operand0 pattern.",
        attrs: [req("dst", AP), req("src", AP), req("op0", AttrKind::EnumSubset(ALU, ARITH_OPS)), opt("imm0", FLOAT),
                opt("operand0", AP), def("reverse0", BOOL, "false"),
                opt("op1", AttrKind::EnumSubset(ALU, ARITH_OPS)), opt("imm1", FLOAT), opt("reduce_res", AP),
                opt("reduce_op", AttrKind::EnumSubset(ALU, &["add", "mult", "max", "min"])),
                def("reduce_cmd", AttrKind::Enum(ReduceCmd::VOCAB), "reset_reduce")],
        engines: [E::Vector], prov: P_SEED),
    bir!("tensor_tensor_scan", "InstTensorTensorScan", None, "Two-op scan over the free axis.",
        attrs: [req("dst", AP), req("src0", AP), req("src1", AP), req("op0", AttrKind::EnumSubset(ALU, ARITH_OPS)),
                req("op1", AttrKind::EnumSubset(ALU, ARITH_OPS)), opt("initial", FLOAT), opt("initial_ap", AP)],
        engines: [E::Vector], prov: P_WIKI),
    bir!("scalar_tensor_tensor", "InstScalarTensorTensor", None, "(src op0 operand0) op1 src1: arith 0x9D, bitvec 0x9E.",
        attrs: [req("dst", AP), req("src0", AP), req("src1", AP), req("op0", AttrKind::Enum(ALU)), req("op1", AttrKind::Enum(ALU)),
                opt("imm0", AttrKind::Number), opt("operand0", AP), def("reverse0", BOOL, "false"), def("reverse1", BOOL, "false")],
        engines: [E::Vector], prov: P_WIKI),
    bir!("tensor_reduce", "InstTensorReduce", None, "Free-axis reduce (S4D4_TR): arith 0x42, bitvec 0x52; axis = trailing free dims (1..4).",
        attrs: [req("dst", AP), req("src", AP), req("op", AttrKind::Enum(ALU)), req("num_reduce_dims", AttrKind::Int { min: 1, max: 4 }),
                def("negate", BOOL, "false")],
        engines: [E::Vector], prov: P_WIKI),
    bir!("cross_lane_reduce", "InstCrossLaneReduce", None, "Partition-axis reduce (S4D4_CR): arith 0x7C, bitvec 0x7D.",
        attrs: [req("dst", AP), req("src", AP), req("op", AttrKind::EnumSubset(ALU, &["add", "average", "max", "bitwise_or", "bitwise_and", "bitwise_xor"]))],
        engines: [E::Gpsimd], prov: P_SEED),
    bir!("activation", "InstActivation", None, "Activation (0x21 ACTIVATE; CoreV4 emits 0x25 ACTIVATE2).",
        attrs: [req("dst", AP), req("src", AP), req("func", AttrKind::Enum(ACTIVATION_VOCAB)), def("scale", FLOAT, "1.0"),
                opt("scale_ap", AP), opt("bias_ap", AP), opt("reduce_res", AP), def("reduce_cmd", AttrKind::Enum(ReduceCmd::VOCAB), "idle"),
                opt("alpha", FLOAT)],
        engines: [E::Scalar], prov: P_WIKI),
    bir!("read_accumulator", "InstReadAccumulator", None, "Read an engine's accumulator: DveReadAccumulator 0x9B (Vector) or ActivationReadAccumulator 0x24 (Scalar).",
        attrs: [req("dst", AP), def("negate", BOOL, "false")], engines: [E::Vector, E::Scalar], prov: P_WIKI),
    bir!("iota", "InstIota", None, "IOTA (D4_IOTA): generated DATA4D pattern plus channel_multiplier.",
        attrs: [req("dst", AP), req("pattern", AttrKind::I64Array { min_len: 2, max_len: 8 }), def("base", INT, "0"),
                def("channel_multiplier", INT, "0")],
        engines: [E::Gpsimd], prov: P_API),
    bir!("select", "InstSelect", None, "Data-predicate select TENSOR_SCALAR_SELECT 0x98 (distinct from affine select 0x92).",
        attrs: [req("dst", AP), req("src", AP), req("predicate", AP), def("imm", FLOAT, "0.0"), def("reverse_pred", BOOL, "false")],
        engines: [E::Vector], prov: P_SEED),
    bir!("select_reduce", "InstSelectReduce", None, "Predicated select with optional max-reduce (0xEA, read-out 0x9B).",
        attrs: [req("dst", AP), req("predicate", AP), req("on_true", AP), opt("on_false", AP), opt("on_false_value", FLOAT),
                opt("reduce_res", AP), def("reduce_cmd", AttrKind::Enum(ReduceCmd::VOCAB), "idle"), def("reverse_pred", BOOL, "false")],
        engines: [E::Vector], prov: P_API),
    bir!("copy_predicated", "InstCopyPredicated", None, "Predicated copy (0x72), cast (0x99) or scalar-source copy (0xE8).",
        attrs: [req("dst", AP), req("src", AP), req("predicate", AP), def("reverse_pred", BOOL, "false")],
        engines: [E::Vector], prov: P_WIKI),
    bir!("tensor_scalar_affine_select", "InstTensorScalarAffineSelect", None, "Affine select 0x92 (S2D2_TS_AS): mask = base + sum idx*step + channel*multiplier compared with 0.",
        attrs: [req("dst", AP), req("src", AP), req("pattern", AttrKind::I64Array { min_len: 2, max_len: 8 }), def("base", INT, "0"),
                def("channel_multiplier", INT, "0"), req("cmp_op", AttrKind::EnumSubset(ALU, COMPARE_OPS)), req("fill_value", FLOAT)],
        engines: [E::Gpsimd], prov: P_SEED),
    bir!("nonzero_with_count", "InstNonzeroWithCount", None, "Compact nonzero indices with a count in the last slot.",
        attrs: [req("dst", AP), req("src", AP), def("index_offset", INT, "0"), def("padding_val", INT, "-1")],
        engines: [E::Gpsimd], prov: P_API),
    bir!("get_sequence_bounds", "InstGetSequenceBounds", None, "Per-element segment [start, end) bounds.",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Gpsimd], prov: P_API),
    bir!("memset", "InstMemset", None, "Fill (0x49).",
        attrs: [req("dst", AP), req("value", AttrKind::Number)], engines: [E::Vector, E::Gpsimd], prov: P_WIKI),
    bir!("tensor_copy", "InstTensorCopy", None, "COPY 0x46 (same dtype) or CAST 0x47.",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Vector, E::Scalar, E::Gpsimd], prov: P_WIKI),
    bir!("reciprocal", "InstReciprocal", None, "1/x (0x48).",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Vector], prov: P_WIKI),
    bir!("exponential", "InstExponential", None, "exp(x - max) with optional sum (0x30, CoreV4).",
        attrs: [req("dst", AP), req("src", AP), def("max_value", FLOAT, "0.0"), opt("reduce_res", AP)],
        engines: [E::Vector], prov: P_WIKI),
    bir!("max8", "InstMax8", None, "Top-8 per partition (0x6C).",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Vector], prov: P_SEED),
    bir!("find_index8", "InstFindIndex8", None, "First index of each of 8 values (0x6E).",
        attrs: [req("dst", AP), req("src", AP), req("vals", AP)], engines: [E::Vector], prov: P_SEED),
    bir!("match_replace8", "InstMatchReplace8", None, "Replace matches of 8 values (0x6F).",
        attrs: [req("dst", AP), req("src", AP), req("vals", AP), req("imm_value", FLOAT), opt("dst_idx", AP)],
        engines: [E::Vector], prov: P_WIKI),
    bir!("bn_stats", "InstBNStats", None, "BATCH_NORM_STATS2 (0x61).",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Vector], prov: P_API),
    bir!("bn_aggr", "InstBNAggr", None, "BATCH_NORM_AGGREGATE (0x62).",
        attrs: [req("dst", AP), req("src", AP)], engines: [E::Vector], prov: P_API),
    bir!("rng", "InstRng", None, "Random bits (0x4D RNG) or uniform values (0xE2 RAND2).",
        attrs: [req("dst", AP), opt("min", FLOAT), opt("max", FLOAT)], engines: [E::Vector, E::Gpsimd], prov: P_SEED),
    bir!("rand_state", "InstRandState", None, "Read (0x77) or write (0x78) the XORWOW state.",
        attrs: [req("state", AP)], engines: [E::Vector, E::Gpsimd], prov: P_SEED),
    // ---- DMA ---------------------------------------------------------------------------------------
    bir!("dma_copy", "InstDMACopy", None, "Direct DMA (DMA_DIRECT2D 0xB8).",
        attrs: [req("dst", AP), req("src", AP), def("dge_mode", AttrKind::Enum(crate::enums::DgeMode::VOCAB), "none"),
                opt("priority", AttrKind::Int { min: 0, max: 4 })],
        engines: [E::Dma], prov: P_WIKI),
    bir!("dma_indirect", "InstDMAIndirect", None, "DMA_INDIRECT1D 0xBB: gather (src indirect), scatter (dst indirect) or both; optional compute_op.",
        attrs: [req("dst", AP_IND), req("src", AP_IND), def("oob_mode", AttrKind::Enum(crate::enums::OobMode::VOCAB), "error"),
                def("compute_op", AttrKind::EnumSubset(ALU, &["bypass", "add", "mult", "max", "min"]), "bypass"),
                def("unique_indices", BOOL, "true")],
        engines: [E::Dma], prov: P_SEED),
    bir!("dma_transpose", "InstDMATranspose", None, "DMA transpose (0xBD) or gather-transpose (0xF1, CoreV3+).",
        attrs: [req("dst", AP), req("src", AP_IND), req("axes", AttrKind::I64Array { min_len: 2, max_len: 4 })],
        engines: [E::Dma], prov: P_WIKI),
    // ---- registers, collectives, custom ---------------------------------------------------------------
    bir!("register_load", "InstRegisterLoad", None, "REG_LOAD (0x4A) into a sequencer register.",
        attrs: [req("reg", AttrKind::Int { min: 0, max: 63 }), req("src", AP)], engines: [E::Tensor, E::Scalar, E::Gpsimd, E::Vector, E::Sync, E::Dma], prov: P_WIKI),
    bir!("collective", "InstCollective", None, "A collective lowered to the PSEUDO band (0xC8 TRIGGER_COLLECTIVE, 0xDC GID_LOAD, 0xDE TENSOR_COMPLETION).",
        attrs: [req("kind", AttrKind::Enum(crate::spec::Vocab { name: "collective kind", values: COLLECTIVE_KINDS })),
                req("replica_group", AttrKind::I64ArrayList), opt("op", AttrKind::EnumSubset(ALU, &["add", "min", "max"]))],
        engines: [E::Gpsimd], prov: P_SEED),
    bir!("sb2sb_collective", "InstGPSIMDSB2SB", None, "SB-to-SB swap between cores (0xBF SB2SB_COLLECTIVE, gpsimd_dma).",
        attrs: [req("dst", AP), req("src", AP), req("send_to_rank", UINT), req("recv_from_rank", UINT)], engines: [E::Gpsimd], prov: P_SEED),
    bir!("inline_asm_bytes", "InstInlineASMBytes", None, "EXTENDED_INST 0xF0 with literal bytes and {events}/{srcs[N]}/{dsts[N]} placeholders (datapath sync only).",
        attrs: [req("bytes", AttrKind::AsmBytes), opt("srcs", AttrKind::I64Array { min_len: 0, max_len: 16 })],
        engines: [E::Gpsimd, E::Vector, E::Scalar, E::Tensor], prov: P_SEED),
];

impl BirOpSpec {
    /// The legal opcodes as `0xNN` text joined by `sep` (for listings and docs).
    /// The TPB opcodes this instruction may carry, ascending: the ISA table's legal set for
    /// this BIR op (`sundial_codegen::isa::legal_opcodes`), the one statement of them.
    pub fn opcodes(&self) -> sundial_codegen::OpcodeSet {
        sundial_codegen::isa::legal_opcodes(self.spec.name)
    }

    /// [`BirOpSpec::opcodes`] as text (`0x68, 0x67` style, ascending).
    pub fn opcodes_text(&self, sep: &str) -> String {
        self.opcodes()
            .iter()
            .map(|o| format!("0x{o:02X}"))
            .collect::<Vec<_>>()
            .join(sep)
    }
}

/// The collective kinds a `bir.collective` may carry (one per NISA collective op).
pub const COLLECTIVE_KINDS: &[&str] = &[
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "all_to_all_v",
    "collective_permute",
    "collective_permute_implicit",
    "collective_permute_implicit_reduce",
    "collective_permute_reduce",
    "rank_id",
    "rank_id_store",
];

/// Looks up a BIR op by mnemonic (without the `bir.` prefix).
pub fn op(name: &str) -> Option<&'static BirOpSpec> {
    OPS.iter().find(|o| o.spec.name == name)
}

/// ALU ops accepted by arithmetic BIR forms (re-exported for selection rules).
pub const ARITH: &[&str] = ARITH_OPS;
/// ALU ops accepted by bit-vector BIR forms.
pub const BITVEC: &[&str] = BITVEC_OPS;
