//! Rules of loops, dynamic access patterns, registers, launch grids and HBM buffers (the
//! forms of [`crate::loops`]).
//!
//! - `scf.for`: a loop over register values (NKI's `dynamic_range`) takes a compile-time step
//!   (the hardware loop instruction encodes it as an immediate); a valid `sundial.range`.
//! - `nisa.dynamic_ap`: the `nisa.ap` rules, with the bounds checked at the smallest and the
//!   largest value its offset takes over the whole iteration space when the dynamic offset is
//!   affine in induction variables of constant-bound loops (and in program ids of a known
//!   launch grid). A bounds error says where the extreme is reached: which loop, at which
//!   value of its induction variable. A dynamic offset that is not affine there (a register,
//!   a loop with a register bound) is left to a run-time check.
//! - `nisa.register_move`: an immediate or a register. `nisa.program_id` /
//!   `nisa.num_programs`: axes of the launch grid. `sundial.grid`: 1 to 3 positive extents.
//! - HBM buffers: `sundial.buffer` only on a `nisa.alloc` of an HBM tile or on an HBM tensor
//!   argument, naming one of NKI's HBM buffers.

use super::{OpView, nisa_rules::ap_at};
use crate::{
    enums::Space,
    ffi::{emit_error, op_name},
    loops::{
        BUFFER_ATTR, Extreme, Extremes, GRID_ATTR, HBM_BUFFER, RANGE_ATTR, RANGE_KINDS, Var,
        arg_attr, buffer_name, eval_index, extremes, from_register, grid_of, loop_bounds,
        parse_grid,
    },
    tile::Tile,
};
use melior::ir::{
    Type, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
};

/// Checks the loop-related rules of an op of any dialect (`scf.for`, `func.func` argument
/// attributes, `sundial.grid` and `sundial.buffer` attributes); returns the number of errors
/// emitted.
pub fn check_structure(op: &OperationRef<'_, '_>) -> usize {
    let raw = op.to_raw();
    let mut errors = 0;
    if let Some(attr) = crate::ffi::attribute_of(op, GRID_ATTR)
        && let Err(msg) = parse_grid(attr)
    {
        emit_error(op.location(), &format!("{msg} (rule: launch grid)"));
        errors += 1;
    }
    if let Some(attr) = crate::ffi::attribute_of(op, BUFFER_ATTR) {
        let name = op_name(raw);
        let problem = match (buffer_name(attr), op.result(0)) {
            (None, _) => Some(format!("must be one of {}", HBM_BUFFER.values.join("|"))),
            (Some(buffer), Ok(result)) if name == "nisa.alloc" => not_hbm(buffer, result.r#type()),
            (Some(_), _) => {
                Some("belongs on a nisa.alloc of an HBM tile (or on an HBM tensor argument)".into())
            }
        };
        if let Some(problem) = problem {
            emit_error(
                op.location(),
                &format!("'{name}' op attribute '{BUFFER_ATTR}' {problem} (rule: hbm buffer)"),
            );
            errors += 1;
        }
    }
    if crate::ffi::op_name_is(raw, "scf.for") {
        errors += scf_for(op);
    } else if crate::ffi::op_name_is(raw, "func.func") {
        errors += func_args(op);
    }
    errors
}

fn scf_for(op: &OperationRef<'_, '_>) -> usize {
    let raw = op.to_raw();
    let [_, _, step] = loop_bounds(raw);
    // Only loops over register values (the dynamic_range form, new with nisa.register_index)
    // are held to NKI's rule: any other scf.for verified before loops were NISA forms.
    let n = unsafe { mlir_sys::mlirOperationGetNumOperands(raw) }.min(3);
    let over_registers =
        (0..n).any(|i| from_register(unsafe { mlir_sys::mlirOperationGetOperand(raw, i) }));
    if over_registers && step.and_then(|s| s.as_constant()).is_none() {
        emit_error(
            op.location(),
            "'scf.for' op a loop over register values (NKI's dynamic_range) needs a compile-time constant step: the hardware loop instruction encodes it as an immediate (rule: loop step)",
        );
        return 1;
    }
    if let Some(attr) = crate::ffi::attribute_of(op, RANGE_ATTR) {
        let text = attr
            .is_string()
            .then(|| crate::ffi::string_attr_value(attr));
        if !text.is_some_and(|t| RANGE_KINDS.contains(&t.as_str())) {
            emit_error(
                op.location(),
                &format!(
                    "'scf.for' op attribute '{RANGE_ATTR}' must be one of {} (NKI's affine_range / sequential_range) (rule: loop range)",
                    RANGE_KINDS.join("|")
                ),
            );
            return 1;
        }
    }
    0
}

fn func_args(op: &OperationRef<'_, '_>) -> usize {
    use melior::ir::{BlockLike, RegionLike};
    let Ok(region) = op.region(0) else { return 0 };
    let Some(block) = region.first_block() else {
        return 0;
    };
    for i in 0..block.argument_count() {
        let Some(attr) = arg_attr(op.to_raw(), i as isize, BUFFER_ATTR) else {
            continue;
        };
        let Ok(arg) = block.argument(i) else { continue };
        let problem = match buffer_name(attr) {
            None => Some(format!("must be one of {}", HBM_BUFFER.values.join("|"))),
            Some(name) => not_hbm(name, arg.r#type()),
        };
        if let Some(problem) = problem {
            emit_error(
                op.location(),
                &format!(
                    "'func.func' op argument #{i}: attribute '{BUFFER_ATTR}' {problem} (rule: hbm buffer)"
                ),
            );
            return 1;
        }
    }
    0
}

/// Why HBM buffer `name` cannot be given for a value of type `ty`, if it cannot.
fn not_hbm(name: &str, ty: Type<'_>) -> Option<String> {
    match Tile::from_type(ty) {
        Ok(t) if t.space == Space::Hbm => None,
        Ok(t) => Some(format!(
            "names HBM buffer \"{name}\" but the tile is in \"{}\"",
            t.space
        )),
        Err(_) => Some(format!(
            "names HBM buffer \"{name}\" for a value that is not a tile"
        )),
    }
}

/// Where an extreme of a dynamic offset is reached, for a bounds message.
fn reached_at(extreme: &Extreme) -> String {
    if extreme.at.is_empty() {
        return format!(", with dynamic offset {}", extreme.value);
    }
    let vars: Vec<String> = extreme
        .at
        .iter()
        .map(|(var, value)| match var {
            Var::Loop(_) => format!("{} at {value}", var.describe()),
            Var::Program(_) => format!("{} = {value}", var.describe()),
        })
        .collect();
    format!(
        ", with {} (dynamic offset {})",
        vars.join(" and "),
        extreme.value
    )
}

/// `nisa.dynamic_ap`: the access-pattern rules over the whole iteration space.
pub fn dynamic_ap(v: &mut OpView<'_, '_, '_>) {
    let offset = v.int_attr("offset").unwrap_or(0);
    let Some(dynamic) = v.value("dynamic_offset") else {
        return;
    };
    // A malformed grid is reported where it is written; here it is simply unknown.
    let grid = grid_of(v.op.to_raw()).ok().flatten();
    let range = eval_index(dynamic.to_raw()).map(|e| extremes(&e, grid.as_deref()));
    let Some(Extremes::Range(lo, hi)) = range else {
        // Never evaluated (a loop that never runs) or bounded only at run time: the rules
        // that do not depend on the offset still apply.
        ap_at(v, offset, None);
        return;
    };
    for extreme in [lo, hi] {
        let at = reached_at(&extreme);
        let Some(total) = extreme
            .value
            .checked_add(offset as i128)
            .and_then(|t| i64::try_from(t).ok())
        else {
            v.error(format!(
                "the element offset does not fit in 64 bits{at} (rule: ap bounds)"
            ));
            return;
        };
        ap_at(v, total, Some(&at));
        if v.errors > 0 {
            return;
        }
    }
}

/// `nisa.register_move`: exactly one source, the immediate or the register.
pub fn register_move(v: &mut OpView<'_, '_, '_>) {
    match (v.attr("imm").is_some(), v.value("src").is_some()) {
        (true, true) => v.error(
            "give either attribute 'imm' or operand 'src', not both (rule: immediate or register)",
        ),
        (false, false) => v.error(
            "needs attribute 'imm' (an integer) or operand 'src' (a register) (rule: immediate or register)",
        ),
        _ => {}
    }
}

/// `nisa.program_id` / `nisa.num_programs`: axes of the launch grid, each named once.
pub fn program_axes(v: &mut OpView<'_, '_, '_>) {
    let (name, axes) = match v.spec.name {
        "program_id" => ("axis", vec![v.int_attr("axis").unwrap_or(0)]),
        _ => match v.i64_array("axes") {
            Some(a) => ("axes", a),
            None => return,
        },
    };
    for (i, &a) in axes.iter().enumerate() {
        if a < 0 {
            v.error(format!(
                "attribute '{name}': axis {a} is negative (rule: program axis)"
            ));
            return;
        }
        if axes[..i].contains(&a) {
            v.error(format!(
                "attribute '{name}': axis {a} is named twice (rule: program axis)"
            ));
            return;
        }
    }
    if let Ok(Some(grid)) = grid_of(v.op.to_raw())
        && let Some(a) = axes.iter().find(|&&a| a as usize >= grid.len())
    {
        let extents: Vec<String> = grid.iter().map(|e| e.to_string()).collect();
        v.error(format!(
            "attribute '{name}': {a} is not an axis of the launch grid [{}] ({GRID_ATTR}) (rule: program axis)",
            extents.join(", ")
        ));
    }
}
