//! The NISA dialect: one op per NKI `emit_*` builder, as data.
//!
//! [`OPS`] has one row per op: the 62 `emit_*` mnemonics of nki 0.3.0 (the `emit` column is
//! the row number of `isa-table.md` §1), the six `_nki_irbuilder` methods outside them
//! (`rand2`, `rng`, `rand_get_state`, `rand_set_state`, `set_rng_seed`, `dma_compute`), the
//! generic loads and stores the generic-load-to-gather and LowerGenericIndirect passes consume
//! (`generic_load`, `generic_indirect_load`, `generic_indirect_save`: the seeds' GenericLoad,
//! GenericIndirectLoad and GenericIndirectSave), the structural ops a kernel needs around
//! them: `alloc` (a tile), `ap` (NKI's `.ap()` access pattern, with optional indirection) and
//! the views `reshape`, `slice`, `permute` and `broadcast` (NKI's tensor view methods; a chain
//! of views and access patterns folds into one physical pattern, see [`crate::fold`]), and two
//! public NKI functions with no emit builder of their own: `nc_transpose` and `core_barrier`.
//! The loop, register and launch-grid ops ([`crate::loops`]) follow NKI's public API:
//! `dynamic_ap` (tensor indexing with loop variables), `register_alloc` / `register_move`
//! (`nki.isa.register_alloc` / `register_move`), `register_index` (the register bound of
//! `nl.dynamic_range`), `program_id` / `num_programs` (`nl.program_id` / `nl.num_programs`).
//! The generic partition reduction `tensor_partition_reduce` is what the
//! LegalizePartitionReduce pass consumes (the seed's PartitionReduceOp).
//!
//! Conventions (see `docs/dialects.md` for worked examples):
//! - A tile is `memref<P x F0 x ... x dtype, "space">` with space `"hbm"`, `"sbuf"` or
//!   `"psum"`; dimension 0 of an on-chip tile is the partition dimension (at most 128).
//! - Ops are destination-passing: they return nothing and write their `dst` operands, as the
//!   NKI ISA functions do. Only `alloc`, `ap`, `dynamic_ap`, the views, the register ops that
//!   make a register (`load_register`, `register_alloc`, `register_index`), the two rank-id
//!   queries and the launch-grid queries (`program_id`, `num_programs`) produce values.
//! - Every instruction accepts `name = "..."` (NKI's `name=`), which diagnostics print.
//! - Enums are strings (`engine = "vector"`, `op = "add"`); immediates are f32/i64 attributes;
//!   "scalar or per-partition vector" operands are either an attribute (`imm0 = 2.0 : f32`) or
//!   an optional `[P, 1]` tile operand.
//! - Ops with several optional/variadic operand groups carry MLIR's `operandSegmentSizes`.
//!
//! Omitted on purpose: `rand` (an `_nki_irbuilder` method with no public signature to model).
//!
//! Known limitation: all values of one variadic operand group must have the same type (IRDL
//! binds a constraint variable to the first value it checks), so a coalesced collective over
//! tensors of different shapes is written as one op per shape. `dma_compute` splits NKI's
//! `srcs` list into a single `src0` and the variadic rest ([`DMA_COMPUTE_SOURCES`]): the text
//! is unchanged (`(dst, s0, s1, ...)`, one variadic group needs no `operandSegmentSizes`), and
//! its read-modify-write modes, which mix an HBM and an SBUF operand, can be written.

use crate::{
    dtype::DtypeSet as D,
    enums::{
        ACTIVATION_VOCAB, DgeMode, DmaEngine, Engine, Engine as E, OobMode, PerfMode, ReduceCmd,
        Target,
    },
    spec::{
        AttrKind, AttrSpec, OpSpec, OperandSpec, Provenance, ResultKind, ResultSpec, Spaces as S,
        dsl::*,
    },
};

/// The dialect namespace.
pub const DIALECT: &str = "nisa";

const ALU: crate::spec::Vocab = crate::enums::ALU_VOCAB;

/// ALU ops accepted by the arithmetic forms (`*_arith`).
pub const ARITH_OPS: &[&str] = &[
    "bypass",
    "add",
    "subtract",
    "mult",
    "divide",
    "max",
    "min",
    "logical_and",
    "logical_or",
    "logical_xor",
    "is_equal",
    "not_equal",
    "is_gt",
    "is_ge",
    "is_lt",
    "is_le",
    "average",
    "pow",
    "mod",
    "rsqrt",
    "abs",
    "abs_max",
    "abs_min",
    "mod_int",
];
/// ALU ops accepted by the bit-vector forms (`*_bitvec`).
pub const BITVEC_OPS: &[&str] = &[
    "bypass",
    "bitwise_not",
    "arith_shift_left",
    "arith_shift_right",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logical_shift_left",
    "logical_shift_right",
];
/// Comparison ops (affine_select `cmp_op`).
pub const COMPARE_OPS: &[&str] = &["is_equal", "not_equal", "is_gt", "is_ge", "is_lt", "is_le"];
/// RangeSelect comparison ops (the S2D2_RS header's comp_op set: no not_equal).
pub const RANGE_COMPARE_OPS: &[&str] = &["is_equal", "is_gt", "is_ge", "is_le", "is_lt"];
/// Cross-partition arithmetic reductions (CROSS_LANE_REDUCE_ARITH 0x7c): the firmware's
/// REDUCE_OP set. NKI's `tensor_partition_reduce` exposes add and max; `average` is a firmware
/// op beyond NKI's surface (the seed's restriction R1 is front-end policy, not a firmware
/// limit), kept here.
pub const PARTITION_REDUCE_ARITH: &[&str] = &["add", "average", "max"];
/// Cross-partition bit-vector reductions (CROSS_LANE_REDUCE_BITVEC 0x7d): NKI exposes or and
/// and; `bitwise_xor` is a firmware op beyond NKI's surface (seed R1), kept here.
pub const PARTITION_REDUCE_BITVEC: &[&str] = &["bitwise_or", "bitwise_and", "bitwise_xor"];
/// Reductions the generic `tensor_partition_reduce` may name (what a front end writes before
/// legalization; `sundial-legalize-partition-reduce` refuses those with no cross-partition
/// form).
pub const PARTITION_REDUCE_GENERIC: &[&str] = &[
    "add",
    "average",
    "max",
    "min",
    "mult",
    "abs_max",
    "abs_min",
    "bitwise_or",
    "bitwise_and",
    "bitwise_xor",
];
/// Free-axis arithmetic reductions.
pub const REDUCE_ARITH: &[&str] = &["add", "mult", "max", "min", "average", "abs_max", "abs_min"];
/// Reductions of tensor_scalar_reduce (identities 0 / 1 / -inf / +inf).
pub const SCALAR_REDUCE_OPS: &[&str] = &["add", "mult", "max", "min"];
/// Collective reductions (nl.add, nl.minimum, nl.maximum).
pub const COLLECTIVE_REDUCE_OPS: &[&str] = &["add", "min", "max"];

const ALU_ARITH: AttrKind = AttrKind::EnumSubset(ALU, ARITH_OPS);
const ALU_BITVEC: AttrKind = AttrKind::EnumSubset(ALU, BITVEC_OPS);
/// An arithmetic immediate: a float, or an integer on integer data (exact, 32-bit; the
/// `integer immediate` rule).
const IMM: AttrKind = AttrKind::Number;
const ENGINE_ANY_SEQ: &[Engine] = &[E::Tensor, E::Scalar, E::Gpsimd, E::Dma, E::Vector, E::Sync];

const P_SEED: Provenance = Provenance("seed");
const P_SEED_AWS: Provenance = Provenance("seed, aws");
const P_API: Provenance = Provenance("api");
const P_API_WIKI: Provenance = Provenance("api, wiki");
const P_AWS_WIKI: Provenance = Provenance("aws, wiki");
const P_WIKI: Provenance = Provenance("wiki");
/// A public NKI API in a form of ours (an op NKI has no single call for).
const P_API_OURS: Provenance = Provenance("api, ours");

const TILE: &[ResultSpec] = &[ResultSpec {
    name: "result",
    kind: ResultKind::Tile,
}];
const REG: &[ResultSpec] = &[ResultSpec {
    name: "result",
    kind: ResultKind::Reg,
}];
const NONE: &[ResultSpec] = &[];
const INDEX: &[ResultSpec] = &[ResultSpec {
    name: "result",
    kind: ResultKind::Index,
}];
/// A 32-bit sequencer register value (NKI: 64 x 32-bit registers per engine sequencer).
const REG_VALUE: AttrKind = AttrKind::Int {
    min: i32::MIN as i64,
    max: i32::MAX as i64,
};

const DGE: AttrSpec = def("dge_mode", AttrKind::Enum(DgeMode::VOCAB), "unknown");
const OOB: AttrSpec = def("oob_mode", AttrKind::Enum(OobMode::VOCAB), "error");
const REDUCE_CMD_IDLE: AttrSpec = def("reduce_cmd", AttrKind::Enum(ReduceCmd::VOCAB), "idle");
const REDUCE_CMD_RESET_REDUCE: AttrSpec = def(
    "reduce_cmd",
    AttrKind::Enum(ReduceCmd::VOCAB),
    "reset_reduce",
);
const REPLICA_GROUP: AttrSpec = req("replica_group", AttrKind::I64ArrayList);
const COLLECTIVE_DIM: AttrSpec = def("collective_dim", AttrKind::Int { min: 0, max: 0 }, "0");
const COLLECTIVE_OP: AttrSpec = req("op", AttrKind::EnumSubset(ALU, COLLECTIVE_REDUCE_OPS));
const CHANNEL_IDS: AttrSpec = def(
    "channel_ids",
    AttrKind::I64Array {
        min_len: 1,
        max_len: 4,
    },
    "array<i64: 0>",
);
const PRIORITY: AttrSpec = opt("priority", AttrKind::Int { min: 0, max: 3 });
const PATTERN: AttrKind = AttrKind::I64Array {
    min_len: 2,
    max_len: 10,
};
/// One value per dimension of a view (a tile has at most `tile::MAX_RANK` dimensions).
const VIEW_DIMS: AttrKind = AttrKind::I64Array {
    min_len: 1,
    max_len: crate::tile::MAX_RANK,
};

macro_rules! op {
    ($name:literal, $emit:expr, $api:literal, $summary:literal,
     operands: [$($o:expr),* $(,)?], results: $r:expr, attrs: [$($a:expr),* $(,)?],
     engines: [$($e:expr),* $(,)?], default: $d:expr, min: $min:expr, prov: $p:expr) => {
        OpSpec {
            name: $name,
            emit: $emit,
            summary: $summary,
            api: $api,
            operands: &[$($o),*],
            results: $r,
            attrs: &[$($a),*],
            engines: &[$($e),*],
            default_engine: $d,
            min_target: $min,
            provenance: $p,
        }
    };
}

const fn tiled(name: &'static str) -> OperandSpec {
    src(name, S::ON_CHIP, D::NUMERIC)
}
const fn out(name: &'static str) -> OperandSpec {
    dst(name, S::ON_CHIP, D::NUMERIC)
}
const fn sb_in(name: &'static str) -> OperandSpec {
    src(name, S::SBUF, D::NUMERIC)
}
const fn sb_out(name: &'static str) -> OperandSpec {
    dst(name, S::SBUF, D::NUMERIC)
}

/// Every NISA op.
pub static OPS: &[OpSpec] = &[
    // ---- structural ops -------------------------------------------------------------------
    op!("alloc", None, "nl.ndarray", "Allocate a tile (an ndarray) in HBM, SBUF or PSUM.",
        operands: [], results: TILE, attrs: [opt("name", AttrKind::Str)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("ap", None, "NkiTensor.ap", "An access pattern on an allocated tensor, as NKI's .ap(): [step, num] pairs, an element offset, and optional indirection (vector_offset or scalar_offset on indirect_dim).",
        operands: [src("tensor", S::ANY, D::ANY), opt_src("vector_offset", S::SBUF, D::INDEX),
                   opt_tile_or_reg("scalar_offset", S::SBUF, D::INDEX)],
        results: TILE,
        attrs: [req("pattern", PATTERN), def("offset", UINT, "0"), def("indirect_dim", UINT, "0")],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    // ---- views (fold with ap into one access pattern: dialects/src/fold.rs) -----------------
    op!("reshape", None, "NkiTensor.reshape", "A view of tensor under another shape: the same elements in row-major order; an on-chip tile keeps its partition dimension.",
        operands: [src("tensor", S::ANY, D::ANY)], results: TILE, attrs: [],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("slice", None, "NkiTensor.slice", "A view of tensor keeping, in each dimension d, the result's size[d] elements from start[d] every step[d] (default 1); an on-chip slice takes contiguous partitions.",
        operands: [src("tensor", S::ANY, D::ANY)], results: TILE,
        attrs: [req("start", VIEW_DIMS), opt("step", VIEW_DIMS)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("permute", None, "NkiTensor.permute", "A view of tensor with its dimensions reordered: result dimension i is dimension dims[i]; on-chip the partition dimension stays first (a transpose of free axes).",
        operands: [src("tensor", S::ANY, D::ANY)], results: TILE,
        attrs: [req("dims", VIEW_DIMS)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("broadcast", None, "NkiTensor.broadcast", "A view of tensor repeating each size-1 dimension whose result size is larger (stride 0); never the partition dimension of an on-chip tile.",
        operands: [src("tensor", S::ANY, D::ANY)], results: TILE, attrs: [],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    // ---- 3.1 GpSimd -----------------------------------------------------------------------
    op!("iota", Some(1), "nki.isa.iota", "Generate v = offset + partition * channel_multiplier + sum(idx * step) over a [step, num] pattern, then cast to dst.",
        operands: [sb_out("dst")], results: NONE,
        attrs: [req("pattern", PATTERN), def("offset", INT, "0"), def("channel_multiplier", INT, "0")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_API_WIKI),
    op!("tensor_scalar_affine_select", Some(2), "nki.isa.affine_select", "dst = cmp_op(affine(index), 0) ? on_true : on_false_value (opcode 0x92, distinct from the data-predicate select 0x98).",
        operands: [sb_out("dst"), sb_in("on_true")], results: NONE,
        attrs: [req("pattern", PATTERN), def("channel_multiplier", INT, "0"),
                req("on_false_value", FLOAT), def("cmp_op", AttrKind::EnumSubset(ALU, COMPARE_OPS), "is_equal"),
                def("offset", INT, "0")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("cross_lane_reduce_arith", Some(3), "nki.isa.tensor_partition_reduce", "Reduce across partitions (add, average, max), fp32 math; average is a firmware op beyond NKI's surface (seed R1). GpSimd: SBUF only.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [req("op", AttrKind::EnumSubset(ALU, PARTITION_REDUCE_ARITH))],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED_AWS),
    op!("cross_lane_reduce_bitvec", Some(4), "nki.isa.tensor_partition_reduce", "Reduce across partitions with a bitwise op (or, and, xor) on raw integer bits; xor is a firmware op beyond NKI's surface (seed R1). GpSimd: SBUF only.",
        operands: [dst("dst", S::ON_CHIP, D::INT), src("src", S::ON_CHIP, D::INT)], results: NONE,
        attrs: [req("op", AttrKind::EnumSubset(ALU, PARTITION_REDUCE_BITVEC))],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("gather", Some(5), "nki.isa.nc_n_gather", "Per-partition gather on the flattened free dims: dst[p][i] = data[p][indices[p][i]] (uint32 indices; out of range reads 0). Lowers to {0x68, 0x67} per 512-element chunk.",
        operands: [sb_out("dst"), sb_in("data"), src("indices", S::SBUF, D::U32)], results: NONE,
        attrs: [],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("indirect_copy", Some(6), "nki.isa.local_gather", "Per 16-partition core group, gather elements across partitions with uint16 indices (0xE7). The public name local_gather is a trap: this is not GATHER 0x68.",
        operands: [sb_out("dst"), sb_in("src_buffer"), src("index", S::SBUF, D::U16)], results: NONE,
        attrs: [def("num_elem_per_idx", AttrKind::Int { min: 1, max: 32 }, "1"),
                opt("num_valid_indices", UINT)],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("nonzero_with_count", Some(7), "nki.isa.nonzero_with_count", "Compact the indices of nonzero elements (plus index_offset), pad with padding_val, and write the count in the last slot.",
        operands: [dst("dst", S::SBUF, D::I32), src("src", S::SBUF, D::F32_I32)], results: NONE,
        attrs: [def("index_offset", INT, "0"), def("padding_val", INT, "-1")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: Some(Target::Cayman), prov: P_API_WIKI),
    op!("quantize_mx", Some(8), "nki.isa.quantize_mx", "Quantize a bf16/fp16 tile to an MX fp8 x4 tile plus E8M0 block scales (0xE3 on Vector; never 0x7B).",
        operands: [dst("dst", S::SBUF, D::MX_FP8_DATA), dst("dst_scale", S::SBUF, D::MX_SCALE),
                   src("src", S::SBUF, D::HALF)], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: Some(Target::Mariana), prov: P_SEED),
    op!("sequence_bounds", Some(9), "nki.isa.sequence_bounds", "For each element, the [start, end) of its segment (padding id 0 gives [n, -1]); output (1, 2, n).",
        operands: [dst("dst", S::SBUF, D::F32_I32), src("segment_ids", S::SBUF, D::F32_I32)], results: NONE,
        attrs: [],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_API_WIKI),
    // ---- Vector / GpSimd elementwise -----------------------------------------------------
    op!("tensor_tensor_arith", Some(10), "nki.isa.tensor_tensor", "dst = lhs op rhs elementwise (0x41; bf16 add/mult/sub on sunda select 0x8A/0x8B/0x8F). Vector computes in fp32; GpSimd natively on ints.",
        operands: [out("dst"), tiled("lhs"), tiled("rhs")], results: NONE,
        attrs: [req("op", ALU_ARITH)],
        engines: [E::Vector, E::Gpsimd], default: E::Unknown, min: None, prov: P_SEED_AWS),
    op!("tensor_tensor_power", Some(11), "nki.isa.tensor_tensor (op=power)", "dst = lhs ** rhs elementwise, fp32, on GpSimd.",
        operands: [sb_out("dst"), sb_in("lhs"), sb_in("rhs")], results: NONE,
        attrs: [],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_AWS_WIKI),
    op!("tensor_scalar_arith", Some(12), "nki.isa.tensor_scalar", "dst = (data op0 operand0) op1 operand1; each operand is an immediate (imm0/imm1) or a [P, 1] tile (operand0/operand1); reverse flags swap operand order. pow and mod are composite forms (no instruction): sundial-decompose rewrites them, and the selection phase refuses them.",
        operands: [out("dst"), tiled("data"), opt_src("operand0", S::ON_CHIP, D::NUMERIC),
                   opt_src("operand1", S::ON_CHIP, D::NUMERIC)], results: NONE,
        attrs: [req("op0", ALU_ARITH), opt("imm0", IMM), def("reverse0", BOOL, "false"),
                opt("op1", ALU_ARITH), opt("imm1", IMM), def("reverse1", BOOL, "false")],
        engines: [E::Vector, E::Scalar, E::Gpsimd], default: E::Unknown, min: None, prov: P_SEED_AWS),
    op!("tensor_scalar_addr", Some(13), "(64-bit address arithmetic)", "64-bit address arithmetic on GpSimd: dst = data op0 imm0 on int64/uint64 words.",
        operands: [dst("dst", S::SBUF, D::I64_U64), src("data", S::SBUF, D::I64_U64)], results: NONE,
        attrs: [req("op0", AttrKind::EnumSubset(ALU, &["add", "subtract", "mult"])), req("imm0", INT)],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("tensor_scalar_cache_reduce", Some(14), "nki.isa.tensor_scalar_reduce", "tensor_scalar with one op, then reduce along the free dims into the accumulator (reduce_res).",
        operands: [out("dst"), tiled("data"), opt_src("operand0", S::ON_CHIP, D::NUMERIC),
                   opt_dst("reduce_res", S::ON_CHIP, D::NUMERIC)], results: NONE,
        attrs: [req("op0", ALU_ARITH), opt("imm0", IMM), def("reverse0", BOOL, "false"),
                req("reduce_op", AttrKind::EnumSubset(ALU, SCALAR_REDUCE_OPS)), REDUCE_CMD_RESET_REDUCE,
                opt("reduce_init", FLOAT), def("reduce_res_negate", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("tensor_scalar_cache_cumulative", Some(15), "nki.isa.tensor_scalar_cumulative", "Running scan: reg = op1(op0(x, imm0), reg); out = reg.",
        operands: [dst("dst", S::ON_CHIP, D::CUMULATIVE), src("src", S::ON_CHIP, D::CUMULATIVE)], results: NONE,
        attrs: [req("op0", ALU_ARITH), req("op1", ALU_ARITH), req("imm0", IMM), opt("imm1", IMM),
                REDUCE_CMD_RESET_REDUCE],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("tensor_tensor_scan", Some(16), "nki.isa.tensor_tensor_scan", "r[:,0] = op1(op0(d0[:,0], initial), d1[:,0]); r[:,i] = op1(op0(d0[:,i], r[:,i-1]), d1[:,i]); initial is an immediate or a [P, 1] tile.",
        operands: [out("dst"), tiled("data0"), tiled("data1"), opt_src("initial", S::ON_CHIP, D::NUMERIC)], results: NONE,
        attrs: [req("op0", ALU_ARITH), req("op1", ALU_ARITH), opt("initial_value", FLOAT),
                def("reverse0", BOOL, "false"), def("reverse1", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_API_WIKI),
    op!("scalar_tensor_tensor_arith", Some(17), "nki.isa.scalar_tensor_tensor", "dst = (data op0 operand0) op1 operand1 where operand0 is an immediate or [P, 1] tile and operand1 a tile.",
        operands: [out("dst"), tiled("data"), opt_src("operand0", S::ON_CHIP, D::NUMERIC), tiled("operand1")], results: NONE,
        attrs: [req("op0", ALU_ARITH), req("op1", ALU_ARITH), opt("imm0", IMM),
                def("reverse0", BOOL, "false"), def("reverse1", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("scalar_tensor_tensor_bitvec", Some(18), "nki.isa.scalar_tensor_tensor (bitvec)", "The bit-vector form of scalar_tensor_tensor (integer tiles, raw bits).",
        operands: [dst("dst", S::ON_CHIP, D::INT), src("data", S::ON_CHIP, D::INT),
                   opt_src("operand0", S::ON_CHIP, D::INT), src("operand1", S::ON_CHIP, D::INT)], results: NONE,
        attrs: [req("op0", ALU_BITVEC), req("op1", ALU_BITVEC), opt("imm0", INT),
                def("reverse0", BOOL, "false"), def("reverse1", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("select_reduce", Some(19), "nki.isa.select_reduce", "dst = where(predicate, on_true, on_false) with an optional max-reduce into reduce_res; on_false is a [P, 1] tile or on_false_value.",
        operands: [out("dst"), src("predicate", S::ON_CHIP, D::PRED8_16), tiled("on_true"),
                   opt_src("on_false", S::ON_CHIP, D::NUMERIC), opt_dst("reduce_res", S::ON_CHIP, D::FLOAT)], results: NONE,
        attrs: [opt("on_false_value", FLOAT), REDUCE_CMD_IDLE,
                def("reduce_op", AttrKind::EnumSubset(ALU, &["max"]), "max"), def("reverse_pred", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_API_WIKI),
    op!("copy_predicated", Some(20), "nki.isa.tensor_copy_predicated", "dst = src where predicate is true (or false with reverse_pred); dst unchanged elsewhere.",
        operands: [out("dst"), tiled("src"), src("predicate", S::ON_CHIP, D::PREDICATE)], results: NONE,
        attrs: [def("reverse_pred", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("memset", Some(21), "nki.isa.memset", "Fill dst with value (Vector or GpSimd, never DMA; x4 types only with value 0).",
        operands: [dst("dst", S::ON_CHIP, D::NUMERIC.or(D::MX_DATA))], results: NONE,
        attrs: [req("value", AttrKind::Number)],
        engines: [E::Vector, E::Gpsimd], default: E::Unknown, min: None, prov: P_SEED_AWS),
    op!("tensor_copy", Some(22), "nki.isa.tensor_copy", "Copy src to dst (0x46 COPY, or 0x47 CAST when dtypes differ); bit-exact when dtypes are equal.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [],
        engines: [E::Vector, E::Scalar, E::Gpsimd], default: E::Unknown, min: None, prov: P_AWS_WIKI),
    op!("reciprocal", Some(23), "nki.isa.reciprocal", "dst = 1 / data in fp32.",
        operands: [out("dst"), tiled("data")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_AWS_WIKI),
    op!("tensor_tensor_bitvec", Some(24), "nki.isa.tensor_tensor (bitvec)", "dst = lhs op rhs on raw integer bits (0x51).",
        operands: [dst("dst", S::ON_CHIP, D::INT), src("lhs", S::ON_CHIP, D::INT), src("rhs", S::ON_CHIP, D::INT)], results: NONE,
        attrs: [req("op", ALU_BITVEC)],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("tensor_scalar_bitvec", Some(25), "nki.isa.tensor_scalar (bitvec)", "dst = (data op0 imm0) op1 imm1 on raw integer bits (0x53).",
        operands: [dst("dst", S::ON_CHIP, D::INT), src("data", S::ON_CHIP, D::INT)], results: NONE,
        attrs: [req("op0", ALU_BITVEC), req("imm0", INT), def("reverse0", BOOL, "false"),
                opt("op1", ALU_BITVEC), opt("imm1", INT), def("reverse1", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("tensor_reduce_arith", Some(26), "nki.isa.tensor_reduce", "Reduce the trailing free axes listed in axis (never axis 0), fp32 math, optional negate.",
        operands: [out("dst"), tiled("data")], results: NONE,
        attrs: [req("op", AttrKind::EnumSubset(ALU, REDUCE_ARITH)), req("axis", AttrKind::I64Array { min_len: 1, max_len: 4 }),
                def("negate", BOOL, "false"), def("keepdims", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_AWS_WIKI),
    op!("tensor_reduce_bitvec", Some(27), "nki.isa.tensor_reduce (bitvec)", "Reduce the trailing free axes with a bitwise op on raw integer bits.",
        operands: [dst("dst", S::ON_CHIP, D::INT), src("data", S::ON_CHIP, D::INT)], results: NONE,
        attrs: [req("op", AttrKind::EnumSubset(ALU, &["bitwise_and", "bitwise_or", "bitwise_xor"])),
                req("axis", AttrKind::I64Array { min_len: 1, max_len: 4 }), def("keepdims", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("dve_read_accumulator", Some(28), "(Vector reduce_res read-out)", "Read the Vector engine's per-partition accumulator into dst (0x9B; also RangeSelect's companion).",
        operands: [out("dst")], results: NONE,
        attrs: [def("negate", BOOL, "false")],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("max8", Some(29), "nki.isa.max8", "The 8 largest values of each partition, in descending order.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("find_index8", Some(30), "nki.isa.nc_find_index8", "For each of 8 values per partition, the first index where data equals it (miss gives all ones).",
        operands: [dst("dst", S::ON_CHIP, D::U16_U32), tiled("data"), tiled("vals")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("max_index_and_match_replace", Some(31), "nki.isa.nc_match_replace8", "Replace the elements of data matching each of the 8 vals by imm_value; optionally write their indices to dst_idx.",
        operands: [out("dst"), tiled("data"), tiled("vals"), opt_dst("dst_idx", S::ON_CHIP, D::U16_U32)], results: NONE,
        attrs: [req("imm_value", FLOAT)],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_WIKI),
    op!("range_select", Some(32), "nki.isa.range_select", "Keep on_true where comp_op0(index, bound0) and comp_op1(index, bound1) (index = range_start + free index), else on_false_value (must be -FLT_MAX), then max-reduce into reduce_res. CoreV3+ (0xBC + 0x9B).",
        operands: [out("dst"), tiled("on_true"), src("bound0", S::ON_CHIP, D::F32), src("bound1", S::ON_CHIP, D::F32),
                   opt_dst("reduce_res", S::ON_CHIP, D::FLOAT)], results: NONE,
        attrs: [req("comp_op0", AttrKind::EnumSubset(ALU, RANGE_COMPARE_OPS)), req("comp_op1", AttrKind::EnumSubset(ALU, RANGE_COMPARE_OPS)),
                REDUCE_CMD_RESET_REDUCE, def("reduce_op", AttrKind::EnumSubset(ALU, &["max"]), "max"),
                def("range_start", AttrKind::Number, "0"), def("on_false_value", FLOAT, "-3.40282347e+38")],
        engines: [E::Vector], default: E::Vector, min: Some(Target::Cayman), prov: P_SEED),
    op!("dropout", Some(33), "nki.isa.dropout", "Zero each element of data with probability prob (an immediate or a [P, 1] tile).",
        operands: [out("dst"), tiled("data"), opt_src("prob_tile", S::ON_CHIP, D::F32)], results: NONE,
        attrs: [opt("prob", FLOAT)],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("bn_stats", Some(34), "nki.isa.bn_stats", "Batch-norm statistics: 6 values per partition (even/odd count, mean, var * count); F <= 512.",
        operands: [out("dst"), tiled("data")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_API_WIKI),
    op!("bn_aggr", Some(35), "nki.isa.bn_aggr", "Aggregate bn_stats outputs to (mean, var) per partition.",
        operands: [out("dst"), tiled("data")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_API_WIKI),
    op!("stream_shuffle", Some(36), "nki.isa.nc_stream_shuffle", "Permute partitions within each 32-partition quadrant by shuffle_mask (32 entries; 255 leaves that partition unchanged). Lowers to {0x6A, 0x69}.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [req("shuffle_mask", AttrKind::I64Array { min_len: 32, max_len: 32 })],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("stream_transpose", Some(37), "nki.isa.nc_transpose (Vector)", "Transpose partition and flattened free axes on Vector (at most 32 x 32). Lowers to {0x6B}, plus 0x69 when dst has >= 32 partitions.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("exponential", Some(38), "nki.isa.exponential", "dst = exp(src - max_value), optionally summed into reduce_res. NeuronCore v4.",
        operands: [out("dst"), tiled("src"), opt_dst("reduce_res", S::ON_CHIP, D::NUMERIC)], results: NONE,
        attrs: [def("max_value", FLOAT, "0.0"), REDUCE_CMD_IDLE, def("reduce_init", FLOAT, "0.0")],
        engines: [E::Vector], default: E::Vector, min: Some(Target::Mariana), prov: P_API_WIKI),
    // ---- Scalar (Activation) ----------------------------------------------------------------
    op!("activation", Some(39), "nki.isa.activation", "dst = op(data * scale + bias); scale is scale_value or a [P, 1] tile, bias a [P, 1] tile; optional add-reduce into reduce_res.",
        operands: [out("dst"), tiled("data"), opt_src("bias", S::ON_CHIP, D::NUMERIC), opt_src("scale", S::ON_CHIP, D::F32),
                   opt_dst("reduce_res", S::ON_CHIP, D::NUMERIC)], results: NONE,
        attrs: [req("op", AttrKind::Enum(ACTIVATION_VOCAB)), def("scale_value", FLOAT, "1.0"),
                opt("reduce_op", AttrKind::EnumSubset(ALU, &["add"])), REDUCE_CMD_IDLE, opt("alpha", FLOAT)],
        engines: [E::Scalar], default: E::Scalar, min: None, prov: P_AWS_WIKI),
    op!("activation_read_accumulator", Some(40), "(Scalar reduce_res read-out)", "Read the Scalar engine's per-partition accumulator into dst (0x24).",
        operands: [out("dst")], results: NONE,
        attrs: [def("negate", BOOL, "false")],
        engines: [E::Scalar], default: E::Scalar, min: None, prov: P_WIKI),
    // ---- Tensor (PE) --------------------------------------------------------------------------
    op!("matmul", Some(41), "nki.isa.nc_matmul", "dst[M, N] (PSUM) = stationary[K, M]^T @ moving[K, N] (LoadStationary 0x01 + MultiplyMoving 0x02). tf32 operands select the TF32 mode.",
        operands: [dst("dst", S::PSUM, D::F32_BF16.or(D::HALF).or(D::FP8)), src("stationary", S::SBUF, D::MATMUL_IN), src("moving", S::SBUF, D::MATMUL_IN)], results: NONE,
        attrs: [def("is_stationary_onezero", BOOL, "false"), def("is_moving_onezero", BOOL, "false"),
                def("is_transpose", BOOL, "false"), opt("accumulate", BOOL),
                opt("tile_position", AttrKind::I64Array { min_len: 2, max_len: 2 }),
                opt("tile_size", AttrKind::I64Array { min_len: 2, max_len: 2 }),
                def("perf_mode", AttrKind::Enum(PerfMode::VOCAB), "none")],
        engines: [E::Tensor], default: E::Tensor, min: None, prov: P_AWS_WIKI),
    op!("matmul_mx", Some(42), "nki.isa.nc_matmul_mx", "MX matmul with dequantization (LdWeightsMX 0x09 + MatmulMX 0x0A, not byte-pinned). NeuronCore v4.",
        operands: [dst("dst", S::PSUM, D::F32_BF16), src("stationary", S::SBUF, D::MX_DATA), src("moving", S::SBUF, D::MX_DATA),
                   src("stationary_scale", S::SBUF, D::MX_SCALE), src("moving_scale", S::SBUF, D::MX_SCALE)], results: NONE,
        attrs: [opt("tile_position", AttrKind::I64Array { min_len: 2, max_len: 2 }),
                opt("tile_size", AttrKind::I64Array { min_len: 2, max_len: 2 }), opt("accumulate", BOOL)],
        engines: [E::Tensor], default: E::Tensor, min: Some(Target::Mariana), prov: P_WIKI),
    // ---- collectives (PSEUDO band 0xC1-0xDF) -------------------------------------------------
    op!("all_reduce", Some(43), "nki.collectives.all_reduce", "All-reduce srcs into dsts over the replica group.",
        operands: [dsts("dsts", S::HBM_SBUF, D::NUMERIC), srcs("srcs", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, COLLECTIVE_OP],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("all_gather", Some(44), "nki.collectives.all_gather", "All-gather srcs into dsts along collective_dim.",
        operands: [dsts("dsts", S::HBM_SBUF, D::NUMERIC), srcs("srcs", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, COLLECTIVE_DIM],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("reduce_scatter", Some(45), "nki.collectives.reduce_scatter", "Reduce-scatter srcs into dsts along collective_dim.",
        operands: [dsts("dsts", S::HBM_SBUF, D::NUMERIC), srcs("srcs", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, COLLECTIVE_DIM, COLLECTIVE_OP, PRIORITY],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("all_to_all", Some(46), "nki.collectives.all_to_all", "All-to-all of srcs into dsts along collective_dim (HBM only).",
        operands: [dsts("dsts", S::HBM, D::NUMERIC), srcs("srcs", S::HBM, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, COLLECTIVE_DIM],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("all_to_all_v", Some(47), "nki.collectives.all_to_all_v", "Variable-length all-to-all driven by a uint32 metadata tensor (send counts, displacements, optional receive rows).",
        operands: [dst("dst", S::HBM, D::NUMERIC), src("src", S::HBM, D::NUMERIC), src("metadata", S::HBM_SBUF, D::U32)], results: NONE,
        attrs: [REPLICA_GROUP, def("recv_counts_known", BOOL, "false"), def("has_rdispls", BOOL, "false")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("collective_permute", Some(48), "nki.collectives.collective_permute", "Send src to the target ranks of source_target_pairs and receive into dst (HBM only).",
        operands: [dst("dst", S::HBM, D::NUMERIC), src("src", S::HBM, D::NUMERIC)], results: NONE,
        attrs: [req("source_target_pairs", AttrKind::I64ArrayList)],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("collective_permute_implicit", Some(49), "nki.collectives.collective_permute_implicit", "Ring send/receive: one src and one dst per channel.",
        operands: [dsts("dsts", S::HBM_SBUF, D::NUMERIC), srcs("srcs", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, CHANNEL_IDS],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("collective_permute_implicit_reduce", Some(50), "nki.collectives.collective_permute_implicit_reduce", "Ring permute of op(srcs0[i], srcs1[i]); one tile of each per channel.",
        operands: [dsts("dsts", S::HBM_SBUF, D::NUMERIC), srcs("srcs0", S::HBM_SBUF, D::NUMERIC), srcs("srcs1", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [REPLICA_GROUP, COLLECTIVE_OP, CHANNEL_IDS],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("collective_permute_implicit_current_processing_rank_id", Some(51), "nki.collectives.collective_permute_implicit_current_processing_rank_id", "The rank whose data the current ring iteration processes (a register).",
        operands: [reg("iteration_id")], results: REG,
        attrs: [REPLICA_GROUP, def("channel_id", UINT, "0"), def("num_channels", AttrKind::Int { min: 1, max: 4 }, "1")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("rank_id", Some(52), "nki.collectives.rank_id", "The rank id of the current rank (a register).",
        operands: [], results: REG, attrs: [],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_SEED),
    op!("collective_permute_reduce", Some(53), "(no public API)", "Explicit-pair collective permute with a reduction of srcs0 and srcs1.",
        operands: [dst("dst", S::HBM, D::NUMERIC), src("src0", S::HBM, D::NUMERIC), src("src1", S::HBM, D::NUMERIC)], results: NONE,
        attrs: [req("source_target_pairs", AttrKind::I64ArrayList), COLLECTIVE_OP],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_WIKI),
    op!("rank_id_store", Some(54), "(no public API)", "Store the current rank id into a [1, 1] tile.",
        operands: [dst("dst", S::SBUF, D::I32_U32)], results: NONE, attrs: [],
        engines: [E::Gpsimd], default: E::Gpsimd, min: None, prov: P_WIKI),
    op!("send_recv", Some(55), "nki.isa.sendrecv", "Swap SBUF tiles between cores (LNC2): send src to send_to_rank, receive dst from recv_from_rank (0xBF SB2SB_COLLECTIVE with gpsimd_dma).",
        operands: [dst("dst", S::SBUF, D::NUMERIC), src("src", S::SBUF, D::NUMERIC)], results: NONE,
        attrs: [req("send_to_rank", UINT), req("recv_from_rank", UINT), def("pipe_id", UINT, "0"),
                def("dma_engine", AttrKind::Enum(DmaEngine::VOCAB), "dma")],
        engines: [E::Gpsimd], default: E::Gpsimd, min: Some(Target::Cayman), prov: P_SEED),
    // ---- DMA ------------------------------------------------------------------------------------
    op!("dma_copy", Some(56), "nki.isa.dma_copy", "Copy src to dst by DMA (converting dtype through fp32); PSUM is not readable.",
        operands: [dst("dst", S::ANY, D::NUMERIC.or(D::MX_DATA).or(D::MX_SCALE)), src("src", S::HBM_SBUF, D::NUMERIC.or(D::MX_DATA).or(D::MX_SCALE))], results: NONE,
        attrs: [OOB, DGE, PRIORITY],
        engines: [E::Dma, E::Sync, E::Scalar], default: E::Dma, min: None, prov: P_AWS_WIKI),
    op!("dma_copy_indirect", Some(57), "nki.isa.dma_copy (indirect .ap)", "DMA copy where src (gather) or dst (scatter) is an access pattern with vector_offset or scalar_offset (0xBB DMA_INDIRECT).",
        operands: [dst("dst", S::ANY, D::NUMERIC), src("src", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [OOB, DGE, def("unique_indices", BOOL, "true"), PRIORITY],
        engines: [E::Dma, E::Sync, E::Scalar], default: E::Dma, min: None, prov: P_SEED_AWS),
    op!("dma_transpose", Some(58), "nki.isa.dma_transpose", "Transpose by DMA along axes ((1,0), (2,1,0) or (3,1,2,0)); 2-byte dtypes, or 4-byte ones when dge_mode is not hwdge (the hardware DGE's 2-byte limit).",
        operands: [dst("dst", S::HBM_SBUF, D::TWO_FOUR_BYTE), src("src", S::HBM_SBUF, D::TWO_FOUR_BYTE)], results: NONE,
        attrs: [req("axes", AttrKind::I64Array { min_len: 2, max_len: 4 }), DGE, OOB],
        engines: [E::Dma, E::Sync, E::Scalar], default: E::Dma, min: None, prov: P_AWS_WIKI),
    op!("dma_gather_transpose", Some(59), "nki.isa.dma_transpose (indirect src)", "Indirect DMA transpose: src is an access pattern with vector_offset (0xF1, NeuronCore v3+).",
        operands: [dst("dst", S::HBM_SBUF, D::TWO_BYTE), src("src", S::HBM_SBUF, D::TWO_BYTE)], results: NONE,
        attrs: [req("axes", AttrKind::I64Array { min_len: 2, max_len: 4 }), DGE, OOB],
        engines: [E::Dma], default: E::Dma, min: Some(Target::Cayman), prov: P_WIKI),
    // ---- registers / host ---------------------------------------------------------------------
    op!("load_register", Some(60), "nki.isa.register_load", "Load a 32- or 64-bit integer from a [1, 1] SBUF tile into a sequencer register.",
        operands: [src("src", S::SBUF, D::I32_I64)], results: REG, attrs: [],
        engines: [E::Tensor, E::Scalar, E::Gpsimd, E::Dma, E::Vector, E::Sync], default: E::Unknown, min: None, prov: P_WIKI),
    op!("store_register", Some(61), "nki.isa.register_store", "Store a sequencer register into a [1, 1] SBUF tile.",
        operands: [dst("dst", S::SBUF, D::I32_I64), reg("src")], results: NONE, attrs: [],
        engines: [E::Tensor, E::Scalar, E::Gpsimd, E::Dma, E::Vector, E::Sync], default: E::Unknown, min: None, prov: P_WIKI),
    op!("device_print", Some(62), "nl.device_print", "Print a tile from the device with a prefix (host side; no opcode).",
        operands: [src("src", S::ANY, D::NUMERIC)], results: NONE,
        attrs: [req("prefix", AttrKind::Str)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    // ---- irbuilder methods outside the 62 --------------------------------------------------------
    op!("rand2", None, "nki.isa.rand2", "Uniform random values in [min, max) from the Vector engine's XORWOW stream (0xE2; NeuronCore v4).",
        operands: [dst("dst", S::ON_CHIP, D::FLOAT)], results: NONE,
        attrs: [def("min", FLOAT, "0.0"), def("max", FLOAT, "1.0")],
        engines: [E::Vector], default: E::Vector, min: Some(Target::Mariana), prov: P_SEED),
    op!("rng", None, "nki.isa.rng", "Raw random bits from the engine's XORWOW stream (0x4D).",
        operands: [dst("dst", S::ON_CHIP, D::INT8_16_32)], results: NONE, attrs: [],
        engines: [E::Vector, E::Gpsimd], default: E::Vector, min: None, prov: P_SEED),
    op!("rand_get_state", None, "nki.isa.rand_get_state", "Read the XORWOW state (6 words per partition on GpSimd, 24 on Vector) into dst, a uint32 tile (0x77).",
        operands: [dst("dst", S::SBUF, D::U32)], results: NONE, attrs: [],
        engines: [E::Gpsimd, E::Vector], default: E::Gpsimd, min: Some(Target::Cayman), prov: P_SEED),
    op!("rand_set_state", None, "nki.isa.rand_set_state", "Load the XORWOW state from src, a uint32 tile (0x78).",
        operands: [src("src", S::SBUF, D::U32)], results: NONE, attrs: [],
        engines: [E::Gpsimd, E::Vector], default: E::Gpsimd, min: Some(Target::Cayman), prov: P_SEED),
    op!("set_rng_seed", None, "nki.isa.set_rng_seed", "Seed the Vector engine's random stream from a [1, 1] 32-bit tile in SBUF or PSUM (PseudoSetRngSeed; dropout draws from it).",
        operands: [src("seed", S::ON_CHIP, D::I32_U32)], results: NONE, attrs: [],
        engines: [E::Vector], default: E::Vector, min: None, prov: P_SEED),
    op!("dma_compute", None, "nki.isa.dma_compute", "dst = sum of NKI's srcs by DMA (reduce_op add only, scales 1.0); gather/scatter read-modify-write through vector_offset. NKI's srcs list is src0 followed by srcs (written as one operand list): the first source may have a type of its own, so both read-modify-write modes (an HBM and an SBUF operand) can be written; the sources after the first share one type.",
        operands: [dst("dst", S::HBM_SBUF, D::NUMERIC), src("src0", S::HBM_SBUF, D::NUMERIC), srcs("srcs", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [def("reduce_op", AttrKind::EnumSubset(ALU, &["add"]), "add"), opt("scales", AttrKind::F32Array),
                def("unique_indices", BOOL, "true"), OOB],
        engines: [E::Dma], default: E::Dma, min: None, prov: P_SEED),
    // ---- public nki.isa / nki.lnc functions outside the emit builders ----------------------------
    op!("nc_transpose", None, "nki.isa.nc_transpose", "dst = data with its partition axis and flattened free axes swapped, dtype kept: on the Tensor engine through the PE array (data in SBUF, dst in PSUM, at most 128x128; a matmul with is_transpose of data by an identity moving tile, which sundial-decompose builds on cayman and newer) or on the Vector engine (SBUF or PSUM, at most 32x32). An unknown engine is the Tensor engine beyond 32x32.",
        operands: [out("dst"), tiled("data")], results: NONE, attrs: [],
        engines: [E::Tensor, E::Vector], default: E::Unknown, min: None, prov: P_API),
    op!("core_barrier", None, "nki.isa.core_barrier (nki.lnc.core_barrier)", "Barrier between the two NeuronCores sharing an HBM stack (cores = [0, 1]): each writes a semaphore to the other and waits for the other's, so both cores' writes to the shared HBM tensor data before it are complete after it. data counts as written, so every access to it stays on its side of the barrier.",
        operands: [dst("data", S::HBM, D::ANY)], results: NONE,
        attrs: [req("cores", AttrKind::I64Array { min_len: 2, max_len: 2 })],
        engines: [E::Tensor, E::Scalar, E::Gpsimd, E::Dma, E::Vector, E::Sync], default: E::Gpsimd, min: Some(Target::Cayman), prov: P_API),
    // ---- generic (not yet selected) loads and stores --------------------------------------------
    op!("generic_load", None, "(penguin GenericLoad)", "A load not yet bound to an instruction: dst takes the elements of src (a tile or an access pattern, possibly indirect). The generic-load-to-gather pass turns the ones that qualify (can_lower_generic_load_to_gather) into nisa.gather; the rest become DMA copies.",
        operands: [dst("dst", S::ON_CHIP, D::NUMERIC), src("src", S::HBM_SBUF, D::NUMERIC)], results: NONE,
        attrs: [OOB],
        engines: [E::Dma, E::Gpsimd], default: E::Unknown, min: None, prov: P_SEED),
    op!("generic_indirect_load", None, "(BIR GenericIndirectLoad, op 42)", "Gather along indirect_dim: dst[..., i, ...] = src[..., indices[i], ...] (lowered by LowerGenericIndirect into offsets + an indirect DMA).",
        operands: [dst("dst", S::ANY, D::NUMERIC), src("src", S::HBM_SBUF, D::NUMERIC), src("indices", S::SBUF, D::INDEX)], results: NONE,
        attrs: [def("indirect_dim", UINT, "0"), OOB, DGE],
        engines: [E::Dma], default: E::Dma, min: None, prov: P_SEED),
    op!("generic_indirect_save", None, "(BIR GenericIndirectSave, op 44)", "Scatter along indirect_dim: dst[..., indices[i], ...] = src[..., i, ...], or += when accumulate (IndirectSaveAccumulate, op 46).",
        operands: [dst("dst", S::HBM_SBUF, D::NUMERIC), src("src", S::ANY, D::NUMERIC), src("indices", S::SBUF, D::INDEX)], results: NONE,
        attrs: [def("indirect_dim", UINT, "0"), OOB, DGE, def("unique_indices", BOOL, "true"), def("accumulate", BOOL, "false")],
        engines: [E::Dma, E::Gpsimd], default: E::Dma, min: None, prov: P_SEED),
    // ---- loops, registers and logical NeuronCore programs (see crate::loops) ----------------
    op!("dynamic_ap", None, "NkiTensor.ap / tensor indexing with loop variables", "An access pattern whose element offset is offset + dynamic_offset, an index computed with arith from loop induction variables and program ids (NKI indexing with affine_range / sequential_range iterators); otherwise nisa.ap. The verifier checks the pattern's bounds over the whole iteration space when dynamic_offset is affine in induction variables of constant-bound loops (and program ids of a known sundial.grid); any other dynamic offset is left to a run-time check. sundial-unroll folds it into a static nisa.ap.",
        operands: [src("tensor", S::ANY, D::ANY), index("dynamic_offset"), opt_src("vector_offset", S::SBUF, D::INDEX),
                   opt_tile_or_reg("scalar_offset", S::SBUF, D::INDEX)],
        results: TILE,
        attrs: [req("pattern", PATTERN), def("offset", INT, "0"), def("indirect_dim", UINT, "0")],
        engines: [], default: E::Unknown, min: None, prov: P_API_OURS),
    op!("register_alloc", None, "nki.isa.register_alloc", "Allocate a virtual sequencer register, optionally initialised with the integer value (the compiler maps virtual registers onto the 64 x 32-bit registers of each engine sequencer).",
        operands: [], results: REG, attrs: [opt("value", REG_VALUE)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("register_move", None, "nki.isa.register_move", "dst = src: a compile-time integer (imm) or another register (src); touches no SBUF, PSUM or HBM.",
        operands: [reg("dst"), opt_reg("src")], results: NONE, attrs: [opt("imm", REG_VALUE)],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("register_index", None, "nl.dynamic_range (register bound)", "The value of a register as an index: the bound of an scf.for that runs as NKI's dynamic_range (the trip count lives in the register; such a loop stays a loop) or a dynamic offset checked at run time.",
        operands: [reg("src")], results: INDEX, attrs: [],
        engines: [], default: E::Unknown, min: None, prov: P_API_OURS),
    op!("program_id", None, "nl.program_id", "The index of this program along axis of the launch grid (sundial.grid; an LNC=2 kernel has grid [2]): fixed for a whole run, in [0, grid[axis]).",
        operands: [], results: INDEX, attrs: [def("axis", UINT, "0")],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("num_programs", None, "nl.num_programs", "The number of programs along axes of the launch grid (all axes when absent): a constant when the module names sundial.grid.",
        operands: [], results: INDEX, attrs: [opt("axes", AttrKind::I64Array { min_len: 1, max_len: 8 })],
        engines: [], default: E::Unknown, min: None, prov: P_API),
    op!("tensor_partition_reduce", None, "nki.isa.tensor_partition_reduce (penguin PartitionReduceOp)", "A reduction over the partition axis (axis 0) and optionally the trailing free axes, not yet bound to an instruction: dst [1, kept free dims...] = op over the axes of src. sundial-legalize-partition-reduce lowers it to cross_lane_reduce_* (0x7C/0x7D), with free-axis tensor_reduce_* and combine steps, or refuses it.",
        operands: [out("dst"), tiled("src")], results: NONE,
        attrs: [req("op", AttrKind::EnumSubset(ALU, PARTITION_REDUCE_GENERIC)),
                def("axis", AttrKind::I64Array { min_len: 1, max_len: 6 }, "array<i64: 0>")],
        engines: [], default: E::Unknown, min: None, prov: P_SEED),
];

/// The engines that trigger a hardware-DGE DMA (`engine=` on `dma_copy`, `dma_copy_indirect`
/// and `dma_transpose`): NKI's docs say hwdge is triggered from the Sync or Scalar engine on
/// NeuronCore v3/v4 (pass-rules §8, conflict 7: not Vector on our targets), and that `engine=`
/// on a DMA is accepted only with hwdge. `dma` leaves the trigger to the back end.
pub const HWDGE_TRIGGERS: &[Engine] = &[E::Sync, E::Scalar];

/// The operand groups of `dma_compute` that make up NKI's `srcs` list, in order: the verifier,
/// the emulator driver and the passes read the sources as their concatenation.
pub const DMA_COMPUTE_SOURCES: [&str; 2] = ["src0", "srcs"];

/// Looks up a NISA op by mnemonic (without the `nisa.` prefix).
pub fn op(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().find(|o| o.name == name)
}

/// The engines legal for `spec` when written explicitly (unknown is always accepted).
pub fn engine_legal(spec: &OpSpec, engine: Engine) -> bool {
    engine == Engine::Unknown || spec.engines.contains(&engine)
}

/// Register-capable engines (sequencers); used in docs.
pub const SEQUENCER_ENGINES: &[Engine] = ENGINE_ANY_SEQ;

/// The engine an engine-polymorphic op runs on when nothing else decides: the emit
/// signature's default. Their table `default` is `Unknown` ("let the compiler pick", NKI's
/// `engine=unknown`): `sundial-resolve-engine` applies its rules first (int32 add/subtract/
/// multiply on GpSimd, pass-rules §2) and this default after them.
pub const RESOLVED_DEFAULT_ENGINES: &[(&str, Engine, Provenance)] = &[
    ("tensor_tensor_arith", E::Vector, P_WIKI),
    ("tensor_scalar_arith", E::Vector, P_WIKI),
    ("tensor_copy", E::Vector, P_WIKI),
    ("memset", E::Vector, P_WIKI),
];

/// The engine `spec` resolves to when no rule decides ([`RESOLVED_DEFAULT_ENGINES`], else the
/// table's default engine).
pub fn resolved_default_engine(spec: &OpSpec) -> Engine {
    RESOLVED_DEFAULT_ENGINES
        .iter()
        .find(|(name, _, _)| *name == spec.name)
        .map(|(_, e, _)| *e)
        .unwrap_or(spec.default_engine)
}
