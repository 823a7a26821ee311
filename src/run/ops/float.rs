//! Handlers of `arith` on float scalars: constants, `addf`, `subf`, `mulf`, `divf`, `remf`,
//! `negf`, the minimum and maximum ops, `cmpf`, and the conversions to and from integers
//! (`sitofp`, `uitofp`, `fptosi`, `fptoui`) and between float types (`extf`, `truncf`).
//!
//! No NISA op takes a float SSA value (their scalars are attributes or `[P, 1]` tiles), so
//! a float computed here reaches the kernel through an integer: `fptosi` / `fptoui` into a
//! loop bound or an offset, a `cmpf` deciding an `scf.if` or an `arith.select`, or a value
//! carried through `scf.for` / `scf.if` results.
//!
//! Values are [`RtValue::Float`]s holding the exact value of their type (`f16`, `bf16`,
//! `f32`, `f64`). Each op rounds once to its result type, round-to-nearest-even: f16 and
//! bf16 operations are computed in f32 and f32 ones in f64 and then rounded, which gives
//! the correctly rounded result (the wider format has at least 2p + 2 bits of precision
//! for each p-bit one, so the double rounding is innocuous). The conversions to integers
//! truncate toward zero; a NaN or a value outside the integer type is `arith`'s poison,
//! an error naming the op here, never a value.

use melior::ir::{
    Attribute, Type, TypeLike, ValueLike, attribute::AttributeLike, operation::OperationLike,
};

use super::super::RunError;
use super::super::exec::{Exec, RtValue};
use super::index::{predicate, unsigned, width, wrap};

/// The float types `arith` values may have here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatType {
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
}

impl FloatType {
    /// The float type of `ty`, if it is one of these.
    pub fn of(ty: Type<'_>) -> Option<FloatType> {
        let raw = ty.to_raw();
        unsafe {
            if mlir_sys::mlirTypeIsAF16(raw) {
                Some(FloatType::F16)
            } else if mlir_sys::mlirTypeIsABF16(raw) {
                Some(FloatType::Bf16)
            } else if mlir_sys::mlirTypeIsAF32(raw) {
                Some(FloatType::F32)
            } else if mlir_sys::mlirTypeIsAF64(raw) {
                Some(FloatType::F64)
            } else {
                None
            }
        }
    }

    /// `v` rounded to this type (nearest even; overflow to infinity).
    pub fn round(self, v: f64) -> f64 {
        match self {
            FloatType::F64 => v,
            FloatType::F32 => f64::from(v as f32),
            FloatType::F16 | FloatType::Bf16 => {
                let d = if self == FloatType::F16 {
                    sundial_emu::DType::F16
                } else {
                    sundial_emu::DType::Bf16
                };
                let x = v as f32;
                d.from_f32(x)
                    .and_then(|bits| d.to_f32(bits))
                    .map_or(f64::NAN, f64::from)
            }
        }
    }

    /// `f(a, b)` as an operation of this type: in the next wider format, then rounded.
    fn apply(self, a: f64, b: f64, f: impl Fn(f64, f64) -> f64) -> f64 {
        match self {
            FloatType::F16 | FloatType::Bf16 => {
                let (x, y) = (a as f32, b as f32);
                let r = f(f64::from(x), f64::from(y)) as f32;
                self.round(f64::from(r))
            }
            _ => self.round(f(a, b)),
        }
    }
}

/// The float type of result 0.
fn result_type(op: &Exec<'_, '_, '_>) -> Result<FloatType, RunError> {
    let r = op.op().result(0).map_err(|_| op.error("has no result"))?;
    FloatType::of(r.r#type()).ok_or_else(|| {
        op.error("sundial-run evaluates arith on f16, bf16, f32 and f64 scalars, not on this type")
    })
}

/// `arith.constant` of a float type.
pub fn constant(op: &mut Exec<'_, '_, '_>, attr: Attribute<'_>) -> Result<(), RunError> {
    let t = result_type(op)?;
    let v = unsafe { mlir_sys::mlirFloatAttrGetValueDouble(attr.to_raw()) };
    op.set_result(0, RtValue::Float(t.round(v)))
}

/// The binary float operators.
#[derive(Clone, Copy)]
enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Maximum,
    Minimum,
    MaxNum,
    MinNum,
}

fn combine(bin: Bin, a: f64, b: f64) -> f64 {
    match bin {
        Bin::Add => a + b,
        Bin::Sub => a - b,
        Bin::Mul => a * b,
        Bin::Div => a / b,
        // C's fmod: the sign of the dividend, as arith.remf says.
        Bin::Rem => a % b,
        // maximumf / minimumf propagate NaN and order -0 below +0.
        Bin::Maximum | Bin::Minimum if a.is_nan() || b.is_nan() => f64::NAN,
        Bin::Maximum if a == b => {
            if a.is_sign_negative() {
                b
            } else {
                a
            }
        }
        Bin::Minimum if a == b => {
            if a.is_sign_negative() {
                a
            } else {
                b
            }
        }
        Bin::Maximum => a.max(b),
        Bin::Minimum => a.min(b),
        // maxnumf / minnumf return the other operand for one NaN.
        Bin::MaxNum => a.max(b),
        Bin::MinNum => a.min(b),
    }
}

fn binary(op: &mut Exec<'_, '_, '_>, bin: Bin) -> Result<(), RunError> {
    let t = result_type(op)?;
    let (a, b) = (op.float_at(0)?, op.float_at(1)?);
    op.set_result(0, RtValue::Float(t.apply(a, b, |x, y| combine(bin, x, y))))
}

binaries![
    addf => Add, subf => Sub, mulf => Mul, divf => Div, remf => Rem, maximumf => Maximum,
    minimumf => Minimum, maxnumf => MaxNum, minnumf => MinNum,
];

/// `arith.negf`.
pub fn negf(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let v = op.float_at(0)?;
    op.set_result(0, RtValue::Float(-v))
}

/// The float predicates of `arith.cmpf`, in the order of their enum values.
const CMPF: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// `arith.cmpf`: an `i1`, -1 (true) or 0; the ordered predicates are false and the unordered
/// ones true when an operand is NaN.
pub fn cmpf(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let (a, b) = (op.float_at(0)?, op.float_at(1)?);
    let p = predicate(op)?;
    let name = CMPF.get(p).copied().ok_or_else(|| {
        op.error(format!(
            "attribute 'predicate': {p} is not a cmpf predicate"
        ))
    })?;
    let unordered = a.is_nan() || b.is_nan();
    let t = match name {
        "false" => false,
        "true" => true,
        "ord" => !unordered,
        "uno" => unordered,
        _ => {
            let rel = match &name[1..] {
                "eq" => a == b,
                "gt" => a > b,
                "ge" => a >= b,
                "lt" => a < b,
                "le" => a <= b,
                _ => a != b, // "ne"
            };
            if name.starts_with('o') {
                !unordered && rel
            } else {
                unordered || rel
            }
        }
    };
    op.set_result(0, RtValue::Index(-i64::from(t)))
}

/// `arith.sitofp`.
pub fn sitofp(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let t = result_type(op)?;
    let v = op.index_at(0)?;
    op.set_result(0, RtValue::Float(t.round(v as f64)))
}

/// `arith.uitofp`.
pub fn uitofp(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let t = result_type(op)?;
    let w = int_width(op, None)?;
    let v = unsigned(op.index_at(0)?, w);
    op.set_result(0, RtValue::Float(t.round(v as f64)))
}

/// The integer width of operand 0 (`None`) or of result 0.
fn int_width(op: &Exec<'_, '_, '_>, result: Option<()>) -> Result<u32, RunError> {
    let ty = match result {
        None => op.op().operand(0).map(|v| v.r#type()),
        Some(()) => op.op().result(0).map(|v| v.r#type()),
    }
    .map_err(|_| op.error("has no operand or result"))?;
    width(ty).ok_or_else(|| {
        op.error("sundial-run converts index and signless integers of at most 64 bits")
    })
}

/// `arith.fptosi`: truncates toward zero; NaN or a value outside the type is an error.
pub fn fptosi(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let w = int_width(op, Some(()))?;
    let v = op.float_at(0)?.trunc();
    let (lo, hi) = (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1));
    if !(v >= lo && v < hi) {
        return Err(op.error(format!(
            "converts {v} to a signed {w}-bit integer, which cannot hold it (arith's poison)"
        )));
    }
    op.set_result(0, RtValue::Index(wrap(v as i128, w)))
}

/// `arith.fptoui`: truncates toward zero; NaN or a value outside the type is an error.
pub fn fptoui(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let w = int_width(op, Some(()))?;
    let v = op.float_at(0)?.trunc();
    if !(v >= 0.0 && v < 2f64.powi(w as i32)) {
        return Err(op.error(format!(
            "converts {v} to an unsigned {w}-bit integer, which cannot hold it (arith's poison)"
        )));
    }
    op.set_result(0, RtValue::Index(wrap(v as i128, w)))
}

/// `arith.extf` and `arith.truncf`: the value rounded to the result type.
pub fn convertf(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let t = result_type(op)?;
    let v = op.float_at(0)?;
    op.set_result(0, RtValue::Float(t.round(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_rounds_to_nearest_even() {
        // Hand-worked: bf16 has 7 fraction bits, so near 1 its spacing is 2^-7; 1 + 3 * 2^-8
        // is the midpoint of 1 + 2^-7 (odd) and 1 + 2^-6 (even) and goes to the even one.
        assert_eq!(FloatType::Bf16.round(1.0 + 3.0 / 256.0), 1.015625);
        assert_eq!(FloatType::Bf16.round(1.0 + 1.0 / 256.0), 1.0);
        // f16 near 2048 has spacing 2: 2049 ties to 2048; 65520 is the midpoint of the
        // largest finite 65504 and 2^16 and overflows to infinity.
        assert_eq!(FloatType::F16.round(2049.0), 2048.0);
        assert_eq!(FloatType::F16.round(2051.0), 2052.0);
        assert_eq!(FloatType::F16.round(65520.0), f64::INFINITY);
        // f32: 1 + 2^-24 ties to 1, 1 + 3 * 2^-24 to 1 + 2^-22.
        assert_eq!(FloatType::F32.round(1.0 + 2f64.powi(-24)), 1.0);
        assert_eq!(
            FloatType::F32.round(1.0 + 3.0 * 2f64.powi(-24)),
            1.0 + 2f64.powi(-22)
        );
        assert_eq!(FloatType::F64.round(0.1), 0.1);
    }

    #[test]
    fn operations_round_once_in_their_type() {
        // f32: 1/3 is 0x3eaaaaab; f16: 1/3 is 0x3555 = 0.333251953125.
        assert_eq!(
            FloatType::F32.apply(1.0, 3.0, |a, b| a / b),
            f64::from(1.0f32 / 3.0)
        );
        assert_eq!(FloatType::F16.apply(1.0, 3.0, |a, b| a / b), 0.333251953125);
        // remf is C's fmod: the sign of the dividend.
        assert_eq!(combine(Bin::Rem, -7.0, 2.0), -1.0);
        // maximumf propagates NaN and orders -0 below +0; maxnumf drops one NaN.
        assert!(combine(Bin::Maximum, f64::NAN, 1.0).is_nan());
        assert!(combine(Bin::Maximum, -0.0, 0.0).is_sign_positive());
        assert!(combine(Bin::Minimum, 0.0, -0.0).is_sign_negative());
        assert_eq!(combine(Bin::MaxNum, f64::NAN, 1.0), 1.0);
    }
}
