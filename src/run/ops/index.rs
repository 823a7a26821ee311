//! Handlers of the index arithmetic (`arith` on `index` and signless integers: the loop bounds
//! and dynamic offsets of a kernel) and of the launch-grid queries (`nisa.program_id`,
//! `nisa.num_programs`).
//!
//! Values are [`RtValue::Index`]: the value sign-extended from its type's width (`index` is 64
//! bits here). The semantics are upstream `arith`'s: `addi`, `subi`, `muli` and the bitwise ops
//! wrap at the type's width; the divisions and remainders round as their names say, and the
//! cases `arith` leaves undefined (a division by zero, the signed division of the minimum by
//! -1, a shift by the width or more) are errors naming the op, never a value.
//!
//! `nisa.program_id` is the index of the program being run along its axis of the launch grid
//! (`sundial.grid`), `nisa.num_programs` the product of the grid's extents along its axes; a
//! kernel whose module names no grid runs as one program (every id 0, one program).

use melior::ir::{Type, TypeLike, ValueLike, attribute::AttributeLike, operation::OperationLike};
use sundial_dialects::verify::int_value_checked;

use super::super::RunError;
use super::super::exec::{Exec, RtValue};
use super::uint;

/// The bit width of an `index` (64) or signless integer type, `None` for any other type.
pub fn width(ty: Type<'_>) -> Option<u32> {
    unsafe {
        if mlir_sys::mlirTypeIsAIndex(ty.to_raw()) {
            return Some(64);
        }
        if mlir_sys::mlirTypeIsAInteger(ty.to_raw())
            && mlir_sys::mlirIntegerTypeIsSignless(ty.to_raw())
        {
            let w = mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw());
            return (1..=64).contains(&w).then_some(w);
        }
    }
    None
}

/// `v` wrapped to `w` bits and sign-extended (the canonical form of a value of that width).
pub fn wrap(v: i128, w: u32) -> i64 {
    let shift = 128 - w;
    ((v << shift) >> shift) as i64
}

/// `v` (of width `w`) read as unsigned.
pub fn unsigned(v: i64, w: u32) -> u64 {
    if w == 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}

/// The width of result 0.
fn result_width(op: &Exec<'_, '_, '_>) -> Result<u32, RunError> {
    let r = op.op().result(0).map_err(|_| op.error("has no result"))?;
    width(r.r#type()).ok_or_else(|| {
        op.error("sundial-run evaluates arith on index and signless integers of at most 64 bits (the index arithmetic of loops and offsets), not on this type")
    })
}

/// The width of operand `k`.
fn operand_width(op: &Exec<'_, '_, '_>, k: usize) -> Result<u32, RunError> {
    let v = op
        .op()
        .operand(k)
        .map_err(|_| op.error(format!("has no operand #{k}")))?;
    width(v.r#type()).ok_or_else(|| {
        op.error(format!(
            "operand #{k}: sundial-run evaluates arith on index and signless integers of at most 64 bits"
        ))
    })
}

/// `arith.constant` of an `index`, integer or float type (see [`super::float`]).
pub fn constant(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let attr = op
        .op()
        .attribute("value")
        .map_err(|_| op.error("has no 'value'"))?;
    if unsafe { mlir_sys::mlirAttributeIsAFloat(attr.to_raw()) } {
        return super::float::constant(op, attr);
    }
    let w = result_width(op)?;
    if !attr.is_integer() {
        return Err(op.error(
            "sundial-run evaluates index, integer and float constants only (no vectors or tensors)",
        ));
    }
    let v = int_value_checked(attr).map_err(|m| op.error(format!("attribute 'value': {m}")))?;
    op.set_result(0, RtValue::Index(wrap(i128::from(v), w)))
}

/// The operators of the binary index ops.
#[derive(Clone, Copy)]
enum Bin {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    FloorDivS,
    CeilDivS,
    CeilDivU,
    MinS,
    MaxS,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
}

/// `a op b` at width `w`, or why it is undefined.
fn apply(bin: Bin, a: i64, b: i64, w: u32) -> Result<i64, &'static str> {
    let (ua, ub) = (unsigned(a, w), unsigned(b, w));
    let min = wrap(1i128 << (w - 1), w);
    let signed_div = |b: i64| -> Result<(), &'static str> {
        if b == 0 {
            Err("divides by zero")
        } else if a == min && b == -1 {
            Err("overflows: the minimum divided by -1")
        } else {
            Ok(())
        }
    };
    let (a128, b128) = (i128::from(a), i128::from(b));
    Ok(match bin {
        Bin::Add => wrap(a128 + b128, w),
        Bin::Sub => wrap(a128 - b128, w),
        Bin::Mul => wrap(a128 * b128, w),
        Bin::DivS => {
            signed_div(b)?;
            wrap(a128 / b128, w)
        }
        Bin::RemS => {
            signed_div(b)?;
            wrap(a128 % b128, w)
        }
        Bin::FloorDivS => {
            signed_div(b)?;
            let q = a128 / b128;
            let down = a128 % b128 != 0 && ((a128 < 0) != (b128 < 0));
            wrap(q - i128::from(down), w)
        }
        Bin::CeilDivS => {
            signed_div(b)?;
            let q = a128 / b128;
            let up = a128 % b128 != 0 && ((a128 < 0) == (b128 < 0));
            wrap(q + i128::from(up), w)
        }
        Bin::DivU | Bin::RemU | Bin::CeilDivU if ub == 0 => return Err("divides by zero"),
        Bin::DivU => wrap(i128::from(ua / ub), w),
        Bin::RemU => wrap(i128::from(ua % ub), w),
        Bin::CeilDivU => wrap(i128::from(ua.div_ceil(ub)), w),
        Bin::MinS => a.min(b),
        Bin::MaxS => a.max(b),
        Bin::MinU => wrap(i128::from(ua.min(ub)), w),
        Bin::MaxU => wrap(i128::from(ua.max(ub)), w),
        Bin::And => a & b,
        Bin::Or => a | b,
        Bin::Xor => a ^ b,
        Bin::Shl | Bin::ShrS | Bin::ShrU if ub >= u64::from(w) => {
            return Err("shifts by the type's width or more");
        }
        Bin::Shl => wrap(i128::from(ua) << ub, w),
        Bin::ShrS => a >> ub,
        Bin::ShrU => wrap(i128::from(ua >> ub), w),
    })
}

fn binary(op: &mut Exec<'_, '_, '_>, bin: Bin) -> Result<(), RunError> {
    let w = result_width(op)?;
    let (a, b) = (op.index_at(0)?, op.index_at(1)?);
    let v = apply(bin, a, b, w).map_err(|why| op.error(format!("{why} ({a}, {b})")))?;
    op.set_result(0, RtValue::Index(v))
}

binaries![
    addi => Add, subi => Sub, muli => Mul, divsi => DivS, divui => DivU, remsi => RemS,
    remui => RemU, floordivsi => FloorDivS, ceildivsi => CeilDivS, ceildivui => CeilDivU,
    minsi => MinS, maxsi => MaxS, minui => MinU, maxui => MaxU, andi => And, ori => Or,
    xori => Xor, shli => Shl, shrsi => ShrS, shrui => ShrU,
];

/// `arith.index_cast`: sign-extends or truncates.
pub fn index_cast(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let w = result_width(op)?;
    let v = op.index_at(0)?;
    op.set_result(0, RtValue::Index(wrap(i128::from(v), w)))
}

/// `arith.index_castui`: zero-extends or truncates.
pub fn index_castui(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let w = result_width(op)?;
    let from = operand_width(op, 0)?;
    let v = op.index_at(0)?;
    op.set_result(0, RtValue::Index(wrap(i128::from(unsigned(v, from)), w)))
}

/// `arith.extsi`: sign-extends (the value is kept sign-extended already).
pub fn extsi(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    index_cast(op)
}

/// `arith.extui`: zero-extends.
pub fn extui(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    index_castui(op)
}

/// `arith.trunci`: keeps the low bits.
pub fn trunci(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    index_cast(op)
}

/// The integer predicates of `arith.cmpi`, in the order of their enum values.
const CMPI: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `arith.cmpi`: an `i1`, -1 (true) or 0.
pub fn cmpi(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let w = operand_width(op, 0)?;
    let (a, b) = (op.index_at(0)?, op.index_at(1)?);
    let (ua, ub) = (unsigned(a, w), unsigned(b, w));
    let p = predicate(op)?;
    let t = match CMPI.get(p).copied() {
        Some("eq") => a == b,
        Some("ne") => a != b,
        Some("slt") => a < b,
        Some("sle") => a <= b,
        Some("sgt") => a > b,
        Some("sge") => a >= b,
        Some("ult") => ua < ub,
        Some("ule") => ua <= ub,
        Some("ugt") => ua > ub,
        Some("uge") => ua >= ub,
        _ => {
            return Err(op.error(format!(
                "attribute 'predicate': {p} is not a cmpi predicate"
            )));
        }
    };
    op.set_result(0, RtValue::Index(-i64::from(t)))
}

/// The `predicate` attribute of a comparison (its enum value).
pub(crate) fn predicate(op: &Exec<'_, '_, '_>) -> Result<usize, RunError> {
    let attr = op
        .op()
        .attribute("predicate")
        .map_err(|_| op.error("has no attribute 'predicate'"))?;
    let p = int_value_checked(attr).map_err(|m| op.error(format!("attribute 'predicate': {m}")))?;
    uint(op, "predicate", p)
}

/// `arith.select`: operand 1 when the `i1` condition is true, else operand 2 (any kind of
/// value: an index, a float, a register, a tile).
pub fn select(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let c = op.index_at(0)?;
    op.forward(0, if c != 0 { 1 } else { 2 })
}

/// `nisa.program_id`: the running program's index along `axis`.
pub fn program_id(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let axis = uint(op, "axis", op.int("axis")?)?;
    let m = op.machine();
    let id = match &m.grid {
        None => Some(0),
        Some(_) => m.program.get(axis).copied(),
    };
    let id = id.ok_or_else(|| {
        op.error(format!(
            "attribute 'axis': {axis} is not an axis of the launch grid"
        ))
    })?;
    op.set_result(0, RtValue::Index(id))
}

/// `nisa.num_programs`: the number of programs along `axes` (all when absent).
pub fn num_programs(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let axes = op.opt_ints("axes")?;
    let n = match op.machine().grid.clone() {
        None => Some(1),
        Some(grid) => sundial_dialects::loops::num_programs(&grid, axes.as_deref()),
    };
    let n =
        n.ok_or_else(|| op.error("attribute 'axes' names an axis the launch grid does not have"))?;
    op.set_result(0, RtValue::Index(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_wraps_and_rounds_as_arith_says() {
        // Hand-computed: i8 127 + 1 wraps to -128; -7 floordiv 2 = -4, ceildiv 2 = -3.
        assert_eq!(apply(Bin::Add, 127, 1, 8), Ok(-128));
        assert_eq!(apply(Bin::FloorDivS, -7, 2, 64), Ok(-4));
        assert_eq!(apply(Bin::CeilDivS, -7, 2, 64), Ok(-3));
        assert_eq!(apply(Bin::CeilDivS, 7, 2, 64), Ok(4));
        assert_eq!(apply(Bin::FloorDivS, 7, -2, 64), Ok(-4));
        assert_eq!(apply(Bin::DivU, -1, 2, 8), Ok(127));
        assert_eq!(apply(Bin::ShrU, -1, 4, 8), Ok(15));
        assert_eq!(apply(Bin::Shl, 1, 63, 64), Ok(i64::MIN));
        assert_eq!(apply(Bin::MinU, -1, 3, 64), Ok(3));
        assert!(apply(Bin::DivS, 4, 0, 64).is_err());
        assert!(apply(Bin::DivS, i64::MIN, -1, 64).is_err());
        assert!(apply(Bin::Shl, 1, 64, 64).is_err());
        assert_eq!(wrap(255, 8), -1);
        assert_eq!(unsigned(-1, 8), 255);
    }
}
