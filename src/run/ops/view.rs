//! Handlers of the view ops: `nisa.ap`, `nisa.dynamic_ap`, `nisa.reshape`, `nisa.slice`,
//! `nisa.permute` and `nisa.broadcast`.
//!
//! A view reads nothing; its value is where it points. Each view op extends the chain of views
//! its tensor operand was made by ([`Chain`]: the allocation and the steps from it, as
//! `sundial_dialects::verify::view_rules::step_of` reads each op) and folds the whole chain with
//! `sundial_dialects::fold::fold`, the one folding function the verifier and selection use,
//! into one physical pattern over the allocation. That pattern becomes an emulator view through
//! [`ap::view`] (which maps the flat element model onto the emulator's partition-major layout)
//! with the view's logical shape where strides can say it ([`ap::with_shape`]).
//!
//! `nisa.dynamic_ap` is `nisa.ap` with its `dynamic_offset` (an `index` computed at run time)
//! added to the static `offset`: the bounds the verifier could not check statically are
//! checked here, each time the op runs, and an access outside the tensor is an error naming
//! the op, the dynamic offset and the element it reaches.

use melior::ir::{ValueLike, operation::OperationLike};
use sundial_dialects::{
    enums::Space,
    fold::{Base, FoldErrorKind, ViewStep, fold},
    tile::Tile,
    verify::view_rules::{fold_message, step_of},
};

use super::super::exec::{Chain, Exec, RtValue};
use super::super::{RunError, ap};
use super::uint;

/// Every view op (see the module doc).
pub fn view(op: &mut Exec<'_, '_, '_>) -> Result<(), RunError> {
    let o = op.op();
    let tensor = o
        .operand(0)
        .map_err(|_| op.error("has no tensor operand"))?;
    let mut step = step_of(&o).map_err(|m| op.error(format!("cannot be emulated: {m}")))?;
    let dynamic = if op.name() == "nisa.dynamic_ap" {
        let d = op.index("dynamic_offset")?;
        if let ViewStep::Ap { offset, .. } = &mut step {
            *offset = offset.checked_add(d).ok_or_else(|| {
                op.error(format!(
                    "dynamic offset {d} plus the static offset {offset} does not fit in 64 bits (rule: ap bounds)"
                ))
            })?;
        }
        Some(d)
    } else {
        None
    };
    let rank = op.rank();
    let mut chain = match op.machine().chain(rank, tensor) {
        Some(c) => c.clone(),
        None => {
            let root = op.tile("tensor")?;
            let tile = Tile::from_type(tensor.r#type())
                .map_err(|m| op.error(format!("operand 'tensor': {m}")))?;
            Chain {
                root,
                base: Base {
                    shape: tile.shape.clone(),
                    elem_bytes: tile.dtype.byte_size() as i64,
                    on_chip: tile.space != Space::Hbm,
                },
                steps: Vec::new(),
            }
        }
    };
    chain.steps.push(step);
    // Says where a dynamic access lands when it does not fit.
    let out_of_range = |op: &Exec<'_, '_, '_>, why: &str| -> RunError {
        let Some(d) = dynamic else {
            return op.error(format!("cannot be emulated: {why}"));
        };
        let total = match chain.steps.last() {
            Some(ViewStep::Ap { offset, .. }) => *offset,
            _ => d,
        };
        op.error(format!(
            "dynamic offset {d} (element offset {total}) is out of range: {why}"
        ))
    };
    let folded = fold(&chain.base, &chain.steps).map_err(|e| {
        if dynamic.is_some() && matches!(e.kind, FoldErrorKind::Bounds | FoldErrorKind::Overflow) {
            // The bound the verifier leaves to this check is the access-pattern rule's.
            out_of_range(op, &format!("{} (rule: ap bounds)", e.message))
        } else {
            op.error(format!("cannot be emulated: {}", fold_message(&e)))
        }
    })?;
    let result = op.result_tile(0)?;
    let res = super::super::npy::format_of(result.dtype).emu;
    let on_chip = chain.base.on_chip;
    let view = ap::view(
        &chain.root,
        on_chip,
        res,
        &folded.pattern,
        folded.offset,
        folded.indirect_dim,
    )
    .map_err(|m| {
        if dynamic.is_some() {
            out_of_range(op, &m)
        } else {
            op.error(format!("cannot be emulated: {m}"))
        }
    })?;
    let value = match folded.indirect_dim {
        None => {
            let shape: Vec<usize> = folded.shape.iter().map(|&d| d.max(0) as usize).collect();
            RtValue::Tile(ap::with_shape(view, &shape, on_chip))
        }
        Some(d) => indirect(op, view, d, &folded.pattern)?,
    };
    op.set_result(0, value)?;
    let result_value = o.result(0).map_err(|_| op.error("has no result"))?.into();
    op.machine().set_chain(rank, result_value, chain);
    Ok(())
}

/// The indirect access of an access pattern with `vector_offset` or `scalar_offset`, along
/// pattern pair `d` of `pattern` (over the allocation, as the fold gives it).
fn indirect(
    op: &mut Exec<'_, '_, '_>,
    view: sundial_emu::View,
    d: usize,
    pattern: &[(i64, i64)],
) -> Result<RtValue, RunError> {
    let nums = pattern
        .iter()
        .map(|&(_, n)| uint(op, "pattern", n))
        .collect::<Result<Vec<usize>, RunError>>()?;
    if let Some(index) = op.opt_tile("vector_offset")? {
        let access = ap::vector_access(view, d, &index, &nums)
            .map_err(|m| op.error(format!("operand 'vector_offset': {m}")))?;
        return Ok(RtValue::Access(access));
    }
    let scalar = match op.opt_raw("scalar_offset")? {
        Some(RtValue::Tile(v)) => v,
        Some(RtValue::Reg(id)) => {
            let value = op.reg_value(id)?;
            let rank = op.rank();
            let made = op.machine().register_view(rank, value);
            made.map_err(|m| op.error(format!("operand 'scalar_offset': {m}")))?
        }
        Some(_) => {
            return Err(op.error("operand 'scalar_offset' is not a tile or a register"));
        }
        None => {
            return Err(op.error(
                "an indirect access pattern needs operand 'vector_offset' or 'scalar_offset'",
            ));
        }
    };
    let access = ap::scalar_access(view, d, &scalar, &nums)
        .map_err(|m| op.error(format!("operand 'scalar_offset': {m}")))?;
    Ok(RtValue::Access(access))
}
