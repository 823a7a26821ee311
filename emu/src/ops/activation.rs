//! `activation` (Scalar Engine): the activation-function table and the op, with its
//! scale/bias stage and its add-reduction into `reduce_regs` (`nki.isa.activation`,
//! `nki.isa.activation_reduce`).
//!
//! Semantics restated from `nki.isa.activation`:
//!
//! - `dst = op(data * scale + bias)`, "the Scalar Engine always performs the math
//!   operations in float32": `data` cast to fp32, multiplied by `scale` (an fp32 scalar
//!   or an fp32 `[N, 1]` tile), then `bias` added (a `[N, 1]` tile of any dtype, or from
//!   NeuronCore-v3 a scalar), two fp32 roundings (no fused multiply-add: our reading),
//!   the function applied, the result cast to `dst.dtype`.
//! - Reduction: `reduce_op` must be `add`; per lane the activated fp32 values are summed
//!   in order, and `reduce_cmd` drives the lane registers: `idle` leaves them, `reset`
//!   zeroes them only, `reset_reduce` zeroes them then adds the sum, `reduce` adds the sum
//!   to them (`load_reduce` is not documented for activation and is refused).
//!   `reduce_res`, a `[N, 1]` tile, receives the registers after the update.
//!   `activation_reduce` is this op with `reduce_cmd = reset_reduce` and `reduce_res`.
//!
//! The function table ([`ACTIVATIONS`]) has one row per BIR `ActivationFunctionType`
//! ([`ActivationFunc`], the codegen crate's vocabulary, which the dialects re-export), in
//! its order. A function has public semantics when NKI's "Supported
//! Activation Functions for NKI ISA" table (`nki-act-func`) lists it; its formula is the
//! standard one its NKI name denotes, written out per row. The hardware approximates them
//! "with piece-wise polynomials"; the emulator computes the exact function in f64 and
//! rounds once to fp32, which is what the public simulator's NumPy reference computes (to
//! its last bit). Inputs outside a function's published "Valid Input Range", where the
//! hardware "will generate invalid output results", are refused with
//! [`EmuError::InputOutOfRange`] rather than given an invented value (NaN inputs pass
//! through as NaN). Functions without a row in NKI's table are refused by name.

use super::accumulator::{self, AccEngine, Accumulators, ReduceCmd, Start};
use super::alu::{AluOp, add_f32, mult_f32, sum_f32};
use super::tile::{self, Scalar, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;
use std::f64::consts::{FRAC_2_SQRT_PI, PI, SQRT_2};
pub use sundial_codegen::enums::ActivationFunc;

/// The input range a function is valid on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValidRange {
    /// Every input (`[-inf, inf]`).
    All,
    /// `[lo, hi]`.
    Closed(f32, f32),
    /// `±[lo, hi]`: the magnitude in `[lo, hi]`.
    Magnitude(f32, f32),
}

impl ValidRange {
    fn contains(self, x: f32) -> bool {
        match self {
            ValidRange::All => true,
            ValidRange::Closed(lo, hi) => (lo..=hi).contains(&x),
            ValidRange::Magnitude(lo, hi) => (lo..=hi).contains(&x.abs()),
        }
    }
}

/// One activation function.
#[derive(Debug, Clone, Copy)]
pub struct ActivationRow {
    /// The function.
    pub func: ActivationFunc,
    /// Its dialect spelling (`op = "..."`, [`ActivationFunc::name`]).
    pub name: &'static str,
    /// The NKI `nki.language` name NKI's table accepts for it (`None` when refused).
    pub nki: Option<&'static str>,
    /// The function on f64 (finite inputs).
    pub f: Option<fn(f64) -> f64>,
    /// The values at -inf and +inf where the formula alone would give NaN (`inf * 0`).
    pub at_inf: Option<(f64, f64)>,
    /// The published valid input range.
    pub range: ValidRange,
    /// The range as NKI's table prints it.
    pub range_text: &'static str,
    /// Why the function is refused, when it is not in NKI's table.
    pub refused: Option<&'static str>,
}

/// `2^e` for a normal fp32 exponent (the range bounds NKI prints as powers of two).
const fn pow2(e: i32) -> f32 {
    f32::from_bits(((127 + e) as u32) << 23)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn softplus(x: f64) -> f64 {
    // ln(1 + e^x) without overflow: max(x, 0) + ln(1 + e^-|x|).
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

fn phi_cdf(x: f64) -> f64 {
    0.5 * (1.0 + libm::erf(x / SQRT_2))
}

fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        // ±0 and NaN pass through (numpy.sign).
        x
    }
}

const fn ok(
    func: ActivationFunc,
    nki: &'static str,
    f: fn(f64) -> f64,
    range: ValidRange,
    range_text: &'static str,
) -> ActivationRow {
    ActivationRow {
        func,
        name: ActivationFunc::NAMES[func as usize],
        nki: Some(nki),
        f: Some(f),
        at_inf: None,
        range,
        range_text,
        refused: None,
    }
}

const fn all(func: ActivationFunc, nki: &'static str, f: fn(f64) -> f64) -> ActivationRow {
    ok(func, nki, f, ValidRange::All, "[-inf, inf]")
}

const fn limits(r: ActivationRow, neg: f64, pos: f64) -> ActivationRow {
    ActivationRow {
        at_inf: Some((neg, pos)),
        ..r
    }
}

const fn no(func: ActivationFunc, why: &'static str) -> ActivationRow {
    ActivationRow {
        func,
        name: ActivationFunc::NAMES[func as usize],
        nki: None,
        f: None,
        at_inf: None,
        range: ValidRange::All,
        range_text: "",
        refused: Some(why),
    }
}

const NOT_IN_TABLE: &str = "not in NKI's Supported Activation Functions table";

/// Every function the dialect accepts, in BIR `ActivationFunctionType` order.
pub static ACTIVATIONS: [ActivationRow; 30] = {
    use ActivationFunc as F;
    [
        all(F::Identity, "nl.copy", |x| x),
        all(F::Square, "nl.square", |x| x * x),
        all(F::Relu, "nl.relu", |x| {
            if x > 0.0 || x.is_nan() { x } else { 0.0 }
        }),
        no(
            F::Lrelu,
            "leaky relu is not in NKI's Supported Activation Functions table (its slope is unpublished)",
        ),
        no(
            F::Prelu,
            "prelu is not in NKI's Supported Activation Functions table (alpha is unpublished)",
        ),
        all(F::Sigmoid, "nl.sigmoid", sigmoid),
        all(F::Tanh, "nl.tanh", f64::tanh),
        all(F::Exp, "nl.exp", f64::exp),
        all(F::Softplus, "nl.softplus", softplus),
        ok(
            F::Sqrt,
            "nl.sqrt",
            f64::sqrt,
            ValidRange::Closed(pow2(-116), pow2(118)),
            "[2^-116, 2^118]",
        ),
        ok(
            F::Rsqrt,
            "nl.rsqrt",
            |x| 1.0 / x.sqrt(),
            ValidRange::Closed(pow2(-87), pow2(97)),
            "[2^-87, 2^97]",
        ),
        ok(
            F::Ln,
            "nl.log",
            f64::ln,
            ValidRange::Closed(pow2(-64), pow2(64)),
            "[2^-64, 2^64]",
        ),
        all(F::Erf, "nl.erf", libm::erf),
        ok(
            F::Sin,
            "nl.sin",
            f64::sin,
            ValidRange::Closed(-std::f32::consts::PI, std::f32::consts::PI),
            "[-PI, PI]",
        ),
        ok(
            F::Arctan,
            "nl.arctan",
            f64::atan,
            ValidRange::Closed(-std::f32::consts::FRAC_PI_2, std::f32::consts::FRAC_PI_2),
            "[-PI/2, PI/2]",
        ),
        all(F::Sign, "nl.sign", sign),
        limits(
            all(F::Gelu, "nl.gelu", |x| x * phi_cdf(x)),
            0.0,
            f64::INFINITY,
        ),
        limits(
            all(F::Mish, "nl.mish", |x| x * softplus(x).tanh()),
            0.0,
            f64::INFINITY,
        ),
        limits(
            all(F::GeluApprxTanh, "nl.gelu_apprx_tanh", |x| {
                // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
                0.5 * x * (1.0 + ((2.0 / PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
            }),
            0.0,
            f64::INFINITY,
        ),
        limits(
            all(F::GeluApprxSigmoid, "nl.gelu_apprx_sigmoid", |x| {
                x * sigmoid(1.702 * x)
            }),
            0.0,
            f64::INFINITY,
        ),
        no(F::DerivativeGeluApprxSigmoid, NOT_IN_TABLE),
        limits(
            all(F::DerivativeGelu, "nl.gelu_dx", |x| {
                // d/dx (x Phi(x)) = Phi(x) + x phi(x)
                phi_cdf(x) + x * (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
            }),
            0.0,
            1.0,
        ),
        all(F::DerivativeErf, "nl.erf_dx", |x| {
            FRAC_2_SQRT_PI * (-x * x).exp()
        }),
        all(F::Copy, "nl.copy", |x| x),
        all(F::Abs, "nl.abs", f64::abs),
        ok(
            F::Reciprocal,
            "nl.reciprocal",
            |x| 1.0 / x,
            ValidRange::Magnitude(pow2(-42), pow2(42)),
            "±[2^-42, 2^42]",
        ),
        no(F::AbsReciprocalSqrt, NOT_IN_TABLE),
        limits(
            all(F::Silu, "nl.silu", |x| x * sigmoid(x)),
            0.0,
            f64::INFINITY,
        ),
        limits(
            all(F::DerivativeSilu, "nl.silu_dx", |x| {
                let s = sigmoid(x);
                s * (1.0 + x * (1.0 - s))
            }),
            0.0,
            1.0,
        ),
        no(F::IsFinite, NOT_IN_TABLE),
    ]
};

/// The row of `func`, or the error refusing it (no public semantics).
pub fn activation_row(who: &'static str, func: ActivationFunc) -> Result<&'static ActivationRow> {
    let row = &ACTIVATIONS[func as usize];
    if let Some(why) = row.refused {
        return Err(EmuError::NoPublicSemantics {
            op: who,
            what: format!("activation function {}", row.name),
            reason: why,
        });
    }
    Ok(row)
}

impl ActivationRow {
    /// The function at an fp32 input, rounded once to fp32, or `None` outside the valid
    /// range (NaN always maps to NaN).
    pub fn eval(&self, x: f32) -> Option<f32> {
        if x.is_nan() {
            return Some(f32::NAN);
        }
        if !self.range.contains(x) {
            return None;
        }
        if x.is_infinite()
            && let Some((neg, pos)) = self.at_inf
        {
            return Some(if x < 0.0 { neg } else { pos } as f32);
        }
        Some(self.f.map_or(f64::NAN, |f| f(f64::from(x))) as f32)
    }
}

/// The attributes of `activation`.
#[derive(Debug, Clone, Copy)]
pub struct Activation<'a> {
    /// The function.
    pub func: ActivationFunc,
    /// The multiplier (`Scalar::Imm(1.0)` for none).
    pub scale: Scalar<'a>,
    /// The addend.
    pub bias: Option<Scalar<'a>>,
    /// `add` or absent.
    pub reduce_op: Option<AluOp>,
    /// How `reduce_regs` change.
    pub reduce_cmd: ReduceCmd,
    /// The `[N, 1]` tile that receives `reduce_regs`.
    pub reduce_res: Option<&'a View>,
}

impl Default for Activation<'_> {
    fn default() -> Self {
        Activation {
            func: ActivationFunc::Identity,
            scale: Scalar::Imm(1.0),
            bias: None,
            reduce_op: None,
            reduce_cmd: ReduceCmd::Idle,
            reduce_res: None,
        }
    }
}

/// `activation` (and the `activation_reduce` form): see the module doc.
pub fn activation(
    mem: &mut Memory,
    acc: &mut Accumulators,
    dst: &View,
    data: &View,
    args: &Activation<'_>,
) -> Result<()> {
    const OP: &str = "activation";
    let row = activation_row(OP, args.func)?;
    let d = tile::tile(mem, OP, "dst", dst, Space::OnChip)?;
    let s = tile::tile(mem, OP, "data", data, Space::OnChip)?;
    tile::same_shape(OP, ("dst", d), ("data", s))?;
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    if let Some(op) = args.reduce_op
        && op != AluOp::Add
    {
        return Err(EmuError::invalid(
            OP,
            format!("reduce_op must be add, not {}", op.name()),
        ));
    }
    accumulator::cmd_in(
        OP,
        args.reduce_cmd,
        &[
            ReduceCmd::Idle,
            ReduceCmd::Reset,
            ReduceCmd::Reduce,
            ReduceCmd::ResetReduce,
        ],
    )?;
    let accumulates = matches!(args.reduce_cmd, ReduceCmd::Reduce | ReduceCmd::ResetReduce);
    if accumulates && args.reduce_op.is_none() {
        return Err(EmuError::invalid(
            OP,
            format!(
                "reduce_cmd = {} needs reduce_op = add",
                args.reduce_cmd.name()
            ),
        ));
    }
    if let Some(Scalar::Imm(_)) = args.bias {
        tile::require_target(mem, OP, Target::Cayman)
            .map_err(|_| EmuError::unsupported(OP, "a scalar bias needs NeuronCore-v3 or newer"))?;
    }
    if let Some(r) = args.reduce_res {
        tile::lane_tile(mem, OP, "reduce_res", r, s.parts)?;
    }
    let scale = tile::scalar_values(mem, OP, "scale", &args.scale, s.parts, true)?;
    let bias = match &args.bias {
        Some(b) => tile::scalar_values(mem, OP, "bias", b, s.parts, false)?,
        None => vec![0.0; s.parts],
    };
    let begin = accumulator::start(
        acc,
        OP,
        AccEngine::Scalar,
        args.reduce_cmd,
        s.parts,
        0.0,
        None,
    )?;
    let x = tile::read_f32(mem, OP, "data", data)?;
    let mut out = Vec::with_capacity(x.len());
    for (i, &v) in x.iter().enumerate() {
        let p = i / s.free.max(1);
        let mut t = mult_f32(v, scale[p]);
        if args.bias.is_some() {
            t = add_f32(t, bias[p]);
        }
        out.push(row.eval(t).ok_or_else(|| EmuError::InputOutOfRange {
            op: OP,
            func: row.name,
            value: format!("{t:e}"),
            partition: p,
            element: i - p * s.free,
            range: row.range_text,
        })?);
    }
    let state: Option<Vec<f32>> = match begin {
        Start::Idle => None,
        Start::ResetOnly(v) => Some(v),
        Start::Accumulate(mut regs) => {
            for (p, reg) in regs.iter_mut().enumerate() {
                // The row's sum first, then added to the register.
                let sum = sum_f32(out[p * s.free..(p + 1) * s.free].iter().copied());
                *reg = add_f32(*reg, sum);
            }
            Some(regs)
        }
    };
    let readout = match (args.reduce_res, &state) {
        (None, _) => None,
        (Some(r), Some(v)) => Some((r, v.clone())),
        (Some(r), None) => Some((r, acc.defined(OP, AccEngine::Scalar, s.parts)?)),
    };
    tile::scalar_dtype(OP, "dst", dst.dtype())?;
    tile::check_writable(mem, OP, dst)?;
    tile::store_f32(mem, OP, "dst", dst, &out)?;
    if let Some((r, v)) = readout {
        accumulator::write_lanes(mem, OP, "reduce_res", r, &v, false)?;
    }
    if let Some(v) = state {
        let lanes: Vec<Option<f32>> = v.into_iter().map(Some).collect();
        acc.commit(AccEngine::Scalar, &lanes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_range_bounds_are_the_powers_of_two_they_print() {
        let want = [
            ("sqrt", -116, 118),
            ("rsqrt", -87, 97),
            ("ln", -64, 64),
            ("reciprocal", -42, 42),
        ];
        for (name, lo, hi) in want {
            let r = ACTIVATIONS.iter().find(|r| r.name == name).map(|r| r.range);
            let (l, h) = match r {
                Some(ValidRange::Closed(l, h) | ValidRange::Magnitude(l, h)) => (l, h),
                other => panic!("{name}: {other:?}"),
            };
            assert_eq!(l, 2f32.powi(lo), "{name}");
            assert_eq!(h, 2f32.powi(hi), "{name}");
        }
    }

    #[test]
    fn the_table_has_one_row_per_function_in_bir_order() {
        for (i, f) in ActivationFunc::ALL.into_iter().enumerate() {
            assert_eq!(ACTIVATIONS[i].func, f, "row {i}");
            assert_eq!(ACTIVATIONS[i].name, f.name(), "row {i}");
        }
    }

    #[test]
    fn every_accepted_function_has_a_formula_and_an_nki_name() {
        for r in &ACTIVATIONS {
            assert_eq!(r.refused.is_none(), r.f.is_some(), "{}", r.name);
            assert_eq!(r.refused.is_none(), r.nki.is_some(), "{}", r.name);
        }
    }
}
