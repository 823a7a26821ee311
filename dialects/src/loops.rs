//! Loops, dynamic addressing, registers and logical NeuronCore programs: the facts the
//! verifier (`verify/loop_rules.rs`) and the passes (`sundial-unroll`) share.
//!
//! The forms (see `docs/dialects.md`, "Loops"):
//! - A loop is an upstream `scf.for` over `index` whose body holds NISA ops. NKI's
//!   `affine_range` and `sequential_range` are loops with constant bounds and step; the
//!   optional [`RANGE_ATTR`] attribute (`"affine"` or `"sequential"`) records which one the
//!   kernel asked for. NKI's `dynamic_range(reg)` is a loop whose bound is
//!   `nisa.register_index` of a register: its trip count lives in the register.
//! - `nisa.dynamic_ap` takes an `index` element offset computed with `arith` from induction
//!   variables and `nisa.program_id`; [`eval_index`] reads such an offset as an affine
//!   expression ([`Affine`]) when it is one, and [`extremes`] gives its smallest and largest
//!   value over the whole iteration space, with the variable values that reach them.
//! - The launch grid of a kernel is the [`GRID_ATTR`] attribute of the module (NKI's
//!   `kernel[n](...)`; an LNC=2 kernel has grid `[2]`); `nisa.program_id` ranges over it.
//! - An HBM tensor lives in one of the [`HBM_BUFFER`] buffers, named by the [`BUFFER_ATTR`]
//!   attribute of its `nisa.alloc` or of its function argument (absent: `hbm`).
//!
//! Everything here reads IR and never changes it; every walk along def-use chains is bounded
//! in depth ([`MAX_DEPTH`]) and in visits ([`MAX_VISITS`]), so that hostile input can exhaust
//! neither the stack nor the time budget; past a bound a value counts as unknown.

use crate::{
    ffi::{file_line_col, op_name, string_attr_value},
    spec::Vocab,
    verify::{i64_array_value, int_value},
};
use melior::ir::{Attribute, Location, attribute::AttributeLike};
use mlir_sys::{MlirOperation, MlirValue};

/// The `scf.for` attribute naming the NKI iterator a loop came from.
pub const RANGE_ATTR: &str = "sundial.range";
/// The values of [`RANGE_ATTR`]: `affine` (NKI `affine_range`: no loop-carried dependency
/// but associative accumulation) and `sequential` (NKI `sequential_range`).
pub const RANGE_KINDS: &[&str] = &["affine", "sequential"];
/// The attribute (on a module, or any op enclosing the kernel) giving the launch grid: one
/// extent per axis, e.g. `array<i64: 2>` for an LNC=2 kernel.
pub const GRID_ATTR: &str = "sundial.grid";
/// The attribute naming the HBM buffer of an HBM tensor: on a `nisa.alloc` of an HBM tile, or
/// as an argument attribute of a function's HBM tensor argument.
pub const BUFFER_ATTR: &str = "sundial.buffer";
/// NKI's HBM buffers: `nl.hbm`, `nl.shared_hbm` (visible to every program of the launch
/// grid) and `nl.private_hbm` (visible to one program only).
pub const HBM_BUFFER: Vocab = Vocab {
    name: "HBM buffer",
    values: &["hbm", "shared_hbm", "private_hbm"],
};

/// How deep a def-use chain is followed before a value counts as unknown.
pub const MAX_DEPTH: usize = 256;
/// How many values one walk visits at most: an expression DAG that reuses values (`x + x`,
/// repeated) would otherwise take exponential time.
pub const MAX_VISITS: usize = 4096;

/// The ops whose results are pure functions of their operands and that a loop may hoist when
/// their operands are defined outside it: the index arithmetic [`eval_index`] reads, the
/// program queries and the access patterns (a view reads nothing until an instruction uses it).
pub const HOISTABLE: &[&str] = &[
    "arith.constant",
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.index_cast",
    "nisa.program_id",
    "nisa.num_programs",
    "nisa.ap",
    "nisa.dynamic_ap",
];

/// A variable of an index expression.
#[derive(Clone, Copy, Debug)]
pub enum Var {
    /// The induction variable of this `scf.for`.
    Loop(MlirOperation),
    /// `nisa.program_id` along this axis.
    Program(u32),
}

impl PartialEq for Var {
    fn eq(&self, other: &Var) -> bool {
        match (self, other) {
            (Var::Loop(a), Var::Loop(b)) => a.ptr == b.ptr,
            (Var::Program(a), Var::Program(b)) => a == b,
            _ => false,
        }
    }
}

impl Var {
    /// Names the variable in a message: `the loop at 12:3`, `program_id(0)`.
    pub fn describe(&self) -> String {
        match self {
            Var::Loop(op) => describe_loop(*op),
            Var::Program(axis) => format!("program_id({axis})"),
        }
    }
}

/// `constant + sum(coef * var)`: an index value that is affine in loop induction variables
/// and program ids. Coefficients are never zero and each variable appears once.
#[derive(Clone, Debug, PartialEq)]
pub struct Affine {
    /// The constant term.
    pub constant: i128,
    /// The variable terms.
    pub terms: Vec<(Var, i128)>,
}

impl Affine {
    /// A constant.
    pub fn constant(value: i128) -> Affine {
        Affine {
            constant: value,
            terms: Vec::new(),
        }
    }

    fn var(v: Var) -> Affine {
        Affine {
            constant: 0,
            terms: vec![(v, 1)],
        }
    }

    /// The value when it has no variable term.
    pub fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `self + k * other`, or `None` on overflow.
    fn add_scaled(&self, other: &Affine, k: i128) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(other.constant.checked_mul(k)?)?;
        for (v, c) in &other.terms {
            let c = c.checked_mul(k)?;
            match out.terms.iter_mut().find(|(w, _)| w == v) {
                Some((_, d)) => *d = d.checked_add(c)?,
                None => out.terms.push((*v, c)),
            }
        }
        out.terms.retain(|(_, c)| *c != 0);
        Some(out)
    }

    fn scale(&self, k: i128) -> Option<Affine> {
        Affine::constant(0).add_scaled(self, k)
    }
}

/// Reads an `index` (or integer) value as an affine expression of loop induction variables
/// and program ids: `arith.constant`, `arith.addi`, `arith.subi`, `arith.muli` by a constant,
/// `arith.index_cast`, `nisa.num_programs` under a known grid, induction variables of
/// `scf.for` and `nisa.program_id`. Anything else (a register, a function argument, a
/// product of two variables) is `None`: not affine, so only a run-time check can bound it.
pub fn eval_index(value: MlirValue) -> Option<Affine> {
    let mut visits = MAX_VISITS;
    eval(value, 0, &mut visits)
}

/// The variable `value` is, if it is one: the induction variable of an `scf.for` (argument 0
/// of its body) or the result of a `nisa.program_id`.
fn leaf(value: MlirValue) -> Option<Var> {
    unsafe {
        if mlir_sys::mlirValueIsABlockArgument(value) {
            let block = mlir_sys::mlirBlockArgumentGetOwner(value);
            let owner = mlir_sys::mlirBlockGetParentOperation(block);
            if owner.ptr.is_null()
                || op_name(owner) != "scf.for"
                || mlir_sys::mlirBlockArgumentGetArgNumber(value) != 0
            {
                return None;
            }
            // The induction variable is argument 0 of the body (the region's only block).
            let body =
                mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(owner, 0));
            return (body.ptr == block.ptr).then_some(Var::Loop(owner));
        }
        let op = mlir_sys::mlirOpResultGetOwner(value);
        if op_name(op) != "nisa.program_id" {
            return None;
        }
        u32::try_from(attr_int(op, "axis").unwrap_or(0))
            .ok()
            .map(Var::Program)
    }
}

fn eval(value: MlirValue, depth: usize, visits: &mut usize) -> Option<Affine> {
    if depth > MAX_DEPTH || *visits == 0 {
        return None;
    }
    *visits -= 1;
    if let Some(var) = leaf(value) {
        return Some(Affine::var(var));
    }
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value) {
            return None;
        }
        let op = mlir_sys::mlirOpResultGetOwner(value);
        let operand = |i: isize| {
            (i < mlir_sys::mlirOperationGetNumOperands(op))
                .then(|| mlir_sys::mlirOperationGetOperand(op, i))
        };
        match &*op_name(op) {
            "arith.constant" => {
                let attr = Attribute::from_option_raw(mlir_sys::mlirOperationGetAttributeByName(
                    op,
                    mlir_sys::mlirStringRefCreateFromCString(c"value".as_ptr()),
                ))?;
                int_value(attr).map(|v| Affine::constant(v as i128))
            }
            "arith.addi" => eval(operand(0)?, depth + 1, visits)?
                .add_scaled(&eval(operand(1)?, depth + 1, visits)?, 1),
            "arith.subi" => eval(operand(0)?, depth + 1, visits)?
                .add_scaled(&eval(operand(1)?, depth + 1, visits)?, -1),
            "arith.muli" => {
                let a = eval(operand(0)?, depth + 1, visits)?;
                let b = eval(operand(1)?, depth + 1, visits)?;
                match (a.as_constant(), b.as_constant()) {
                    (Some(k), _) => b.scale(k),
                    (_, Some(k)) => a.scale(k),
                    _ => None,
                }
            }
            "arith.index_cast" => eval(operand(0)?, depth + 1, visits),
            "nisa.num_programs" => {
                let grid = grid_of(op).ok()??;
                num_programs(&grid, attr_i64_array(op, "axes").as_deref())
                    .map(|n| Affine::constant(n as i128))
            }
            _ => None,
        }
    }
}

/// The SSA value standing for each variable of [`eval_index`]`(value)`: the induction
/// variable of a loop, the result of a `nisa.program_id` (the first one found for an axis).
/// Each dominates the op that uses `value`, so an expression can be rebuilt from them.
pub fn index_leaves(value: MlirValue) -> Vec<(Var, MlirValue)> {
    fn walk(value: MlirValue, depth: usize, visits: &mut usize, out: &mut Vec<(Var, MlirValue)>) {
        if depth > MAX_DEPTH || *visits == 0 {
            return;
        }
        *visits -= 1;
        if let Some(var) = leaf(value) {
            if !out.iter().any(|(v, _)| *v == var) {
                out.push((var, value));
            }
            return;
        }
        unsafe {
            if !mlir_sys::mlirValueIsAOpResult(value) {
                return;
            }
            let op = mlir_sys::mlirOpResultGetOwner(value);
            if matches!(
                &*op_name(op),
                "arith.addi" | "arith.subi" | "arith.muli" | "arith.index_cast"
            ) {
                for i in 0..mlir_sys::mlirOperationGetNumOperands(op) {
                    walk(
                        mlir_sys::mlirOperationGetOperand(op, i),
                        depth + 1,
                        visits,
                        out,
                    );
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut visits = MAX_VISITS;
    walk(value, 0, &mut visits, &mut out);
    out
}

/// `nisa.num_programs` under `grid`: the product of the extents of `axes` (of every axis
/// when `None`), or `None` when an axis is not one of the grid's.
pub fn num_programs(grid: &[i64], axes: Option<&[i64]>) -> Option<i64> {
    match axes {
        None => grid.iter().try_fold(1i64, |p, &e| p.checked_mul(e)),
        Some(axes) => axes.iter().try_fold(1i64, |p, &a| {
            let e = *grid.get(usize::try_from(a).ok()?)?;
            p.checked_mul(e)
        }),
    }
}

/// Whether `value` is computed from a register (through `nisa.register_index`, possibly
/// with `arith` on top): the bound of a `dynamic_range` loop.
pub fn from_register(value: MlirValue) -> bool {
    fn walk(value: MlirValue, depth: usize, visits: &mut usize) -> bool {
        if depth > MAX_DEPTH || *visits == 0 || !unsafe { mlir_sys::mlirValueIsAOpResult(value) } {
            return false;
        }
        *visits -= 1;
        let op = unsafe { mlir_sys::mlirOpResultGetOwner(value) };
        if op_name(op) == "nisa.register_index" {
            return true;
        }
        let n = unsafe { mlir_sys::mlirOperationGetNumOperands(op) };
        (0..n).any(|i| {
            walk(
                unsafe { mlir_sys::mlirOperationGetOperand(op, i) },
                depth + 1,
                visits,
            )
        })
    }
    let mut visits = MAX_VISITS;
    walk(value, 0, &mut visits)
}

fn attr_int(op: MlirOperation, name: &str) -> Option<i64> {
    attr(op, name).and_then(int_value)
}

fn attr_i64_array(op: MlirOperation, name: &str) -> Option<Vec<i64>> {
    attr(op, name).and_then(i64_array_value)
}

fn attr<'c>(op: MlirOperation, name: &str) -> Option<Attribute<'c>> {
    let name = std::ffi::CString::new(name).ok()?;
    unsafe {
        Attribute::from_option_raw(mlir_sys::mlirOperationGetAttributeByName(
            op,
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
        ))
    }
}

/// An `scf.for` whose lower bound, upper bound and step are constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticLoop {
    /// The first value of the induction variable.
    pub lower: i128,
    /// The step (positive: `scf.for` requires it).
    pub step: i128,
    /// The number of iterations.
    pub trip: u128,
}

impl StaticLoop {
    /// The induction variable's value at iteration `k`.
    pub fn value(&self, k: u128) -> Option<i128> {
        i128::try_from(k)
            .ok()?
            .checked_mul(self.step)?
            .checked_add(self.lower)
    }

    /// The last value of the induction variable (`None` for a loop that never runs).
    pub fn last(&self) -> Option<i128> {
        self.trip.checked_sub(1).and_then(|k| self.value(k))
    }
}

/// The trip count of `ceil((upper - lower) / step)` iterations (0 when `upper <= lower`), or
/// `None` for a non-positive step.
pub fn trip_count(lower: i128, upper: i128, step: i128) -> Option<u128> {
    if step <= 0 {
        return None;
    }
    if upper <= lower {
        return Some(0);
    }
    let span = upper.checked_sub(lower)?;
    Some((span / step + i128::from(span % step != 0)) as u128)
}

/// The bounds `(lower, upper, step)` of an `scf.for`, each read with [`eval_index`].
pub fn loop_bounds(op: MlirOperation) -> [Option<Affine>; 3] {
    let n = unsafe { mlir_sys::mlirOperationGetNumOperands(op) };
    let get = |i: isize| {
        (i < n)
            .then(|| unsafe { mlir_sys::mlirOperationGetOperand(op, i) })
            .and_then(eval_index)
    };
    [get(0), get(1), get(2)]
}

/// The constant bounds of an `scf.for`, if they are constants.
pub fn static_loop(op: MlirOperation) -> Option<StaticLoop> {
    let [lower, upper, step] = loop_bounds(op);
    let (lower, upper, step) = (
        lower?.as_constant()?,
        upper?.as_constant()?,
        step?.as_constant()?,
    );
    Some(StaticLoop {
        lower,
        step,
        trip: trip_count(lower, upper, step)?,
    })
}

/// What bounds the trip count of an `scf.for`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// Constant bounds and step (NKI `affine_range` / `sequential_range`).
    Static(StaticLoop),
    /// A bound computed from a register (NKI `dynamic_range`): the loop runs on the device.
    Register,
    /// Any other bound (a function argument, a program id, an outer induction variable).
    Dynamic,
}

/// Classifies an `scf.for`.
pub fn loop_kind(op: MlirOperation) -> LoopKind {
    if let Some(s) = static_loop(op) {
        return LoopKind::Static(s);
    }
    let n = unsafe { mlir_sys::mlirOperationGetNumOperands(op) }.min(2);
    if (0..n).any(|i| from_register(unsafe { mlir_sys::mlirOperationGetOperand(op, i) })) {
        LoopKind::Register
    } else {
        LoopKind::Dynamic
    }
}

/// Names a loop by its position: `the loop at 12:3` (`a loop` when it has none).
pub fn describe_loop(op: MlirOperation) -> String {
    let loc = unsafe { Location::from_raw(mlir_sys::mlirOperationGetLocation(op)) };
    match file_line_col(loc) {
        Some(p) => format!("the loop at {}:{}", p.line, p.col),
        None => "a loop".to_string(),
    }
}

/// The launch grid of `op`: the [`GRID_ATTR`] of `op` or its nearest ancestor that has one.
/// `Ok(None)` when none names a grid; `Err` (the sentence for a diagnostic) when the nearest
/// one is malformed.
pub fn grid_of(op: MlirOperation) -> Result<Option<Vec<i64>>, String> {
    let mut cursor = op;
    for _ in 0..10_000 {
        if cursor.ptr.is_null() {
            break;
        }
        if let Some(attr) = attr(cursor, GRID_ATTR) {
            return parse_grid(attr).map(Some);
        }
        cursor = unsafe { mlir_sys::mlirOperationGetParentOperation(cursor) };
    }
    Ok(None)
}

/// Checks a [`GRID_ATTR`] value: `array<i64: ...>` of 1 to 3 extents, each at least 1.
pub fn parse_grid(attr: Attribute<'_>) -> Result<Vec<i64>, String> {
    let grid = i64_array_value(attr).ok_or_else(|| {
        format!("attribute '{GRID_ATTR}' must be array<i64: ...> (one extent per launch-grid axis)")
    })?;
    if grid.is_empty() || grid.len() > 3 {
        return Err(format!(
            "attribute '{GRID_ATTR}' needs 1 to 3 axes, got {}",
            grid.len()
        ));
    }
    if let Some(e) = grid.iter().find(|&&e| e < 1) {
        return Err(format!(
            "attribute '{GRID_ATTR}': every extent must be at least 1, got {e}"
        ));
    }
    Ok(grid)
}

/// The smallest or largest value of an affine expression over the iteration space, with the
/// value each variable takes there.
#[derive(Clone, Debug, PartialEq)]
pub struct Extreme {
    /// The value.
    pub value: i128,
    /// The variables and their values at the extreme.
    pub at: Vec<(Var, i128)>,
}

/// The range of an affine expression over the iteration space.
#[derive(Clone, Debug, PartialEq)]
pub enum Extremes {
    /// Smallest and largest value.
    Range(Extreme, Extreme),
    /// A loop of the expression never runs: the expression is never evaluated.
    Empty,
    /// A variable has no static range (a loop with dynamic bounds, a program id without a
    /// known grid): only a run-time check can bound the expression.
    Unknown,
}

/// The extremes of `expr`, where `grid` is the launch grid of the op using it.
pub fn extremes(expr: &Affine, grid: Option<&[i64]>) -> Extremes {
    let mut lo = Extreme {
        value: expr.constant,
        at: Vec::new(),
    };
    let mut hi = lo.clone();
    for (var, coef) in &expr.terms {
        let (first, last) = match var {
            Var::Loop(op) => match static_loop(*op) {
                Some(s) if s.trip == 0 => return Extremes::Empty,
                Some(s) => match s.last() {
                    Some(last) => (s.lower, last),
                    None => return Extremes::Unknown,
                },
                None => return Extremes::Unknown,
            },
            Var::Program(axis) => match grid.and_then(|g| g.get(*axis as usize)) {
                Some(&extent) => (0, extent as i128 - 1),
                None => return Extremes::Unknown,
            },
        };
        let (at_lo, at_hi) = if *coef >= 0 {
            (first, last)
        } else {
            (last, first)
        };
        let (Some(l), Some(h)) = (
            coef.checked_mul(at_lo)
                .and_then(|t| lo.value.checked_add(t)),
            coef.checked_mul(at_hi)
                .and_then(|t| hi.value.checked_add(t)),
        ) else {
            return Extremes::Unknown;
        };
        lo.value = l;
        hi.value = h;
        lo.at.push((*var, at_lo));
        hi.at.push((*var, at_hi));
    }
    Extremes::Range(lo, hi)
}

/// The HBM buffer an attribute value names, if it is one of [`HBM_BUFFER`].
pub fn buffer_name(attr: Attribute<'_>) -> Option<&'static str> {
    if !attr.is_string() {
        return None;
    }
    let text = string_attr_value(attr);
    HBM_BUFFER.values.iter().copied().find(|v| *v == text)
}

/// Where an HBM tensor comes from: its buffer, and whether it is a kernel (function)
/// argument rather than a `nisa.alloc` of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HbmOrigin {
    /// The [`HBM_BUFFER`] value.
    pub buffer: &'static str,
    /// A function argument (kernel input or output).
    pub argument: bool,
}

/// The origin of an HBM tensor, through any chain of access patterns and views: the
/// [`BUFFER_ATTR`] of its `nisa.alloc` or of its function argument, `hbm` when neither says
/// (and when the chain is not recognised: `argument` is then false).
pub fn hbm_origin(value: MlirValue) -> HbmOrigin {
    let unknown = HbmOrigin {
        buffer: "hbm",
        argument: false,
    };
    let mut value = value;
    for _ in 0..MAX_DEPTH {
        unsafe {
            if mlir_sys::mlirValueIsABlockArgument(value) {
                let block = mlir_sys::mlirBlockArgumentGetOwner(value);
                let owner = mlir_sys::mlirBlockGetParentOperation(block);
                if owner.ptr.is_null() || op_name(owner) != "func.func" {
                    return unknown;
                }
                let index = mlir_sys::mlirBlockArgumentGetArgNumber(value);
                return HbmOrigin {
                    buffer: arg_attr(owner, index, BUFFER_ATTR)
                        .and_then(buffer_name)
                        .unwrap_or("hbm"),
                    argument: true,
                };
            }
            let op = mlir_sys::mlirOpResultGetOwner(value);
            let name = op_name(op);
            match &*name {
                "nisa.alloc" => {
                    return HbmOrigin {
                        buffer: attr(op, BUFFER_ATTR).and_then(buffer_name).unwrap_or("hbm"),
                        argument: false,
                    };
                }
                _ if (name == "nisa.ap"
                    || name == "nisa.dynamic_ap"
                    || name
                        .strip_prefix("nisa.")
                        .is_some_and(|n| crate::verify::view_rules::VIEW_OPS.contains(&n)))
                    && mlir_sys::mlirOperationGetNumOperands(op) > 0 =>
                {
                    value = mlir_sys::mlirOperationGetOperand(op, 0);
                }
                _ => return unknown,
            }
        }
    }
    unknown
}

/// The HBM buffer of an HBM tensor ([`hbm_origin`]'s buffer).
pub fn hbm_buffer(value: MlirValue) -> &'static str {
    hbm_origin(value).buffer
}

/// The attribute `name` of argument `index` of a `func.func` (from its `arg_attrs`).
pub fn arg_attr<'c>(func: MlirOperation, index: isize, name: &str) -> Option<Attribute<'c>> {
    let all = attr(func, "arg_attrs")?;
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(all.to_raw())
            || index >= mlir_sys::mlirArrayAttrGetNumElements(all.to_raw())
        {
            return None;
        }
        let dict = mlir_sys::mlirArrayAttrGetElement(all.to_raw(), index);
        if !mlir_sys::mlirAttributeIsADictionary(dict) {
            return None;
        }
        let name = std::ffi::CString::new(name).ok()?;
        Attribute::from_option_raw(mlir_sys::mlirDictionaryAttrGetElementByName(
            dict,
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
        ))
    }
}

/// Whether `op` is one of NISA's access-pattern ops (`nisa.ap`, `nisa.dynamic_ap`).
pub fn is_access_pattern(op: MlirOperation) -> bool {
    matches!(&*op_name(op), "nisa.ap" | "nisa.dynamic_ap")
}

/// Whether `op` is a `nisa.dynamic_ap` with a vector or scalar offset (an indirect access).
pub fn is_indirect_dynamic_ap(op: MlirOperation) -> bool {
    op_name(op) == "nisa.dynamic_ap" && unsafe { mlir_sys::mlirOperationGetNumOperands(op) } > 2
}
