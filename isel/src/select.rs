//! `sundial-isel`: instruction selection, NISA -> BIR.
//!
//! Every NISA instruction op of a kernel becomes one BIR op that carries what the encoders
//! need and nothing symbolic: the opcode sequence, the concrete engine, physical access
//! patterns ([`crate::phys`]) and immediates. Which opcodes and which engine is never decided
//! here: the query built from the op (its engine, operand dtypes, ALU op, PSUM use, partition
//! and index counts) goes to codegen's ISA table (`sundial_codegen::isa::select`), whose
//! answer must also be *pinned* on the module's target (every opcode has a field table whose
//! format family the target has, `Selection::require_pinned`).
//!
//! An op fails with a diagnostic at its location, naming the op and why, and never falls back
//! to something else:
//! - the ISA table's refusal: the missing fact of an unpinned row or case, the target rule of
//!   an op a target lacks, an illegal engine or dtype;
//! - an operand this selector cannot place (an indirect view where the instruction takes a
//!   static pattern, a pattern needing more free dimensions than the slot has);
//! - a selectable op whose BIR form this selector does not build yet ([`RULES`] lists the
//!   ones it does), which says so.
//!
//! Selected NISA ops are replaced by their BIR op (at the same location); once every op of a
//! function is selected, the `nisa.alloc` and view ops (`nisa.ap`, `nisa.reshape`,
//! `nisa.slice`, `nisa.permute`, `nisa.broadcast`, `nisa.dynamic_ap`) left without users are
//! erased, so a selected kernel holds BIR ops only. A view is no instruction: its operand's
//! chain is folded into the physical pattern of the instruction using it ([`crate::phys`]). Loops must be unrolled before (`sundial-unroll`): a
//! region holding NISA ops is refused.

use crate::ir::{each_function, op_name};
use crate::phys::{Phys, resolve, resolve_reduced};
use melior::{
    ContextRef,
    ir::{
        Operation, RegionLike, Value, ValueLike,
        block::BlockLike,
        operation::{OperationLike, OperationRef},
    },
    pass::ExternalPass,
};
use sundial_codegen::{
    dtype::BirDtype,
    enums::BirAluOp,
    isa::{SelectQuery, Selection, select},
    model::Engine,
};
use sundial_dialects::view::FastMap;
use sundial_dialects::{
    build::OpBuild,
    enums::{Space, Target},
    tile::Tile,
    verify::view_rules::is_chain_op,
    view::View,
};
use sundial_passes::{
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{Rewriter, refuse},
    step::{PassId, Step, create},
};

static ISEL_PASS_ID: PassId = PassId::new();

/// The registry entry.
pub static INFO: PassInfo = PassInfo {
    name: "sundial-isel",
    summary: "Select NISA ops to BIR instructions (opcodes, engine, physical patterns)",
    description: "Replaces every NISA instruction op by the BIR op the ISA table selects for it on the target (opcode sequence with dtype dispatch, concrete engine, physical access patterns from sundial-allocate, immediates), then erases the dead nisa.alloc / nisa.ap ops. An unpinned or target-illegal op, or one this selector does not build yet, is an error naming the op and the missing fact.",
    options: &[PassOption {
        name: "target",
        kind: OptionKind::Enum(&Target::NAMES),
        default: "",
        help: "Target to select for (default: the module's sundial.target)",
    }],
    create: create::<IselPass>,
};

#[derive(Clone, Debug)]
struct IselPass {
    target: Option<Target>,
}

impl Step for IselPass {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialIsel";
    const ID: &'static PassId = &ISEL_PASS_ID;

    fn new(options: &PassOptions) -> Self {
        IselPass {
            target: options.get("target").and_then(Target::from_name),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        each_function(&operation, self.target, INFO.name, pass, |func, target| {
            crate::phys::with_cache(|| select_function(func, target))
        })
    }
}

/// Whether `op`'s regions hold a NISA op.
fn holds_nisa(op: &OperationRef<'_, '_>) -> bool {
    let mut found = false;
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut cursor = b.first_operation();
            while let Some(inner) = cursor {
                if op_name(&inner).starts_with("nisa.") || holds_nisa(&inner) {
                    found = true;
                }
                cursor = inner.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    found
}

/// Selects every NISA op of `func`'s body; returns whether all were selected.
fn select_function(func: OperationRef<'_, '_>, target: Target) -> bool {
    let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) else {
        return true;
    };
    let mut ops = Vec::new();
    let mut cursor = block.first_operation();
    while let Some(op) = cursor {
        ops.push(op);
        cursor = op.next_in_block();
    }
    let rewriter = Rewriter::new(&func);
    let facts = Facts::of(&ops);
    let mut ok = true;
    let mut selected = Vec::new();
    for op in ops {
        let name = op_name(&op);
        if name == "nisa.alloc" || is_chain_op(&op) {
            continue;
        }
        if name.starts_with("nisa.") {
            match select_op(op, target, &facts) {
                Ok(new) => {
                    rewriter.insert_before(op, new);
                    selected.push(op);
                }
                Err(msg) => {
                    refuse(&op, msg);
                    ok = false;
                }
            }
        } else if op.region_count() > 0 && holds_nisa(&op) {
            refuse(
                &op,
                "holds NISA ops in a region: loops and other regions reach instruction selection unrolled (run sundial-unroll first) (rule: static kernel)",
            );
            ok = false;
        }
    }
    if ok {
        for op in selected {
            rewriter.erase(op);
        }
        // The tiles and views are left without users once every instruction is a BIR op.
        sundial_passes::rewrite::erase_dead_views(&func);
    }
    ok
}

/// A selection rule: how one NISA op's BIR form is built once the ISA table selected it.
pub struct Rule {
    /// The NISA mnemonic.
    pub op: &'static str,
    /// The BIR op it becomes (must be the ISA table's).
    pub bir: &'static str,
    /// The operand groups whose dtypes are the query's inputs, in the ISA row's order.
    pub inputs: &'static [&'static str],
    /// Builds the BIR op.
    build: for<'c, 'a> fn(&View<'c, 'a>, &Selection, &Facts) -> Result<Operation<'c>, String>,
}

/// Every NISA op this selector builds a BIR op for.
pub static RULES: &[Rule] = &[
    Rule {
        op: "dma_copy",
        bir: "dma_copy",
        inputs: &["src"],
        build: dma_copy,
    },
    Rule {
        op: "range_select",
        bir: "range_select",
        inputs: &["on_true"],
        build: range_select,
    },
    Rule {
        op: "dma_copy_indirect",
        bir: "dma_indirect",
        inputs: &["src"],
        build: dma_copy_indirect,
    },
    Rule {
        op: "tensor_tensor_arith",
        bir: "tensor_tensor",
        inputs: &["lhs", "rhs"],
        build: tensor_tensor,
    },
    Rule {
        op: "tensor_tensor_bitvec",
        bir: "tensor_tensor",
        inputs: &["lhs", "rhs"],
        build: tensor_tensor,
    },
    Rule {
        op: "tensor_tensor_power",
        bir: "tensor_tensor",
        inputs: &["lhs", "rhs"],
        build: tensor_tensor,
    },
    Rule {
        op: "tensor_scalar_arith",
        bir: "tensor_scalar",
        inputs: &["data"],
        build: tensor_scalar,
    },
    Rule {
        op: "tensor_scalar_bitvec",
        bir: "tensor_scalar",
        inputs: &["data"],
        build: tensor_scalar,
    },
    Rule {
        op: "tensor_copy",
        bir: "tensor_copy",
        inputs: &["src"],
        build: unary,
    },
    Rule {
        op: "reciprocal",
        bir: "reciprocal",
        inputs: &["data"],
        build: unary,
    },
    Rule {
        op: "memset",
        bir: "memset",
        inputs: &[],
        build: memset,
    },
    Rule {
        op: "tensor_reduce_arith",
        bir: "tensor_reduce",
        inputs: &["data"],
        build: tensor_reduce,
    },
    Rule {
        op: "tensor_reduce_bitvec",
        bir: "tensor_reduce",
        inputs: &["data"],
        build: tensor_reduce,
    },
    Rule {
        op: "iota",
        bir: "iota",
        inputs: &[],
        build: iota,
    },
    Rule {
        op: "tensor_scalar_cache_reduce",
        bir: "tensor_scalar_cache",
        inputs: &["data"],
        build: tensor_scalar_cache_reduce,
    },
    Rule {
        op: "tensor_scalar_cache_cumulative",
        bir: "tensor_scalar_cache",
        inputs: &["src"],
        build: tensor_scalar_cache_cumulative,
    },
    Rule {
        op: "activation",
        bir: "activation",
        inputs: &["data"],
        build: activation,
    },
    Rule {
        op: "activation_read_accumulator",
        bir: "read_accumulator",
        inputs: &[],
        build: read_accumulator,
    },
    Rule {
        op: "copy_predicated",
        bir: "copy_predicated",
        inputs: &["src"],
        build: copy_predicated,
    },
    Rule {
        op: "cross_lane_reduce_arith",
        bir: "cross_lane_reduce",
        inputs: &["src"],
        build: cross_lane_reduce,
    },
    Rule {
        op: "cross_lane_reduce_bitvec",
        bir: "cross_lane_reduce",
        inputs: &["src"],
        build: cross_lane_reduce,
    },
    Rule {
        op: "stream_shuffle",
        bir: "stream_shuffle",
        inputs: &["src"],
        build: stream_shuffle,
    },
    Rule {
        op: "stream_transpose",
        bir: "stream_transpose",
        inputs: &["src"],
        build: stream_transpose,
    },
    Rule {
        op: "nc_transpose",
        bir: "stream_transpose",
        inputs: &["data"],
        build: stream_transpose,
    },
    Rule {
        op: "gather",
        bir: "gather",
        inputs: &["data", "indices"],
        build: gather,
    },
    Rule {
        op: "matmul",
        bir: "matmult",
        inputs: &["stationary", "moving"],
        build: matmul,
    },
    Rule {
        op: "quantize_mx",
        bir: "quantize_mx",
        inputs: &["src"],
        build: quantize_mx,
    },
    Rule {
        op: "matmul_mx",
        bir: "matmult_mx",
        inputs: &["stationary", "moving"],
        build: matmul_mx,
    },
];

/// Ops the ISA table pins but whose instruction needs a value no source gives: selecting them
/// fails with this fact (after the ISA table's own checks, so an unpinned or target-illegal
/// op reports that first).
pub static MISSING: &[(&str, &str)] = &[
    (
        "tensor_scalar_affine_select",
        "its fill value rides a register (S2D2_TS_AS fill_reg), and no pinned instruction loads an fp32 immediate into a register (REG_LOAD 0x4a has no field table)",
    ),
    (
        "dropout",
        "the threshold is an index into the engine's scalar-operand bank (threshold_imm_ptr), and no source describes how that bank is filled",
    ),
    (
        "send_recv",
        "SB2SB_COLLECTIVE 0xbf has no field for send_to_rank / recv_from_rank, and its lnc_size_fmt byte has no known codes",
    ),
    (
        "dma_gather_transpose",
        "how the indirect source and the transpose axes map onto DMA_GATHER_XPOSE's two-dimensional patterns and gather_dim is not stated by any source",
    ),
    (
        "indirect_copy",
        "the unit of INDIRECT_COPY's src_buffer_size (elements or bytes) and where num_valid_indices goes are not stated by any source",
    ),
    (
        "dma_compute",
        "which source of the DGE sum is DMA_DIRECT2D's src and which its destination operand (compute_op reads the destination) is not stated by any source",
    ),
    (
        "exponential",
        "how max_value, reduce_res and reduce_cmd map onto the EXPONENTIAL 0x30 bundle (the S3D3_TS fields) is not stated by any source",
    ),
    (
        "dve_read_accumulator",
        "a standalone 0x9b read-out has no instruction-model op in codegen (it is encoded only as the companion of 0x9a and 0xbc)",
    ),
];

/// The rule of NISA op `mnemonic`, if this selector builds it.
pub fn rule(mnemonic: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.op == mnemonic)
}

/// The ISA-table engine of a dialect engine (`unknown` is `None`).
fn engine_of(v: &View<'_, '_>) -> Option<Engine> {
    v.explicit_engine()
        .and_then(|e| Engine::from_name(e.as_str()))
}

fn bir_dtype(tile: &Tile, operand: &str) -> Result<BirDtype, String> {
    tile.dtype.bir().ok_or_else(|| {
        format!(
            "operand '{operand}' has element type {}, which no instruction stores",
            tile.dtype.mlir_name()
        )
    })
}

/// The selector's query for `v` on `target`.
fn query(v: &View<'_, '_>, rule: Option<&Rule>, target: Target) -> Result<SelectQuery, String> {
    let mut q = SelectQuery::new(target);
    q.engine = engine_of(v);
    if let Some(t) = v.tile("dst") {
        q.dst = Some(bir_dtype(&t, "dst")?);
        q.dst_partitions = u32::try_from(t.partitions()).ok();
    }
    if let Some(rule) = rule {
        for (slot, group) in q.src.iter_mut().zip(rule.inputs) {
            if let Some(t) = v.tile(group) {
                *slot = Some(bir_dtype(&t, group)?);
            }
        }
    }
    let alu = v.str_attr("op").or_else(|| v.str_attr("op0"));
    if v.mnemonic() == "tensor_tensor_power" {
        q.alu = Some(BirAluOp::Pow);
    } else if let Some(name) = alu {
        q.alu = BirAluOp::from_name(&name);
    }
    q.psum = v.touches(Space::Psum);
    q.gpsimd_dma = v.str_attr("dma_engine").as_deref() == Some("gpsimd_dma");
    q.indirect = v.tile_operands().iter().any(|t| {
        sundial_dialects::verify::defining_op(t.value)
            .filter(|op| matches!(&*op_name(op), "nisa.ap" | "nisa.dynamic_ap"))
            .and_then(View::of)
            .is_some_and(|ap| {
                ap.value("vector_offset").is_some() || ap.value("scalar_offset").is_some()
            })
    });
    q.accumulate = v.value("reduce_res").is_some();
    if let Some(t) = v.tile("indices").or_else(|| v.tile("index")) {
        q.index_elements = t.free_size().and_then(|n| u64::try_from(n).ok());
    }
    Ok(q)
}

/// Selects one NISA op: the BIR op that replaces it, or why it cannot be selected.
fn select_op<'c>(
    op: OperationRef<'c, '_>,
    target: Target,
    facts: &Facts,
) -> Result<Operation<'c>, String> {
    let v = View::new(op)?.ok_or("is not an op of the NISA table")?;
    let mnemonic = v.mnemonic();
    let rule = rule(mnemonic);
    let q = query(&v, rule, target)?;
    let sel = select(mnemonic, &q)
        .and_then(|s| s.require_pinned())
        .map_err(|e| format!("cannot be selected on {target}: {e}"))?;
    // The opcode list only goes into the refusals below.
    let opcodes = || -> Vec<String> { sel.opcodes().map(|o| format!("{o:#04x}")).collect() };
    if let Some((_, missing)) = MISSING.iter().find(|(op, _)| *op == mnemonic) {
        return Err(format!(
            "is pinned on {target} (bir.{} [{}]) but cannot be built: {missing}",
            sel.bir,
            opcodes().join(", ")
        ));
    }
    let Some(rule) = rule else {
        return Err(format!(
            "is selectable on {target} (bir.{} [{}] on {}) but sundial-isel does not build that BIR op yet",
            sel.bir,
            opcodes().join(", "),
            sel.engine
        ));
    };
    if sel.bir != rule.bir {
        return Err(format!(
            "the ISA table selects bir.{} [{}] here, which sundial-isel's rule (bir.{}) does not build",
            sel.bir,
            opcodes().join(", "),
            rule.bir
        ));
    }
    (rule.build)(&v, &sel, facts)
}

// ---------------------------------------------------------------- building blocks

/// The start of `bir.<name>` at `v`'s op with the selection's opcodes and engine.
fn start<'c, 'a>(v: &View<'c, 'a>, sel: &Selection) -> Result<OpBuild<'c, 'a>, String> {
    let opcodes: Vec<i64> = sel.opcodes().map(i64::from).collect();
    OpBuild::at(&v.op(), &format!("bir.{}", sel.bir))
        .and_then(|b| b.i64_array("opcodes", &opcodes))
        .and_then(|b| b.str("engine", sel.engine.name()))
        .map_err(|e| e.to_string())
}

/// The static pattern of operand `group`.
fn pattern(v: &View<'_, '_>, group: &str) -> Result<Phys, String> {
    let value = v
        .value(group)
        .ok_or_else(|| format!("operand '{group}' is missing"))?;
    operand(value, group)
}

fn operand(value: Value<'_, '_>, group: &str) -> Result<Phys, String> {
    resolve(value).map_err(|m| format!("operand '{group}': {m}"))
}

/// Sets the access-pattern attribute `name` to `p`.
fn ap<'c, 'a>(
    b: OpBuild<'c, 'a>,
    name: &str,
    p: &Phys,
    ctx: ContextRef<'c>,
) -> Result<OpBuild<'c, 'a>, String> {
    let attr = p
        .to_attr(ctx)
        .map_err(|m| format!("operand '{name}': {m}"))?;
    b.attr(name, attr).map_err(|e| e.to_string())
}

fn finish<'c>(b: Result<OpBuild<'c, '_>, impl ToString>) -> Result<Operation<'c>, String> {
    b.map_err(|e| e.to_string())?
        .build()
        .map_err(|e| e.to_string())
}

/// Copies attribute `name` of `v`'s op to the BIR op when the op carries it.
fn copy_attr<'c, 'a>(
    b: OpBuild<'c, 'a>,
    v: &View<'c, 'a>,
    from: &str,
    to: &str,
) -> Result<OpBuild<'c, 'a>, String> {
    match v.attr(from) {
        Some(a) => b.attr(to, a).map_err(|e| e.to_string()),
        None => Ok(b),
    }
}

/// A string attribute with the table's default, copied under `to`.
fn copy_str<'c, 'a>(
    b: OpBuild<'c, 'a>,
    v: &View<'c, 'a>,
    from: &str,
    to: &str,
) -> Result<OpBuild<'c, 'a>, String> {
    match v.str_attr(from) {
        Some(s) => b.str(to, &s).map_err(|e| e.to_string()),
        None => Ok(b),
    }
}

// ---------------------------------------------------------------- rules

/// `nisa.dma_copy` -> `bir.dma_copy`: DMA_DIRECT2D between two static patterns.
fn dma_copy<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let dst = pattern(v, "dst")?;
    let src = pattern(v, "src")?;
    if dst.dtype.byte_size() != src.dtype.byte_size() {
        return Err(format!(
            "converts {} to {}: a DMA_DIRECT2D copy moves as many bytes as it writes, and no source pins the descriptor of a converting DMA (its DGE compute form)",
            src.dtype.mlir_name(),
            dst.dtype.mlir_name()
        ));
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &dst, ctx)?;
    b = ap(b, "src", &src, ctx)?;
    b = copy_str(b, v, "dge_mode", "dge_mode")?;
    b = copy_attr(b, v, "priority", "priority")?;
    finish(Ok::<_, String>(b))
}

/// `nisa.dma_copy_indirect` -> `bir.dma_indirect` 0xbb: a gather from an HBM table into an
/// on-chip tile (`src` indirect) or a scatter of an on-chip tile into one (`dst` indirect),
/// through an index tile of one index per partition. The tensor-indirect side keeps the HBM
/// table as its data pattern ([`crate::phys::IndirectPhys`]); the lowering maps it onto
/// DMA_INDIRECT1D.
fn dma_copy_indirect<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    use crate::phys::resolve_indirect;
    let ctx = v.op().context();
    let dst_value = v.value("dst").ok_or("operand 'dst' is missing")?;
    let src_value = v.value("src").ok_or("operand 'src' is missing")?;
    let (dst, src) = match (resolve_indirect(src_value), resolve_indirect(dst_value)) {
        (Ok(src), Err(_)) => (operand(dst_value, "dst")?.to_attr(ctx), src.to_attr(ctx)),
        (Err(_), Ok(dst)) => (dst.to_attr(ctx), operand(src_value, "src")?.to_attr(ctx)),
        (Ok(_), Ok(_)) => {
            return Err("both sides are indirect: the index-to-index form (SRC_DST_INDIRECTION) has no pinned direction code (the seed's validator accepts load 1 and save 2 only)".into());
        }
        (Err(m), Err(_)) => return Err(format!("operand 'src': {m}")),
    };
    let (dst, src) = (
        dst.map_err(|m| format!("operand 'dst': {m}"))?,
        src.map_err(|m| format!("operand 'src': {m}"))?,
    );
    if v.str_attr("oob_mode").as_deref() == Some("skip") {
        return Err("attribute 'oob_mode': skipping out-of-bounds indices needs a bound-check register holding the table's extent (BOUND_CHECK_REG), and no pinned instruction loads a register (REG_LOAD 0x4a has no field table)".into());
    }
    if v.attr("priority").is_some() {
        return Err("attribute 'priority': no source maps NKI's DMA priority onto DMA_CONFIGS priority_class".into());
    }
    let mut b = start(v, sel)?;
    b = b.attr("dst", dst).map_err(|e| e.to_string())?;
    b = b.attr("src", src).map_err(|e| e.to_string())?;
    b = copy_attr(b, v, "unique_indices", "unique_indices")?;
    finish(Ok::<_, String>(b))
}

/// `nisa.range_select` -> `bir.range_select` {0xbc, 0x9b} (cayman): the `[P, 1]` bound tiles
/// become per-partition operand patterns, `range_start` the header's integer `base` (+0x10;
/// bundle-layouts §4.12 settles the CC/header naming conflict for the header: base and
/// fill_val, the bounds at +0x28/+0x2C), `on_false_value` its `fill_val`, and the max-reduction
/// is read out to `reduce_res` by the 0x9b companion.
fn range_select<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if v.value("reduce_res").is_none() {
        return Err(
            "the 0x9b read-out companion of RangeSelect needs a 'reduce_res' destination".into(),
        );
    }
    // The verifier's start rule (`range_select start`) has made `range_start` an integer,
    // written as an integer or an integral float, whose indices stay within +-2^24: RangeSelect's
    // base is the integer index origin the encoder converts to fp32.
    let origin = v
        .int_attr("range_start")
        .or_else(|| v.float_attr("range_start").map(|f| f as i64))
        .unwrap_or(0);
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "on_true")?, ctx)?;
    b = ap(b, "bound0_ap", &pattern(v, "bound0")?, ctx)?;
    b = ap(b, "bound1_ap", &pattern(v, "bound1")?, ctx)?;
    b = ap(b, "reduce_res", &pattern(v, "reduce_res")?, ctx)?;
    b = copy_str(b, v, "comp_op0", "comp_op0")?;
    b = copy_str(b, v, "comp_op1", "comp_op1")?;
    b = b.i64("range_start", origin).map_err(|e| e.to_string())?;
    b = copy_attr(b, v, "on_false_value", "fill_value")?;
    b = b
        .str("reduce_cmd", &reduce_cmd(v)?)
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}

/// The elementwise binary ops -> `bir.tensor_tensor`.
fn tensor_tensor<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src0", &pattern(v, "lhs")?, ctx)?;
    b = ap(b, "src1", &pattern(v, "rhs")?, ctx)?;
    let op = if v.mnemonic() == "tensor_tensor_power" {
        "pow".to_string()
    } else {
        v.str_attr("op").ok_or("attribute 'op' is missing")?
    };
    finish(b.str("op", &op))
}

/// A scalar operand: the immediate attribute, or the `[P, 1]` tile as a per-partition
/// operand pattern.
fn scalar_operand<'c, 'a>(
    mut b: OpBuild<'c, 'a>,
    v: &View<'c, 'a>,
    imm: &str,
    tile: &str,
) -> Result<OpBuild<'c, 'a>, String> {
    let ctx = v.op().context();
    b = copy_attr(b, v, imm, imm)?;
    if v.value(tile).is_some() {
        b = ap(b, tile, &pattern(v, tile)?, ctx)?;
    }
    Ok(b)
}

/// `nisa.tensor_scalar_{arith,bitvec}` -> `bir.tensor_scalar` (the plain form).
fn tensor_scalar<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "data")?, ctx)?;
    b = copy_str(b, v, "op0", "op0")?;
    b = scalar_operand(b, v, "imm0", "operand0")?;
    b = copy_attr(b, v, "reverse0", "reverse0")?;
    b = copy_str(b, v, "op1", "op1")?;
    b = scalar_operand(b, v, "imm1", "operand1")?;
    b = copy_attr(b, v, "reverse1", "reverse1")?;
    finish(Ok::<_, String>(b))
}

/// One source, one destination (`tensor_copy`, `reciprocal`).
fn unary<'c>(v: &View<'c, '_>, sel: &Selection, _facts: &Facts) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let src_group = if v.mnemonic() == "reciprocal" {
        "data"
    } else {
        "src"
    };
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, src_group)?, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.memset` -> `bir.memset`.
fn memset<'c>(v: &View<'c, '_>, sel: &Selection, _facts: &Facts) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    let value = v.attr("value").ok_or("attribute 'value' is missing")?;
    finish(b.attr("value", value))
}

/// `nisa.tensor_reduce_*` -> `bir.tensor_reduce`: the reduced (trailing) free axes keep their
/// boundary in the source pattern and become `num_reduce_dims`.
fn tensor_reduce<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let data = v.value("data").ok_or("operand 'data' is missing")?;
    let axes = v.i64_array("axis").ok_or("attribute 'axis' is missing")?;
    // The verifier holds the axes to the trailing contiguous free ones.
    let (src, reduced) =
        resolve_reduced(data, axes.len()).map_err(|m| format!("operand 'data': {m}"))?;
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &src, ctx)?;
    b = copy_str(b, v, "op", "op")?;
    b = b
        .i64("num_reduce_dims", reduced as i64)
        .map_err(|e| e.to_string())?;
    b = copy_attr(b, v, "negate", "negate")?;
    finish(Ok::<_, String>(b))
}

/// `nisa.iota` -> `bir.iota`: the generated pattern, its base (`offset`) and the channel
/// multiplier.
fn iota<'c>(v: &View<'c, '_>, sel: &Selection, _facts: &Facts) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    let pattern = v
        .i64_array("pattern")
        .ok_or("attribute 'pattern' is missing")?;
    b = b
        .i64_array("pattern", &pattern)
        .map_err(|e| e.to_string())?;
    if let Some(base) = v.int_attr("offset") {
        b = b.i64("base", base).map_err(|e| e.to_string())?;
    }
    b = copy_attr(b, v, "channel_multiplier", "channel_multiplier")?;
    finish(Ok::<_, String>(b))
}

/// The BIR accumulation command of a NISA `reduce_cmd` (codegen's `BirAccumulation` name of
/// the same hardware ACCUM_CMD code: NKI idle=0, reset=1, reduce=2, reset_reduce=3,
/// load_reduce=4 are the wire codes, `sundial_dialects::enums::ReduceCmd`).
fn reduce_cmd(v: &View<'_, '_>) -> Result<String, String> {
    let text = v
        .str_attr("reduce_cmd")
        .ok_or("attribute 'reduce_cmd' is missing")?;
    sundial_dialects::enums::ReduceCmd::parse(&text)
        .map(|c| c.as_str().to_string())
        .ok_or_else(|| format!("attribute 'reduce_cmd': unknown command '{text}'"))
}

/// `nisa.tensor_scalar_cache_reduce` -> `bir.tensor_scalar_cache` {0x9a, 0x9b}: `op0` with
/// `imm0` or the per-partition `operand0` tile (and `reverse0`), then the free-axis reduction with `reduce_op` into the engine's
/// accumulator, read out to `reduce_res`.
fn tensor_scalar_cache_reduce<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if v.value("reduce_res").is_none() {
        return Err("the 0x9b read-out of the reduction needs a 'reduce_res' destination".into());
    }
    if v.attr("reduce_init").is_some() {
        return Err("attribute 'reduce_init': the accumulator's initial value has no field in the 0x9a / 0x9b bundles".into());
    }
    if v.bool_attr("reduce_res_negate") {
        return Err("attribute 'reduce_res_negate': the 0x9b read-out is encoded with negated = 0 (codegen writes no other value)".into());
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "data")?, ctx)?;
    b = ap(b, "reduce_res", &pattern(v, "reduce_res")?, ctx)?;
    b = copy_str(b, v, "op0", "op0")?;
    b = scalar_operand(b, v, "imm0", "operand0")?;
    b = copy_attr(b, v, "reverse0", "reverse0")?;
    b = copy_str(b, v, "reduce_op", "reduce_op")?;
    b = b
        .str("reduce_cmd", &reduce_cmd(v)?)
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}

/// `nisa.tensor_scalar_cache_cumulative` -> `bir.tensor_scalar_cache` 0xe6: the running scan
/// `reg = op1(op0(x, imm0), reg)`.
fn tensor_scalar_cache_cumulative<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "src")?, ctx)?;
    for name in ["op0", "op1"] {
        b = copy_str(b, v, name, name)?;
    }
    for name in ["imm0", "imm1"] {
        b = copy_attr(b, v, name, name)?;
    }
    b = b
        .str("reduce_cmd", &reduce_cmd(v)?)
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}

/// `nisa.activation` -> `bir.activation` 0x21 (ACTIVATE; mariana's 0x25 is refused by the ISA
/// table as unpinned): the function, `scale_value` or the per-partition `scale` tile, the
/// per-partition `bias` tile, `alpha` (the second immediate) and `reduce_cmd` (the Scalar
/// engine's accumulate command, read out by `nisa.activation_read_accumulator`).
fn activation<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if v.value("reduce_res").is_some() {
        return Err("operand 'reduce_res': the ISA table gives activation the one bundle 0x21 and pins no sequence reading its accumulation out into reduce_res (0x21 then the 0x24 read-out)".into());
    }
    if let Some(op) = v.str_attr("reduce_op")
        && op != "add"
    {
        return Err(format!(
            "attribute 'reduce_op': '{op}' (the ACTIVATE accumulator adds; no other reduction is pinned)"
        ));
    }
    let func = v.str_attr("op").ok_or("attribute 'op' is missing")?;
    let f = sundial_dialects::enums::ActivationFunc::from_name(&func)
        .ok_or_else(|| format!("attribute 'op': unknown activation function '{func}'"))?;
    if v.attr("alpha").is_some() && !f.takes_imm() {
        return Err(format!(
            "attribute 'alpha': ACTIVATE writes its second immediate only for prelu, copy and reciprocal, not '{func}'"
        ));
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "data")?, ctx)?;
    b = b.str("func", &func).map_err(|e| e.to_string())?;
    if v.value("scale").is_some() {
        b = ap(b, "scale_ap", &pattern(v, "scale")?, ctx)?;
    } else {
        b = copy_attr(b, v, "scale_value", "scale")?;
    }
    if v.value("bias").is_some() {
        b = ap(b, "bias_ap", &pattern(v, "bias")?, ctx)?;
    }
    b = copy_attr(b, v, "alpha", "alpha")?;
    b = b
        .str("reduce_cmd", &reduce_cmd(v)?)
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}

/// `nisa.activation_read_accumulator` -> `bir.read_accumulator` 0x24.
fn read_accumulator<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if v.bool_attr("negate") {
        return Err("attribute 'negate': the D1_RD read-out is encoded with negated = 0 (codegen writes no other value)".into());
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.copy_predicated` -> `bir.copy_predicated` (0x72, or 0x99 when the dtype changes).
fn copy_predicated<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if v.bool_attr("reverse_pred") {
        return Err("attribute 'reverse_pred': the S3S3D3_TT bundle of COPY_PREDICATED has no field for an inverted predicate".into());
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "src")?, ctx)?;
    b = ap(b, "predicate", &pattern(v, "predicate")?, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.cross_lane_reduce_*` -> `bir.cross_lane_reduce` (0x7c / 0x7d).
fn cross_lane_reduce<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "src")?, ctx)?;
    b = copy_str(b, v, "op", "op")?;
    finish(Ok::<_, String>(b))
}

/// `nisa.stream_shuffle` -> `bir.stream_shuffle` {0x6a, 0x69} with its 32-lane mask.
fn stream_shuffle<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "src", &pattern(v, "src")?, ctx)?;
    b = copy_attr(b, v, "shuffle_mask", "shuffle_mask")?;
    finish(Ok::<_, String>(b))
}

/// `nisa.stream_transpose` (and `nisa.nc_transpose` on the Vector engine) ->
/// `bir.stream_transpose`: {0x6b} for a destination of fewer than
/// 32 partitions. The wide form {0x6b, 0x69} needs the lane map of its 0x69 half, which the
/// NISA op does not carry and no source gives for a plain transpose.
fn stream_transpose<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    if sel.pattern.len() > 1 {
        return Err(format!(
            "a destination of {} partitions selects {{0x6b, 0x69}}, whose 0x69 half needs a 32-lane map that no source gives for a plain transpose",
            v.tile("dst").map(|t| t.partitions()).unwrap_or(0)
        ));
    }
    // nc_transpose on the Vector engine is the same instruction (its operand is `data`).
    let group = if v.mnemonic() == "nc_transpose" {
        "data"
    } else {
        "src"
    };
    let (dst, src) = (pattern(v, "dst")?, pattern(v, group)?);
    if dst.elements() != src.elements() {
        return Err(format!(
            "transposes {} x {} elements: the 0x6b bundle holds equal source and destination element counts per partition (the seed's d4_tr_same_src_dst_count), so only a square transpose is encodable",
            src.partitions,
            src.elements()
        ));
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &dst, ctx)?;
    b = ap(b, "src", &src, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.gather` -> `bir.gather`: {0x68, 0x67} per 512-element chunk of the index.
fn gather<'c>(v: &View<'c, '_>, sel: &Selection, _facts: &Facts) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "data", &pattern(v, "data")?, ctx)?;
    b = ap(b, "index", &pattern(v, "indices")?, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.matmul` -> `bir.matmult` {0x01, 0x02} on bf16/fp16/fp8 operands, with the
/// `accumulate_flags` of its accumulation group ([`accumulation_flags`]).
fn matmul<'c>(v: &View<'c, '_>, sel: &Selection, facts: &Facts) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    matmul_refusals(v)?;
    if !v.bool_attr("is_transpose") {
        psum_result_dtype(v)?;
    }
    for flag in ["is_stationary_onezero", "is_moving_onezero"] {
        if v.bool_attr(flag) {
            return Err(format!(
                "attribute '{flag}': the matmul bundles have no field for it"
            ));
        }
    }
    if v.str_attr("perf_mode").is_some_and(|m| m != "none") {
        return Err("attribute 'perf_mode': only 'none' has a pinned PERF_OPT_MODE code".into());
    }
    let stationary = pattern(v, "stationary")?;
    let moving = pattern(v, "moving")?;
    for (name, p) in [("stationary", &stationary), ("moving", &moving)] {
        if matches!(
            p.dtype,
            sundial_dialects::dtype::Dtype::F32 | sundial_dialects::dtype::Dtype::Tf32
        ) {
            return Err(format!(
                "operand '{name}' is {}: the PE_FP32MODE split of an fp32 operand (low, high or both halves) is not derived here",
                p.dtype.mlir_name()
            ));
        }
    }
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "stationary", &stationary, ctx)?;
    b = ap(b, "moving", &moving, ctx)?;
    b = copy_attr(b, v, "is_transpose", "is_transpose")?;
    b = b
        .i64("accumulate_flags", i64::from(facts.accumulate_flags(v)))
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}

/// `psum_accumulate_flags` bit BEGIN_MATMUL_GROUP (bundle-layouts §4.9: common.h).
pub const BEGIN_MATMUL_GROUP: u8 = 1 << 0;
/// `psum_accumulate_flags` bit END_MATMUL_GROUP.
pub const END_MATMUL_GROUP: u8 = 1 << 1;
/// `psum_accumulate_flags` bit BEGIN_ACCUM_MATMUL_GROUP: a group that starts by adding to
/// what PSUM holds.
pub const BEGIN_ACCUM_MATMUL_GROUP: u8 = 1 << 2;

/// The identity of the tile a value views: the tensor at the start of its chain of views,
/// else the value itself.
fn root_value(value: Value<'_, '_>) -> usize {
    let mut current = value;
    while let Some(tensor) = sundial_dialects::verify::defining_op(current)
        .filter(is_chain_op)
        .and_then(|op| op.operand(0).ok())
    {
        current = tensor;
    }
    current.to_raw().ptr as usize
}

/// What continues an accumulation group: the matmul kind and its PSUM pattern.
type GroupKey = (&'static str, Phys);

/// What selection derives from a whole function before building any op.
#[derive(Debug, Default)]
pub struct Facts {
    /// The `psum_accumulate_flags` of each matmul (by op), from [`Facts::of`].
    flags: FastMap<usize, u8>,
}

impl Facts {
    /// The facts of a function body's ops, in program order.
    ///
    /// Accumulation groups: a group is a run of matmuls of one kind into the same PSUM
    /// pattern, each after the first with `accumulate = true`, with no other op naming the
    /// destination tile between them (an op reading or writing any part of it ends the group:
    /// it observes the partial sums). The first matmul begins the group (BEGIN_MATMUL_GROUP;
    /// BEGIN_ACCUM_MATMUL_GROUP when it accumulates itself, onto what PSUM held before), the
    /// last ends it (END_MATMUL_GROUP), so a lone matmul is SINGLE (3), or 6 when it
    /// accumulates; every value is in the encoder's set {0, 1, 2, 3, 4, 6}. An absent
    /// `accumulate` (NKI's `None`) overwrites, as `false` does. ASSUMPTION (no source states
    /// how NKI's per-op `accumulate` becomes the group flags): this grouping by program order.
    pub fn of(ops: &[OperationRef<'_, '_>]) -> Facts {
        let mut flags: FastMap<usize, u8> = FastMap::default();
        // Per tile: the last op naming it, with its matmul kind and PSUM pattern if a matmul.
        let mut last: FastMap<usize, (usize, Option<GroupKey>)> = FastMap::default();
        for op in ops {
            let name = op_name(op);
            if !name.starts_with("nisa.") || name == "nisa.alloc" || is_chain_op(op) {
                continue;
            }
            let key = op.to_raw().ptr as usize;
            let mut matmul = None;
            if let Some(v) =
                View::of(*op).filter(|v| matches!(v.mnemonic(), "matmul" | "matmul_mx"))
                && let Some(dst_value) = v.value("dst")
                && let Ok(dst) = resolve(dst_value)
            {
                let root = root_value(dst_value);
                let accumulates = v.bool_attr("accumulate");
                let continues = accumulates
                    && last.get(&root).is_some_and(|(_, prev)| {
                        prev.as_ref()
                            .is_some_and(|(kind, p)| *kind == v.mnemonic() && *p == dst)
                    });
                if continues
                    && let Some((prev, _)) = last.get(&root)
                    && let Some(f) = flags.get_mut(prev)
                {
                    *f &= !END_MATMUL_GROUP;
                }
                let begin = match (continues, accumulates) {
                    (true, _) => 0,
                    (false, true) => BEGIN_ACCUM_MATMUL_GROUP,
                    (false, false) => BEGIN_MATMUL_GROUP,
                };
                flags.insert(key, begin | END_MATMUL_GROUP);
                matmul = Some((root, (v.mnemonic(), dst)));
            }
            for i in 0..op.operand_count() {
                if let Ok(o) = op.operand(i) {
                    last.insert(root_value(o), (key, None));
                }
            }
            if let Some((root, m)) = matmul {
                last.insert(root, (key, Some(m)));
            }
        }
        Facts { flags }
    }

    /// The `psum_accumulate_flags` of matmul `v` (SINGLE when it was not seen).
    fn accumulate_flags(&self, v: &View<'_, '_>) -> u8 {
        let key = v.op().to_raw().ptr as usize;
        self.flags
            .get(&key)
            .copied()
            .unwrap_or(BEGIN_MATMUL_GROUP | END_MATMUL_GROUP)
    }
}

/// A matmul result in PSUM must be a 4-byte dtype: NKI lets a v4 matmul write bf16 into PSUM,
/// but the bundles' validity rule (PSUM writes are a 4-byte dtype) is the only pinned fact, and
/// no source says how the PE writes a 2-byte result; so the op is refused here, at its own
/// location, rather than by the encoder. (A transpose writes its data's dtype; the encoder
/// refuses it for its own unpinned fact, the LDWEIGHTS transpose_mode code.)
fn psum_result_dtype(v: &View<'_, '_>) -> Result<(), String> {
    let dst = pattern(v, "dst")?;
    if dst
        .dtype
        .bir()
        .is_some_and(|d| !sundial_codegen::psum_dtype(d))
    {
        return Err(format!(
            "unpinned: operand 'dst' is {}: the pinned encodings write a matmul result into PSUM as a 4-byte dtype (fp32, fp32r, int32, uint32); how the PE writes a 2-byte result is not stated by any source",
            dst.dtype.mlir_name()
        ));
    }
    Ok(())
}

/// The matmul attributes no bundle field holds: PE tiling.
fn matmul_refusals(v: &View<'_, '_>) -> Result<(), String> {
    for attr in ["tile_position", "tile_size"] {
        if v.attr(attr).is_some() {
            return Err(format!(
                "attribute '{attr}': PE tiling is not selected here (the row and column groups follow from the operands' partitions)"
            ));
        }
    }
    Ok(())
}

/// `nisa.quantize_mx` -> `bir.quantize_mx` 0xe3 (mariana): the bf16/fp16 source, the fp8 x4
/// data and its E8M0 scales, all static.
fn quantize_mx<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    _facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    let mut b = start(v, sel)?;
    b = ap(b, "dst", &pattern(v, "dst")?, ctx)?;
    b = ap(b, "dst_scale", &pattern(v, "dst_scale")?, ctx)?;
    b = ap(b, "src", &pattern(v, "src")?, ctx)?;
    finish(Ok::<_, String>(b))
}

/// `nisa.matmul_mx` -> `bir.matmult_mx` {0x09, 0x0a} (mariana): static MX operands with their
/// scales, with the `accumulate_flags` of its accumulation group as for `matmul`.
fn matmul_mx<'c>(
    v: &View<'c, '_>,
    sel: &Selection,
    facts: &Facts,
) -> Result<Operation<'c>, String> {
    let ctx = v.op().context();
    matmul_refusals(v)?;
    psum_result_dtype(v)?;
    let mut b = start(v, sel)?;
    for name in [
        "dst",
        "stationary",
        "stationary_scale",
        "moving",
        "moving_scale",
    ] {
        b = ap(b, name, &pattern(v, name)?, ctx)?;
    }
    b = b
        .i64("accumulate_flags", i64::from(facts.accumulate_flags(v)))
        .map_err(|e| e.to_string())?;
    finish(Ok::<_, String>(b))
}
