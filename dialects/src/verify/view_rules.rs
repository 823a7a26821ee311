//! Rules of the NISA views: `nisa.reshape`, `nisa.slice`, `nisa.permute`, `nisa.broadcast`
//! and `nisa.ap` taken on a view.
//!
//! Each view op checks what it states on its own (a tile result in the tensor's memory space
//! and dtype), then reads the chain of views it ends ([`view_chain`]) and folds it with
//! [`crate::fold::fold`], the one folding function. A chain that does not fold is reported at
//! the op whose step fails, with the rule of the [`FoldErrorKind`]; a failure at an earlier
//! view op is that op's own error and is not repeated.
//!
//! A chain runs through `nisa.dynamic_ap` as it does at run time (the emulator driver folds
//! the whole chain over the allocation, the dynamic offset added in): a view of a dynamic
//! access pattern is folded over the allocation the pattern indexes, not from the pattern's
//! result, so a chain that no strided pattern addresses is refused here and not only when it
//! runs. The dynamic offset is taken at the smallest and at the largest value it reaches over
//! the iteration space when the verifier can bound it ([`crate::loops::extremes`]), else at 0
//! (the static `offset` alone): what a later view can fold does not depend on the offset when
//! the dynamic pattern indexes the allocation itself, and its bounds are the dynamic pattern's
//! own rule.

use super::{OpView, defining_op, i64_array_value, int_value};
use crate::{
    ffi::op_name,
    fold::{Base, FoldError, FoldErrorKind, ViewStep, fold},
    tile::Tile,
};
use melior::ir::{
    Value, ValueLike,
    operation::{OperationLike, OperationRef},
};

/// The view ops other than `ap` (which is a view only when taken on a view).
pub const VIEW_OPS: &[&str] = &["reshape", "slice", "permute", "broadcast"];

/// The longest chain of views a view op may end. Every view op folds its whole chain, so the
/// verifier's work grows with the square of the chain; kernels chain a handful of views.
pub const MAX_CHAIN: usize = 64;

/// Whether `op` is a NISA view op (`nisa.ap` included).
pub fn is_view_op(op: &OperationRef<'_, '_>) -> bool {
    crate::ffi::op_mnemonic_in(op.to_raw(), "nisa")
        .is_some_and(|n| n == "ap" || VIEW_OPS.contains(&n))
}

/// Why [`view_chain`] cannot read a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainError {
    /// More than [`MAX_CHAIN`] views: the error of the op that ends the chain.
    TooLong,
    /// A view op on the way, or the base, is malformed (that op reports its own error).
    Malformed(String),
}

impl From<String> for ChainError {
    fn from(message: String) -> ChainError {
        ChainError::Malformed(message)
    }
}

impl From<&str> for ChainError {
    fn from(message: &str) -> ChainError {
        ChainError::Malformed(message.to_string())
    }
}

/// Whether `op` is a `nisa.dynamic_ap`.
pub fn is_dynamic_ap(op: &OperationRef<'_, '_>) -> bool {
    crate::ffi::op_name_is(op.to_raw(), "nisa.dynamic_ap")
}

/// Whether `op` is a step of a chain of views: a view op ([`is_view_op`]) or a
/// `nisa.dynamic_ap` (a view whose offset is known at run time).
pub fn is_chain_op(op: &OperationRef<'_, '_>) -> bool {
    crate::ffi::op_mnemonic_in(op.to_raw(), "nisa")
        .is_some_and(|n| n == "ap" || n == "dynamic_ap" || VIEW_OPS.contains(&n))
}

/// The values a `nisa.dynamic_ap`'s dynamic offset is folded at (see the module doc): its
/// smallest and largest value over the iteration space when the verifier bounds it, else 0.
fn dynamic_offsets(op: &OperationRef<'_, '_>) -> Vec<i64> {
    use crate::loops::{Extremes, eval_index, extremes, grid_of};
    let grid = grid_of(op.to_raw()).ok().flatten();
    let range = op
        .operand(1)
        .ok()
        .and_then(|d| eval_index(d.to_raw()))
        .map(|e| extremes(&e, grid.as_deref()));
    match range {
        Some(Extremes::Range(lo, hi)) => [lo.value, hi.value]
            .into_iter()
            .filter_map(|v| i64::try_from(v).ok())
            .collect(),
        _ => vec![0],
    }
}

/// The chain of views producing `value`: the tile of its base (the first value no view op
/// nor `nisa.dynamic_ap` produces, e.g. an `alloc` result or an argument) and the steps from
/// it, base first. A `nisa.dynamic_ap` is its static part ([`step_of`]).
pub fn view_chain(value: Value<'_, '_>) -> Result<(Tile, Vec<ViewStep>), ChainError> {
    let (tile, chains) = view_chains(value)?;
    Ok((tile, chains.into_iter().next().unwrap_or_default()))
}

/// [`view_chain`] at each value the dynamic offsets take (see the module doc): the first
/// chain takes every dynamic access pattern at its smallest offset, the second (when one is
/// bounded) at its largest. Never empty.
fn view_chains(value: Value<'_, '_>) -> Result<(Tile, Vec<Vec<ViewStep>>), ChainError> {
    let mut steps = Vec::new();
    // Per step: the dynamic offsets to add (empty for a static view).
    let mut dynamic: Vec<Vec<i64>> = Vec::new();
    let mut cursor = value.to_raw();
    loop {
        let current = unsafe { Value::from_raw(cursor) };
        let Some(op) = defining_op(current).filter(is_chain_op) else {
            steps.reverse();
            dynamic.reverse();
            let tile = Tile::from_type(current.r#type())?;
            let variants = dynamic.iter().map(Vec::len).max().unwrap_or(0).max(1);
            let chains = (0..variants)
                .map(|k| {
                    let mut chain = steps.clone();
                    for (step, offsets) in chain.iter_mut().zip(&dynamic) {
                        if let (ViewStep::Ap { offset, .. }, Some(&d)) =
                            (step, offsets.get(k).or(offsets.last()))
                        {
                            // Past 64 bits the static step stands (the dynamic pattern's own
                            // rule reports the offset).
                            *offset = offset.checked_add(d).unwrap_or(*offset);
                        }
                    }
                    chain
                })
                .collect();
            return Ok((tile, chains));
        };
        if steps.len() >= MAX_CHAIN {
            return Err(ChainError::TooLong);
        }
        steps.push(step_of(&op)?);
        dynamic.push(if is_dynamic_ap(&op) {
            dynamic_offsets(&op)
        } else {
            Vec::new()
        });
        cursor = op
            .operand(0)
            .map_err(|_| ChainError::from("a view op without its tensor operand"))?
            .to_raw();
    }
}

fn result_tile(op: &OperationRef<'_, '_>) -> Result<Tile, String> {
    let result = op
        .result(0)
        .map_err(|_| "a view op without a result".to_string())?;
    Tile::from_type(result.r#type())
}

fn attr_array(op: &OperationRef<'_, '_>, name: &str) -> Option<Vec<i64>> {
    op.attribute(name).ok().and_then(i64_array_value)
}

/// The step one view op contributes: `nisa.ap`, `nisa.reshape`, `nisa.slice`,
/// `nisa.permute`, `nisa.broadcast`, and the static part of a `nisa.dynamic_ap` (its `offset`
/// attribute; whoever knows the dynamic offset adds it to the step's offset, as the emulator
/// driver does at run time).
pub fn step_of(op: &OperationRef<'_, '_>) -> Result<ViewStep, String> {
    let name = op_name(op.to_raw());
    let result = result_tile(op)?;
    Ok(match &*name {
        "nisa.ap" | "nisa.dynamic_ap" => {
            let flat = attr_array(op, "pattern").ok_or("an access pattern without a pattern")?;
            if flat.len() % 2 != 0 {
                return Err("an access pattern with an odd number of values".into());
            }
            let offset = op.attribute("offset").ok().and_then(int_value).unwrap_or(0);
            // The tensor, then (dynamic_ap) the dynamic offset, then any indirection.
            let fixed = if name == "nisa.dynamic_ap" { 2 } else { 1 };
            let indirect = op.operand_count() > fixed;
            let dim = op
                .attribute("indirect_dim")
                .ok()
                .and_then(int_value)
                .unwrap_or(0);
            let indirect_dim = match (indirect, usize::try_from(dim)) {
                (false, _) => None,
                (true, Ok(d)) => Some(d),
                (true, Err(_)) => return Err("a negative indirect_dim".into()),
            };
            ViewStep::Ap {
                pattern: flat.chunks(2).map(|c| (c[0], c[1])).collect(),
                offset,
                elem_bytes: result.dtype.byte_size() as i64,
                indirect_dim,
            }
        }
        "nisa.reshape" => ViewStep::Reshape {
            shape: result.shape,
        },
        "nisa.slice" => {
            let start = attr_array(op, "start").ok_or("a slice without a start")?;
            let step = attr_array(op, "step").unwrap_or_else(|| vec![1; result.shape.len()]);
            ViewStep::Slice {
                start,
                step,
                shape: result.shape,
            }
        }
        "nisa.permute" => ViewStep::Permute {
            dims: attr_array(op, "dims").ok_or("a permute without dims")?,
        },
        "nisa.broadcast" => ViewStep::Broadcast {
            shape: result.shape,
        },
        other => return Err(format!("'{other}' is not a view op")),
    })
}

/// The rule of a fold failure, as the verifier names it.
fn rule(kind: FoldErrorKind) -> &'static str {
    match kind {
        FoldErrorKind::Dtype => "(rule: view dtype)",
        FoldErrorKind::Partition => "(rule: view partition)",
        FoldErrorKind::Shape => "(rule: view shape)",
        // An address past 64 bits is out of every allocation.
        FoldErrorKind::Bounds | FoldErrorKind::Overflow => "(rule: view bounds)",
        FoldErrorKind::Pattern => "(rule: view pattern)",
        FoldErrorKind::NotFoldable => "(rule: view folds)",
        FoldErrorKind::TooManyPairs => "(rule: view pairs)",
        FoldErrorKind::Indirect => "(rule: view indirect)",
    }
}

/// The message of a fold failure at the op that reports it.
pub fn fold_message(e: &FoldError) -> String {
    format!("{} {}", e.message, rule(e.kind))
}

/// `nisa.reshape`, `nisa.slice`, `nisa.permute`, `nisa.broadcast`.
pub fn check(v: &mut OpView<'_, '_, '_>) {
    let Some(input) = v.tile("tensor") else {
        return;
    };
    let Ok(result) = v.op.result(0) else { return };
    let res = match Tile::from_type(result.r#type()) {
        Ok(t) => t,
        Err(msg) => {
            v.error(format!("result: {msg}"));
            return;
        }
    };
    if res.space != input.space {
        v.error(format!(
            "result memory space \"{}\" must be the tensor's (\"{}\") (rule: view space)",
            res.space, input.space
        ));
        return;
    }
    if res.dtype != input.dtype {
        v.error(format!(
            "result dtype {} must be the tensor's ({}); only nisa.ap on an allocation reinterprets (rule: view dtype)",
            res.dtype.mlir_name(),
            input.dtype.mlir_name()
        ));
        return;
    }
    // The other views state their result shape in the result type; a permute's follows from
    // dims (a malformed dims is the fold's error).
    if v.spec.name == "permute"
        && let Some(dims) = v.i64_array("dims")
        && let Some(want) = dims
            .iter()
            .map(|&d| {
                usize::try_from(d)
                    .ok()
                    .and_then(|d| input.shape.get(d).copied())
            })
            .collect::<Option<Vec<i64>>>()
        && dims.len() == input.shape.len()
        && want != res.shape
    {
        let mut sorted = dims.clone();
        sorted.sort_unstable();
        if sorted.windows(2).all(|w| w[0] != w[1]) {
            v.error(format!(
                "result shape {} must be the tensor's dimensions in the order of dims ({}) (rule: view shape)",
                res.shape_str(),
                want.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
            ));
            return;
        }
    }
    fold_at(v);
}

/// Folds the chain the op (a view op, or an `ap` on a view) ends and reports a failure at its
/// own step.
pub fn fold_at(v: &mut OpView<'_, '_, '_>) {
    let Ok(result) = v.op.result(0) else { return };
    let (base, chains) = match view_chains(Value::from(result)) {
        Ok(found) => found,
        // Too long a chain is this op's error; a malformed op on the way reports its own.
        Err(ChainError::TooLong) => {
            v.error(format!(
                "this view ends a chain of more than {MAX_CHAIN} views (each view folds its whole chain); copy the data, or take one access pattern, instead (rule: view chain)"
            ));
            return;
        }
        Err(ChainError::Malformed(_)) => return,
    };
    let base = Base {
        shape: base.shape.clone(),
        elem_bytes: base.dtype.byte_size() as i64,
        on_chip: base.space != crate::enums::Space::Hbm,
    };
    let dynamic_base = defining_op(Value::from(result))
        .map(|op| first_op_is_dynamic(&op))
        .unwrap_or(false);
    for chain in &chains {
        if let Err(e) = fold(&base, chain) {
            // A failure at an earlier view op is that op's error. The static access pattern on
            // the allocation is checked by the `ap` rule with the same arithmetic; should the
            // two ever disagree, the failure is reported here rather than lost. (A dynamic one
            // checks its own bounds over the iteration space, or leaves them to the run.)
            let first_ap =
                e.step == 0 && !dynamic_base && matches!(chain.first(), Some(ViewStep::Ap { .. }));
            if e.step + 1 == chain.len() || first_ap {
                v.error(fold_message(&e));
            }
            return;
        }
    }
}

/// Whether the chain `op` ends starts with a `nisa.dynamic_ap` on its base.
fn first_op_is_dynamic(op: &OperationRef<'_, '_>) -> bool {
    let mut cursor = op.to_raw();
    for _ in 0..=MAX_CHAIN {
        let current = unsafe { OperationRef::from_raw(cursor) };
        let Some(next) = current
            .operand(0)
            .ok()
            .and_then(defining_op)
            .filter(is_chain_op)
        else {
            return is_dynamic_ap(&current);
        };
        cursor = next.to_raw();
    }
    false
}
