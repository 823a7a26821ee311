//! `sundial-resolve-dge`: every DMA's `dge_mode = "unknown"` becomes swdge, hwdge or none
//! (neuronx-cc's `can_use_dge`, whose body is not recovered; the rules are pass-rules §8; step
//! 8 of `sundial-middle-end`).
//!
//! | op | legal | unknown becomes |
//! |---|---|---|
//! | any, on sunda (CoreV2, no DGE) | none | none |
//! | `dma_copy_indirect` with a `vector_offset` (gather/scatter) | swdge, none (the DMA engine's own descriptor) | swdge |
//! | `dma_copy`, `dma_copy_indirect` with a register `scalar_offset` | any | the default rule |
//! | `dma_transpose` (static) | none, hwdge | hwdge if eligible, else none |
//! | `dma_gather_transpose` (indirect) | swdge | swdge |
//!
//! The default rule [docs: the official hwdge conditions; ours: the rest]: hwdge when the target
//! is cayman or newer, the copy accesses at least `dge-par-min-size` partitions, src and dst
//! have one dtype (hwdge does not cast), no side is in PSUM, and (with
//! `enable-dge-on-io-dma=false`) no side is a kernel argument; else none. Never swdge for a
//! static copy (it costs GpSimd time and SBUF). "Accessed partitions" is the partition count of
//! the on-chip side (the larger, when both are); an HBM-to-HBM copy counts dst's dimension 0
//! [ours].
//!
//! hwdge transpose eligibility [docs]: a 2-byte dtype (the table also admits 4-byte ones for
//! the other modes, so an unknown 4-byte transpose becomes none), the last dimension at most
//! 128, and the first dimension 16 (2-D) or one of 1, 2, 4, 8, 16 with first x second-to-last
//! a multiple of 16 (3-D, 4-D). The swdge indirect transpose [docs]: a 2-byte HBM source, the
//! last dimension at most 128, the first a multiple of 16; uint32 2-D SBUF indices with a
//! multiple of 16 rows in [16, 128].
//!
//! Refusals: an explicit mode the op cannot use (named with the reason), any DGE on sunda (the
//! docs allow a direct swdge there, but Sundial has no sunda DGE encoder [ours]), and an
//! unknown mode with no target to decide it. Generic loads and stores (`generic_indirect_*`)
//! are left to `sundial-lower-generic-indirect`, which runs before and gives them none.
//!
//! Trigger engines [docs]: hwdge is triggered from the Sync or Scalar engine (v3/v4), and
//! `engine=` on a DMA is accepted only with hwdge. `dma_copy`, `dma_copy_indirect` and
//! `dma_transpose` may name `engine = "sync"` or `"scalar"` (the verifier refuses it with an
//! explicit swdge or none, and before cayman); an unknown mode under such an engine resolves
//! to hwdge or is refused with the reason hwdge cannot serve the copy (the default rule's
//! partition threshold does not apply: the kernel asked for the hardware DGE). A DMA left on
//! engine `dma` has its trigger left to the back end (`sundial-isel` has no Sync/Scalar DMA
//! queue and refuses a DMA that names one).

use crate::{
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{ap_of, collect_views, is_kernel_argument, refuse, set_str},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{ir::operation::OperationRef, pass::ExternalPass};
use sundial_dialects::{
    dtype::Dtype,
    enums::{DgeMode, Space, Target},
    tile::Tile,
    verify::target_of,
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-resolve-dge",
    summary: "Resolve every DMA's dge_mode \"unknown\" to swdge, hwdge or none",
    description: "vector_offset indirect DMA -> swdge (cayman+); static dma_transpose -> hwdge if eligible else none; dma_gather_transpose -> swdge; other DMAs -> hwdge when the target is cayman+, enough partitions are accessed, dtypes match and no side is in PSUM, else none; sunda -> none. Refuses explicit modes the op cannot use.",
    options: &[
        PassOption {
            name: "target",
            kind: OptionKind::Enum(&Target::NAMES),
            default: "",
            help: "Target (default: the module's sundial.target)",
        },
        PassOption {
            name: "dge-par-min-size",
            kind: OptionKind::Uint,
            default: "128",
            help: "Fewest accessed partitions for the default rule to pick hwdge",
        },
        PassOption {
            name: "enable-dge-on-io-dma",
            kind: OptionKind::Bool,
            default: "true",
            help: "Let DMAs touching kernel arguments use DGE",
        },
        VERIFY_AFTER,
    ],
    create: crate::step::create::<ResolveDge>,
};

/// The DMA ops that carry `dge_mode` and this pass resolves.
const DMA_OPS: &[&str] = &[
    "dma_copy",
    "dma_copy_indirect",
    "dma_transpose",
    "dma_gather_transpose",
];

#[derive(Clone, Debug)]
pub(crate) struct ResolveDge {
    target: Option<Target>,
    par_min: i64,
    io_dge: bool,
}

/// What kind of indirection a DMA operand has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Indirect {
    None,
    Vector,
    Scalar,
}

fn indirection(v: &View<'_, '_>) -> Indirect {
    let mut kind = Indirect::None;
    for group in ["src", "dst"] {
        if let Some(ap) = v.value(group).and_then(ap_of) {
            if ap.value("vector_offset").is_some() {
                return Indirect::Vector;
            }
            if ap.value("scalar_offset").is_some() {
                kind = Indirect::Scalar;
            }
        }
    }
    kind
}

/// Why hwdge cannot serve this copy, if it cannot.
fn hwdge_obstacle(v: &View<'_, '_>, target: Target) -> Option<String> {
    if target < Target::Cayman {
        return Some(format!(
            "hwdge needs cayman (NeuronCore v3) or newer, the target is {target}"
        ));
    }
    if indirection(v) == Indirect::Vector {
        return Some("hwdge cannot gather or scatter (a vector_offset access pattern needs swdge, or none for the DMA engine's own descriptor)".into());
    }
    let (Some(s), Some(d)) = (v.tile("src"), v.tile("dst")) else {
        return None;
    };
    if s.dtype != d.dtype {
        return Some(format!(
            "hwdge does not cast ({} to {})",
            s.dtype.mlir_name(),
            d.dtype.mlir_name()
        ));
    }
    if s.space == Space::Psum || d.space == Space::Psum {
        return Some("hwdge cannot access PSUM".into());
    }
    if v.mnemonic() == "dma_transpose" {
        return transpose_obstacle(&s);
    }
    None
}

/// The hwdge transpose rule [docs], on the source: a 2-byte dtype and the shape rule.
fn transpose_obstacle(s: &Tile) -> Option<String> {
    if s.dtype.byte_size() != 2 {
        return Some(format!(
            "the hwdge transpose moves 2-byte elements, the source is {}",
            s.dtype.mlir_name()
        ));
    }
    let shape = &s.shape;
    let last = *shape.last()?;
    if last > 128 {
        return Some(format!(
            "the hwdge transpose needs the last dimension at most 128, got {last}"
        ));
    }
    let first = shape[0];
    let ok = match shape.len() {
        2 => first == 16,
        3 | 4 => [1, 2, 4, 8, 16].contains(&first) && (first * shape[shape.len() - 2]) % 16 == 0,
        _ => false,
    };
    (!ok).then(|| {
        format!(
            "the hwdge transpose needs the first dimension 16 (2-D) or 1, 2, 4, 8 or 16 with first x second-to-last a multiple of 16 (3-D, 4-D), got {}",
            s.shape_str()
        )
    })
}

/// The swdge indirect-transpose rule [docs]: source and index shapes.
fn gather_transpose_obstacle(v: &View<'_, '_>) -> Option<String> {
    let ap = v.value("src").and_then(ap_of)?;
    let tensor = ap.tile("tensor")?;
    if tensor.space != Space::Hbm {
        return Some(format!(
            "the swdge indirect transpose reads HBM, the source is in {}",
            tensor.space
        ));
    }
    let s = v.tile("src")?;
    let last = *s.shape.last()?;
    if last > 128 || s.shape[0] % 16 != 0 {
        return Some(format!(
            "the swdge indirect transpose needs the first dimension a multiple of 16 and the last at most 128, got {}",
            s.shape_str()
        ));
    }
    let index = ap.tile("vector_offset")?;
    let rows = index.partitions();
    if index.dtype != Dtype::U32
        || index.shape.len() != 2
        || index.space != Space::Sbuf
        || rows % 16 != 0
        || !(16..=128).contains(&rows)
    {
        return Some(format!(
            "the swdge indirect transpose needs 2-D uint32 SBUF indices with a multiple of 16 rows in [16, 128], got {} of {}",
            index.shape_str(),
            index.dtype.mlir_name()
        ));
    }
    None
}

/// The hwdge trigger engine `v` names (`sync` or `scalar`), if any.
fn trigger(v: &View<'_, '_>) -> Option<String> {
    v.explicit_engine()
        .map(|e| e.as_str().to_string())
        .filter(|e| {
            sundial_dialects::nisa::HWDGE_TRIGGERS
                .iter()
                .any(|t| t.as_str() == e)
        })
}

/// Partitions a copy accesses (the on-chip side's; dst's dimension 0 between HBM tensors).
fn accessed_partitions(v: &View<'_, '_>) -> i64 {
    let tiles: Vec<Tile> = ["src", "dst"].iter().filter_map(|g| v.tile(g)).collect();
    tiles
        .iter()
        .filter(|t| t.space != Space::Hbm)
        .map(Tile::partitions)
        .max()
        .or_else(|| v.tile("dst").map(|t| t.partitions()))
        .unwrap_or(0)
}

impl ResolveDge {
    /// The mode an unknown resolves to, or a refusal.
    fn resolve(&self, v: &View<'_, '_>, target: Target) -> Result<DgeMode, String> {
        if let Some(engine) = trigger(v) {
            return match hwdge_obstacle(v, target) {
                None => Ok(DgeMode::Hwdge),
                Some(why) => Err(format!(
                    "engine \"{engine}\" triggers the DMA through hwdge, but {why}"
                )),
            };
        }
        if target == Target::Sunda {
            return Ok(DgeMode::None);
        }
        match (v.mnemonic(), indirection(v)) {
            ("dma_gather_transpose", _) => match gather_transpose_obstacle(v) {
                None => Ok(DgeMode::Swdge),
                Some(why) => Err(why),
            },
            ("dma_copy_indirect", Indirect::Vector) => Ok(DgeMode::Swdge),
            _ => {
                let io = ["src", "dst"]
                    .iter()
                    .any(|g| v.value(g).is_some_and(is_kernel_argument));
                let hw = hwdge_obstacle(v, target).is_none()
                    && (v.mnemonic() == "dma_transpose" || accessed_partitions(v) >= self.par_min)
                    && (self.io_dge || !io);
                Ok(if hw { DgeMode::Hwdge } else { DgeMode::None })
            }
        }
    }

    /// Why an explicit `mode` is illegal for `v`, if it is.
    fn check_explicit(
        &self,
        v: &View<'_, '_>,
        mode: DgeMode,
        target: Option<Target>,
    ) -> Option<String> {
        if mode == DgeMode::None {
            return match v.mnemonic() {
                "dma_gather_transpose" => Some("an indirect transpose needs swdge".into()),
                _ => None,
            };
        }
        let target = target?;
        if target == Target::Sunda {
            return Some(format!(
                "{mode}: sunda (NeuronCore v2) has no DGE Sundial can encode; use none"
            ));
        }
        match mode {
            DgeMode::Hwdge => {
                if v.mnemonic() == "dma_gather_transpose" {
                    return Some("an indirect transpose needs swdge".into());
                }
                hwdge_obstacle(v, target).map(|why| format!("hwdge: {why}"))
            }
            DgeMode::Swdge => match v.mnemonic() {
                "dma_transpose" => Some("swdge: a static dma_transpose takes none or hwdge (the swdge transpose is the indirect one, dma_gather_transpose)".into()),
                "dma_gather_transpose" => gather_transpose_obstacle(v).map(|why| format!("swdge: {why}")),
                _ => None,
            },
            _ => None,
        }
    }
}

impl crate::step::Step for ResolveDge {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialResolveDge";
    const ID: &'static PassId = &PASS_ID;

    fn new(options: &PassOptions) -> Self {
        ResolveDge {
            target: options.get("target").and_then(Target::from_name),
            par_min: options
                .get("dge-par-min-size")
                .and_then(|v| v.parse().ok())
                .unwrap_or(128),
            io_dge: options.get("enable-dge-on-io-dma") != Some("false"),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let targets: Vec<View> = collect_views(&operation, |spec| DMA_OPS.contains(&spec.name));
            let mut decided = Vec::new();
            let mut failed = false;
            for v in &targets {
                let target = self.target.or_else(|| target_of(&v.op()));
                let mode = v
                    .str_attr("dge_mode")
                    .and_then(|m| DgeMode::parse(&m))
                    .unwrap_or(DgeMode::Unknown);
                if mode != DgeMode::Unknown {
                    if let Some(why) = self.check_explicit(v, mode, target) {
                        refuse(
                            &v.op(),
                            format!(
                                "dge_mode \"{mode}\" is not legal here: {why} (rule: dge mode)"
                            ),
                        );
                        failed = true;
                    }
                    continue;
                }
                let Some(target) = target else {
                    refuse(
                        &v.op(),
                        "dge_mode \"unknown\" cannot be resolved without a target (DGE differs by NeuronCore version): name one with sundial.target or the pass option target (rule: dge needs a target)",
                    );
                    failed = true;
                    continue;
                };
                match self.resolve(v, target) {
                    Ok(m) => decided.push((v.op(), m)),
                    Err(why) => {
                        refuse(
                            &v.op(),
                            format!("dge_mode: no legal DGE mode: {why} (rule: dge mode)"),
                        );
                        failed = true;
                    }
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            for (op, mode) in decided {
                set_str(&op, "dge_mode", mode.as_str());
            }
            true
        })
    }
}
