//! Field tables of the 3D-slot compute formats: S3S3D3_TT (TENSOR_TENSOR 0x41/0x51, the bf16
//! opcodes 0x8a/0x8b/0x8f, COPY/CAST_PREDICATED 0x72/0x99),
//! S3D3_TS (TENSOR_SCALAR 0x43/0x53/0x93/0x9a/0xe6, EXPONENTIAL 0x30), S3D3_TS_SELECT 0x98 and
//! the Scalar engine's ACTIVATE 0x21 and D1_RD read-out 0x24; plus the ALU-class tables their
//! rules read.
//!
//! Sources: bundle-layouts §4.0, §4.1, §4.2, §4.11, §4.13, conflict #12 (header-derived tables
//! unless a row says otherwise) and §4x.

use super::{Format, dst, events, f, read_acc, src};
use crate::arch::Family;
use crate::enums::{ACCUM_CMDS, ACTIVATION_FUNCS, ALU_OPS, IMM_SRCS, IMM_SRCS_N};
use crate::fields::{DtypeRef, Field, Kind, Prov};

/// Fields of S3S3D3_TT (64 B, header `aws_neuron_isa_tpb_s3s3d3_tt.h`, compile-asserted).
pub mod tt {
    use super::*;

    // CONFLICT #2 (slot order) settled for the header: src0@16, src1@32, dst@48 (the struct is
    // compile-asserted; the CC order dst@0x10, in0@0x20, in1@0x30 is a reading of store order).
    // The CC order is the one-line change `SRC0_AT = 0x20; SRC1_AT = 0x30; DST_AT = 0x10`.
    /// Offset of `src0_mem_pattern`.
    pub const SRC0_AT: u8 = 0x10;
    /// Offset of `src1_mem_pattern`.
    pub const SRC1_AT: u8 = 0x20;
    /// Offset of `dst_mem_pattern`.
    pub const DST_AT: u8 = 0x30;

    /// +0x0C dtype pair.
    pub const IN0_IN1_DTYPE: Field = f(
        "in0_in1_dtype",
        0x0C,
        Kind::DtypePair,
        Prov::Header,
        "DTYPE_PAIR lo = src0 (predicate mask on 0x72/0x99), hi = src1 (data); CC agrees on the \
         nibble roles",
    );
    /// +0x0D out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x0D,
        Kind::Dtype,
        Prov::Header,
        "dst wire dtype (FP32R allowed)",
    );
    /// +0x0E ALU op.
    pub const OP: Field = f(
        "op",
        0x0E,
        Kind::Enum(ALU_OPS),
        Prov::Header,
        "ALU_OP; 0xC4/0xC5 on the GpSimd int32 forms (CC override); BYPASS on 0x72/0x99 (CC: no \
         ALU byte written). ASSUMPTION: the bf16 opcodes 0x8a/0x8b/0x8f carry the op's own byte \
         (add/mult/subtract); no source says what they hold",
    );
    /// +0x0F active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x0F,
        Kind::U8,
        Prov::Header,
        "1..128; value = in0 partition count (CC in0.firstAPPair.num; the data operand on \
         0x72/0x99)",
    );
    /// src0.
    pub const SRC0: Field = src(
        "src0_mem_pattern",
        SRC0_AT,
        Kind::Tensor(3),
        DtypeRef::Lo(0x0C),
        Prov::Header,
        "TENSOR3D in0 (the predicate mask on 0x72/0x99). CONFLICT #2: see SRC0_AT",
    );
    /// src1.
    pub const SRC1: Field = src(
        "src1_mem_pattern",
        SRC1_AT,
        Kind::Tensor(3),
        DtypeRef::Hi(0x0C),
        Prov::Header,
        "TENSOR3D in1 (the data on 0x72/0x99). CONFLICT #2: see SRC0_AT",
    );
    /// dst.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        DST_AT,
        Kind::Tensor(3),
        DtypeRef::Byte(0x0D),
        Prov::Header,
        "TENSOR3D out. CONFLICT #2: see SRC0_AT",
    );
}

const TT_FIELDS: &[Field] = with_events![
    tt::IN0_IN1_DTYPE,
    tt::OUT_DTYPE,
    tt::OP,
    tt::ACTIVE,
    tt::SRC0,
    tt::SRC1,
    tt::DST,
];

/// Fields of S3D3_TS (header `s3d3_ts.h`; CC `generateTensorScalarOrPtr` agrees byte for byte).
pub mod ts {
    use super::*;
    /// +0x0C accumulate command.
    pub const ACCUMULATOR_CMD: Field = f(
        "accumulator_cmd",
        0x0C,
        Kind::Enum(ACCUM_CMDS),
        Prov::Header,
        "ACCUM_CMD; forced IDLE on 0x43/0x53/0x93 (header), any command on the cache forms",
    );
    /// +0x10 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mem(3),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "TENSOR3D (MEM_PATTERN3D union with INDIRECT16B on v4+). CONFLICT #6 settled for the \
         header and the CC capstone (+0x10), not the CC TS page's +0x28..+0x3F band",
    );
    /// +0x20 in dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x20,
        Kind::Dtype,
        Prov::Header,
        "FP32R not allowed",
    );
    /// +0x21 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x21,
        Kind::Dtype,
        Prov::Header,
        "FP32R allowed",
    );
    /// +0x22 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Header,
        "source partition count (CC: the input AP)",
    );
    /// +0x23 imm0 source.
    pub const IMM0_SRC: Field = f(
        "imm0_src",
        0x23,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of imm0 (CC 'imm0 AP byte', STRONG)",
    );
    /// +0x24 op0.
    pub const OP0: Field = f("op0", 0x24, Kind::Enum(ALU_OPS), Prov::Header, "ALU_OP");
    /// +0x25 op1.
    pub const OP1: Field = f(
        "op1",
        0x25,
        Kind::Enum(ALU_OPS),
        Prov::Header,
        "ALU_OP; BYPASS when op0 is BYPASS",
    );
    /// +0x26 reverse operands.
    pub const REVERSE_OPERANDS: Field = f(
        "reverse_operands",
        0x26,
        Kind::U8,
        Prov::Header,
        "TENS_SCALAR_REV_OPS 0..3 = reverse0 | reverse1 << 1 (CC CONFIRMED)",
    );
    /// +0x27 imm1 source.
    pub const IMM1_SRC: Field = f(
        "imm1_src",
        0x27,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of imm1",
    );
    /// +0x28 imm0.
    pub const IMM0: Field = f(
        "imm0",
        0x28,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD: fp32 bits (arithmetic inline), integer (bitvec inline), pointer, or \
         register",
    );
    /// +0x2C imm1.
    pub const IMM1: Field = f(
        "imm1",
        0x2C,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD, as imm0",
    );
    /// +0x30 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Tensor(3),
        DtypeRef::Byte(0x21),
        Prov::Header,
        "TENSOR3D",
    );
}

const TS_FIELDS: &[Field] = with_events![
    ts::ACCUMULATOR_CMD,
    ts::SRC,
    ts::IN_DTYPE,
    ts::OUT_DTYPE,
    ts::ACTIVE,
    ts::IMM0_SRC,
    ts::OP0,
    ts::OP1,
    ts::REVERSE_OPERANDS,
    ts::IMM1_SRC,
    ts::IMM0,
    ts::IMM1,
    ts::DST,
];

/// Fields of S3D3_TS_SELECT 0x98 (header, gcc offsetof; identical on every generation).
pub mod tss {
    use super::*;
    /// +0x10 source.
    pub const SRC: Field = src(
        "src0_mem_pattern",
        0x10,
        Kind::Tensor(3),
        DtypeRef::Byte(0x22),
        Prov::Header,
        "TENSOR3D tensor operand (PSUM or SBUF)",
    );
    /// +0x20 reversed predicate.
    pub const REVERSED_PRED: Field = f(
        "reversed_pred",
        0x20,
        Kind::U8,
        Prov::Header,
        "0 or 1: swaps which side the predicate selects",
    );
    /// +0x21 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x21,
        Kind::U8,
        Prov::Header,
        "source partition count",
    );
    /// +0x22 dtype.
    pub const DTYPE: Field = f(
        "dtype",
        0x22,
        Kind::Dtype,
        Prov::Header,
        "the one dtype of src0, src1 and dst (copy only)",
    );
    /// +0x23 predicate dtype.
    pub const PRED_IMM_DTYPE: Field = f(
        "pred_imm_dtype",
        0x23,
        Kind::Dtype,
        Prov::Header,
        "integer datapath dtype of the byte width of `dtype`",
    );
    /// +0x26 scalar source.
    pub const SRC1_IMM_SRC: Field = f(
        "src1_imm_src",
        0x26,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of the scalar operand",
    );
    /// +0x27 predicate source.
    pub const PRED_IMM_SRC: Field = f(
        "pred_imm_src",
        0x27,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of the predicate",
    );
    /// +0x28 scalar.
    pub const SRC1_IMM: Field = f(
        "src1_imm",
        0x28,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD: the scalar operand B",
    );
    /// +0x2C predicate.
    pub const PRED_IMM: Field = f(
        "pred_imm",
        0x2C,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD: inline it must be 0 or 1",
    );
    /// +0x30 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Tensor(3),
        DtypeRef::Byte(0x22),
        Prov::Header,
        "TENSOR3D",
    );
}

const fn tt_format(
    opcode: u8,
    mnemonic: &'static str,
    struct_name: &'static str,
    family: Family,
) -> Format {
    Format {
        opcode,
        mnemonic,
        struct_name,
        family,
        fields: TT_FIELDS,
        reserved_rule: "reserved_zero",
    }
}

const fn ts_format(
    opcode: u8,
    mnemonic: &'static str,
    struct_name: &'static str,
    family: Family,
) -> Format {
    Format {
        opcode,
        mnemonic,
        struct_name,
        family,
        fields: TS_FIELDS,
        reserved_rule: "reserved_zero",
    }
}

/// 0x41 TensorTensorArithOp.
pub static TENSOR_TENSOR_ARITH: Format = tt_format(
    0x41,
    "tensor_tensor_arith",
    "S3S3D3_TT",
    Family::TensorTensor,
);
/// 0x51 TensorTensorBitvecOp.
pub static TENSOR_TENSOR_BITVEC: Format = tt_format(
    0x51,
    "tensor_tensor_bitvec",
    "S3S3D3_TT",
    Family::TensorTensor,
);
/// 0x8a TENSOR_TENSOR_ADD_BF16 (sunda; ledger name, isa-table row 10). CONFLICT settled for
/// the seed: the CC wiki also uses 0x8A (and 0x8E) for the GpSimd int32 forms; the seed pins
/// 0x41 there (see [`crate::isa::GPSIMD_INT32_ALU`]), so 0x8a is the bf16 add only. Which
/// instruction selects which opcode is the ISA table's (`isa::ROWS`), not this table's.
pub static TENSOR_TENSOR_ADD_BF16: Format = tt_format(
    0x8a,
    "tensor_tensor_add_bf16",
    "S3S3D3_TT (bf16 add)",
    Family::TensorTensorBf16,
);
/// 0x8b TENSOR_TENSOR_MULT_BF16 (sunda).
pub static TENSOR_TENSOR_MULT_BF16: Format = tt_format(
    0x8b,
    "tensor_tensor_mult_bf16",
    "S3S3D3_TT (bf16 mult)",
    Family::TensorTensorBf16,
);
/// 0x8f TENSOR_TENSOR_SUB_BF16 (sunda).
pub static TENSOR_TENSOR_SUB_BF16: Format = tt_format(
    0x8f,
    "tensor_tensor_sub_bf16",
    "S3S3D3_TT (bf16 subtract)",
    Family::TensorTensorBf16,
);
/// 0x72 CopyPredicated.
pub static COPY_PREDICATED: Format =
    tt_format(0x72, "copy_predicated", "S3S3D3_TT", Family::TensorTensor);
/// 0x99 CastPredicated.
pub static CAST_PREDICATED: Format =
    tt_format(0x99, "cast_predicated", "S3S3D3_TT", Family::TensorTensor);
/// 0x43 TensorScalarArithOp.
pub static TENSOR_SCALAR_ARITH: Format =
    ts_format(0x43, "tensor_scalar_arith", "S3D3_TS", Family::TensorScalar);
/// 0x53 TensorScalarBitvecOp.
pub static TENSOR_SCALAR_BITVEC: Format = ts_format(
    0x53,
    "tensor_scalar_bitvec",
    "S3D3_TS",
    Family::TensorScalar,
);
/// 0x93 TENSOR_SCALAR with transpose.
pub static TENSOR_SCALAR_TRANSPOSE: Format = ts_format(
    0x93,
    "tensor_scalar_transpose",
    "S3D3_TS",
    Family::TensorScalar,
);
/// 0x9a tensor_scalar_cache_reduce (followed by 0x9b).
pub static TENSOR_SCALAR_CACHE_REDUCE: Format = ts_format(
    0x9a,
    "tensor_scalar_cache_reduce",
    "S3D3_TS",
    Family::TensorScalar,
);
/// 0xe6 tensor_scalar_cache_cumulative.
pub static TENSOR_SCALAR_CACHE_CUMULATIVE: Format = ts_format(
    0xe6,
    "tensor_scalar_cache_cumulative",
    "S3D3_TS",
    Family::TensorScalar,
);
/// 0x30 EXPONENTIAL (mariana).
pub static EXPONENTIAL: Format = ts_format(0x30, "exponential", "S3D3_TS", Family::Exponential);

/// 0x98 TensorScalarSelect.
pub static TENSOR_SCALAR_SELECT: Format = Format {
    opcode: 0x98,
    mnemonic: "tensor_scalar_select",
    struct_name: "S3D3_TS_SELECT",
    family: Family::TensorScalarSelect,
    fields: with_events![
        tss::SRC,
        tss::REVERSED_PRED,
        tss::ACTIVE,
        tss::DTYPE,
        tss::PRED_IMM_DTYPE,
        tss::SRC1_IMM_SRC,
        tss::PRED_IMM_SRC,
        tss::SRC1_IMM,
        tss::PRED_IMM,
        tss::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x24 ActivationReadAccumulator: the D1_RD layout of 0x9b (header 4.13 gives both one
/// struct), so the same field constants.
pub static ACTIVATION_READ_ACCUMULATOR: Format = Format {
    opcode: 0x24,
    mnemonic: "activation_read_accumulator",
    struct_name: "D1_RD",
    family: Family::Activation,
    fields: with_events![
        read_acc::DST_ELEMENT_COUNT,
        read_acc::DTYPE,
        read_acc::NEGATED,
        read_acc::ACTIVE,
        read_acc::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// Fields of ACTIVATE 0x21 (CC family A "3D 2-slot", bundle-layouts §4.0: src TENSOR3D at +0x10,
/// control band +0x20..+0x2F, dst MEM_PATTERN3D at +0x30; the header immediates of conflict #12;
/// §4x.2 for the function byte).
///
/// Four bytes no source places for 0x21: `in_dtype`, `out_dtype`, `num_active_channels` and the
/// accumulate command. They are [`Prov::Assumption`] rows, each stating its analogy: the dtypes
/// and channels take the +0x20/+0x21/+0x22 of both ACTIVATE2 0x25 (CC) and the other family-A
/// user TENSOR_SCALAR 0x43 (header), which agree; the accumulate byte cannot sit where either
/// puts it (+0x1A of 0x25 is inside 0x21's src slot, +0x0C of 0x43 is 0x21's header `imm_src`),
/// so it takes +0x0E, the one byte of the +0x0C..+0x0F band conflict #12 leaves unnamed.
pub mod act {
    use super::*;
    /// +0x0C second-immediate source.
    pub const IMM_SRC: Field = f(
        "imm_src",
        0x0C,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of `imm` (+0x2C), conflict #12 (header imm_src@12; CC 'imm1' naming)",
    );
    /// +0x0D scale source.
    pub const SCALE_SRC: Field = f(
        "scale_src",
        0x0D,
        Kind::Enum(IMM_SRCS),
        Prov::Header,
        "IMM_SRC of `scale_value` (+0x24), conflict #12 (header scale_src@13)",
    );
    /// +0x0E accumulate command (assumed offset).
    pub const ACCUMULATOR_CMD: Field = f(
        "accumulator_cmd",
        0x0E,
        Kind::Enum(ACCUM_CMDS),
        Prov::Assumption,
        "ACCUM_CMD (§4x.3; the 0x21 encoder writes ZERO_ACCUMULATE 3 for BIR Idle, CC CERTAIN).          OFFSET ASSUMED: no source places it on 0x21; 0x25 has it at +0x1A (inside 0x21's src          slot) and 0x43 at +0x0C (0x21's imm_src), so the band's unnamed byte +0x0E",
    );
    /// +0x0F bias source (inverted polarity).
    pub const BIAS_SRC_N: Field = f(
        "bias_src_n",
        0x0F,
        Kind::Enum(IMM_SRCS_N),
        Prov::Header,
        "IMM_SRC_N of `bias` (+0x28): 0 pointer, 1 inline, 2 register (header bias_src_n@15 =          CC imm0_src @+0x0F, conflict #12 consistent)",
    );
    /// +0x10 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x10,
        Kind::Mem(3),
        DtypeRef::Byte(0x20),
        Prov::Compiler,
        "TENSOR3D (MEM_PATTERN3D union with INDIRECT16B), family A src slot (§4.0, CC capstone)",
    );
    /// +0x20 in dtype (assumed offset).
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x20,
        Kind::Dtype,
        Prov::Assumption,
        "OFFSET ASSUMED by analogy: ACTIVATE2 +0x20 in_dtype (CC) and family-A TENSOR_SCALAR          +0x20 in_dtype (header); FP32R not allowed",
    );
    /// +0x21 out dtype (assumed offset).
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x21,
        Kind::Dtype,
        Prov::Assumption,
        "OFFSET ASSUMED by analogy: ACTIVATE2 +0x21 out_dtype (CC) and TENSOR_SCALAR +0x21",
    );
    /// +0x22 active channels (assumed offset).
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Assumption,
        "OFFSET ASSUMED by analogy: ACTIVATE2 +0x22 channels (CC), TENSOR_SCALAR +0x22 and D1_RD          0x24 +0x22 (the Scalar engine's read-out); source partition count",
    );
    /// +0x23 activation function.
    pub const ACTIVATION_FUNC: Field = f(
        "activation_func",
        0x23,
        Kind::Enum(ACTIVATION_FUNCS),
        Prov::Compiler,
        "ACTFUNC_map[BIR ActivationFunctionType] (§4x.2, CC CERTAIN: +0x23 in Activate and          Activate2); a raw PWP table index (header)",
    );
    /// +0x24 scale.
    pub const SCALE_VALUE: Field = f(
        "scale_value",
        0x24,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD: fp32 bits inline, pointer or register (header scale_value@36).          CONFLICT #12: the CC says its encoder never writes +0x24..+0x27; kept for the header",
    );
    /// +0x28 bias.
    pub const BIAS: Field = f(
        "bias",
        0x28,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD (header bias@40 = CC imm0 value @+0x28)",
    );
    /// +0x2C second immediate.
    pub const IMM: Field = f(
        "imm",
        0x2C,
        Kind::Hex32,
        Prov::Header,
        "IMM_VAL_INST_FIELD (header imm@44); written only for Prelu, Copy and Reciprocal (the CC          second-immediate gate, §4x.2), zero otherwise",
    );
    /// +0x30 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Tensor(3),
        DtypeRef::Byte(0x21),
        Prov::Compiler,
        "TENSOR3D, family A dst slot (§4.0)",
    );
}

/// 0x21 ACTIVATE (the Scalar engine's activation, [`act`]).
pub static ACTIVATE: Format = Format {
    opcode: 0x21,
    mnemonic: "activate",
    struct_name: "ACTIVATE (family A, offsets partly assumed)",
    family: Family::Activation,
    fields: with_events![
        act::IMM_SRC,
        act::SCALE_SRC,
        act::ACCUMULATOR_CMD,
        act::BIAS_SRC_N,
        act::SRC,
        act::IN_DTYPE,
        act::OUT_DTYPE,
        act::ACTIVE,
        act::ACTIVATION_FUNC,
        act::SCALE_VALUE,
        act::BIAS,
        act::IMM,
        act::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// The formats of this group (each is also in `formats::FORMATS`).
pub static GROUP: [&Format; 16] = [
    &TENSOR_TENSOR_ARITH,
    &TENSOR_TENSOR_BITVEC,
    &TENSOR_TENSOR_ADD_BF16,
    &TENSOR_TENSOR_MULT_BF16,
    &TENSOR_TENSOR_SUB_BF16,
    &COPY_PREDICATED,
    &CAST_PREDICATED,
    &TENSOR_SCALAR_ARITH,
    &TENSOR_SCALAR_BITVEC,
    &TENSOR_SCALAR_TRANSPOSE,
    &TENSOR_SCALAR_CACHE_REDUCE,
    &TENSOR_SCALAR_CACHE_CUMULATIVE,
    &EXPONENTIAL,
    &TENSOR_SCALAR_SELECT,
    &ACTIVATE,
    &ACTIVATION_READ_ACCUMULATOR,
];

/// Whether `opcode` is one of this group's.
pub fn owns(opcode: u8) -> bool {
    GROUP.iter().any(|f| f.opcode == opcode)
}

/// Whether `opcode` has the S3S3D3_TT layout.
pub fn is_tt(opcode: u8) -> bool {
    GROUP
        .iter()
        .any(|f| f.opcode == opcode && f.fields == TT_FIELDS)
}

/// Whether `opcode` has the S3D3_TS layout.
pub fn is_ts(opcode: u8) -> bool {
    GROUP
        .iter()
        .any(|f| f.opcode == opcode && f.fields == TS_FIELDS)
}

// ---------------------------------------------------------------- ALU classes (§4x.1)

/// Wire ALU codes of the header's `is_general_bitvec_op` without BYPASS (which BIR treats as
/// arithmetic): NOT, ASL, ASR, AND, OR, XOR, LSL, LSR. The 0x51/0x53 opcodes take these (and
/// BYPASS); a BIR op whose byte is here selects the bitvec opcode.
pub const BITVEC_OPS: [u8; 8] = [0x01, 0x02, 0x03, 0x0a, 0x0b, 0x0c, 0x10, 0x11];

/// Wire ALU codes 0x41 rejects although they are ALU ops: raw DIVIDE and RSQRT (header
/// "not raw DIVIDE/RSQRT"), CRC32 (Pool only), the bitvec-only ops, and the argmax/argmin codes
/// 0xDE..0xE1 (outside `is_valid_int_aluop`).
pub fn tt_arith_ok(code: u8) -> bool {
    TT_ARITH_OK[code as usize]
}

/// [`tt_arith_ok`] of every code, compiled from its rule at build time (the encoder and the
/// validator ask per instruction; the rule searches the name table).
static TT_ARITH_OK: [bool; 256] = {
    let mut t = [false; 256];
    let mut code = 0;
    while code < 256 {
        t[code] = tt_arith_rule(code as u8);
        code += 1;
    }
    t
};

/// The rule of [`tt_arith_ok`].
const fn tt_arith_rule(code: u8) -> bool {
    let mut named = false;
    let mut i = 0;
    while i < ALU_OPS.len() {
        named |= ALU_OPS[i].0 == code;
        i += 1;
    }
    let mut bitvec = false;
    let mut i = 0;
    while i < BITVEC_OPS.len() {
        bitvec |= BITVEC_OPS[i] == code;
        i += 1;
    }
    named && !bitvec && !matches!(code, 0x07 | 0x1c | 0x1d | 0xde..=0xe1)
}

/// The shift ops among [`BITVEC_OPS`] (ASL, ASR, LSL, LSR): their count operand (src1) may be
/// UINT32 under a 64-bit value (header bitvec validity).
pub const SHIFT_OPS: [u8; 4] = [0x02, 0x03, 0x10, 0x11];

/// Whether 0x51 accepts the code: BYPASS or a bitvec op.
pub fn tt_bitvec_ok(code: u8) -> bool {
    code == 0 || BITVEC_OPS.contains(&code)
}

/// The TENSOR_SCALAR ALU code range (header): 0x00..0x23 and 0xC4..0xE1, the gap 0x1E/0x1F
/// rejected (0x20..0x23 are the newer headers' ABS_MAX, ABS_MIN, RELU, SQUARE).
pub fn ts_alu_ok(code: u8) -> bool {
    matches!(code, 0x00..=0x1d | 0x20..=0x23 | 0xc4..=0xe1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_is_in_the_format_list() {
        for f in GROUP {
            assert!(
                std::ptr::eq(super::super::by_opcode(f.opcode).unwrap(), f),
                "{}",
                f.mnemonic
            );
            assert!(is_tt(f.opcode) || is_ts(f.opcode) || [0x98, 0x21, 0x24].contains(&f.opcode));
        }
        assert!(!owns(0x9b) && !owns(0xbc));
    }

    #[test]
    fn alu_classes() {
        // The compiled table is the rule, read through the name table.
        for code in 0..=255u8 {
            let rule = crate::enums::name_of(ALU_OPS, code).is_some()
                && !BITVEC_OPS.contains(&code)
                && !matches!(code, 0x07 | 0x1c | 0x1d | 0xde..=0xe1);
            assert_eq!(tt_arith_ok(code), rule, "{code:#04x}");
        }
        assert!(tt_arith_ok(0x04) && tt_arith_ok(0xc4) && tt_arith_ok(0x1b));
        assert!(!tt_arith_ok(0x07) && !tt_arith_ok(0x0a) && !tt_arith_ok(0xde));
        assert!(tt_bitvec_ok(0x00) && tt_bitvec_ok(0x11) && !tt_bitvec_ok(0x1c));
        assert!(ts_alu_ok(0x23) && !ts_alu_ok(0x1e) && !ts_alu_ok(0x1f) && !ts_alu_ok(0xe2));
        assert!(!ts_alu_ok(0x24) && !ts_alu_ok(0xc3));
    }
}
