//! The ALU table: what every ALU operator name computes, for every compute op.
//!
//! The operator vocabulary is BIR's `AluOpType` ([`AluOp`], the codegen crate's
//! `BirAluOp`), which is also the NISA dialect's `op = "..."` vocabulary. This module owns
//! one row per operator ([`ALU`], in enum order) saying:
//!
//! - its class: *arithmetic* (inputs converted to fp32, fp32 math, result cast to the
//!   destination dtype) or *bitvec* (integer bit patterns, no conversion), as the public
//!   "Supported Math Operators for NKI ISA" table (`nki-aluop`) classes them;
//! - whether it is unary (the operand is ignored: NKI "must be None or 0 when op0 is a
//!   unary operator");
//! - its fp32 semantics, its bit semantics, and its exact integer semantics (on the
//!   operands' values; the caller wraps the result to the destination width);
//! - whether GpSimd's native 32-bit integer path has it (`nki.isa.tensor_tensor`: "When
//!   all input/output tiles are int32 or uint32, the operation defaults to GpSimd Engine,
//!   which uses native integer arithmetic"; the third-party wiki adds that it wraps);
//! - its identity when used as a reduction;
//! - or why it is refused: an operator without public semantics is never approximated.
//!
//! Ops that combine values internally (matmul's dot products and PSUM accumulation,
//! batch-norm statistics, accumulator registers, `dma_compute`'s sum, collectives) use
//! these rows too, or the named functions the rows are built from ([`add_f32`],
//! [`mult_f32`], ...), so every operator's semantics is stated here once.
//!
//! Conventions every op follows (the public simulator evaluates ops with NumPy, so where
//! the NKI docs are silent these are NumPy's, marked "numpy" in the rows):
//!
//! - comparisons give 1.0 or 0.0; NaN compares false except `not_equal`;
//! - logical ops treat any nonzero value (NaN included) as true and give 1.0 or 0.0;
//! - `max`/`min` (and `abs_max`/`abs_min`) propagate NaN; on equal operands (`+0` vs
//!   `-0`) the left operand wins (our choice, pinned by a test);
//! - transcendental ops (`pow`, `rsqrt`) are computed in f64 and rounded once to fp32;
//! - `mod` is floored (the result takes the divisor's sign), as NumPy's `mod`;
//! - bitvec shifts take the shift amount from the rhs bits read as an unsigned number;
//!   an amount of at least the element width gives 0 (our choice: NKI does not say).

use crate::error::{EmuError, Result};

/// An ALU operator: BIR `AluOpType`, the NISA and BIR dialects' `op` vocabulary.
pub use sundial_codegen::enums::BirAluOp as AluOp;

/// How an operator treats its inputs (the two halves of the `nki-aluop` table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AluClass {
    /// Inputs cast to fp32, fp32 math, the fp32 result cast to the destination dtype.
    Arith,
    /// Integer inputs treated as bit patterns, no casting.
    Bitvec,
}

/// One operator's semantics.
#[derive(Debug, Clone, Copy)]
pub struct AluRow {
    /// The operator.
    pub op: AluOp,
    /// Arithmetic or bitvec.
    pub class: AluClass,
    /// True when the second operand is ignored.
    pub unary: bool,
    /// fp32 semantics `(lhs, rhs) -> result` (arithmetic operators).
    pub f32: Option<fn(f32, f32) -> f32>,
    /// The same fp32 semantics compiled over slices (present exactly when [`AluRow::f32`]
    /// is): the hot loops of the element-wise ops, one call per row, generated from the
    /// row's own expression by `arith!` so the two cannot disagree.
    pub slices: Option<SliceKernels>,
    /// Bit semantics `(lhs, rhs, width in bits) -> result`, inputs and result masked to
    /// the width (bitvec operators).
    pub bits: Option<fn(u64, u64, u32) -> u64>,
    /// Exact integer semantics on the operands' values (wrapping at 128 bits, so a
    /// result truncated to the destination width is the wrapped result at that width).
    pub int: Option<fn(i128, i128) -> i128>,
    /// True when GpSimd's native 32-bit integer path publishes this operator (the
    /// [`AluRow::int`] result truncated to 32 bits, i.e. wrapping two's complement).
    pub gpsimd_int32: bool,
    /// The value a reduction with this operator starts from (arithmetic reductions).
    pub identity: Option<f32>,
    /// Why the operator is refused, when it has no public semantics.
    pub refused: Option<&'static str>,
    /// Where the semantics come from.
    pub source: &'static str,
}

/// An arithmetic row's fp32 semantics `f` applied element by element over a row of values,
/// in place (`x` is the left operand and receives the result).
#[derive(Debug, Clone, Copy)]
pub struct SliceKernels {
    /// `x[i] = f(x[i], y[i])`.
    pub vv: fn(&mut [f32], &[f32]),
    /// `x[i] = f(x[i], s)`.
    pub vs: fn(&mut [f32], f32),
    /// `x[i] = f(s, x[i])` (a reversed operand).
    pub sv: fn(&mut [f32], f32),
}

impl SliceKernels {
    /// `x[i] = f(x[i], s)`, or `f(s, x[i])` when `reverse`.
    #[inline]
    pub fn scalar(&self, x: &mut [f32], s: f32, reverse: bool) {
        if reverse {
            (self.sv)(x, s)
        } else {
            (self.vs)(x, s)
        }
    }
}

/// The [`SliceKernels`] of the fp32 expression `$f` (a function path or a closure literal):
/// three loops each calling `$f`, which the compiler inlines and vectorises.
macro_rules! slices {
    ($f:expr) => {{
        #[inline(always)]
        fn f(a: f32, b: f32) -> f32 {
            let g: fn(f32, f32) -> f32 = $f;
            g(a, b)
        }
        fn vv(x: &mut [f32], y: &[f32]) {
            for (a, &b) in x.iter_mut().zip(y) {
                *a = f(*a, b);
            }
        }
        fn vs(x: &mut [f32], s: f32) {
            for a in x.iter_mut() {
                *a = f(*a, s);
            }
        }
        fn sv(x: &mut [f32], s: f32) {
            for a in x.iter_mut() {
                *a = f(s, *a);
            }
        }
        SliceKernels { vv, vs, sv }
    }};
}

/// An arithmetic row of fp32 semantics `$f`, with its slice kernels.
macro_rules! arith {
    ($op:expr, $f:expr, $source:expr $(,)?) => {
        AluRow {
            f32: Some($f),
            slices: Some(slices!($f)),
            ..row($op, AluClass::Arith, $source)
        }
    };
}

const NKI: &str = "nki-aluop table";

fn truth(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

fn nonzero(v: f32) -> bool {
    // NaN != 0 is true, as in NumPy's logical ops.
    v != 0.0
}

/// fp32 `a + b` (the `add` row).
#[inline]
pub fn add_f32(a: f32, b: f32) -> f32 {
    a + b
}

/// fp32 `a - b` (the `subtract` row).
#[inline]
pub fn subtract_f32(a: f32, b: f32) -> f32 {
    a - b
}

/// fp32 `a * b` (the `mult` row).
#[inline]
pub fn mult_f32(a: f32, b: f32) -> f32 {
    a * b
}

/// fp32 `a / b` (the `divide` row).
#[inline]
pub fn divide_f32(a: f32, b: f32) -> f32 {
    a / b
}

/// The fp32 sum of `values` in order from `add`'s identity (`+0.0`), the `add` reduction.
#[inline]
pub fn sum_f32(values: impl IntoIterator<Item = f32>) -> f32 {
    values.into_iter().fold(0.0, add_f32)
}

/// fp32 `max` (the `max` row): NaN propagates; on equal operands (`+0` vs `-0`) the
/// left one wins.
#[inline]
pub fn max_f32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if b > a {
        b
    } else {
        a
    }
}

/// fp32 `min` (the `min` row): NaN propagates; on equal operands (`+0` vs `-0`) the
/// left one wins.
#[inline]
pub fn min_f32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if b < a {
        b
    } else {
        a
    }
}

fn floored_mod(a: f32, b: f32) -> f32 {
    // `%` on f32 is C's fmod, which is exact; floor it by moving a remainder whose sign
    // differs from the divisor's by one divisor.
    let r = a % b;
    if r != 0.0 && (r < 0.0) != (b < 0.0) {
        r + b
    } else {
        r
    }
}

fn pow(a: f32, b: f32) -> f32 {
    f64::from(a).powf(f64::from(b)) as f32
}

fn rsqrt(a: f32) -> f32 {
    (1.0 / f64::from(a).sqrt()) as f32
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn shl(a: u64, b: u64, w: u32) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        (a << b) & mask(w)
    }
}

fn shr(a: u64, b: u64, w: u32) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        (a & mask(w)) >> b
    }
}

const fn row(op: AluOp, class: AluClass, source: &'static str) -> AluRow {
    AluRow {
        op,
        class,
        unary: false,
        f32: None,
        slices: None,
        bits: None,
        int: None,
        gpsimd_int32: false,
        identity: None,
        refused: None,
        source,
    }
}

const fn bitvec(op: AluOp, f: fn(u64, u64, u32) -> u64, source: &'static str) -> AluRow {
    AluRow {
        bits: Some(f),
        ..row(op, AluClass::Bitvec, source)
    }
}

const fn refused(op: AluOp, class: AluClass, why: &'static str) -> AluRow {
    AluRow {
        refused: Some(why),
        ..row(op, class, "none")
    }
}

/// Every ALU operator, in [`AluOp`] order.
pub static ALU: [AluRow; 33] = {
    use AluClass::*;
    use AluOp as O;
    [
        // `bypass` passes its left input through (NKI `nl.bypass`, "no operation"). It is
        // both an arithmetic and a bitvec stage; as a bitvec op it keeps the bits.
        AluRow {
            bits: Some(|a, _, w| a & mask(w)),
            unary: true,
            ..arith!(O::Bypass, |a, _| a, "nki.isa.activate2 (nl.bypass)")
        },
        AluRow {
            unary: true,
            ..bitvec(O::BitwiseNot, |a, _, w| !a & mask(w), NKI)
        },
        bitvec(O::ArithShiftLeft, shl, "nki-aluop table (nl.left_shift)"),
        refused(
            O::ArithShiftRight,
            Bitvec,
            "the nki-aluop table lists arithmetic shift right as \"Not supported\"",
        ),
        AluRow {
            int: Some(i128::wrapping_add),
            gpsimd_int32: true,
            identity: Some(0.0),
            ..arith!(O::Add, add_f32, NKI)
        },
        AluRow {
            int: Some(i128::wrapping_sub),
            gpsimd_int32: true,
            ..arith!(O::Subtract, subtract_f32, NKI)
        },
        AluRow {
            int: Some(i128::wrapping_mul),
            gpsimd_int32: true,
            identity: Some(1.0),
            ..arith!(O::Mult, mult_f32, NKI)
        },
        arith!(O::Divide, divide_f32, "nki.language.divide (numpy.divide)"),
        AluRow {
            int: Some(i128::max),
            identity: Some(f32::NEG_INFINITY),
            ..arith!(O::Max, max_f32, "nki-aluop table; NaN rule: numpy.maximum")
        },
        AluRow {
            int: Some(i128::min),
            identity: Some(f32::INFINITY),
            ..arith!(O::Min, min_f32, "nki-aluop table; NaN rule: numpy.minimum")
        },
        bitvec(O::BitwiseAnd, |a, b, w| a & b & mask(w), NKI),
        bitvec(O::BitwiseOr, |a, b, w| (a | b) & mask(w), NKI),
        bitvec(O::BitwiseXor, |a, b, w| (a ^ b) & mask(w), NKI),
        AluRow {
            identity: Some(1.0),
            ..arith!(
                O::LogicalAnd,
                |a, b| truth(nonzero(a) && nonzero(b)),
                "nki-aluop table; truth rule: numpy.logical_and",
            )
        },
        AluRow {
            identity: Some(0.0),
            ..arith!(
                O::LogicalOr,
                |a, b| truth(nonzero(a) || nonzero(b)),
                "nki-aluop table; truth rule: numpy.logical_or",
            )
        },
        AluRow {
            identity: Some(0.0),
            ..arith!(
                O::LogicalXor,
                |a, b| truth(nonzero(a) != nonzero(b)),
                "nki-aluop table; truth rule: numpy.logical_xor",
            )
        },
        bitvec(O::LogicalShiftLeft, shl, "nki-aluop table (nl.left_shift)"),
        bitvec(
            O::LogicalShiftRight,
            shr,
            "nki-aluop table (nl.right_shift)",
        ),
        arith!(
            O::IsEqual,
            |a, b| truth(a == b),
            "nki-aluop table (nl.equal)",
        ),
        arith!(
            O::NotEqual,
            |a, b| truth(a != b),
            "nki-aluop table (nl.not_equal)",
        ),
        arith!(O::IsGt, |a, b| truth(a > b), "nki-aluop table (nl.greater)"),
        arith!(
            O::IsGe,
            |a, b| truth(a >= b),
            "nki-aluop table (nl.greater_equal)",
        ),
        arith!(O::IsLt, |a, b| truth(a < b), "nki-aluop table (nl.less)"),
        arith!(
            O::IsLe,
            |a, b| truth(a <= b),
            "nki-aluop table (nl.less_equal)",
        ),
        // `average` is a reduction only (the mean: see `reduce_f32`); element-wise it has
        // no public meaning.
        refused(
            O::Average,
            Arith,
            "average has public semantics only as a reduction (the mean), not element-wise",
        ),
        refused(
            O::ElemwiseMul,
            Arith,
            "elemwise_mul has no NKI name and no wire encoding (the BIR converter rejects it)",
        ),
        arith!(
            O::Pow,
            pow,
            "nki-aluop table (nl.power); computed in f64, rounded once",
        ),
        arith!(
            O::Mod,
            floored_mod,
            "floored modulo (numpy.mod), as the nki 0.3 simulator's mod",
        ),
        AluRow {
            unary: true,
            ..arith!(
                O::Rsqrt,
                |a, _| rsqrt(a),
                "nki-aluop table (nl.rsqrt); computed in f64, rounded once",
            )
        },
        AluRow {
            unary: true,
            ..arith!(O::Abs, |a, _| a.abs(), "nki-aluop table (nl.abs)")
        },
        AluRow {
            identity: Some(0.0),
            ..arith!(
                O::AbsMax,
                |a, b| max_f32(a.abs(), b.abs()),
                "nki.isa.activate2 reduce op nl.abs_max: max(|a|, |b|)",
            )
        },
        AluRow {
            identity: Some(f32::INFINITY),
            ..arith!(
                O::AbsMin,
                |a, b| min_f32(a.abs(), b.abs()),
                "nki.isa.activate2 reduce op nl.abs_min: min(|a|, |b|)",
            )
        },
        refused(
            O::ModInt,
            Arith,
            "mod_int (ModInt) appears in public code only as a name; its semantics are not published",
        ),
    ]
};

/// The row of `op`.
pub fn alu_row(op: AluOp) -> &'static AluRow {
    &ALU[op as usize]
}

/// The row of `op` when it is usable by `who` as `class`, or the error saying why not.
pub fn checked_row(who: &'static str, op: AluOp, class: AluClass) -> Result<&'static AluRow> {
    let r = alu_row(op);
    if let Some(why) = r.refused {
        return Err(EmuError::NoPublicSemantics {
            op: who,
            what: format!("ALU op {}", op.name()),
            reason: why,
        });
    }
    let usable = match class {
        AluClass::Arith => r.f32.is_some(),
        AluClass::Bitvec => r.bits.is_some(),
    };
    if !usable {
        let want = match class {
            AluClass::Arith => "an arithmetic",
            AluClass::Bitvec => "a bitvec",
        };
        return Err(EmuError::invalid(
            who,
            format!("{} is not {want} operator", op.name()),
        ));
    }
    Ok(r)
}

impl AluRow {
    /// The fp32 result (arithmetic operators; a bitvec-only row gives NaN, but
    /// [`checked_row`] never hands one out for arithmetic use).
    #[inline]
    pub fn apply_f32(&self, a: f32, b: f32) -> f32 {
        self.f32.map_or(f32::NAN, |f| f(a, b))
    }

    /// The bit result at `width` bits (bitvec operators).
    #[inline]
    pub fn apply_bits(&self, a: u64, b: u64, width: u32) -> u64 {
        let m = mask(width);
        self.bits.map_or(0, |f| f(a & m, b & m, width))
    }

    /// The exact integer result (operators with integer semantics; others give 0, but
    /// callers check [`AluRow::int`] first).
    #[inline]
    pub fn apply_int(&self, a: i128, b: i128) -> i128 {
        self.int.map_or(0, |f| f(a, b))
    }

    /// `lhs op rhs`, or `rhs op lhs` when `reverse` (the reverse flags of tensor_scalar
    /// and friends).
    #[inline]
    pub fn apply_f32_rev(&self, lhs: f32, rhs: f32, reverse: bool) -> f32 {
        if reverse {
            self.apply_f32(rhs, lhs)
        } else {
            self.apply_f32(lhs, rhs)
        }
    }
}

/// Reduces `values` in order with `op` in fp32, starting from the operator's identity.
/// `average` is the mean (the fp32 sum divided by the count). Fails for operators that
/// are not arithmetic reductions.
pub fn reduce_f32(who: &'static str, op: AluOp, values: &[f32]) -> Result<f32> {
    if op == AluOp::Average {
        return Ok(divide_f32(
            sum_f32(values.iter().copied()),
            values.len() as f32,
        ));
    }
    let r = checked_row(who, op, AluClass::Arith)?;
    let id = r.identity.ok_or_else(|| {
        EmuError::invalid(who, format!("{} is not a reduction operator", op.name()))
    })?;
    Ok(values.iter().fold(id, |a, &v| r.apply_f32(a, v)))
}

/// The bit pattern a bitvec reduction with `op` starts from at `width` bits.
pub fn bits_identity(who: &'static str, op: AluOp, width: u32) -> Result<u64> {
    match op {
        AluOp::BitwiseAnd => Ok(mask(width)),
        AluOp::BitwiseOr | AluOp::BitwiseXor => Ok(0),
        _ => Err(EmuError::invalid(
            who,
            format!("{} is not a bitvec reduction operator", op.name()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_row_per_operator_in_enum_order() {
        for (i, op) in AluOp::ALL.into_iter().enumerate() {
            assert_eq!(ALU[i].op, op, "row {i}");
            let r = &ALU[i];
            assert!(
                r.refused.is_some() || r.f32.is_some() || r.bits.is_some(),
                "{} has no semantics and no refusal",
                op.name()
            );
        }
    }

    /// Every row's slice kernels compute its scalar function bit for bit, over special
    /// values (zeros of both signs, infinities, NaN, subnormals) in every pairing.
    #[test]
    fn slice_kernels_equal_the_scalar_semantics_bit_for_bit() {
        let vals = [
            0.0f32,
            -0.0,
            1.0,
            -2.5,
            3.0,
            7.0,
            -7.0,
            0.1,
            1e-40,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let (xs, ys): (Vec<f32>, Vec<f32>) = vals
            .iter()
            .flat_map(|&a| vals.iter().map(move |&b| (a, b)))
            .unzip();
        for r in &ALU {
            assert_eq!(r.f32.is_some(), r.slices.is_some(), "{}", r.op.name());
            let (Some(f), Some(k)) = (r.f32, r.slices) else {
                continue;
            };
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut vv = xs.clone();
            (k.vv)(&mut vv, &ys);
            let want: Vec<f32> = xs.iter().zip(&ys).map(|(&a, &b)| f(a, b)).collect();
            assert_eq!(bits(&vv), bits(&want), "{} vv", r.op.name());
            for &s in &vals {
                let mut x = xs.clone();
                k.scalar(&mut x, s, false);
                let want: Vec<f32> = xs.iter().map(|&a| f(a, s)).collect();
                assert_eq!(bits(&x), bits(&want), "{} vs {s}", r.op.name());
                let mut x = xs.clone();
                k.scalar(&mut x, s, true);
                let want: Vec<f32> = xs.iter().map(|&a| f(s, a)).collect();
                assert_eq!(bits(&x), bits(&want), "{} sv {s}", r.op.name());
            }
        }
    }

    #[test]
    fn floored_mod_takes_the_divisor_sign() {
        // numpy.mod(-7, 3) == 2, numpy.mod(7, -3) == -2, numpy.mod(7, 3) == 1.
        assert_eq!(floored_mod(-7.0, 3.0), 2.0);
        assert_eq!(floored_mod(7.0, -3.0), -2.0);
        assert_eq!(floored_mod(7.0, 3.0), 1.0);
        assert!(floored_mod(1.0, 0.0).is_nan());
    }

    #[test]
    fn gpsimd_int32_rows_wrap_at_32_bits() {
        // Hand-worked 32-bit two's complement: 0xFFFF_FFFF + 1 = 0; 0 - 1 = 0xFFFF_FFFF;
        // 0x1_0000 * 0x1_0000 = 2^32 = 0; 0xFFFF_FFFF * 0xFFFF_FFFF = 1 (-1 * -1).
        let at32 = |op: AluOp, a: u32, b: u32| {
            let r = alu_row(op);
            assert!(r.gpsimd_int32, "{}", op.name());
            r.apply_int(i128::from(a), i128::from(b)) as u32
        };
        assert_eq!(at32(AluOp::Add, 0xFFFF_FFFF, 1), 0);
        assert_eq!(at32(AluOp::Subtract, 0, 1), 0xFFFF_FFFF);
        assert_eq!(at32(AluOp::Mult, 0x1_0000, 0x1_0000), 0);
        assert_eq!(at32(AluOp::Mult, 0xFFFF_FFFF, 0xFFFF_FFFF), 1);
        // Only add, subtract and mult are published for the native path.
        let native: Vec<AluOp> = ALU
            .iter()
            .filter(|r| r.gpsimd_int32)
            .map(|r| r.op)
            .collect();
        assert_eq!(native, [AluOp::Add, AluOp::Subtract, AluOp::Mult]);
        // min and max have integer semantics (collectives) but are not native.
        assert_eq!(alu_row(AluOp::Max).apply_int(-3, 2), 2);
        assert_eq!(alu_row(AluOp::Min).apply_int(-3, 2), -3);
    }

    #[test]
    fn max_and_min_keep_the_left_operand_on_equal_zeros() {
        assert_eq!(max_f32(0.0, -0.0).to_bits(), 0x0000_0000);
        assert_eq!(max_f32(-0.0, 0.0).to_bits(), 0x8000_0000);
        assert_eq!(min_f32(0.0, -0.0).to_bits(), 0x0000_0000);
        assert_eq!(min_f32(-0.0, 0.0).to_bits(), 0x8000_0000);
        assert!(max_f32(f32::NAN, 1.0).is_nan() && min_f32(1.0, f32::NAN).is_nan());
    }

    #[test]
    fn shifts_of_the_width_or_more_give_zero() {
        assert_eq!(shl(1, 7, 8), 0x80);
        assert_eq!(shl(1, 8, 8), 0);
        assert_eq!(shr(0x80, 7, 8), 1);
        assert_eq!(shr(0xFFFF_FFFF, 32, 32), 0);
    }
}
