//! Field tables of the 4D-slot compute formats: S4D4_TR for TensorReduce 0x42 / 0x52, Copy 0x46,
//! Cast 0x47 and Reciprocal 0x48; S4D4_PL Pool 0x45; S4D4_CR CrossLaneReduce 0x7C / 0x7D; D4_IOTA
//! 0x7E; Memset 0x49; S2D2_TS_AS TensorScalarAffineSelect 0x92 (bundle-layouts §4.3, §4.4, §4.7,
//! §4.8, §4.10, §7).
//!
//! CONFLICT #3 settled (opcode <-> struct): the header and the CC enum page bind 0x42 / 0x52 to
//! S4D4_TR and 0x7C / 0x7D to S4D4_CR; the CC pool-reduce page says the reverse. The header
//! binding is used (header precedes compiler facts); the CC's own field maps fit it.
//!
//! The S4D4_TR rows reuse the source / dtype / channel / destination fields of `formats::tr`
//! (the same header struct as 0x6A / 0x6B); bytes 35..38 get their own rows because the header
//! meaning differs from the seed's transpose use (0x6B calls byte 38 `d3_transpose_ch`).

use super::*;
use crate::enums::{AFFINE_SELECT_CMPS, CR_REDUCE_AXES, CR_REDUCE_OPS, POOL_FUNCS, TENSOR_SUBDIMS};

/// The opcode bytes of the group, stated once: the `Format` rows, the encoders, the validator
/// rules, the lifter and the op table read them from here.
pub mod opcode {
    /// TensorReduceArithOp (S4D4_TR; CC enum page, header binding).
    pub const TENSOR_REDUCE_ARITH: u8 = 0x42;
    /// TensorReduce, bitvec twin (S4D4_TR).
    pub const TENSOR_REDUCE_BITVEC: u8 = 0x52;
    /// Copy (S4D4_TR; CC `visitInstTensorCopy`). When a TensorCopy is a Copy is the ISA
    /// table's `tensor_copy` row.
    pub const COPY: u8 = 0x46;
    /// Cast (S4D4_TR; the same visitor, the `tensor_copy` row's dtype-changing case).
    pub const CAST: u8 = 0x47;
    /// Reciprocal (S4D4_TR per the header binding).
    pub const RECIPROCAL: u8 = 0x48;
    /// Pool (S4D4_PL, CC).
    pub const POOL: u8 = 0x45;
    /// CrossLaneReduceArith (S4D4_CR; seed pass LegalizePartitionReduce).
    pub const CROSS_LANE_REDUCE_ARITH: u8 = 0x7c;
    /// CrossLaneReduceBitvec (S4D4_CR).
    pub const CROSS_LANE_REDUCE_BITVEC: u8 = 0x7d;
    /// Iota (D4_IOTA).
    pub const IOTA: u8 = 0x7e;
    /// Memset (CC layout).
    pub const MEMSET: u8 = 0x49;
    /// TensorScalarAffineSelect (S2D2_TS_AS; seed: distinct from 0x98).
    pub const AFFINE_SELECT: u8 = 0x92;
    /// Every opcode of the group.
    pub const ALL: [u8; 11] = [
        TENSOR_REDUCE_ARITH,
        TENSOR_REDUCE_BITVEC,
        COPY,
        CAST,
        RECIPROCAL,
        POOL,
        CROSS_LANE_REDUCE_ARITH,
        CROSS_LANE_REDUCE_BITVEC,
        IOTA,
        MEMSET,
        AFFINE_SELECT,
    ];
}

/// S4D4_TR control bytes 35..38 as the header names them (TensorReduce, Copy, Cast, Reciprocal).
pub mod tr4d {
    use super::*;
    /// +0x23 negated.
    pub const NEGATED: Field = f(
        "negated",
        0x23,
        Kind::U8,
        Prov::Header,
        "header u8 negated (CC TR '+0x23 negate'): TensorReduce writes 0/1; Copy/Cast must be 0; \
         Reciprocal writes 0 (ASSUMPTION, the CC lists no write)",
    );
    /// +0x24 ALU op.
    pub const OP: Field = f(
        "op",
        0x24,
        Kind::Enum(ALU_OPS),
        Prov::Header,
        "header ALU_OP (CC TR '+0x24 ALU op', sub_12039C0): TensorReduce's op; Copy/Cast must be \
         BYPASS; Reciprocal leaves it 0 = BYPASS (CC lists no write)",
    );
    /// +0x25 op_dim.
    pub const OP_DIM: Field = f(
        "op_dim",
        0x25,
        Kind::Enum(TENSOR_SUBDIMS),
        Prov::Header,
        "header TENSOR_SUBDIM; TensorReduce = AxisListType + 2 (CC sub_120EAB0); Copy/Cast/\
         Reciprocal write 0 = UNUSED (CC '+0x25 = 0'); Copy/Cast accept UNUSED or X",
    );
    /// +0x26 mask_enable.
    pub const MASK_ENABLE: Field = f(
        "mask_enable",
        0x26,
        Kind::U8,
        Prov::Header,
        "header mask_enable; Copy/Cast must be 0; no source gives a value for the others, the \
         encoder writes 0 (ASSUMPTION)",
    );
}

/// S4D4_PL fields of Pool 0x45 (CC 59725165088 only; no header struct recovered).
pub mod pool {
    use super::*;
    /// +0x0C source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x0C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x20),
        Prov::Compiler,
        "source TENSOR4D (CC)",
    );
    /// +0x20 in dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x20,
        Kind::Dtype,
        Prov::Compiler,
        "source dtype",
    );
    /// +0x21 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x21,
        Kind::Dtype,
        Prov::Compiler,
        "destination dtype",
    );
    /// +0x22 lane count.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Compiler,
        "CC 'lane' = in.Pattern[0].num",
    );
    /// +0x24 pool function.
    pub const POOL_FUNC: Field = f(
        "pool_func",
        0x24,
        Kind::Enum(POOL_FUNCS),
        Prov::Compiler,
        "BIR Max = 0 / Avg = 1, written + 1 (Max -> 1, Avg -> 2)",
    );
    /// +0x25 mode.
    pub const POOL_MODE: Field = f(
        "pool_mode",
        0x25,
        Kind::U8,
        Prov::Compiler,
        "constant 3 (CC); meaning not recovered",
    );
    /// +0x28 scale.
    pub const POOL_SCALE: Field = f(
        "pool_scale",
        0x28,
        Kind::F32,
        Prov::Compiler,
        "f32: Max 1.0f (0x3F800000), Avg 1/N",
    );
    /// +0x2C destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x2C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x21),
        Prov::Compiler,
        "destination TENSOR4D (CC)",
    );
}

/// S4D4_CR fields of CrossLaneReduce 0x7C / 0x7D (header, GPSIMD 60069542161 §3).
pub mod cr {
    use super::*;
    /// +0x0C source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x0C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x20),
        Prov::Header,
        "source TENSOR4D, SBUF only",
    );
    /// +0x20 in dtype.
    pub const IN_DTYPE: Field = f(
        "in_dtype",
        0x20,
        Kind::Dtype,
        Prov::Header,
        "source dtype (no FP32R)",
    );
    /// +0x21 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x21,
        Kind::Dtype,
        Prov::Header,
        "destination dtype (FP32R ok)",
    );
    /// +0x22 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Header,
        "partitions reduced (the source's)",
    );
    /// +0x23 reduce op.
    pub const REDUCE_OP: Field = f(
        "reduce_op",
        0x23,
        Kind::Enum(CR_REDUCE_OPS),
        Prov::Header,
        "REDUCE_OP: ADD/AVERAGE/MAX on 0x7C, OR/AND/XOR on 0x7D (CC reduce_cmd map agrees)",
    );
    /// +0x24 reduce axis.
    pub const REDUCE_AXIS: Field = f(
        "reduce_axis",
        0x24,
        Kind::Enum(CR_REDUCE_AXES),
        Prov::Header,
        "REDUCE_AXIS ALL = 0 / PARTITIONS = 1 (CC cross-lane flag: XYZWC -> 0, C -> 1)",
    );
    /// +0x28 scale.
    pub const SCALE: Field = f(
        "scale",
        0x28,
        Kind::F32,
        Prov::Header,
        "fp32 multiplier (AVERAGE's 1/N; CC '+0x28 mean 1/N')",
    );
    /// +0x2C destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x2C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x21),
        Prov::Header,
        "destination TENSOR4D, SBUF only, one partition (start_addr_active_channels(dst, 1))",
    );
}

/// D4_IOTA fields of Iota 0x7E (header, GPSIMD 59921122295; CC consistent).
pub mod iota {
    use super::*;
    /// +0x0C generator pattern.
    pub const PATTERN: Field = f(
        "src_data_pattern",
        0x0C,
        Kind::Data4d,
        Prov::Header,
        "DATA4D {int32 base; i16 step[4]; u16 num[4]}: generated, reads nothing. CC writes no base \
         (0) and unit lane 0; this crate packs the caller's dims (ASSUMPTION, see data4d)",
    );
    /// +0x21 out dtype.
    pub const OUT_DTYPE: Field = f(
        "out_dtype",
        0x21,
        Kind::Dtype,
        Prov::Header,
        "destination dtype (FP32R ok); +0x20 is reserved (no in-dtype)",
    );
    /// +0x22 active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Header,
        "CC 'lane' = out.Pattern[0].num",
    );
    /// +0x24 channel multiplier.
    pub const CHANNEL_MULTIPLIER: Field = f(
        "channel_multiplier",
        0x24,
        Kind::I32,
        Prov::Header,
        "int32 added per partition index (CC '+0x24 u32 iota value/step')",
    );
    /// +0x2C destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x2C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x21),
        Prov::Header,
        "destination TENSOR4D (SBUF or PSUM)",
    );
}

/// Fields of Memset 0x49 (CC libwalrus offsets only, bundle-layouts §7; no header struct).
pub mod memset {
    use super::*;
    /// +0x1C element count.
    pub const DST_ELEMENT_COUNT: Field = f(
        "dst_element_count",
        0x1C,
        Kind::U32,
        Prov::Compiler,
        "u32; value = destination elements per partition (ASSUMPTION: the CC names the field \
         only)",
    );
    /// +0x20 dtype.
    pub const DTYPE: Field = f(
        "dtype",
        0x20,
        Kind::Dtype,
        Prov::Compiler,
        "destination dtype",
    );
    /// +0x22 partitions.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x22,
        Kind::U8,
        Prov::Compiler,
        "CC 'num partitions' (the destination's)",
    );
    /// +0x28 fill value.
    pub const FILL_VALUE: Field = f(
        "fill_value",
        0x28,
        Kind::Hex32,
        Prov::Compiler,
        "u32 fill value (its bits in the destination dtype)",
    );
    /// +0x2C destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x2C,
        Kind::Tensor(4),
        DtypeRef::Byte(0x20),
        Prov::Compiler,
        "CONFLICT #11 settled: TENSOR4D (20 B, +0x2C..+0x3F). The CC bundle page says \
         assignAccess<TENSOR1D>; the CC TT/Memset page says TENSOR4D and the TENSOR4D producer \
         census lists visitInstMemset. Two pages, one a binary-wide census of the TENSOR4D \
         writer, outweigh one; a TENSOR1D would differ only at +0x32 (num0 vs step1)",
    );
}

/// S2D2_TS_AS fields of TensorScalarAffineSelect 0x92 (header, GPSIMD 59655455721; the CC did
/// not recover the byte map).
pub mod affine_select {
    use super::*;
    /// +0x0C active channels.
    pub const ACTIVE: Field = f(
        "num_active_channels",
        0x0C,
        Kind::U8,
        Prov::Header,
        "1..128",
    );
    /// +0x0D dtype pair.
    pub const IN_OUT_DTYPE: Field = f(
        "in_out_dtype",
        0x0D,
        Kind::DtypePair,
        Prov::Header,
        "DTYPE_PAIR lo = in, hi = out (FP32R on out only)",
    );
    /// +0x0E fill mode.
    pub const FILL_MODE: Field = f(
        "fill_mode",
        0x0E,
        Kind::Enum(AFFINE_SELECT_CMPS),
        Prov::Header,
        "AFFINE_SELECT_CMP of the mask against 0",
    );
    /// +0x0F fill register.
    pub const FILL_REG: Field = f(
        "fill_reg",
        0x0F,
        Kind::U8,
        Prov::Header,
        "register holding the FP32 fill value",
    );
    /// +0x10 mask pattern.
    pub const MASK: Field = f(
        "mask_pattern",
        0x10,
        Kind::Data4d,
        Prov::Header,
        "DATA4D mask generator (not memory)",
    );
    /// +0x24 source.
    pub const SRC: Field = src(
        "src_mem_pattern",
        0x24,
        Kind::Tensor(2),
        DtypeRef::Lo(0x0D),
        Prov::Header,
        "source TENSOR2D",
    );
    /// +0x30 destination.
    pub const DST: Field = dst(
        "dst_mem_pattern",
        0x30,
        Kind::Tensor(2),
        DtypeRef::Hi(0x0D),
        Prov::Header,
        "destination TENSOR2D",
    );
    /// +0x3C channel multiplier.
    pub const CHANNEL_MULTIPLIER: Field = f(
        "channel_multiplier",
        0x3C,
        Kind::I32,
        Prov::Header,
        "int32 added to the mask per partition index",
    );
}

/// 0x42 TensorReduce (arith).
pub static TENSOR_REDUCE_ARITH: Format = Format {
    opcode: opcode::TENSOR_REDUCE_ARITH,
    mnemonic: "tensor_reduce_arith",
    struct_name: "S4D4_TR",
    family: Family::TensorReduce,
    fields: with_events![
        tr::SRC,
        tr::IN_DTYPE,
        tr::OUT_DTYPE,
        tr::ACTIVE,
        tr4d::NEGATED,
        tr4d::OP,
        tr4d::OP_DIM,
        tr4d::MASK_ENABLE,
        tr::DST,
    ],
    reserved_rule: "d4_tr_reserved_z",
};

/// 0x52 TensorReduce (bitvec).
pub static TENSOR_REDUCE_BITVEC: Format = Format {
    opcode: opcode::TENSOR_REDUCE_BITVEC,
    mnemonic: "tensor_reduce_bitvec",
    struct_name: "S4D4_TR",
    family: Family::TensorReduce,
    fields: with_events![
        tr::SRC,
        tr::IN_DTYPE,
        tr::OUT_DTYPE,
        tr::ACTIVE,
        tr4d::NEGATED,
        tr4d::OP,
        tr4d::OP_DIM,
        tr4d::MASK_ENABLE,
        tr::DST,
    ],
    reserved_rule: "d4_tr_reserved_z",
};

/// 0x46 Copy.
pub static COPY: Format = Format {
    opcode: opcode::COPY,
    mnemonic: "copy",
    struct_name: "S4D4_TR",
    family: Family::TensorCopy,
    fields: with_events![
        tr::SRC,
        tr::IN_DTYPE,
        tr::OUT_DTYPE,
        tr::ACTIVE,
        tr4d::NEGATED,
        tr4d::OP,
        tr4d::OP_DIM,
        tr4d::MASK_ENABLE,
        tr::DST,
    ],
    reserved_rule: "d4_tr_reserved_z",
};

/// 0x47 Cast.
pub static CAST: Format = Format {
    opcode: opcode::CAST,
    mnemonic: "cast",
    struct_name: "S4D4_TR",
    family: Family::TensorCopy,
    fields: with_events![
        tr::SRC,
        tr::IN_DTYPE,
        tr::OUT_DTYPE,
        tr::ACTIVE,
        tr4d::NEGATED,
        tr4d::OP,
        tr4d::OP_DIM,
        tr4d::MASK_ENABLE,
        tr::DST,
    ],
    reserved_rule: "d4_tr_reserved_z",
};

/// 0x48 Reciprocal (S4D4_TR per the header binding, §4.7).
pub static RECIPROCAL: Format = Format {
    opcode: opcode::RECIPROCAL,
    mnemonic: "reciprocal",
    struct_name: "S4D4_TR",
    family: Family::Reciprocal,
    fields: with_events![
        tr::SRC,
        tr::IN_DTYPE,
        tr::OUT_DTYPE,
        tr::ACTIVE,
        tr4d::NEGATED,
        tr4d::OP,
        tr4d::OP_DIM,
        tr4d::MASK_ENABLE,
        tr::DST,
    ],
    reserved_rule: "d4_tr_reserved_z",
};

/// 0x45 Pool.
pub static POOL: Format = Format {
    opcode: opcode::POOL,
    mnemonic: "pool",
    struct_name: "S4D4_PL",
    family: Family::Pool,
    fields: with_events![
        pool::SRC,
        pool::IN_DTYPE,
        pool::OUT_DTYPE,
        pool::ACTIVE,
        pool::POOL_FUNC,
        pool::POOL_MODE,
        pool::POOL_SCALE,
        pool::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x7C CrossLaneReduce (arith).
pub static CROSS_LANE_REDUCE_ARITH: Format = Format {
    opcode: opcode::CROSS_LANE_REDUCE_ARITH,
    mnemonic: "cross_lane_reduce_arith",
    struct_name: "S4D4_CR",
    family: Family::CrossLaneReduce,
    fields: with_events![
        cr::SRC,
        cr::IN_DTYPE,
        cr::OUT_DTYPE,
        cr::ACTIVE,
        cr::REDUCE_OP,
        cr::REDUCE_AXIS,
        cr::SCALE,
        cr::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x7D CrossLaneReduce (bitvec).
pub static CROSS_LANE_REDUCE_BITVEC: Format = Format {
    opcode: opcode::CROSS_LANE_REDUCE_BITVEC,
    mnemonic: "cross_lane_reduce_bitvec",
    struct_name: "S4D4_CR",
    family: Family::CrossLaneReduce,
    fields: with_events![
        cr::SRC,
        cr::IN_DTYPE,
        cr::OUT_DTYPE,
        cr::ACTIVE,
        cr::REDUCE_OP,
        cr::REDUCE_AXIS,
        cr::SCALE,
        cr::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x7E Iota.
pub static IOTA: Format = Format {
    opcode: opcode::IOTA,
    mnemonic: "iota",
    struct_name: "D4_IOTA",
    family: Family::Iota,
    fields: with_events![
        iota::PATTERN,
        iota::OUT_DTYPE,
        iota::ACTIVE,
        iota::CHANNEL_MULTIPLIER,
        iota::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x49 Memset.
pub static MEMSET: Format = Format {
    opcode: opcode::MEMSET,
    mnemonic: "memset",
    struct_name: "memset (CC layout; the roster's S3D3 struct not recovered)",
    family: Family::Memset,
    fields: with_events![
        memset::DST_ELEMENT_COUNT,
        memset::DTYPE,
        memset::ACTIVE,
        memset::FILL_VALUE,
        memset::DST,
    ],
    reserved_rule: "reserved_zero",
};

/// 0x92 TensorScalarAffineSelect.
pub static AFFINE_SELECT: Format = Format {
    opcode: opcode::AFFINE_SELECT,
    mnemonic: "tensor_scalar_affine_select",
    struct_name: "S2D2_TS_AS",
    family: Family::AffineSelect,
    fields: with_events![
        affine_select::ACTIVE,
        affine_select::IN_OUT_DTYPE,
        affine_select::FILL_MODE,
        affine_select::FILL_REG,
        affine_select::MASK,
        affine_select::SRC,
        affine_select::DST,
        affine_select::CHANNEL_MULTIPLIER,
    ],
    reserved_rule: "reserved_zero",
};
