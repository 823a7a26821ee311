//! NISA element types and their spelling as MLIR builtin types.
//!
//! NISA tiles are `memref`s, so their element types are MLIR builtin types:
//!
//! | NKI dtype | MLIR type | note |
//! |---|---|---|
//! | bfloat16, float16, float32 | `bf16`, `f16`, `f32` | |
//! | tfloat32 | `tf32` | a matmul mode: legal only on `nisa.matmul` operands |
//! | float8_e4m3, float8_e4m3fn, float8_e5m2, float8_e3m4 | `f8E4M3`, `f8E4M3FN`, `f8E5M2`, `f8E3M4` | |
//! | int8/16/32/64 | `i8` ... `i64` (signless = signed) | `si*` is rejected to keep one spelling |
//! | uint8/16/32/64 | `ui8` ... `ui64` | |
//! | float8_e4m3fn_x4, float8_e5m2_x4, float4_e2m1fn_x4 | `vector<4xf8E4M3FN>`, `vector<4xf8E5M2>`, `vector<4xf4E2M1FN>` | four packed elements per container (fp8 x4 = 32-bit word, byte 0 = element 0; fp4 x4 = 16-bit word) |
//! | float8_e8m0fnu (MX scale) | `f8E8M0FNU` | `ui8` is also accepted where a scale is expected |
//!
//! The BIR dtype enum (libBIR, codes 0..19) is a different vocabulary: see [`BirDtype`].

use melior::ir::r#type::TypeLike;

use crate::ffi::print_type;
use melior::ir::Type;
use mlir_sys::MlirType;

/// A NISA element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dtype {
    /// bfloat16
    Bf16,
    /// float16
    F16,
    /// float32
    F32,
    /// tfloat32: fp32 storage multiplied in TF32 mode (matmul operands only).
    Tf32,
    /// float8_e4m3 (IEEE-like, with infinities)
    F8E4M3,
    /// float8_e4m3fn (finite, NaN only; NeuronCore v4)
    F8E4M3Fn,
    /// float8_e5m2
    F8E5M2,
    /// float8_e3m4
    F8E3M4,
    /// int8
    I8,
    /// int16
    I16,
    /// int32
    I32,
    /// int64
    I64,
    /// uint8
    U8,
    /// uint16
    U16,
    /// uint32
    U32,
    /// uint64
    U64,
    /// float8_e4m3fn_x4 (MX data, four packed elements)
    F8E4M3FnX4,
    /// float8_e5m2_x4 (MX data, four packed elements)
    F8E5M2X4,
    /// float4_e2m1fn_x4 (MX data, four packed elements)
    F4E2M1FnX4,
    /// float8_e8m0fnu (MX block scale)
    E8M0,
}

/// A set of [`Dtype`]s, as a bit mask (bit = discriminant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DtypeSet(pub u32);

impl DtypeSet {
    const fn of(d: &[Dtype]) -> DtypeSet {
        let mut bits = 0u32;
        let mut i = 0;
        while i < d.len() {
            bits |= 1 << d[i] as u32;
            i += 1;
        }
        DtypeSet(bits)
    }
    /// Every NISA element type.
    pub const ANY: DtypeSet = DtypeSet((1 << 20) - 1);
    /// The fp8 formats.
    pub const FP8: DtypeSet =
        DtypeSet::of(&[Dtype::F8E4M3, Dtype::F8E4M3Fn, Dtype::F8E5M2, Dtype::F8E3M4]);
    /// Scalar floating-point storage types (not tf32, not MX containers).
    pub const FLOAT: DtypeSet =
        DtypeSet(DtypeSet::of(&[Dtype::Bf16, Dtype::F16, Dtype::F32]).0 | DtypeSet::FP8.0);
    /// Signed integers.
    pub const SINT: DtypeSet = DtypeSet::of(&[Dtype::I8, Dtype::I16, Dtype::I32, Dtype::I64]);
    /// Unsigned integers.
    pub const UINT: DtypeSet = DtypeSet::of(&[Dtype::U8, Dtype::U16, Dtype::U32, Dtype::U64]);
    /// All integers.
    pub const INT: DtypeSet = DtypeSet(DtypeSet::SINT.0 | DtypeSet::UINT.0);
    /// Plain numeric storage types (floats and integers; not tf32, MX containers or scales).
    pub const NUMERIC: DtypeSet = DtypeSet(DtypeSet::FLOAT.0 | DtypeSet::INT.0);
    /// The MX x4 data containers.
    pub const MX_DATA: DtypeSet =
        DtypeSet::of(&[Dtype::F8E4M3FnX4, Dtype::F8E5M2X4, Dtype::F4E2M1FnX4]);
    /// The MX fp8 x4 data containers (what quantize_mx may produce).
    pub const MX_FP8_DATA: DtypeSet = DtypeSet::of(&[Dtype::F8E4M3FnX4, Dtype::F8E5M2X4]);
    /// MX scales: E8M0, or uint8 holding the same bits.
    pub const MX_SCALE: DtypeSet = DtypeSet::of(&[Dtype::E8M0, Dtype::U8]);
    /// fp32 and 32-bit integers (PSUM write dtypes).
    pub const WORD32: DtypeSet = DtypeSet::of(&[Dtype::F32, Dtype::I32, Dtype::U32]);
    /// uint32 only.
    pub const U32: DtypeSet = DtypeSet::of(&[Dtype::U32]);
    /// uint16 only.
    pub const U16: DtypeSet = DtypeSet::of(&[Dtype::U16]);
    /// uint16 or uint32 (the top-8 index outputs).
    pub const U16_U32: DtypeSet = DtypeSet::of(&[Dtype::U16, Dtype::U32]);
    /// Integers of at most 32 bits (`rng`'s destinations).
    pub const INT8_16_32: DtypeSet = DtypeSet::of(&[
        Dtype::I8,
        Dtype::I16,
        Dtype::I32,
        Dtype::U8,
        Dtype::U16,
        Dtype::U32,
    ]);
    /// Index types accepted by indirect access patterns (`vector_offset`).
    pub const INDEX: DtypeSet =
        DtypeSet::of(&[Dtype::I32, Dtype::U32, Dtype::I64, Dtype::U64, Dtype::U16]);
    /// Matmul input types (tf32 here means fp32 storage multiplied in TF32 mode).
    pub const MATMUL_IN: DtypeSet = DtypeSet(
        DtypeSet::of(&[Dtype::Bf16, Dtype::F16, Dtype::F32, Dtype::Tf32]).0 | DtypeSet::FP8.0,
    );
    /// fp32 and int32.
    pub const F32_I32: DtypeSet = DtypeSet::of(&[Dtype::F32, Dtype::I32]);
    /// fp16 and bf16.
    pub const HALF: DtypeSet = DtypeSet::of(&[Dtype::Bf16, Dtype::F16]);
    /// 2-byte types (DMA transpose).
    pub const TWO_BYTE: DtypeSet = DtypeSet::of(&[Dtype::Bf16, Dtype::F16, Dtype::I16, Dtype::U16]);
    /// 2- and 4-byte types (the direct DMA transpose: 4-byte ones outside the hardware DGE).
    pub const TWO_FOUR_BYTE: DtypeSet =
        DtypeSet(DtypeSet::TWO_BYTE.0 | DtypeSet::of(&[Dtype::F32, Dtype::I32, Dtype::U32]).0);
    /// Predicate types.
    pub const PREDICATE: DtypeSet = DtypeSet::of(&[
        Dtype::U8,
        Dtype::U16,
        Dtype::U32,
        Dtype::I8,
        Dtype::I16,
        Dtype::I32,
    ]);
    /// int32 / uint32.
    pub const I32_U32: DtypeSet = DtypeSet::of(&[Dtype::I32, Dtype::U32]);
    /// int32 only.
    pub const I32: DtypeSet = DtypeSet::of(&[Dtype::I32]);
    /// fp32 only.
    pub const F32: DtypeSet = DtypeSet::of(&[Dtype::F32]);
    /// fp32 or bf16 (matmul PSUM results; bf16 on NeuronCore v4).
    pub const F32_BF16: DtypeSet = DtypeSet::of(&[Dtype::F32, Dtype::Bf16]);
    /// int32 or int64 (register loads and stores).
    pub const I32_I64: DtypeSet = DtypeSet::of(&[Dtype::I32, Dtype::I64]);
    /// 64-bit integers (address arithmetic).
    pub const I64_U64: DtypeSet = DtypeSet::of(&[Dtype::I64, Dtype::U64]);
    /// 8- and 16-bit predicates (select_reduce).
    pub const PRED8_16: DtypeSet = DtypeSet::of(&[Dtype::I8, Dtype::U8, Dtype::I16, Dtype::U16]);
    /// tensor_scalar_cumulative: bf16/fp16/fp32/fp8/u8/u16/i8/i16 (no 32-bit integers).
    pub const CUMULATIVE: DtypeSet = DtypeSet(
        DtypeSet::of(&[
            Dtype::Bf16,
            Dtype::F16,
            Dtype::F32,
            Dtype::U8,
            Dtype::U16,
            Dtype::I8,
            Dtype::I16,
        ])
        .0 | DtypeSet::FP8.0,
    );
    /// Every type except MX containers and scales (memset, copies, DMA).
    pub const STORAGE: DtypeSet = DtypeSet(DtypeSet::NUMERIC.0);

    /// Union.
    pub const fn or(self, other: DtypeSet) -> DtypeSet {
        DtypeSet(self.0 | other.0)
    }
    /// Whether `d` is in the set.
    pub fn contains(self, d: Dtype) -> bool {
        self.0 & (1 << d as u32) != 0
    }
    /// The members, in declaration order.
    pub fn members(self) -> impl Iterator<Item = Dtype> {
        Dtype::ALL
            .iter()
            .copied()
            .filter(move |d| self.contains(*d))
    }
    /// The MLIR spellings of the members, comma separated (for messages).
    pub fn describe(self) -> String {
        self.members()
            .map(|d| d.mlir_name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Dtype {
    /// Every dtype, in declaration order.
    pub const ALL: &'static [Dtype] = &[
        Dtype::Bf16,
        Dtype::F16,
        Dtype::F32,
        Dtype::Tf32,
        Dtype::F8E4M3,
        Dtype::F8E4M3Fn,
        Dtype::F8E5M2,
        Dtype::F8E3M4,
        Dtype::I8,
        Dtype::I16,
        Dtype::I32,
        Dtype::I64,
        Dtype::U8,
        Dtype::U16,
        Dtype::U32,
        Dtype::U64,
        Dtype::F8E4M3FnX4,
        Dtype::F8E5M2X4,
        Dtype::F4E2M1FnX4,
        Dtype::E8M0,
    ];

    /// The MLIR type spelling.
    pub fn mlir_name(self) -> &'static str {
        match self {
            Dtype::Bf16 => "bf16",
            Dtype::F16 => "f16",
            Dtype::F32 => "f32",
            Dtype::Tf32 => "tf32",
            Dtype::F8E4M3 => "f8E4M3",
            Dtype::F8E4M3Fn => "f8E4M3FN",
            Dtype::F8E5M2 => "f8E5M2",
            Dtype::F8E3M4 => "f8E3M4",
            Dtype::I8 => "i8",
            Dtype::I16 => "i16",
            Dtype::I32 => "i32",
            Dtype::I64 => "i64",
            Dtype::U8 => "ui8",
            Dtype::U16 => "ui16",
            Dtype::U32 => "ui32",
            Dtype::U64 => "ui64",
            Dtype::F8E4M3FnX4 => "vector<4xf8E4M3FN>",
            Dtype::F8E5M2X4 => "vector<4xf8E5M2>",
            Dtype::F4E2M1FnX4 => "vector<4xf4E2M1FN>",
            Dtype::E8M0 => "f8E8M0FNU",
        }
    }

    /// The NKI name.
    pub fn nki_name(self) -> &'static str {
        match self {
            Dtype::Bf16 => "bfloat16",
            Dtype::F16 => "float16",
            Dtype::F32 => "float32",
            Dtype::Tf32 => "tfloat32",
            Dtype::F8E4M3 => "float8_e4m3",
            Dtype::F8E4M3Fn => "float8_e4m3fn",
            Dtype::F8E5M2 => "float8_e5m2",
            Dtype::F8E3M4 => "float8_e3m4",
            Dtype::I8 => "int8",
            Dtype::I16 => "int16",
            Dtype::I32 => "int32",
            Dtype::I64 => "int64",
            Dtype::U8 => "uint8",
            Dtype::U16 => "uint16",
            Dtype::U32 => "uint32",
            Dtype::U64 => "uint64",
            Dtype::F8E4M3FnX4 => "float8_e4m3fn_x4",
            Dtype::F8E5M2X4 => "float8_e5m2_x4",
            Dtype::F4E2M1FnX4 => "float4_e2m1fn_x4",
            Dtype::E8M0 => "float8_e8m0fnu",
        }
    }

    /// Bytes per stored element (per container for the x4 types).
    pub fn byte_size(self) -> u64 {
        match self {
            Dtype::I8 | Dtype::U8 | Dtype::E8M0 => 1,
            Dtype::F8E4M3 | Dtype::F8E4M3Fn | Dtype::F8E5M2 | Dtype::F8E3M4 => 1,
            Dtype::Bf16 | Dtype::F16 | Dtype::I16 | Dtype::U16 | Dtype::F4E2M1FnX4 => 2,
            Dtype::F32 | Dtype::Tf32 | Dtype::I32 | Dtype::U32 => 4,
            Dtype::F8E4M3FnX4 | Dtype::F8E5M2X4 => 4,
            Dtype::I64 | Dtype::U64 => 8,
        }
    }

    /// Whether this is a floating-point type (including fp8, tf32, MX data and scales).
    pub fn is_float(self) -> bool {
        !DtypeSet::INT.contains(self)
    }

    /// Whether this is an integer type.
    pub fn is_int(self) -> bool {
        DtypeSet::INT.contains(self)
    }

    /// Recognises an MLIR type as a NISA element type.
    pub fn from_mlir(ty: Type<'_>) -> Option<Dtype> {
        Self::from_raw(ty.to_raw())
    }

    fn from_raw(raw: MlirType) -> Option<Dtype> {
        use mlir_sys::*;
        unsafe {
            if mlirTypeIsABF16(raw) {
                return Some(Dtype::Bf16);
            }
            if mlirTypeIsAF16(raw) {
                return Some(Dtype::F16);
            }
            if mlirTypeIsAF32(raw) {
                return Some(Dtype::F32);
            }
            if mlirTypeIsATF32(raw) {
                return Some(Dtype::Tf32);
            }
            if mlirTypeIsAFloat8E4M3(raw) {
                return Some(Dtype::F8E4M3);
            }
            if mlirTypeIsAFloat8E4M3FN(raw) {
                return Some(Dtype::F8E4M3Fn);
            }
            if mlirTypeIsAFloat8E5M2(raw) {
                return Some(Dtype::F8E5M2);
            }
            if mlirTypeIsAFloat8E3M4(raw) {
                return Some(Dtype::F8E3M4);
            }
            if mlirTypeIsAFloat8E8M0FNU(raw) {
                return Some(Dtype::E8M0);
            }
            if mlirTypeIsAInteger(raw) {
                let signed = mlirIntegerTypeIsSignless(raw);
                let unsigned = mlirIntegerTypeIsUnsigned(raw);
                if !signed && !unsigned || mlirIntegerTypeIsSigned(raw) {
                    return None;
                }
                return match (mlirIntegerTypeGetWidth(raw), unsigned) {
                    (8, false) => Some(Dtype::I8),
                    (16, false) => Some(Dtype::I16),
                    (32, false) => Some(Dtype::I32),
                    (64, false) => Some(Dtype::I64),
                    (8, true) => Some(Dtype::U8),
                    (16, true) => Some(Dtype::U16),
                    (32, true) => Some(Dtype::U32),
                    (64, true) => Some(Dtype::U64),
                    _ => None,
                };
            }
            if mlirTypeIsAVector(raw)
                && mlirShapedTypeGetRank(raw) == 1
                && mlirShapedTypeGetDimSize(raw, 0) == 4
            {
                let elem = mlirShapedTypeGetElementType(raw);
                if mlirTypeIsAFloat8E4M3FN(elem) {
                    return Some(Dtype::F8E4M3FnX4);
                }
                if mlirTypeIsAFloat8E5M2(elem) {
                    return Some(Dtype::F8E5M2X4);
                }
                if mlirTypeIsAFloat4E2M1FN(elem) {
                    return Some(Dtype::F4E2M1FnX4);
                }
            }
        }
        None
    }

    /// A hint for an unsupported MLIR element type, used in verifier messages.
    pub fn unsupported_hint(ty: Type<'_>) -> String {
        let text = print_type(ty);
        if text.starts_with("si") {
            format!("'{text}' is not a NISA dtype (write signed integers as i8/i16/i32/i64)")
        } else {
            format!("'{text}' is not a NISA dtype")
        }
    }

    /// The BIR dtype this storage type lowers to, if any (tf32 has none: it is a mode).
    pub fn bir(self) -> Option<BirDtype> {
        Some(match self {
            Dtype::U8 => BirDtype::Uint8,
            Dtype::I8 => BirDtype::Int8,
            Dtype::F4E2M1FnX4 => BirDtype::Float4E2m1fnX4,
            Dtype::F8E3M4 => BirDtype::Float8e3,
            Dtype::F8E4M3 => BirDtype::Float8e4,
            Dtype::F8E4M3Fn => BirDtype::Float8E4m3fn,
            Dtype::E8M0 => BirDtype::Float8E8m0fnu,
            Dtype::F8E5M2 => BirDtype::Float8e5,
            Dtype::F8E4M3FnX4 => BirDtype::Float8E4m3fnX4,
            Dtype::F8E5M2X4 => BirDtype::Float8E5m2X4,
            Dtype::U16 => BirDtype::Uint16,
            Dtype::I16 => BirDtype::Int16,
            Dtype::Bf16 => BirDtype::Bfloat16,
            Dtype::F16 => BirDtype::Float16,
            Dtype::U32 => BirDtype::Uint32,
            Dtype::I32 => BirDtype::Int32,
            Dtype::F32 => BirDtype::Float32,
            Dtype::U64 => BirDtype::Uint64,
            Dtype::I64 => BirDtype::Int64,
            Dtype::Tf32 => return None,
        })
    }
}

/// The libBIR dtype enum (codes 0..19, isa-table §4): the vocabulary of BIR operands. It is
/// the codegen crate's table (one table per ISA fact); distinct from the ISA wire DTYPE byte.
pub use sundial_codegen::dtype::BirDtype;

/// The BIR dtype spellings as an attribute vocabulary.
pub const BIR_DTYPE_VOCAB: crate::spec::Vocab = crate::spec::Vocab {
    name: "bir dtype",
    values: &BirDtype::NAMES,
};
