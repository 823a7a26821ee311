//! `sundial-generic-load-to-gather` (SundaISel's `can_lower_generic_load_to_gather` ladder,
//! pass-rules §7.1; step 6 of `sundial-middle-end`): every generic load becomes an instruction
//! or is handed to `sundial-lower-generic-indirect`.
//!
//! An indexed load (`generic_load` through a `nisa.ap` with a `vector_offset`, or
//! `generic_indirect_load`) takes the first step of the ladder that applies [seed, step order
//! wiki]:
//! 1. the source is on chip (SBUF) and the gather predicate holds -> `nisa.gather` (nc_n_gather,
//!    GpSimd, within one partition);
//! 2. DGE on indirect DMA is enabled and the copy is eligible -> `dma_copy_indirect` with
//!    `dge_mode = "swdge"` (HWDGE cannot gather [docs]);
//! 3. otherwise the DMA engine's own indirect descriptor: a `generic_load` becomes
//!    `dma_copy_indirect` with `dge_mode = "none"`; a `generic_indirect_load` keeps its form with
//!    `dge_mode = "none"` for `sundial-lower-generic-indirect`.
//!
//! `generic_indirect_save` takes steps 2-3; an accumulating one at step 2 is NKI's scatter
//! read-modify-write (pass-rules §7.1 [docs]): `dma_compute(view, view, rows)` with the
//! indirect HBM view as destination and first source and the rows in SBUF (cayman+, swdge,
//! exactly two sources, `unique_indices`). Rows in HBM are first staged into a new SBUF tile by
//! a `dma_copy` (same dtype: bit-exact), since neither read-modify-write mode reads its data
//! from HBM when the destination is indirect HBM; rows that do not fit one SBUF partition
//! (`[n, ...]` with more than the target's SBUF partition bytes) are refused, as is an
//! accumulating scatter with `unique_indices = false` (NKI's read-modify-write does not
//! support repeated indices). On sunda (no DGE) an accumulating scatter keeps `dge_mode =
//! "none"` for `sundial-lower-generic-indirect`, which refuses it (CoreV2's
//! IndirectSaveAccumulate is not in the dialect). A
//! `generic_load` without indexing becomes `dma_copy` (a register-offset view:
//! `dma_copy_indirect`, its DGE mode left to `sundial-resolve-dge`).
//!
//! The gather predicate [ours; it implies the docs' nc_n_gather contract]: `enable-gather`, the
//! load's `oob_mode` is `skip` (nc_n_gather reads 0 out of range: an erroring load must never
//! silently read zeros), data, index and dst in SBUF on one partition, dst `[1, n]`, a uint32
//! index of dst's shape, one dtype, and (for an access pattern) a contiguous 2-D pattern over
//! one partition row indexed along its free dimension. local_gather (`indirect_copy`, the
//! 16-partition core-group form) is not selected: no NISA load form expresses its per-core
//! index layout. The DGE predicate [docs]: cayman or newer, an HBM source (or destination, for a
//! scatter), indirect dimension 0, a `[n, 1]` 32-bit index (one row per partition), the other
//! side `n` partitions.
//!
//! Options: `target` (default the module's `sundial.target`), `enable-gather` (true),
//! `enable-dge-on-indirect-dma` (default true on cayman and mariana, false on sunda and when
//! no target is known). Refusals: an explicit `dge_mode` a generic op cannot have.

use crate::{
    emit::{Emit, tile},
    lower_generic_indirect::{carry, indexed_view},
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{Rewriter, ap_of, collect_views, refuse, set_str},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{Value, ValueLike, operation::OperationRef},
    pass::ExternalPass,
};
use sundial_dialects::{
    build::{BuildError, OpBuild},
    dtype::Dtype,
    enums::{Engine, Space, Target},
    tile::Tile,
    verify::{bir_rules::SBUF_PARTITION_BYTES, target_of},
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-generic-load-to-gather",
    summary: "Select gather, indirect DMA (swdge) or the DMA engine's indirect form for generic loads and stores",
    description: "The can_lower_generic_load_to_gather ladder: an SBUF-sourced single-partition gather with oob skip -> nisa.gather; an eligible HBM gather/scatter with DGE -> dma_copy_indirect swdge (accumulate: dma_compute); else dge none (generic_load -> dma_copy_indirect, generic_indirect_* left for sundial-lower-generic-indirect). Plain generic loads -> dma_copy.",
    options: &[
        PassOption {
            name: "target",
            kind: OptionKind::Enum(&Target::NAMES),
            default: "",
            help: "Target (default: the module's sundial.target)",
        },
        PassOption {
            name: "enable-gather",
            kind: OptionKind::Bool,
            default: "true",
            help: "Select nisa.gather for on-chip gathers",
        },
        PassOption {
            name: "enable-dge-on-indirect-dma",
            kind: OptionKind::Bool,
            default: "",
            help: "Select swdge indirect DMA (default: true on cayman and mariana)",
        },
        VERIFY_AFTER,
    ],
    create: crate::step::create::<ToGather>,
};

#[derive(Clone, Debug)]
pub(crate) struct ToGather {
    target: Option<Target>,
    gather: bool,
    dge: Option<bool>,
}

/// What one generic op becomes.
enum Choice<'c, 'a> {
    /// `dma_copy(dst, src)`.
    DmaCopy,
    /// `dma_copy_indirect(dst, src)` with this DGE mode (`None`: left unknown).
    DmaIndirect(Option<&'static str>),
    /// `gather(dst, data, index)`, data possibly a view of one partition of `tensor` at
    /// element `offset`.
    Gather {
        tensor: Value<'c, 'a>,
        partition: Option<i64>,
        index: Value<'c, 'a>,
    },
    /// The generic indirect op through a swdge `dma_copy_indirect` (or, accumulating,
    /// `dma_compute`; `stage`: its HBM rows are first copied into a new SBUF tile).
    Dge { stage: bool },
    /// Keep the generic indirect op, with `dge_mode = "none"`.
    KeepNone,
}

fn tile_of(value: Value<'_, '_>) -> Option<Tile> {
    Tile::from_type(value.r#type()).ok()
}

impl ToGather {
    fn dge_enabled(&self, target: Option<Target>) -> bool {
        let Some(target) = target else { return false };
        target >= Target::Cayman && self.dge.unwrap_or(true)
    }

    fn gather_allowed(&self, v: &View<'_, '_>) -> bool {
        self.gather && v.str_attr("oob_mode").as_deref() == Some("skip")
    }

    /// Ladder step 1 for a `generic_load` through an indirect view.
    fn gather_through_view<'c, 'a>(
        &self,
        v: &View<'c, 'a>,
        ap: &View<'c, 'a>,
    ) -> Option<Choice<'c, 'a>> {
        if !self.gather_allowed(v) {
            return None;
        }
        let (tensor, index) = (ap.value("tensor")?, ap.value("vector_offset")?);
        let (t, i, d) = (tile_of(tensor)?, tile_of(index)?, v.tile("dst")?);
        let pattern = ap.i64_array("pattern")?;
        let row = t.free_size()?;
        let offset = ap.int_attr("offset").unwrap_or(0);
        let ok = t.space == Space::Sbuf
            && d.space == Space::Sbuf
            && i.space == Space::Sbuf
            && d.shape.len() == 2
            && d.shape[0] == 1
            && pattern.len() == 4
            && pattern[1] == 1
            && pattern[2] == 1
            && ap.int_attr("indirect_dim") == Some(1)
            && row > 0
            && offset % row == 0
            && i.dtype == Dtype::U32
            && i.shape == d.shape
            && t.dtype == d.dtype;
        ok.then(|| Choice::Gather {
            tensor,
            partition: (t.partitions() != 1).then_some(offset / row),
            index,
        })
    }

    /// The DGE predicate: an HBM `table`, dimension 0, a `[n, 1]` 32-bit index, `other` with
    /// `n` partitions.
    fn dge_eligible(table: &Tile, index: &Tile, other: &Tile, dim: i64) -> bool {
        table.space == Space::Hbm
            && dim == 0
            && index.shape.len() == 2
            && index.shape[1] == 1
            && index.space == Space::Sbuf
            && matches!(index.dtype, Dtype::I32 | Dtype::U32)
            && other.partitions() == index.partitions()
    }

    fn choose<'c, 'a>(&self, v: &View<'c, 'a>) -> Result<Option<Choice<'c, 'a>>, String> {
        let target = self.target.or_else(|| target_of(&v.op()));
        match v.mnemonic() {
            "generic_load" => {
                let Some(src) = v.value("src") else {
                    return Ok(None);
                };
                let Some(ap) = ap_of(src) else {
                    return Ok(Some(Choice::DmaCopy));
                };
                if ap.value("vector_offset").is_none() {
                    return Ok(Some(if ap.value("scalar_offset").is_some() {
                        Choice::DmaIndirect(None)
                    } else {
                        Choice::DmaCopy
                    }));
                }
                if let Some(g) = self.gather_through_view(v, &ap) {
                    return Ok(Some(g));
                }
                let eligible = match (ap.tile("tensor"), ap.tile("vector_offset"), v.tile("dst")) {
                    (Some(t), Some(i), Some(d)) => {
                        Self::dge_eligible(&t, &i, &d, ap.int_attr("indirect_dim").unwrap_or(0))
                    }
                    _ => false,
                };
                Ok(Some(Choice::DmaIndirect(Some(
                    if eligible && self.dge_enabled(target) {
                        "swdge"
                    } else {
                        "none"
                    },
                ))))
            }
            "generic_indirect_load" | "generic_indirect_save" => {
                let save = v.mnemonic() == "generic_indirect_save";
                let mode = v.str_attr("dge_mode").unwrap_or_default();
                if mode == "hwdge" {
                    return Err("dge_mode \"hwdge\": HWDGE cannot gather or scatter (rule: dge on indirect dma)".into());
                }
                let (table, other) = if save { ("dst", "src") } else { ("src", "dst") };
                let (Some(t), Some(o), Some(i)) = (v.tile(table), v.tile(other), v.tile("indices"))
                else {
                    return Ok(None);
                };
                let dim = v.int_attr("indirect_dim").unwrap_or(0);
                if !save
                    && mode != "swdge"
                    && self.gather_allowed(v)
                    && t.space == Space::Sbuf
                    && o.space == Space::Sbuf
                    && t.shape.len() == 2
                    && o.shape.len() == 2
                    && t.partitions() == 1
                    && o.partitions() == 1
                    && dim == 1
                    && i.dtype == Dtype::U32
                    && i.shape == o.shape
                {
                    return Ok(Some(Choice::Gather {
                        tensor: v.value(table).ok_or("operand missing")?,
                        partition: None,
                        index: v.value("indices").ok_or("operand missing")?,
                    }));
                }
                // An accumulating scatter is dma_compute's scatter read-modify-write: the rows
                // come from SBUF (HBM rows are staged there first; PSUM cannot be read by DMA).
                let accumulate = save && v.bool_attr("accumulate");
                let stage = accumulate && o.space == Space::Hbm;
                let rows_ok = !accumulate || matches!(o.space, Space::Sbuf | Space::Hbm);
                let eligible = Self::dge_eligible(&t, &i, &o, dim) && rows_ok;
                if mode == "swdge" && !(eligible && self.dge_enabled(target)) {
                    return Err("dge_mode \"swdge\": this indirect copy is not eligible for DGE (cayman or newer, an HBM table indexed along dimension 0 by a [n, 1] 32-bit SBUF index, with DGE on indirect DMA enabled) (rule: dge on indirect dma)".into());
                }
                if mode == "none" || !eligible || !self.dge_enabled(target) {
                    return Ok(Some(Choice::KeepNone));
                }
                if accumulate && !v.bool_attr("unique_indices") {
                    return Err("attribute 'unique_indices': an accumulating scatter is dma_compute's scatter read-modify-write, which needs unique_indices = true (NKI: non-unique indices are not supported) (rule: dma_compute read-modify-write)".into());
                }
                if stage {
                    let limit = SBUF_PARTITION_BYTES[target.map_or(0, |t| t as usize)];
                    let fits = o.partitions() <= 128 && o.free_bytes().is_some_and(|b| b <= limit);
                    if !fits {
                        return Err(format!(
                            "operand 'src': an accumulating scatter from HBM rows {} stages them in SBUF for dma_compute's scatter read-modify-write (dst(HBM)[indices] += src(SBUF)), and they do not fit (at most 128 partitions of {limit} bytes) (rule: dma_compute read-modify-write)",
                            o.shape_str()
                        ));
                    }
                }
                Ok(Some(Choice::Dge { stage }))
            }
            _ => Ok(None),
        }
    }
}

fn apply<'c, 'a>(
    rewriter: &Rewriter<'c>,
    v: &View<'c, 'a>,
    choice: Choice<'c, 'a>,
) -> Result<(), BuildError> {
    let e = Emit {
        rewriter,
        anchor: v.op(),
    };
    let missing = || BuildError::Mlir("operand missing".into());
    let at = |name| OpBuild::at(&v.op(), name);
    match choice {
        Choice::KeepNone => {
            set_str(&v.op(), "dge_mode", "none");
            return Ok(());
        }
        Choice::DmaCopy | Choice::DmaIndirect(_) => {
            let name = if matches!(choice, Choice::DmaCopy) {
                "nisa.dma_copy"
            } else {
                "nisa.dma_copy_indirect"
            };
            let mut b = at(name)?
                .operand("dst", v.value("dst").ok_or_else(missing)?)?
                .operand("src", v.value("src").ok_or_else(missing)?)?
                .str("engine", Engine::Dma.as_str())?;
            if let Choice::DmaIndirect(Some(mode)) = choice {
                b = b.str("dge_mode", mode)?;
            }
            rewriter.build_before(v.op(), carry(v, b, &["oob_mode"])?)?;
        }
        Choice::Gather {
            tensor,
            partition,
            index,
        } => {
            let data = match partition {
                None => tensor,
                Some(p) => {
                    let t = tile_of(tensor).ok_or_else(missing)?;
                    let row = t.free_size().ok_or_else(missing)?;
                    e.view(
                        tensor,
                        &[row, 1, 1, row],
                        p * row,
                        &tile(t.space, &[1, row], t.dtype),
                    )?
                }
            };
            rewriter.build_before(
                v.op(),
                at("nisa.gather")?
                    .operand("dst", v.value("dst").ok_or_else(missing)?)?
                    .operand("data", data)?
                    .operand("indices", index)?
                    .str("engine", Engine::Gpsimd.as_str())?,
            )?;
        }
        Choice::Dge { stage } => {
            let save = v.mnemonic() == "generic_indirect_save";
            let (table, other) = if save { ("dst", "src") } else { ("src", "dst") };
            let (table, other) = (
                v.value(table).ok_or_else(missing)?,
                v.value(other).ok_or_else(missing)?,
            );
            let gathered = tile_of(other).ok_or_else(missing)?;
            let view = indexed_view(
                &e,
                table,
                v.value("indices").ok_or_else(missing)?,
                0,
                &gathered,
            )?;
            let b = if save && v.bool_attr("accumulate") {
                // Scatter read-modify-write: dst(HBM)[idx] = dst(HBM)[idx] + rows(SBUF), the
                // destination read back through the same view.
                let rows = if stage {
                    let staged = e.alloc(&tile(Space::Sbuf, &gathered.shape, gathered.dtype))?;
                    rewriter.build_before(
                        v.op(),
                        at("nisa.dma_copy")?
                            .operand("dst", staged)?
                            .operand("src", other)?
                            .str("engine", Engine::Dma.as_str())?,
                    )?;
                    staged
                } else {
                    other
                };
                let b = at("nisa.dma_compute")?
                    .operand("dst", view)?
                    .operand("src0", view)?
                    .operands("srcs", &[rows])?
                    .str("engine", Engine::Dma.as_str())?;
                carry(v, b, &["oob_mode", "unique_indices"])?
            } else {
                let (dst, src) = if save { (view, other) } else { (other, view) };
                let b = at("nisa.dma_copy_indirect")?
                    .operand("dst", dst)?
                    .operand("src", src)?
                    .str("dge_mode", "swdge")?
                    .str("engine", Engine::Dma.as_str())?;
                carry(v, b, &["oob_mode", "unique_indices"])?
            };
            rewriter.build_before(v.op(), b)?;
        }
    }
    rewriter.erase(v.op());
    Ok(())
}

impl crate::step::Step for ToGather {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialGenericLoadToGather";
    const ID: &'static PassId = &PASS_ID;

    fn new(options: &PassOptions) -> Self {
        ToGather {
            target: options.get("target").and_then(Target::from_name),
            gather: options.get("enable-gather") != Some("false"),
            dge: options
                .get("enable-dge-on-indirect-dma")
                .map(|v| v == "true"),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let views: Vec<View> = collect_views(&operation, |spec| {
                matches!(
                    spec.name,
                    "generic_load" | "generic_indirect_load" | "generic_indirect_save"
                )
            });
            let mut choices = Vec::new();
            let mut failed = false;
            for v in views {
                match self.choose(&v) {
                    Ok(Some(c)) => choices.push((v, c)),
                    Ok(None) => {}
                    Err(message) => {
                        refuse(&v.op(), message);
                        failed = true;
                    }
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            let rewriter = Rewriter::new(&operation);
            for (v, c) in choices {
                if let Err(e) = apply(&rewriter, &v, c) {
                    refuse(&v.op(), format!("could not be selected: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            crate::rewrite::erase_dead_views(&operation);
            true
        })
    }
}
