//! Phase checks: NISA rules that hold only from a point of the middle end on (IREE's
//! "illegal for this phase of lowering" checks).
//!
//! - [`Phase::Logical`] (what parsing and `sundial-verify` check by default): tiles are
//!   logical, an SBUF/PSUM tile may have more than 128 partitions; nothing extra.
//! - [`Phase::Tiled`] (after partition tiling and the partition-reduce legalization): every
//!   SBUF/PSUM operand and result of a NISA op has at most 128 partitions.
//! - [`Phase::Selection`] (the end of `sundial-middle-end`, what instruction selection takes):
//!   tiled, and every op that takes an engine or a DGE mode carries it explicitly with a
//!   concrete value, no generic op (`generic_*`, `tensor_partition_reduce`) remains, and no
//!   composite form does (`pow` / `mod` in `tensor_scalar_arith`, `pow` in
//!   `tensor_tensor_arith`: the decompositions of `sundial-decompose`, pass-rules §3), except a
//!   `mod` that `sundial-decompose` marked [`EXPANDED_ATTR`] as step (1) of its floored form.

use super::OpView;
use crate::tile::InlineTile;
use melior::ir::{ValueLike, operation::OperationLike};

/// Discardable attribute `sundial-decompose` puts on the hardware `mod` step of its floored
/// modulo (pass-rules §3): the one `mod` the selection phase accepts.
pub const EXPANDED_ATTR: &str = "sundial.expanded";

/// NISA ops that are not instructions: the passes of the middle end consume them.
pub const GENERIC_OPS: &[(&str, &str)] = &[
    ("generic_load", "sundial-generic-load-to-gather"),
    ("generic_indirect_load", "sundial-lower-generic-indirect"),
    ("generic_indirect_save", "sundial-lower-generic-indirect"),
    (
        "tensor_partition_reduce",
        "sundial-legalize-partition-reduce",
    ),
];

/// A point of the middle end, ordered: each phase includes the checks of the ones before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Logical tiles (the default).
    #[default]
    Logical,
    /// At most 128 partitions per SBUF/PSUM tile.
    Tiled,
    /// Ready for instruction selection.
    Selection,
}

impl Phase {
    /// The spellings, in order (the `phase` option of `sundial-verify`).
    pub const NAMES: [&'static str; 3] = ["logical", "tiled", "selection"];

    /// Parses a spelling.
    pub fn parse(text: &str) -> Option<Phase> {
        match text {
            "logical" => Some(Phase::Logical),
            "tiled" => Some(Phase::Tiled),
            "selection" => Some(Phase::Selection),
            _ => None,
        }
    }

    /// The spelling.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Runs the checks of the phases after `since` up to `phase` on `v` (a NISA op whose table
/// and op rules passed): `since = None` runs all of `phase`'s; `Some(p)` skips those `p`
/// already ran on the same IR.
pub(super) fn check(v: &mut OpView<'_, '_, '_>, since: Option<Phase>, phase: Phase) {
    let new = |p: Phase| phase >= p && since.is_none_or(|s| s < p);
    if new(Phase::Tiled) {
        partitions(v);
    }
    if new(Phase::Selection) {
        selection(v);
    }
}

fn partitions(v: &mut OpView<'_, '_, '_>) {
    for operand in v.spec.operands {
        for tile in v.tiles(operand.name) {
            if let Err(msg) = tile.check_partitions() {
                v.error(format!("operand '{}': {msg}", operand.name));
                return;
            }
        }
    }
    for index in 0..v.op.result_count() {
        if let Ok(result) = v.op.result(index)
            && let Ok(tile) = InlineTile::of_type(result.r#type())
            && let Err(msg) = tile.check_partitions()
        {
            v.error(format!("result: {msg}"));
            return;
        }
    }
}

fn selection(v: &mut OpView<'_, '_, '_>) {
    let name = v.spec.name;
    if let Some((_, pass)) = GENERIC_OPS.iter().find(|(op, _)| *op == name) {
        v.error(format!(
            "is a generic op that instruction selection does not take; {pass} lowers it (rule: no generic ops at selection)"
        ));
        return;
    }
    if !v.spec.engines.is_empty() {
        match v.str_attr("engine").filter(|_| v.attr("engine").is_some()) {
            None => v.error("has no 'engine' attribute; instruction selection needs a concrete engine (sundial-resolve-engine sets it) (rule: engine resolved)"),
            Some(e) if e == "unknown" => v.error("engine is \"unknown\"; instruction selection needs a concrete engine (sundial-resolve-engine sets it) (rule: engine resolved)"),
            Some(_) => {}
        }
    }
    if v.spec.attr("dge_mode").is_some() {
        match v.attr("dge_mode").and_then(|_| v.str_attr("dge_mode")) {
            None => v.error("has no 'dge_mode' attribute; instruction selection needs swdge, hwdge or none (sundial-resolve-dge sets it) (rule: dge resolved)"),
            Some(m) if m == "unknown" => v.error("dge_mode is \"unknown\"; instruction selection needs swdge, hwdge or none (sundial-resolve-dge sets it) (rule: dge resolved)"),
            Some(m) => {
                // verify-dge-resolved [ours]: a named trigger engine only with hwdge (hwdge
                // is triggered from Sync or Scalar [docs]; engine dma leaves the trigger to
                // the back end).
                let engine = v.str_attr("engine").unwrap_or_default();
                let trigger = crate::nisa::HWDGE_TRIGGERS
                    .iter()
                    .any(|e| e.as_str() == engine);
                if trigger && m != "hwdge" {
                    v.error(format!("engine \"{engine}\" triggers a hardware-DGE DMA, but dge_mode is \"{m}\" (rule: dge resolved)"));
                }
            }
        }
    }
    let composite = |op: Option<String>| op.filter(|o| o == "pow" || o == "mod");
    match name {
        "tensor_scalar_arith" => {
            let expanded = v.attr(EXPANDED_ATTR).is_some();
            for key in ["op0", "op1"] {
                match composite(v.str_attr(key)) {
                    Some(op) if op == "mod" && expanded => {}
                    Some(op) => {
                        v.error(format!(
                            "attribute '{key}': \"{op}\" is a composite form with no tensor_scalar instruction; sundial-decompose rewrites it (rule: no composite ops at selection)"
                        ));
                        return;
                    }
                    None => {}
                }
            }
        }
        "tensor_tensor_arith" if v.str_attr("op").as_deref() == Some("pow") => {
            v.error("attribute 'op': \"pow\" is tensor_tensor_power's form; sundial-decompose rewrites it (rule: no composite ops at selection)");
        }
        _ => {}
    }
}
