//! `sundial-lower-generic-indirect` (the seed's LowerGenericIndirect, pass-rules §7.2; step 7 of
//! `sundial-middle-end`): every `generic_indirect_load` / `generic_indirect_save` left by
//! `sundial-generic-load-to-gather` becomes a concrete indirect DMA on the DMA engine's own
//! descriptor (`dma_copy_indirect` 0xBB, `dge_mode = "none"`).
//!
//! The seed expands the generic op into offset arithmetic: per indirect dimension `idx x
//! stride` into an offset tile, the DRAM base address, the element size, 64-bit address adds
//! (`tensor_scalar_addr`), a zeroed tile offset, then the DMA through a scratch tile. In NISA
//! the offsets are an access pattern: an indirect `nisa.ap` carries the stride of its indirect
//! dimension (`offset = idx x step`) and the element size is its dtype's, while absolute
//! addresses are codegen's (descriptors) [ours]. So the lowering is that access pattern, the
//! row-major pattern of the table with its indirect dimension indexed, plus the DMA; codegen
//! picks INDIRECT16B / 20B / MXINDIRECT16B [seed].
//!
//! Its preconditions [wiki] are refusals here, each naming the rule: a DRAM (HBM) table; one
//! indirect dimension, dimension 0 (the address pattern is [rows, row elements] with the rows
//! on partitions); an index tile of one element per partition, at most 4096 of them (the DMA
//! engine's form, index in partition 0); 32-bit indices (int32 or uint32 [ours: both, as the
//! docs use both]; a uint16 index is widened exactly by a Vector copy); no DGE (the ladder
//! chose none); no accumulating save (CoreV2's IndirectSaveAccumulate is not in the dialect;
//! on cayman and later the ladder selects `dma_compute` instead). `oob_mode` and
//! `unique_indices` carry over: `oob_mode = "error"` stays an erroring DMA. Options: none.

use crate::{
    emit::{Emit, tile},
    registry::{PassInfo, PassOptions},
    rewrite::{Rewriter, collect_views, refuse},
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
    enums::{Engine, Space},
    tile::Tile,
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-lower-generic-indirect",
    summary: "Lower generic_indirect_load/save to an indirect access pattern and dma_copy_indirect",
    description: "generic_indirect_load/save (dge none) -> nisa.ap with vector_offset over the table's row-major pattern + dma_copy_indirect (DMA engine descriptor, dge none); refuses what the DMA engine's indirect form cannot do (SBUF table, indirect dim other than 0, index not one per partition, more than 4096 indices, 64-bit indices, DGE, accumulate).",
    options: &[VERIFY_AFTER],
    create: crate::step::create::<Lower>,
};

/// Most indices one DMA-engine indirect copy takes [wiki].
pub const MAX_DMA_INDICES: i64 = 4096;

/// The row-major `[step, num]` pattern of a tensor of `shape`, with dimension `dim` taking
/// `n` (indexed) elements: what an indirect view of `shape` along `dim` is.
pub fn row_major_pattern(shape: &[i64], dim: usize, n: i64) -> Vec<i64> {
    let mut pattern = Vec::with_capacity(shape.len() * 2);
    for k in 0..shape.len() {
        pattern.push(shape[k + 1..].iter().product());
        pattern.push(if k == dim { n } else { shape[k] });
    }
    pattern
}

/// The indirect view of `table` along `dim` through `index`, shaped `gathered`.
pub fn indexed_view<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    table: Value<'c, 'a>,
    index: Value<'c, 'a>,
    dim: usize,
    gathered: &Tile,
) -> Result<Value<'c, 'a>, BuildError> {
    let t = Tile::from_type(table.r#type()).map_err(BuildError::Mlir)?;
    let n = gathered.shape[dim];
    let pattern = row_major_pattern(&t.shape, dim, n);
    let result = tile(t.space, &gathered.shape, t.dtype);
    e.indirect_view(table, index, &pattern, dim as i64, &result)
}

/// Copies the attributes named `names` that `v` carries onto `b`.
pub fn carry<'c, 'a>(
    v: &View<'c, 'a>,
    mut b: OpBuild<'c, 'a>,
    names: &[&str],
) -> Result<OpBuild<'c, 'a>, BuildError> {
    for name in names {
        if let Some(a) = v.attr(name) {
            b = b.attr(name, a)?;
        }
    }
    Ok(b)
}

#[derive(Clone, Debug)]
pub(crate) struct Lower {}

/// The parts of a generic indirect op.
struct Parts<'c, 'a> {
    table: Value<'c, 'a>,
    gathered: Value<'c, 'a>,
    index: Value<'c, 'a>,
    save: bool,
}

fn parts<'c, 'a>(v: &View<'c, 'a>) -> Option<Parts<'c, 'a>> {
    let save = v.mnemonic() == "generic_indirect_save";
    let (table, gathered) = if save { ("dst", "src") } else { ("src", "dst") };
    Some(Parts {
        table: v.value(table)?,
        gathered: v.value(gathered)?,
        index: v.value("indices")?,
        save,
    })
}

/// The refusal for `v`, if the DMA engine's indirect form cannot do it.
fn check(v: &View<'_, '_>) -> Option<String> {
    let p = parts(v)?;
    let table = Tile::from_type(p.table.r#type()).ok()?;
    let index = Tile::from_type(p.index.r#type()).ok()?;
    let mode = v.str_attr("dge_mode").unwrap_or_default();
    if mode == "swdge" || mode == "hwdge" {
        return Some(format!(
            "dge_mode \"{mode}\": the DMA engine's own indirect descriptor takes no DGE (sundial-generic-load-to-gather selects the swdge form where it applies) (rule: indirect dma dge)"
        ));
    }
    if p.save && v.bool_attr("accumulate") {
        return Some("attribute 'accumulate': an accumulating scatter has no DMA-engine form here (CoreV2's IndirectSaveAccumulate is not in the dialect; on cayman and later sundial-generic-load-to-gather selects dma_compute) (rule: indirect save accumulate)".into());
    }
    let role = if p.save { "dst" } else { "src" };
    if table.space != Space::Hbm {
        return Some(format!(
            "operand '{role}': the DMA engine's indirect descriptor indexes a DRAM (hbm) tensor, not {} (an SBUF table is gathered by nisa.gather) (rule: indirect dma table)",
            table.space
        ));
    }
    let dim = v.int_attr("indirect_dim").unwrap_or(0);
    if dim != 0 {
        return Some(format!(
            "attribute 'indirect_dim': {dim}; the DMA engine's indirect descriptor gathers rows (dimension 0): its address pattern is [rows, row elements] (rule: indirect dim 0)"
        ));
    }
    if index.free_size() != Some(1) {
        return Some(format!(
            "operand 'indices' ({}) must hold one index per partition (rule: index one per partition)",
            index.shape_str()
        ));
    }
    let n = index.partitions();
    if n > MAX_DMA_INDICES {
        return Some(format!(
            "operand 'indices' has {n} indices; one DMA-engine indirect copy takes at most {MAX_DMA_INDICES} (rule: indices per dma)"
        ));
    }
    if matches!(index.dtype, Dtype::I64 | Dtype::U64) {
        return Some(format!(
            "operand 'indices': {} indices; the DMA engine's indirect descriptor takes 32-bit ones (rule: index dtype)",
            index.dtype.mlir_name()
        ));
    }
    None
}

fn apply<'c, 'a>(rewriter: &Rewriter<'c>, v: &View<'c, 'a>) -> Result<(), BuildError> {
    let e = Emit {
        rewriter,
        anchor: v.op(),
    };
    let p = parts(v).ok_or_else(|| BuildError::Mlir("operand missing".into()))?;
    let gathered = Tile::from_type(p.gathered.r#type()).map_err(BuildError::Mlir)?;
    let mut index = p.index;
    let it = Tile::from_type(index.r#type()).map_err(BuildError::Mlir)?;
    if it.dtype == Dtype::U16 {
        // uint16 to int32 is exact (Vector's copy goes through fp32, which holds 16 bits).
        let wide = e.alloc(&tile(Space::Sbuf, &it.shape, Dtype::I32))?;
        e.copy(wide, index, Engine::Vector)?;
        index = wide;
    }
    let view = indexed_view(&e, p.table, index, 0, &gathered)?;
    let (dst, src) = if p.save {
        (view, p.gathered)
    } else {
        (p.gathered, view)
    };
    let mut b = OpBuild::at(&v.op(), "nisa.dma_copy_indirect")?
        .operand("dst", dst)?
        .operand("src", src)?
        .str("dge_mode", "none")?
        .str("engine", Engine::Dma.as_str())?;
    b = carry(v, b, &["oob_mode", "unique_indices"])?;
    rewriter.build_before(v.op(), b)?;
    rewriter.erase(v.op());
    Ok(())
}

impl crate::step::Step for Lower {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialLowerGenericIndirect";
    const ID: &'static PassId = &PASS_ID;

    fn new(_options: &PassOptions) -> Self {
        Lower {}
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let views: Vec<View> = collect_views(&operation, |spec| {
                matches!(spec.name, "generic_indirect_load" | "generic_indirect_save")
            });
            let mut failed = false;
            for v in &views {
                if let Some(message) = check(v) {
                    refuse(&v.op(), message);
                    failed = true;
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            let rewriter = Rewriter::new(&operation);
            for v in &views {
                if let Err(e) = apply(&rewriter, v) {
                    refuse(&v.op(), format!("could not be lowered: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            true
        })
    }
}
