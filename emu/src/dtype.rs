//! Element types: what a byte pattern in device memory means.
//!
//! This module owns the list of element types the emulator models, their sizes and
//! names, the pattern a freshly allocated tensor is filled with, and every conversion
//! between an element's bits and `f32` / `i64`:
//!
//! - `bf16` and `f16` convert through the `half` crate (round to nearest even).
//! - The 8-bit floats (`e4m3`, `e4m3fn`, `e5m2`, `e3m4`) and the 4-bit `e2m1fn` are
//!   decoded and encoded by [`MiniFloat`], written from the format definitions (sign,
//!   exponent width, mantissa width, bias, and which codes are Inf/NaN).
//! - `e8m0fnu` (the MX scale) is an unsigned power of two.
//! - The x4 MX containers are stored as whole words: `float8_*_x4` as a little-endian
//!   `u32` whose byte `i` is element `i`, `float4_e2m1fn_x4` as a `u16` whose nibble `i`
//!   is element `i` (isa-table / nki-semantics, "MX"). They move as opaque words; only
//!   [`unpack_x4`] / [`pack_x4`] look inside.
//!
//! Device memory is little-endian; every load and store here says so explicitly.
//!
//! # Numerics of the compute engines
//!
//! Every arithmetic compute op (`ops::tensor_tensor`, `ops::activation`, ...) reads its
//! inputs with [`DType::to_f32`], computes in fp32, and writes with [`DType::from_f32`]
//! (one rounding, at the end). DMA conversions use the same two functions. The rules, one
//! row per conversion, with where each comes from:
//!
//! | conversion | rule | source |
//! |---|---|---|
//! | any scalar type -> fp32 | exact for every float type; integers round to nearest even (exact up to 2^24) | `nki-aluop`: arithmetic operators "convert input elements into float32"; IEEE 754 |
//! | fp32 -> bf16, fp16 | round to nearest even; overflow -> ±Inf; NaN stays NaN | RNE: the simulator stores these as `ml_dtypes` (`NKI_PRECISE_FP=1`); overflow: `nki.isa.range_select` ("FP32_MIN ... will become -INF" in FP16/BF16/FP8 because the hardware downcasts) |
//! | fp32 -> fp8 `e4m3`, `e5m2`, `e3m4` | round to nearest even; overflow -> ±Inf | same two sources |
//! | fp32 -> fp8 `e4m3fn` | round to nearest even; overflow and ±Inf -> NaN (the format has no Inf) | OCP FP8 format (only `S.1111.111` is NaN); `ml_dtypes` non-saturating cast |
//! | fp32 -> fp4 `e2m1fn` (x4 lanes) | round to nearest even; saturates at ±6; NaN -> +0 | OCP MX format (no Inf, no NaN); NaN: our choice |
//! | fp32 -> `e8m0fnu` | the fp32 biased exponent (mantissa truncated); <= 0 -> 2^-127; NaN/Inf/negative -> NaN | MX golden code (exponent based) |
//! | fp32 -> integer | truncate toward zero; saturate at the type's range; NaN -> 0 | **pinned assumption**: the public docs do not state the rule; it agrees with NumPy's `astype` for every in-range value |
//! | integer -> integer (iota's int32 results, [`DType::from_i64_saturating`]) | exact; out of range saturates | **pinned assumption** (NKI: the GpSimd engine "can cast these integer results to any valid NKI data type") |
//! | GpSimd native int32 `add` / `subtract` / `mult` | wrap modulo 2^32 | `nki.isa.tensor_tensor` (native integer arithmetic); wrapping: the third-party wiki's simulator notes |
//! | equal dtypes on a copy path (Vector / GpSimd `tensor_copy`, `local_gather`, ...) | bit-exact, no conversion | `nki.isa.tensor_copy` |

use half::{bf16, f16};

/// An element type of device memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `uint8`.
    U8,
    /// `int8`.
    I8,
    /// `uint16`.
    U16,
    /// `int16`.
    I16,
    /// `uint32`.
    U32,
    /// `int32`.
    I32,
    /// `uint64`.
    U64,
    /// `int64`.
    I64,
    /// `float32`.
    F32,
    /// `float16` (IEEE binary16).
    F16,
    /// `bfloat16`.
    Bf16,
    /// `float8_e4m3`: bias 7, IEEE-style (exponent 15 is Inf/NaN), largest finite 240.
    Fp8E4m3,
    /// `float8_e4m3fn`: bias 7, no Inf, only `S.1111.111` is NaN, largest finite 448.
    Fp8E4m3Fn,
    /// `float8_e5m2`: bias 15, IEEE-style, largest finite 57344.
    Fp8E5m2,
    /// `float8_e3m4`: bias 3, IEEE-style, largest finite 15.5.
    Fp8E3m4,
    /// `float8_e8m0fnu`: the MX block scale, `2^(code-127)`, code 255 is NaN, no sign, no zero.
    Fp8E8m0,
    /// `float8_e4m3fn_x4`: four `e4m3fn` packed in a `u32` word, byte `i` = element `i`.
    Fp8E4m3FnX4,
    /// `float8_e5m2_x4`: four `e5m2` packed in a `u32` word, byte `i` = element `i`.
    Fp8E5m2X4,
    /// `float4_e2m1fn_x4`: four `e2m1fn` packed in a `u16` word, nibble `i` = element `i`.
    Fp4E2m1FnX4,
}

/// Every element type, in declaration order (handy for exhaustive tests).
pub const ALL_DTYPES: [DType; 19] = [
    DType::U8,
    DType::I8,
    DType::U16,
    DType::I16,
    DType::U32,
    DType::I32,
    DType::U64,
    DType::I64,
    DType::F32,
    DType::F16,
    DType::Bf16,
    DType::Fp8E4m3,
    DType::Fp8E4m3Fn,
    DType::Fp8E5m2,
    DType::Fp8E3m4,
    DType::Fp8E8m0,
    DType::Fp8E4m3FnX4,
    DType::Fp8E5m2X4,
    DType::Fp4E2m1FnX4,
];

/// The value the public NKI simulator writes into a new integer tensor so that
/// uninitialised reads stand out (floats get NaN instead).
pub const UNINIT_INT_FILL: u64 = 4;

impl DType {
    /// Size of one element (one packed word for the x4 containers) in bytes.
    pub const fn size(self) -> usize {
        match self {
            DType::U8
            | DType::I8
            | DType::Fp8E4m3
            | DType::Fp8E4m3Fn
            | DType::Fp8E5m2
            | DType::Fp8E3m4
            | DType::Fp8E8m0 => 1,
            DType::U16 | DType::I16 | DType::F16 | DType::Bf16 | DType::Fp4E2m1FnX4 => 2,
            DType::U32 | DType::I32 | DType::F32 | DType::Fp8E4m3FnX4 | DType::Fp8E5m2X4 => 4,
            DType::U64 | DType::I64 => 8,
        }
    }

    /// The NKI spelling of the type (`nl.<name>`).
    pub const fn name(self) -> &'static str {
        match self {
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::U16 => "uint16",
            DType::I16 => "int16",
            DType::U32 => "uint32",
            DType::I32 => "int32",
            DType::U64 => "uint64",
            DType::I64 => "int64",
            DType::F32 => "float32",
            DType::F16 => "float16",
            DType::Bf16 => "bfloat16",
            DType::Fp8E4m3 => "float8_e4m3",
            DType::Fp8E4m3Fn => "float8_e4m3fn",
            DType::Fp8E5m2 => "float8_e5m2",
            DType::Fp8E3m4 => "float8_e3m4",
            DType::Fp8E8m0 => "float8_e8m0fnu",
            DType::Fp8E4m3FnX4 => "float8_e4m3fn_x4",
            DType::Fp8E5m2X4 => "float8_e5m2_x4",
            DType::Fp4E2m1FnX4 => "float4_e2m1fn_x4",
        }
    }

    /// Parses an NKI type name (the inverse of [`DType::name`]).
    pub fn from_name(name: &str) -> Option<DType> {
        ALL_DTYPES.iter().copied().find(|d| d.name() == name)
    }

    /// True for the signed and unsigned integer types.
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            DType::U8
                | DType::I8
                | DType::U16
                | DType::I16
                | DType::U32
                | DType::I32
                | DType::U64
                | DType::I64
        )
    }

    /// True for the signed integer types.
    pub const fn is_signed_integer(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// True for the packed MX containers (`*_x4`).
    pub const fn is_x4(self) -> bool {
        matches!(
            self,
            DType::Fp8E4m3FnX4 | DType::Fp8E5m2X4 | DType::Fp4E2m1FnX4
        )
    }

    /// True for the scalar floating-point types (every type that is neither an integer
    /// nor an x4 container).
    pub const fn is_float(self) -> bool {
        !self.is_integer() && !self.is_x4()
    }

    /// The bit pattern a new tensor of this type is filled with.
    ///
    /// The public NKI simulator fills new tensors with NaN (floats) or 4 (integers) to
    /// expose uninitialised reads (nki-semantics, "Simulator semantics"). The x4
    /// containers are stored by that simulator as unsigned-integer containers, so they
    /// get the integer fill (an inference from its storage rule, not a documented fact).
    pub fn uninit_bits(self) -> u64 {
        match self {
            DType::F32 => u64::from(f32::NAN.to_bits()),
            DType::F16 => u64::from(f16::NAN.to_bits()),
            DType::Bf16 => u64::from(bf16::NAN.to_bits()),
            DType::Fp8E4m3 => u64::from(E4M3.nan_code()),
            DType::Fp8E4m3Fn => u64::from(E4M3FN.nan_code()),
            DType::Fp8E5m2 => u64::from(E5M2.nan_code()),
            DType::Fp8E3m4 => u64::from(E3M4.nan_code()),
            DType::Fp8E8m0 => 0xFF,
            _ => UNINIT_INT_FILL,
        }
    }

    /// Reads one element's bits (little-endian) from the front of `bytes`.
    ///
    /// `bytes` must hold at least [`DType::size`] bytes; shorter input reads the missing
    /// high bytes as zero rather than panicking.
    #[inline]
    pub fn load(self, bytes: &[u8]) -> u64 {
        // Fixed-size reads for the common widths: this sits in per-element loops, where
        // a variable-length copy would cost a library call per element.
        match (self.size(), bytes) {
            (1, [b, ..]) => u64::from(*b),
            (2, [a, b, ..]) => u64::from(u16::from_le_bytes([*a, *b])),
            (4, [a, b, c, d, ..]) => u64::from(u32::from_le_bytes([*a, *b, *c, *d])),
            (8, [a, b, c, d, e, f, g, h, ..]) => {
                u64::from_le_bytes([*a, *b, *c, *d, *e, *f, *g, *h])
            }
            (size, _) => {
                let n = size.min(bytes.len());
                let mut word = [0u8; 8];
                word[..n].copy_from_slice(&bytes[..n]);
                u64::from_le_bytes(word)
            }
        }
    }

    /// Writes one element's bits (little-endian) to the front of `out` (as many bytes as
    /// fit, at most [`DType::size`]).
    #[inline]
    pub fn store(self, bits: u64, out: &mut [u8]) {
        match (self.size(), out) {
            (1, [b, ..]) => *b = bits as u8,
            (2, [a, b, ..]) => [*a, *b] = (bits as u16).to_le_bytes(),
            (4, [a, b, c, d, ..]) => [*a, *b, *c, *d] = (bits as u32).to_le_bytes(),
            (8, [a, b, c, d, e, f, g, h, ..]) => {
                [*a, *b, *c, *d, *e, *f, *g, *h] = bits.to_le_bytes()
            }
            (size, out) => {
                let n = size.min(out.len());
                out[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
            }
        }
    }

    /// The element's value as `f32`, or `None` for the x4 containers (four values per
    /// word: see [`unpack_x4`]). Integers convert with round-to-nearest-even.
    pub fn to_f32(self, bits: u64) -> Option<f32> {
        // The `as` casts below pick the low bytes of `bits`, which is the element.
        Some(match self {
            DType::U8 => (bits as u8) as f32,
            DType::I8 => (bits as u8 as i8) as f32,
            DType::U16 => (bits as u16) as f32,
            DType::I16 => (bits as u16 as i16) as f32,
            DType::U32 => (bits as u32) as f32,
            DType::I32 => (bits as u32 as i32) as f32,
            DType::U64 => bits as f32,
            DType::I64 => (bits as i64) as f32,
            DType::F32 => f32::from_bits(bits as u32),
            DType::F16 => f16::from_bits(bits as u16).to_f32(),
            DType::Bf16 => bf16::from_bits(bits as u16).to_f32(),
            DType::Fp8E4m3 => E4M3.decode(bits as u32 & 0xFF),
            DType::Fp8E4m3Fn => E4M3FN.decode(bits as u32 & 0xFF),
            DType::Fp8E5m2 => E5M2.decode(bits as u32 & 0xFF),
            DType::Fp8E3m4 => E3M4.decode(bits as u32 & 0xFF),
            DType::Fp8E8m0 => e8m0_decode(bits as u8),
            DType::Fp8E4m3FnX4 | DType::Fp8E5m2X4 | DType::Fp4E2m1FnX4 => return None,
        })
    }

    /// Encodes an `f32` as this type, or `None` for the x4 containers.
    ///
    /// Floats round to nearest even. Integers truncate toward zero and saturate at the
    /// type's range, NaN giving 0: the public docs do not pin the float-to-int rule of
    /// the DMA or the compute engines, and this one agrees with NumPy's `astype` for every
    /// in-range value (the module's numerics table has every rule and its source).
    pub fn from_f32(self, v: f32) -> Option<u64> {
        Some(match self {
            DType::U8 => u64::from(v as u8),
            DType::I8 => u64::from(v as i8 as u8),
            DType::U16 => u64::from(v as u16),
            DType::I16 => u64::from(v as i16 as u16),
            DType::U32 => u64::from(v as u32),
            DType::I32 => u64::from(v as i32 as u32),
            DType::U64 => v as u64,
            DType::I64 => v as i64 as u64,
            DType::F32 => u64::from(v.to_bits()),
            DType::F16 => u64::from(f16::from_f32(v).to_bits()),
            DType::Bf16 => u64::from(bf16::from_f32(v).to_bits()),
            DType::Fp8E4m3 => u64::from(E4M3.encode(v)),
            DType::Fp8E4m3Fn => u64::from(E4M3FN.encode(v)),
            DType::Fp8E5m2 => u64::from(E5M2.encode(v)),
            DType::Fp8E3m4 => u64::from(E3M4.encode(v)),
            DType::Fp8E8m0 => u64::from(e8m0_encode(v)),
            DType::Fp8E4m3FnX4 | DType::Fp8E5m2X4 | DType::Fp4E2m1FnX4 => return None,
        })
    }

    /// Encodes an exact integer value as this type (the GpSimd engine's int32 results,
    /// memset constants): integer types saturate at their range, float types round the
    /// value to fp32 (nearest even) and encode that with [`DType::from_f32`]. `None` for
    /// the x4 containers. See the module's numerics table.
    pub fn from_i64_saturating(self, v: i64) -> Option<u64> {
        let (lo, hi): (i128, i128) = match self {
            DType::U8 => (0, u8::MAX.into()),
            DType::I8 => (i8::MIN.into(), i8::MAX.into()),
            DType::U16 => (0, u16::MAX.into()),
            DType::I16 => (i16::MIN.into(), i16::MAX.into()),
            DType::U32 => (0, u32::MAX.into()),
            DType::I32 => (i32::MIN.into(), i32::MAX.into()),
            DType::U64 => (0, u64::MAX.into()),
            DType::I64 => (i64::MIN.into(), i64::MAX.into()),
            // `as f32` rounds to nearest even.
            _ => return self.from_f32(v as f32),
        };
        let c = i128::from(v).clamp(lo, hi);
        Some(c as u64 & (u64::MAX >> (64 - 8 * self.size())))
    }

    /// The element's value as `i64` for integer types (`None` otherwise). A `uint64`
    /// above `i64::MAX` saturates to `i64::MAX`, which is out of range for every index
    /// use, so no index value is silently wrapped.
    pub fn to_i64(self, bits: u64) -> Option<i64> {
        Some(match self {
            DType::U8 => i64::from(bits as u8),
            DType::I8 => i64::from(bits as u8 as i8),
            DType::U16 => i64::from(bits as u16),
            DType::I16 => i64::from(bits as u16 as i16),
            DType::U32 => i64::from(bits as u32),
            DType::I32 => i64::from(bits as u32 as i32),
            DType::U64 => i64::try_from(bits).unwrap_or(i64::MAX),
            DType::I64 => bits as i64,
            _ => return None,
        })
    }

    /// The bits of an integer value of this type (two's complement, truncated to the
    /// type's width), or `None` for non-integer types.
    pub fn from_i64(self, v: i64) -> Option<u64> {
        let bits = v as u64;
        Some(match self {
            DType::U8 | DType::I8 => bits & 0xFF,
            DType::U16 | DType::I16 => bits & 0xFFFF,
            DType::U32 | DType::I32 => bits & 0xFFFF_FFFF,
            DType::U64 | DType::I64 => bits,
            _ => return None,
        })
    }
}

impl std::fmt::Display for DType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a small float format spends its top exponent code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Specials {
    /// IEEE-style: the all-ones exponent is Inf (mantissa 0) or NaN (mantissa != 0).
    Ieee,
    /// "fn" (finite): no Inf; only all-ones exponent *and* mantissa is NaN.
    FiniteNan,
    /// No Inf and no NaN (`e2m1fn`): every code is a finite number.
    FiniteOnly,
}

/// A sign + exponent + mantissa float narrower than `f32`, defined by its widths, its
/// bias and its special codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MiniFloat {
    /// Exponent field width in bits.
    pub exp_bits: u32,
    /// Mantissa field width in bits.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Which codes are Inf / NaN.
    pub specials: Specials,
}

/// `float8_e4m3` (IEEE-style, bias 7, max 240).
pub const E4M3: MiniFloat = MiniFloat {
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    specials: Specials::Ieee,
};
/// `float8_e4m3fn` (bias 7, max 448, NaN = `S.1111.111`).
pub const E4M3FN: MiniFloat = MiniFloat {
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    specials: Specials::FiniteNan,
};
/// `float8_e5m2` (IEEE-style, bias 15, max 57344).
pub const E5M2: MiniFloat = MiniFloat {
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    specials: Specials::Ieee,
};
/// `float8_e3m4` (IEEE-style, bias 3, max 15.5).
pub const E3M4: MiniFloat = MiniFloat {
    exp_bits: 3,
    man_bits: 4,
    bias: 3,
    specials: Specials::Ieee,
};
/// `float4_e2m1fn` (bias 1, values 0, 0.5, 1, 1.5, 2, 3, 4, 6, no Inf/NaN).
pub const E2M1: MiniFloat = MiniFloat {
    exp_bits: 2,
    man_bits: 1,
    bias: 1,
    specials: Specials::FiniteOnly,
};

impl MiniFloat {
    const fn exp_mask(self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    const fn man_mask(self) -> u32 {
        (1 << self.man_bits) - 1
    }

    /// Total width in bits (sign included).
    pub const fn width(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    /// The code of the largest finite positive value.
    pub const fn max_finite_code(self) -> u32 {
        let e = self.exp_mask();
        let m = self.man_mask();
        match self.specials {
            Specials::Ieee => ((e - 1) << self.man_bits) | m,
            Specials::FiniteNan => (e << self.man_bits) | (m - 1),
            Specials::FiniteOnly => (e << self.man_bits) | m,
        }
    }

    /// The canonical (positive, quiet) NaN code; formats without NaN return +0.
    pub const fn nan_code(self) -> u32 {
        match self.specials {
            // Quiet NaN: top mantissa bit set.
            Specials::Ieee => (self.exp_mask() << self.man_bits) | (1 << (self.man_bits - 1)),
            Specials::FiniteNan => (self.exp_mask() << self.man_bits) | self.man_mask(),
            // No NaN encoding exists; a NaN input encodes as +0 (our choice, documented
            // on `encode`).
            Specials::FiniteOnly => 0,
        }
    }

    /// The value of `code` (only the low [`MiniFloat::width`] bits are used).
    pub fn decode(self, code: u32) -> f32 {
        let m = self.man_bits;
        let sign = (code >> (self.exp_bits + m)) & 1;
        let ef = (code >> m) & self.exp_mask();
        let mf = code & self.man_mask();
        let magnitude: f64 = match self.specials {
            Specials::Ieee if ef == self.exp_mask() => {
                if mf == 0 {
                    f64::INFINITY
                } else {
                    f64::NAN
                }
            }
            Specials::FiniteNan if ef == self.exp_mask() && mf == self.man_mask() => f64::NAN,
            _ => {
                if ef == 0 {
                    // Subnormal: mf * 2^(1 - bias - m).
                    f64::from(mf) * pow2(1 - self.bias - m as i32)
                } else {
                    f64::from((1 << m) | mf) * pow2(ef as i32 - self.bias - m as i32)
                }
            }
        };
        // Every value of these formats is exactly representable in f32.
        let v = magnitude as f32;
        if sign == 1 { -v } else { v }
    }

    /// Encodes `v` with round-to-nearest-even.
    ///
    /// Out of range: IEEE-style formats give Inf, "fn" formats give NaN (they have no
    /// Inf), `e2m1fn` saturates at ±6 (it has neither). Inf follows the same rule; NaN
    /// gives [`MiniFloat::nan_code`]. This matches the `ml_dtypes` conversions the
    /// public simulator stores its narrow floats with.
    pub fn encode(self, v: f32) -> u32 {
        let m = self.man_bits;
        let sign_bit = if v.is_sign_negative() {
            1 << (self.exp_bits + m)
        } else {
            0
        };
        if v.is_nan() {
            return self.nan_code();
        }
        if v.is_infinite() {
            return sign_bit | self.overflow_code();
        }
        let a = f64::from(v.abs());
        if a == 0.0 {
            return sign_bit;
        }
        // a is a normal f64 (every f32, subnormals included, is): read its exponent.
        let exp = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
        let min_normal_exp = 1 - self.bias;
        let mut e = exp.max(min_normal_exp);
        // Scaled significand: in [2^m, 2^(m+1)) for normals, below 2^m for subnormals.
        // Division by a power of two is exact, so the only rounding is this one.
        let mut q = (a / pow2(e - m as i32)).round_ties_even() as u64;
        if q == 1 << (m + 1) {
            q = 1 << m;
            e += 1;
        }
        let code = if q < (1 << m) {
            q as u32
        } else {
            let biased = e + self.bias;
            if biased > self.exp_mask() as i32 {
                return sign_bit | self.overflow_code();
            }
            ((biased as u32) << m) | (q as u32 - (1 << m))
        };
        if code > self.max_finite_code() {
            return sign_bit | self.overflow_code();
        }
        sign_bit | code
    }

    fn overflow_code(self) -> u32 {
        match self.specials {
            Specials::Ieee => self.exp_mask() << self.man_bits,
            Specials::FiniteNan => self.nan_code(),
            Specials::FiniteOnly => self.max_finite_code(),
        }
    }
}

fn pow2(k: i32) -> f64 {
    2f64.powi(k)
}

/// Decodes an `e8m0fnu` scale: `2^(code-127)`, code 255 is NaN.
pub fn e8m0_decode(code: u8) -> f32 {
    if code == 0xFF {
        f32::NAN
    } else {
        pow2(i32::from(code) - 127) as f32
    }
}

/// Encodes `v` as an `e8m0fnu` scale by taking its `f32` biased exponent (truncating
/// the mantissa, as the public MX golden code derives scales from exponents). Zero and
/// `f32` subnormals give code 0 (2^-127, the smallest scale: there is no zero); NaN,
/// Inf and negative values give 255 (NaN: the format has no sign and no Inf).
pub fn e8m0_encode(v: f32) -> u8 {
    if v.is_nan() || v.is_infinite() || v < 0.0 {
        return 0xFF;
    }
    let biased = (v.to_bits() >> 23) & 0xFF;
    // Biased 255 is Inf/NaN, excluded above, so this fits in 0..=254.
    biased as u8
}

/// Unpacks an x4 container word into its four element values (element 0 first), or
/// `None` when `dtype` is not an x4 container.
pub fn unpack_x4(dtype: DType, word: u64) -> Option<[f32; 4]> {
    let (fmt, lane_bits) = match dtype {
        DType::Fp8E4m3FnX4 => (E4M3FN, 8),
        DType::Fp8E5m2X4 => (E5M2, 8),
        DType::Fp4E2m1FnX4 => (E2M1, 4),
        _ => return None,
    };
    let mask = (1u64 << lane_bits) - 1;
    let mut out = [0f32; 4];
    for (i, lane) in out.iter_mut().enumerate() {
        *lane = fmt.decode(((word >> (lane_bits * i)) & mask) as u32);
    }
    Some(out)
}

/// Packs four values (element 0 first) into an x4 container word with
/// round-to-nearest-even per element, or `None` when `dtype` is not an x4 container.
pub fn pack_x4(dtype: DType, values: [f32; 4]) -> Option<u64> {
    let (fmt, lane_bits) = match dtype {
        DType::Fp8E4m3FnX4 => (E4M3FN, 8),
        DType::Fp8E5m2X4 => (E5M2, 8),
        DType::Fp4E2m1FnX4 => (E2M1, 4),
        _ => return None,
    };
    let mut word = 0u64;
    for (i, v) in values.iter().enumerate() {
        word |= u64::from(fmt.encode(*v)) << (lane_bits * i);
    }
    Some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formats() -> [(MiniFloat, f32); 5] {
        [
            (E4M3, 240.0),
            (E4M3FN, 448.0),
            (E5M2, 57344.0),
            (E3M4, 15.5),
            (E2M1, 6.0),
        ]
    }

    #[test]
    fn largest_finite_values_match_the_format_definitions() {
        for (fmt, max) in formats() {
            assert_eq!(fmt.decode(fmt.max_finite_code()), max, "{fmt:?}");
        }
    }

    #[test]
    fn smallest_subnormals_match_the_format_definitions() {
        assert_eq!(E4M3FN.decode(1), 2f32.powi(-9));
        assert_eq!(E4M3.decode(1), 2f32.powi(-9));
        assert_eq!(E5M2.decode(1), 2f32.powi(-16));
        assert_eq!(E3M4.decode(1), 2f32.powi(-6));
        assert_eq!(E2M1.decode(1), 0.5);
    }

    #[test]
    fn every_code_round_trips_through_f32() {
        for (fmt, _) in formats() {
            for code in 0..(1u32 << fmt.width()) {
                let v = fmt.decode(code);
                if v.is_nan() {
                    assert!(fmt.decode(fmt.encode(v)).is_nan());
                    continue;
                }
                assert_eq!(fmt.encode(v), code, "{fmt:?} code {code:#x} value {v}");
            }
        }
    }

    #[test]
    fn midpoints_round_to_even_and_overflow_follows_the_specials() {
        // Between 1.0 (code 0x38, even mantissa) and 1.125 (0x39) in e4m3fn.
        assert_eq!(E4M3FN.encode(1.0625), 0x38);
        // Between 1.125 (0x39) and 1.25 (0x3A, even): rounds up.
        assert_eq!(E4M3FN.encode(1.1875), 0x3A);
        // 464 is the midpoint of 448 (mantissa 110) and the NaN slot: ties to even 448.
        assert_eq!(E4M3FN.decode(E4M3FN.encode(464.0)), 448.0);
        assert!(E4M3FN.decode(E4M3FN.encode(470.0)).is_nan());
        assert!(E4M3FN.decode(E4M3FN.encode(f32::INFINITY)).is_nan());
        assert_eq!(E5M2.decode(E5M2.encode(60000.0)), 57344.0);
        assert_eq!(E5M2.decode(E5M2.encode(61440.0)), f32::INFINITY);
        assert_eq!(E4M3.decode(E4M3.encode(-1000.0)), f32::NEG_INFINITY);
        assert_eq!(E2M1.decode(E2M1.encode(100.0)), 6.0);
        assert_eq!(E2M1.decode(E2M1.encode(-2.5)), -2.0);
        assert_eq!(E2M1.decode(E2M1.encode(2.6)), 3.0);
        // Below half the smallest subnormal: flushes to signed zero.
        assert_eq!(E5M2.encode(2f32.powi(-18)), 0);
        assert_eq!(E5M2.encode(-(2f32.powi(-18))), 0x80);
    }

    #[test]
    fn e8m0_is_a_power_of_two_with_nan_at_255() {
        assert_eq!(e8m0_decode(127), 1.0);
        assert_eq!(e8m0_decode(0), 2f32.powi(-127));
        assert!(e8m0_decode(255).is_nan());
        assert_eq!(e8m0_encode(1.0), 127);
        assert_eq!(e8m0_encode(3.9), 128);
        assert_eq!(e8m0_encode(0.0), 0);
        assert_eq!(e8m0_encode(-1.0), 255);
        for code in 0..255u8 {
            assert_eq!(e8m0_encode(e8m0_decode(code)), code);
        }
    }

    #[test]
    fn x4_lanes_are_little_endian_within_the_word() {
        let word = pack_x4(DType::Fp8E4m3FnX4, [1.0, 2.0, -0.5, 448.0]).unwrap_or(0);
        assert_eq!(word & 0xFF, 0x38);
        assert_eq!(
            unpack_x4(DType::Fp8E4m3FnX4, word),
            Some([1.0, 2.0, -0.5, 448.0])
        );
        let w4 = pack_x4(DType::Fp4E2m1FnX4, [0.5, 1.0, 6.0, -3.0]).unwrap_or(0);
        assert_eq!(w4 & 0xF, 1);
        assert_eq!(w4 >> 12, 0xD);
        assert_eq!(
            unpack_x4(DType::Fp4E2m1FnX4, w4),
            Some([0.5, 1.0, 6.0, -3.0])
        );
        assert_eq!(unpack_x4(DType::F32, 0), None);
    }

    #[test]
    fn uninitialised_fill_is_nan_for_floats_and_four_for_ints() {
        for d in ALL_DTYPES {
            let bits = d.uninit_bits();
            if d.is_float() {
                assert!(d.to_f32(bits).is_some_and(f32::is_nan), "{d}");
            } else {
                assert_eq!(bits, 4, "{d}");
            }
        }
    }

    #[test]
    fn all_ones_bytes_are_nan_in_every_scalar_float_format() {
        // The raw SBUF/PSUM fill (memory.rs) relies on this.
        for d in ALL_DTYPES.into_iter().filter(|d| d.is_float()) {
            let ones = u64::MAX >> (64 - 8 * d.size());
            assert!(d.to_f32(ones).is_some_and(f32::is_nan), "{d}");
        }
        let lanes = unpack_x4(DType::Fp8E5m2X4, 0xFFFF_FFFF).unwrap_or([0.0; 4]);
        assert!(lanes.iter().all(|v| v.is_nan()));
    }

    #[test]
    fn integer_conversions_truncate_saturate_and_map_nan_to_zero() {
        assert_eq!(DType::I8.from_f32(-3.7), Some(0xFD));
        assert_eq!(DType::U8.from_f32(300.0), Some(255));
        assert_eq!(DType::I32.from_f32(f32::NAN), Some(0));
        assert_eq!(DType::I16.to_i64(0xFFFF), Some(-1));
        assert_eq!(DType::U64.to_i64(u64::MAX), Some(i64::MAX));
        assert_eq!(DType::F32.to_i64(0), None);
        assert_eq!(DType::I16.from_i64(-2), Some(0xFFFE));
    }

    #[test]
    fn exact_integers_saturate_into_integer_types_and_round_into_floats() {
        assert_eq!(DType::I8.from_i64_saturating(-200), Some(0x80));
        assert_eq!(DType::I8.from_i64_saturating(-5), Some(0xFB));
        assert_eq!(DType::U8.from_i64_saturating(-1), Some(0));
        assert_eq!(DType::U16.from_i64_saturating(70000), Some(0xFFFF));
        assert_eq!(DType::I32.from_i64_saturating(i64::MAX), Some(0x7FFF_FFFF));
        assert_eq!(DType::U64.from_i64_saturating(-3), Some(0));
        assert_eq!(DType::I64.from_i64_saturating(-3), Some(-3i64 as u64));
        // 2^24 + 1 is not an fp32 value: it rounds to even (2^24).
        assert_eq!(
            DType::F32.from_i64_saturating((1 << 24) + 1),
            Some(u64::from(16_777_216f32.to_bits()))
        );
        assert_eq!(DType::Fp8E4m3FnX4.from_i64_saturating(0), None);
    }

    #[test]
    fn names_round_trip() {
        for d in ALL_DTYPES {
            assert_eq!(DType::from_name(d.name()), Some(d));
        }
        assert_eq!(DType::from_name("float7"), None);
    }
}
