//! `sundial-partition-tiling` (the seed's SundaSizeTiling; pass-rules §5; step 4 of
//! `sundial-middle-end`): logical tiles become physical ones, with at most
//! `partition-max-elts` (128) partitions each, and matmul outputs fit one PSUM bank.
//!
//! **Logical tiles.** A `nisa.alloc` of an SBUF/PSUM tile `[P, F...]` with `P` above the
//! block size `B` (`partition-max-elts`) becomes one physical tile `[B, k, F...]`, `k =
//! ceil(P / B)`: logical partition `q` lives in partition `q mod B`, free slot `q div B` (the
//! wiki's "fold the overflow into the free dim", [128 k] -> [128, k]). Block `c` (partitions
//! `[cB, cB + r)`, the last one partial) is the static view `nisa.ap` with pattern `[k R, r]`
//! then the free dims, at element offset `c R` (`R` = elements per logical partition), so
//! every block starts at physical partition 0 (pass-rules §5.3: new tiles start at 0). Every
//! use of a logical tile is an op this pass rewrites per block; a view of a logical tile, or an
//! on-chip kernel argument with more than `B` partitions (the caller fixes its layout), is
//! refused.
//!
//! **Ops** over logical tiles, by what their partitions do (one table, [`RULES`]):
//! - partition-parallel ops (each partition computes from the same partition of its inputs:
//!   the elementwise, free-axis reduce, activation, DMA and random ops): one copy per block,
//!   every operand with `P` partitions replaced by its block (an HBM side of a DMA by the
//!   `nisa.slice` of its rows); operands with another partition count are refused;
//! - `iota` and `tensor_scalar_affine_select`, whose values depend on the partition index:
//!   the same, with `offset` advanced by `cB * channel_multiplier` so each block computes the
//!   logical partitions' values;
//! - GpSimd core-group ops (`indirect_copy`, `nonzero_with_count`): the same, only when `P`
//!   and `B` are multiples of 16, so that a block is whole 16-partition cores (pass-rules
//!   §5.2: indirect_copy keeps its groups of 16); `stream_shuffle` permutes within
//!   32-partition quadrants, so it is partition-parallel at quadrant granularity and needs `B`
//!   a multiple of 32;
//! - reductions across partitions (`tensor_partition_reduce`, `cross_lane_reduce_*`): one
//!   reduction per block into a `[1, ...]` partial, partials combined on Vector
//!   (`tensor_tensor_arith` / `_bitvec` with the same op; `average` reduces with add and
//!   scales once by 1 / count); ops with no cross-partition form are refused as
//!   `sundial-legalize-partition-reduce` does;
//! - `matmul` (`dst[M, N] = stationary[K, M]^T moving[K, N]`): `M` in blocks of `B` (dst
//!   rows, stationary columns), `K` in blocks of `B` accumulated into the same PSUM tile (the
//!   first block keeps the op's `accumulate`, the others accumulate: the combine step of K),
//!   `N` in chunks of one PSUM bank (2 KiB per partition, 512 fp32) [docs], also when no tile is
//!   logical; `tile_position` / `tile_size` pin the PE geometry, so such a matmul is refused;
//! - ops that move data across partitions with no combine step (`nc_transpose`,
//!   `stream_transpose`, `dma_transpose`, `dma_gather_transpose`, `sequence_bounds`), the MX
//!   ops whose scale groups span partitions (`quantize_mx`, `matmul_mx`), indexed DMA
//!   (`dma_copy_indirect`, `dma_compute`, the generic indirect ops) and collectives: refused
//!   with the reason.
//!
//! Block copies are unrolled up to `max-unrolled-blocks` full blocks; beyond, a
//! partition-parallel op whose operands are tiles themselves (not views) runs in an
//! `scf.for` over its full blocks, each operand a `nisa.dynamic_ap` at offset `%c R` (a
//! physical tile) or `%c B R` (a tile cut by rows), and a partial last block stays a static
//! copy after the loop (`sundial-unroll` folds the loop later, or keeps it).
//! `max-tile-bytes` also bounds the physical tile a logical one becomes (bytes per
//! partition), refused beyond it.
//!
//! **Free-axis cut** (pass-rules §5.4-5.7, [`crate::free_cut`]), after the partition cut: an
//! elementwise op or free-axis reduction with a PSUM operand over one bank (2 KiB per
//! partition) or an SBUF operand over `max-tile-bytes` per partition is cut along its
//! non-reduced free axes into pieces of at most `free-tile-elements`, and its elementwise
//! producers take the same cut (rate matching). Our reading: the budget sizes the pieces of a
//! cut that a limit forces; ops within the limits are not cut (the kernel allocated their
//! tiles, and each piece costs an instruction launch), so kernels whose tiles fit are left as
//! written.
//!
//! Options: `partition-max-elts` 128 (1..=128; the seed's partition_max_elements, our value),
//! `max-tile-bytes` 32768 [docs], `free-tile-elements` 512 [wiki], `uniform-tiles` false
//! [ours], `max-unrolled-blocks` 4 [ours].

use crate::{
    emit::{Emit, Step, tile},
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{Rewriter, collect, op_is, refuse, set_attr, set_operand, users},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{
        Operation, Value, ValueLike,
        operation::{OperationLike, OperationRef},
    },
    pass::ExternalPass,
};
use std::collections::HashMap;
use sundial_dialects::{
    build::{Attrs, BuildError, OpBuild, tile_type_of},
    dtype::Dtype,
    enums::{Engine, Space},
    tile::{NUM_PARTITIONS, Tile},
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// One PSUM bank per partition (pass-rules §5: 8 banks x 2 KiB) [docs].
pub const PSUM_BANK_BYTES: i64 = 2048;
/// PSUM per partition: 8 banks.
pub const PSUM_PARTITION_BYTES: i64 = 8 * PSUM_BANK_BYTES;
/// Partitions of one GpSimd core (8 cores x 16 partitions) [docs].
pub const CORE_PARTITIONS: i64 = 16;
/// Dimensions of the tiles a block view can address (an access pattern's partition pair and
/// four free pairs).
pub const MAX_VIEW_RANK: usize = 5;
/// Partitions of one stream-shuffle quadrant.
pub const QUADRANT_PARTITIONS: i64 = 32;

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-partition-tiling",
    summary: "Split logical tiles beyond 128 partitions into 128-partition blocks; cap matmul outputs at one PSUM bank",
    description: "A logical SBUF/PSUM tile [P, F...] with P > partition-max-elts becomes [B, ceil(P/B), F...]; every op over it runs once per block (partition-parallel ops; iota/affine_select with their offsets advanced; GpSimd core-group ops in whole 16-partition cores; partition reductions per block with a combine step; matmul M and K in blocks, K accumulated, N in one-PSUM-bank chunks). Then elementwise ops and free-axis reductions with a PSUM operand over one bank or an SBUF operand over max-tile-bytes are cut along non-reduced free axes into pieces of at most free-tile-elements (producers rate-matched). Refuses views of logical tiles, on-chip kernel arguments beyond B partitions, and ops that move data across partitions with no combine step (transposes, MX scale groups, indexed DMA, collectives).",
    options: &[
        PassOption {
            name: "partition-max-elts",
            kind: OptionKind::Uint,
            default: "128",
            help: "Partitions per block (1..=128)",
        },
        PassOption {
            name: "max-tile-bytes",
            kind: OptionKind::Uint,
            default: "32768",
            help: "Largest physical SBUF tile a logical one may become, in bytes per partition",
        },
        PassOption {
            name: "free-tile-elements",
            kind: OptionKind::Uint,
            default: "512",
            help: "Most elements per partition of a piece of the free-axis cut",
        },
        PassOption {
            name: "uniform-tiles",
            kind: OptionKind::Bool,
            default: "false",
            help: "Cut free axes into equal pieces (the largest divisor not above the cut)",
        },
        PassOption {
            name: "max-unrolled-blocks",
            kind: OptionKind::Uint,
            default: "4",
            help: "Most blocks an op is copied for; beyond, a loop over the blocks",
        },
        VERIFY_AFTER,
    ],
    create: crate::step::create::<Tiling>,
};

/// What an op's partitions do, for tiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Each partition from the same partition of the inputs: one copy per block.
    Parallel,
    /// Parallel, but the values depend on the partition index (`offset` advances).
    PartitionIndexed,
    /// Parallel in groups of this many partitions (GpSimd cores, shuffle quadrants).
    Groups(i64),
    /// A reduction over the partition axis: per-block partials and a combine step.
    Reduce,
    /// `matmul`: M and K blocks, N bank chunks.
    Matmul,
    /// No tiling: the reason.
    Refuse(&'static str),
}

const TRANSPOSE: Rule = Rule::Refuse(
    "moves the partition axis into the free axes, so its blocks are not independent (no combine step)",
);
const MX: Rule =
    Rule::Refuse("its MX scale groups span partitions and there is no combine step for them");
const INDEXED: Rule = Rule::Refuse(
    "its index tile addresses rows of the whole tensor; tile the index and the data before indexing",
);
const COLLECTIVE: Rule = Rule::Refuse(
    "a collective exchanges whole tiles between ranks; give it tiles of at most the block size",
);

/// The tiling rule of every NISA op that can take an on-chip tile (the ops not listed have
/// none and are refused when they meet a logical tile).
const RULES: &[(&str, Rule)] = &[
    ("tensor_tensor_arith", Rule::Parallel),
    ("tensor_tensor_power", Rule::Parallel),
    ("tensor_scalar_arith", Rule::Parallel),
    ("tensor_scalar_addr", Rule::Parallel),
    ("tensor_scalar_cache_reduce", Rule::Parallel),
    ("tensor_scalar_cache_cumulative", Rule::Parallel),
    ("tensor_tensor_scan", Rule::Parallel),
    ("scalar_tensor_tensor_arith", Rule::Parallel),
    ("scalar_tensor_tensor_bitvec", Rule::Parallel),
    ("select_reduce", Rule::Parallel),
    ("copy_predicated", Rule::Parallel),
    ("memset", Rule::Parallel),
    ("tensor_copy", Rule::Parallel),
    ("reciprocal", Rule::Parallel),
    ("tensor_tensor_bitvec", Rule::Parallel),
    ("tensor_scalar_bitvec", Rule::Parallel),
    ("tensor_reduce_arith", Rule::Parallel),
    ("tensor_reduce_bitvec", Rule::Parallel),
    ("dve_read_accumulator", Rule::Parallel),
    ("activation_read_accumulator", Rule::Parallel),
    ("max8", Rule::Parallel),
    ("find_index8", Rule::Parallel),
    ("max_index_and_match_replace", Rule::Parallel),
    ("range_select", Rule::Parallel),
    ("dropout", Rule::Parallel),
    ("bn_stats", Rule::Parallel),
    ("bn_aggr", Rule::Parallel),
    ("exponential", Rule::Parallel),
    ("activation", Rule::Parallel),
    ("gather", Rule::Parallel),
    ("dma_copy", Rule::Parallel),
    ("generic_load", Rule::Parallel),
    ("rand2", Rule::Parallel),
    ("rng", Rule::Parallel),
    ("rand_get_state", Rule::Parallel),
    ("rand_set_state", Rule::Parallel),
    ("set_rng_seed", Rule::Parallel),
    ("device_print", Rule::Parallel),
    ("iota", Rule::PartitionIndexed),
    ("tensor_scalar_affine_select", Rule::PartitionIndexed),
    ("indirect_copy", Rule::Groups(CORE_PARTITIONS)),
    ("nonzero_with_count", Rule::Groups(CORE_PARTITIONS)),
    ("stream_shuffle", Rule::Groups(QUADRANT_PARTITIONS)),
    ("tensor_partition_reduce", Rule::Reduce),
    ("cross_lane_reduce_arith", Rule::Reduce),
    ("cross_lane_reduce_bitvec", Rule::Reduce),
    ("matmul", Rule::Matmul),
    ("nc_transpose", TRANSPOSE),
    ("stream_transpose", TRANSPOSE),
    ("dma_transpose", TRANSPOSE),
    ("dma_gather_transpose", TRANSPOSE),
    (
        "sequence_bounds",
        Rule::Refuse("its segments span the whole partition axis"),
    ),
    ("quantize_mx", MX),
    ("matmul_mx", MX),
    ("dma_copy_indirect", INDEXED),
    ("dma_compute", INDEXED),
    ("generic_indirect_load", INDEXED),
    ("generic_indirect_save", INDEXED),
    ("all_reduce", COLLECTIVE),
    ("all_gather", COLLECTIVE),
    ("reduce_scatter", COLLECTIVE),
    ("collective_permute_implicit", COLLECTIVE),
    ("collective_permute_implicit_reduce", COLLECTIVE),
    ("send_recv", COLLECTIVE),
    (
        "load_register",
        Rule::Refuse("a register holds one value; its tile has one partition"),
    ),
    (
        "store_register",
        Rule::Refuse("a register holds one value; its tile has one partition"),
    ),
    (
        "rank_id_store",
        Rule::Refuse("the rank id fills one partition"),
    ),
];

fn rule_of(mnemonic: &str) -> Rule {
    RULES
        .iter()
        .find(|(name, _)| *name == mnemonic)
        .map(|(_, r)| *r)
        .unwrap_or(Rule::Refuse("has no partition-tiling rule"))
}

/// The pass.
#[derive(Clone, Debug)]
pub(crate) struct Tiling {
    block: i64,
    max_tile_bytes: i64,
    max_unrolled: i64,
    free_tile_elements: i64,
    uniform: bool,
}

/// A logical tile and the physical one it becomes.
#[derive(Clone, Debug)]
struct Logical {
    tile: Tile,
    /// Blocks: `ceil(P / B)`.
    blocks: i64,
}

impl Logical {
    fn physical(&self, block: i64) -> Tile {
        let mut shape = vec![block, self.blocks];
        shape.extend_from_slice(self.tile.free_shape());
        tile(self.tile.space, &shape, self.tile.dtype)
    }
}

fn key(value: Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

fn tile_of(value: Value<'_, '_>) -> Result<Tile, BuildError> {
    Tile::from_type(value.r#type()).map_err(BuildError::Mlir)
}

fn on_chip(t: &Tile) -> bool {
    t.space != Space::Hbm
}

/// Elements per partition of `t` (checked: the verifier bounds tile sizes to 64 bits).
fn row(t: &Tile) -> i64 {
    t.free_shape().iter().product()
}

/// Rows of block `c` of a `p`-partition axis in blocks of `b`.
fn rows(p: i64, b: i64, c: i64) -> i64 {
    b.min(p - c * b)
}

/// The rewrite state: logical tiles, their physical tiles, and the rewriter.
struct Ctx<'r, 'c, 'a> {
    rewriter: &'r Rewriter<'c>,
    block: i64,
    logical: &'r HashMap<usize, Logical>,
    physical: HashMap<usize, Value<'c, 'a>>,
}

impl<'c, 'a> Ctx<'_, 'c, 'a> {
    fn emit<'s>(&'s self, anchor: OperationRef<'c, 'a>) -> Emit<'s, 'c, 'a> {
        Emit {
            rewriter: self.rewriter,
            anchor,
        }
    }

    /// Partitions `[c B, c B + r)` of `value` (`p` partitions), as a view before `anchor`.
    fn block_of(
        &self,
        anchor: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
        c: i64,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let t = tile_of(value)?;
        let r = rows(t.partitions(), self.block, c);
        let mut shape = vec![r];
        shape.extend_from_slice(t.free_shape());
        let result = tile(t.space, &shape, t.dtype);
        if let (Some(l), Some(phys)) = (
            self.logical.get(&key(value)),
            self.physical.get(&key(value)),
        ) {
            let free = t.free_shape();
            let rlen = row(&t);
            let mut pattern = vec![l.blocks * rlen, r];
            for (i, &n) in free.iter().enumerate() {
                pattern.push(free[i + 1..].iter().product());
                pattern.push(n);
            }
            return self.emit(anchor).view(*phys, &pattern, c * rlen, &result);
        }
        let mut start = vec![0i64; t.shape.len()];
        start[0] = c * self.block;
        self.slice(anchor, value, &start, &result)
    }

    /// Whether `value` is a tile itself (a logical tile, an alloc or a kernel argument), which
    /// a `nisa.dynamic_ap` can address.
    fn is_root(&self, value: Value<'c, 'a>) -> bool {
        self.logical.contains_key(&key(value))
            || is_block_argument(value)
            || sundial_dialects::verify::defining_op(value).is_some_and(|d| op_is(&d, "nisa.alloc"))
    }

    /// `scf.for %c = 0 to full` around one copy of `v` per full block, each operand the
    /// `nisa.dynamic_ap` of block `%c` (offset `%c R` in a physical tile, `%c B R` in a tile
    /// cut by rows); the iterations are independent (`sundial.range = "affine"`).
    fn block_loop(&self, v: &View<'c, 'a>, full: i64) -> Result<(), BuildError> {
        use melior::dialect::arith;
        let op = v.op();
        let context = op.context();
        let loc = op.location();
        let constant = |value: i64, anchor: OperationRef<'c, 'a>| {
            crate::rewrite::index_constant(self.rewriter, anchor, value)
        };
        let (iv, terminator) = crate::rewrite::affine_loop_before(self.rewriter, op, full)?;
        let mut replace = Vec::new();
        for o in v.tile_operands() {
            let t = tile_of(o.value)?;
            let free = t.free_shape();
            let rlen = row(&t);
            let (base, stride_p, step) = match (
                self.logical.get(&key(o.value)),
                self.physical.get(&key(o.value)),
            ) {
                (Some(l), Some(phys)) => (*phys, l.blocks * rlen, rlen),
                _ => (o.value, rlen, self.block * rlen),
            };
            let mut pattern = vec![stride_p, self.block];
            for (i, &n) in free.iter().enumerate() {
                pattern.push(free[i + 1..].iter().product());
                pattern.push(n);
            }
            let step_value = constant(step, terminator)?;
            let offset = self
                .rewriter
                .insert_before(terminator, arith::muli(iv, step_value, loc));
            let offset: Value = offset
                .result(0)
                .map(Into::into)
                .map_err(|e| BuildError::Mlir(e.to_string()))?;
            let mut shape = vec![self.block];
            shape.extend_from_slice(free);
            let ty = tile_type_of(context, &tile(t.space, &shape, t.dtype))?;
            let ap = self.rewriter.build_before(
                terminator,
                OpBuild::at(&op, "nisa.dynamic_ap")?
                    .operand("tensor", base)?
                    .operand("dynamic_offset", offset)?
                    .i64_array("pattern", &pattern)?
                    .result(ty),
            )?;
            let view: Value = ap
                .result(0)
                .map(Into::into)
                .map_err(|e| BuildError::Mlir(e.to_string()))?;
            replace.push((o.index, view));
        }
        let clone: Operation<'c> =
            unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
        let new = self.rewriter.insert_before(terminator, clone);
        for (index, value) in replace {
            set_operand(&new, index, value);
        }
        Ok(())
    }

    /// A `nisa.slice` of `value` from `start` with the shape of `result`.
    fn slice(
        &self,
        anchor: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
        start: &[i64],
        result: &Tile,
    ) -> Result<Value<'c, 'a>, BuildError> {
        if start.iter().all(|&s| s == 0) && tile_of(value)?.shape == result.shape {
            return Ok(value);
        }
        let ty = tile_type_of(value.context(), result)?;
        let op = self.rewriter.build_before(
            anchor,
            OpBuild::at(&anchor, "nisa.slice")?
                .operand("tensor", value)?
                .i64_array("start", start)?
                .result(ty),
        )?;
        op.result(0)
            .map(Into::into)
            .map_err(|e| BuildError::Mlir(e.to_string()))
    }

    /// Columns `[start, start + n)` of the 2-D `value`.
    fn columns(
        &self,
        anchor: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
        start: i64,
        n: i64,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let t = tile_of(value)?;
        self.slice(
            anchor,
            value,
            &[0, start],
            &tile(t.space, &[t.partitions(), n], t.dtype),
        )
    }
}

/// A copy of `op` before `anchor` with operands `replace` (index, value) and attributes
/// `attrs`.
pub(crate) fn copy_op<'c, 'a>(
    rewriter: &Rewriter<'c>,
    op: OperationRef<'c, 'a>,
    replace: &[(usize, Value<'c, 'a>)],
    attrs: &[(&str, melior::ir::Attribute<'c>)],
) -> OperationRef<'c, 'a> {
    let clone: Operation<'c> =
        unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
    let new = rewriter.insert_before(op, clone);
    for (index, value) in replace {
        set_operand(&new, *index, *value);
    }
    for (name, value) in attrs {
        set_attr(&new, name, *value);
    }
    new
}

/// What to do with one op.
#[derive(Debug)]
enum Plan {
    /// One copy per block of `p` partitions; `offset_step` advances `offset` per block.
    Blocks { p: i64, offset_step: i64 },
    /// Per-block partials, combined.
    Reduce { p: i64 },
    /// matmul cuts.
    Matmul,
}

impl Tiling {
    /// The plan for `v`, `None` when it needs no tiling, or the refusal.
    fn plan(
        &self,
        v: &View<'_, '_>,
        logical: &HashMap<usize, Logical>,
    ) -> Result<Option<Plan>, String> {
        let b = self.block;
        let operands = v.tile_operands();
        let mut big = None;
        for o in &operands {
            let t = tile_of(o.value).map_err(|e| e.to_string())?;
            if on_chip(&t) && t.partitions() > b {
                if !logical.contains_key(&key(o.value)) {
                    return Err(if is_block_argument(o.value) {
                        format!(
                            "operand '{}': an on-chip kernel argument of {} partitions (more than {b}) cannot be tiled: its caller fixes the layout; pass it in HBM or in tiles of at most {b} partitions (rule: partition tiling)",
                            o.group,
                            t.partitions()
                        )
                    } else {
                        format!(
                            "operand '{}': a view of {} partitions (more than {b}) cannot be tiled; write the op on the logical tile itself (rule: partition tiling)",
                            o.group,
                            t.partitions()
                        )
                    });
                }
                big = Some(big.map_or(t.partitions(), |p: i64| p.max(t.partitions())));
            }
        }
        let rule = rule_of(v.mnemonic());
        if rule == Rule::Matmul {
            return self.plan_matmul(v);
        }
        let Some(p) = big else { return Ok(None) };
        // A block view is an access pattern: the partition pair and one pair per free dim.
        for o in &operands {
            let t = tile_of(o.value).map_err(|e| e.to_string())?;
            if t.shape.len() > MAX_VIEW_RANK {
                return Err(format!(
                    "operand '{}': a rank-{} tile has more dimensions than a block's access pattern can address ({MAX_VIEW_RANK}: the partition and four free dims) (rule: partition tiling)",
                    o.group,
                    t.shape.len()
                ));
            }
        }
        let same_rows = |skip: Option<&str>| -> Result<(), String> {
            for o in &operands {
                if Some(o.group) == skip {
                    continue;
                }
                let t = tile_of(o.value).map_err(|e| e.to_string())?;
                if t.partitions() != p {
                    return Err(format!(
                        "operand '{}': {} rows where the op's logical tiles have {p} partitions; partition tiling cuts every operand at the same rows (rule: partition tiling)",
                        o.group,
                        t.partitions()
                    ));
                }
            }
            Ok(())
        };
        match rule {
            Rule::Parallel => {
                same_rows(None)?;
                Ok(Some(Plan::Blocks { p, offset_step: 0 }))
            }
            Rule::PartitionIndexed => {
                same_rows(None)?;
                let cm = v.int_attr("channel_multiplier").unwrap_or(0);
                Ok(Some(Plan::Blocks {
                    p,
                    offset_step: b * cm,
                }))
            }
            Rule::Groups(g) => {
                if p % g != 0 || b % g != 0 {
                    return Err(format!(
                        "{p} partitions in blocks of {b}: it works on groups of {g} partitions ({}), so both must be multiples of {g} (rule: partition tiling groups)",
                        if g == CORE_PARTITIONS {
                            "one GpSimd core each"
                        } else {
                            "stream-shuffle quadrants"
                        }
                    ));
                }
                same_rows(None)?;
                Ok(Some(Plan::Blocks { p, offset_step: 0 }))
            }
            Rule::Reduce => {
                let op = v.str_attr("op").unwrap_or_default();
                if !matches!(
                    op.as_str(),
                    "add"
                        | "average"
                        | "max"
                        | "min"
                        | "bitwise_or"
                        | "bitwise_and"
                        | "bitwise_xor"
                ) {
                    return Err(format!(
                        "attribute 'op': no cross-partition form for {op}, so its {p} partitions cannot be combined from blocks (rule: partition reduce op)"
                    ));
                }
                let src = v.tile("src").ok_or("operand 'src' missing")?;
                if op == "min" && src.dtype.is_int() {
                    return Err(format!(
                        "attribute 'op': no cross-partition form for min on integers ({}) (rule: partition reduce op)",
                        src.dtype.mlir_name()
                    ));
                }
                if src.partitions() != p {
                    return Err("operand 'dst' is a logical tile; a partition reduction writes one partition (rule: partition tiling)".into());
                }
                Ok(Some(Plan::Reduce { p }))
            }
            Rule::Refuse(why) => Err(format!(
                "cannot be tiled over {p} partitions (blocks of {b}): it {why} (rule: partition tiling)"
            )),
            Rule::Matmul => self.plan_matmul(v),
        }
    }

    fn plan_matmul(&self, v: &View<'_, '_>) -> Result<Option<Plan>, String> {
        let (Some(d), Some(s), Some(m)) = (v.tile("dst"), v.tile("stationary"), v.tile("moving"))
        else {
            return Ok(None);
        };
        let cap = PSUM_BANK_BYTES / d.dtype.byte_size() as i64;
        let n = row(&d);
        let needs = d.partitions() > self.block || s.partitions() > self.block || n > cap;
        if !needs {
            return Ok(None);
        }
        if d.shape.len() != 2 || s.shape.len() != 2 || m.shape.len() != 2 {
            return Err("partition tiling cuts 2-D matmul tiles only (dst [M, N], stationary [K, M], moving [K, N]) (rule: partition tiling)".into());
        }
        if v.has_attr("tile_position") || v.has_attr("tile_size") {
            return Err(format!(
                "tile_position / tile_size pin the PE geometry, but dst [{}, {}] needs cutting ({} partitions at most, {cap} {} per PSUM bank) (rule: partition tiling)",
                d.shape[0],
                d.shape[1],
                self.block,
                d.dtype.mlir_name()
            ));
        }
        Ok(Some(Plan::Matmul))
    }

    fn apply<'c, 'a>(
        &self,
        ctx: &Ctx<'_, 'c, 'a>,
        v: &View<'c, 'a>,
        plan: &Plan,
    ) -> Result<(), BuildError> {
        let op = v.op();
        let b = self.block;
        let attrs = Attrs::new(op.context());
        match plan {
            Plan::Blocks { p, offset_step } => {
                let blocks = (p + b - 1) / b;
                let offset = v.int_attr("offset").unwrap_or(0);
                let full = p / b;
                let rooted = v.tile_operands().iter().all(|o| ctx.is_root(o.value));
                let first_static = if *offset_step == 0 && rooted && full > self.max_unrolled {
                    ctx.block_loop(v, full)?;
                    full
                } else {
                    0
                };
                for c in first_static..blocks {
                    let mut replace = Vec::new();
                    for o in v.tile_operands() {
                        replace.push((o.index, ctx.block_of(op, o.value, c)?));
                    }
                    let mut set = Vec::new();
                    if *offset_step != 0 {
                        set.push(("offset", attrs.i64(offset + c * offset_step)));
                    }
                    copy_op(ctx.rewriter, op, &replace, &set);
                }
            }
            Plan::Reduce { p } => self.apply_reduce(ctx, v, *p)?,
            Plan::Matmul => self.apply_matmul(ctx, v)?,
        }
        ctx.rewriter.erase(op);
        Ok(())
    }

    fn apply_reduce<'c, 'a>(
        &self,
        ctx: &Ctx<'_, 'c, 'a>,
        v: &View<'c, 'a>,
        p: i64,
    ) -> Result<(), BuildError> {
        let op = v.op();
        let e = ctx.emit(op);
        let missing = || BuildError::Mlir("operand missing".into());
        let dst = v.value("dst").ok_or_else(missing)?;
        let src = v.value("src").ok_or_else(missing)?;
        let src_index = v
            .tile_operands()
            .iter()
            .find(|o| o.group == "src")
            .map(|o| o.index)
            .ok_or_else(missing)?;
        let dst_index = v
            .tile_operands()
            .iter()
            .find(|o| o.group == "dst")
            .map(|o| o.index)
            .ok_or_else(missing)?;
        let d = tile_of(dst)?;
        let s = tile_of(src)?;
        let name = v.str_attr("op").unwrap_or_default();
        let bitvec = name.starts_with("bitwise_");
        let average = name == "average";
        let partial_op = if average { "add" } else { name.as_str() };
        let work = if bitvec { d.dtype } else { Dtype::F32 };
        let partial = tile(Space::Sbuf, &d.shape, work);
        let acc = e.alloc(&partial)?;
        let part = e.alloc(&partial)?;
        let blocks = (p + self.block - 1) / self.block;
        let attrs = Attrs::new(op.context());
        // Elements one output element reduces: the partitions and the reduced free axes.
        let axes = v.i64_array("axis").unwrap_or_else(|| vec![0]);
        let count: i64 = axes
            .iter()
            .map(|&a| s.shape.get(a as usize).copied().unwrap_or(1))
            .product();
        for c in 0..blocks {
            let block = ctx.block_of(op, src, c)?;
            let target = if c == 0 { acc } else { part };
            copy_op(
                ctx.rewriter,
                op,
                &[(dst_index, target), (src_index, block)],
                &[("op", attrs.string(partial_op))],
            );
            if c == 0 {
                continue;
            }
            let last = c + 1 == blocks;
            let out = if last && !average { dst } else { acc };
            let combine = if bitvec {
                "nisa.tensor_tensor_bitvec"
            } else {
                "nisa.tensor_tensor_arith"
            };
            e.tensor_tensor(combine, out, acc, part, Some(partial_op), Engine::Vector)?;
        }
        if average {
            e.tensor_scalar(
                dst,
                acc,
                Step::imm("mult", (1.0f64 / count as f64) as f32),
                None,
                Engine::Vector,
            )?;
        }
        Ok(())
    }

    fn apply_matmul<'c, 'a>(
        &self,
        ctx: &Ctx<'_, 'c, 'a>,
        v: &View<'c, 'a>,
    ) -> Result<(), BuildError> {
        let op = v.op();
        let missing = || BuildError::Mlir("operand missing".into());
        let index = |g: &str| {
            v.tile_operands()
                .iter()
                .find(|o| o.group == g)
                .map(|o| (o.index, o.value))
                .ok_or_else(missing)
        };
        let (di, dst) = index("dst")?;
        let (si, stat) = index("stationary")?;
        let (mi, mov) = index("moving")?;
        let d = tile_of(dst)?;
        let s = tile_of(stat)?;
        let b = self.block;
        let cap = PSUM_BANK_BYTES / d.dtype.byte_size() as i64;
        let (m_all, n_all, k_all) = (d.shape[0], d.shape[1], s.shape[0]);
        let attrs = Attrs::new(op.context());
        for mb in 0..(m_all + b - 1) / b {
            let rm = rows(m_all, b, mb);
            let dst_rows = ctx.block_of(op, dst, mb)?;
            for nb in 0..(n_all + cap - 1) / cap {
                let cn = cap.min(n_all - nb * cap);
                let dst_v = if n_all > cap {
                    ctx.columns(op, dst_rows, nb * cap, cn)?
                } else {
                    dst_rows
                };
                for kb in 0..(k_all + b - 1) / b {
                    let stat_rows = ctx.block_of(op, stat, kb)?;
                    let stat_v = if m_all > b {
                        ctx.columns(op, stat_rows, mb * b, rm)?
                    } else {
                        stat_rows
                    };
                    let mov_rows = ctx.block_of(op, mov, kb)?;
                    let mov_v = if n_all > cap {
                        ctx.columns(op, mov_rows, nb * cap, cn)?
                    } else {
                        mov_rows
                    };
                    let mut set = Vec::new();
                    if kb > 0 {
                        set.push(("accumulate", attrs.bool(true)));
                    }
                    // The first K block keeps the op's own accumulate flag (cloned with it).
                    copy_op(
                        ctx.rewriter,
                        op,
                        &[(di, dst_v), (si, stat_v), (mi, mov_v)],
                        &set,
                    );
                }
            }
        }
        Ok(())
    }
}

fn is_block_argument(value: Value<'_, '_>) -> bool {
    unsafe { mlir_sys::mlirValueIsABlockArgument(value.to_raw()) }
}

impl crate::step::Step for Tiling {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialPartitionTiling";
    const ID: &'static PassId = &PASS_ID;

    fn new(options: &PassOptions) -> Self {
        let uint = |name: &str, default: i64| {
            options
                .get(name)
                .and_then(|v| v.parse::<i64>().ok())
                .unwrap_or(default)
        };
        Tiling {
            block: uint("partition-max-elts", NUM_PARTITIONS),
            max_tile_bytes: uint("max-tile-bytes", 32768),
            max_unrolled: uint("max-unrolled-blocks", 4),
            free_tile_elements: uint("free-tile-elements", 512),
            uniform: options.get("uniform-tiles") == Some("true"),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            if !(1..=NUM_PARTITIONS).contains(&self.block) {
                refuse(
                    &operation,
                    format!(
                        "sundial-partition-tiling: partition-max-elts={} must be in 1..={NUM_PARTITIONS} (rule: partition tiling options)",
                        self.block
                    ),
                );
                pass.signal_failure();
                return false;
            }
            let b = self.block;
            let mut failed = false;
            // 1. Logical allocs, and the physical tiles they become.
            let mut logical: HashMap<usize, Logical> = HashMap::new();
            let allocs = collect(&operation, |op| op_is(op, "nisa.alloc"));
            for alloc in &allocs {
                let Ok(result) = alloc.result(0) else {
                    continue;
                };
                let value: Value = result.into();
                let Ok(t) = Tile::from_type(value.r#type()) else {
                    continue;
                };
                if !on_chip(&t) || t.partitions() <= b {
                    continue;
                }
                let l = Logical {
                    blocks: (t.partitions() + b - 1) / b,
                    tile: t.clone(),
                };
                let bytes = l
                    .blocks
                    .saturating_mul(row(&t))
                    .saturating_mul(t.dtype.byte_size() as i64);
                let (limit, what) = if t.space == Space::Psum {
                    (
                        PSUM_PARTITION_BYTES,
                        "the PSUM of a partition (8 banks of 2 KiB)".to_string(),
                    )
                } else {
                    (
                        self.max_tile_bytes,
                        format!("max-tile-bytes={}", self.max_tile_bytes),
                    )
                };
                if bytes > limit {
                    refuse(
                        alloc,
                        format!(
                            "result: the logical tile of {} partitions becomes [{b}, {}, ...] with {bytes} bytes per partition, more than {what} (rule: partition tiling size)",
                            t.partitions(),
                            l.blocks
                        ),
                    );
                    failed = true;
                }
                // Every user must be an op this pass rewrites per block.
                for user in users(value) {
                    if let Some(uv) = View::of(user)
                        && matches!(
                            uv.mnemonic(),
                            "ap" | "dynamic_ap" | "slice" | "reshape" | "permute" | "broadcast"
                        )
                    {
                        refuse(
                            &user,
                            format!(
                                "a view of the logical tile of {} partitions (more than {b}) cannot be tiled; write the ops on the logical tile itself (rule: partition tiling)",
                                t.partitions()
                            ),
                        );
                        failed = true;
                    }
                }
                logical.insert(key(value), l);
            }
            // 2. The ops to rewrite.
            let views: Vec<View> = crate::rewrite::collect_views(&operation, |spec| {
                !matches!(
                    spec.name,
                    "alloc" | "ap" | "dynamic_ap" | "slice" | "reshape" | "permute" | "broadcast"
                )
            });
            let mut plans = Vec::new();
            let mut refused = std::collections::HashSet::new();
            for v in views {
                match self.plan(&v, &logical) {
                    Ok(Some(p)) => plans.push((v, p)),
                    Ok(None) => {}
                    Err(message) => {
                        refuse(&v.op(), message);
                        refused.insert(v.op().to_raw().ptr as usize);
                        failed = true;
                    }
                }
            }
            // Every use of a logical tile must be an op rewritten per block (views were
            // refused above).
            let planned: std::collections::HashSet<usize> = plans
                .iter()
                .map(|(v, _)| v.op().to_raw().ptr as usize)
                .collect();
            for alloc in &allocs {
                let Ok(result) = alloc.result(0) else {
                    continue;
                };
                let value: Value = result.into();
                if !logical.contains_key(&key(value)) {
                    continue;
                }
                for user in users(value) {
                    let is_view = View::of(user).is_some_and(|uv| {
                        matches!(
                            uv.mnemonic(),
                            "ap" | "dynamic_ap" | "slice" | "reshape" | "permute" | "broadcast"
                        )
                    });
                    let user_key = user.to_raw().ptr as usize;
                    if !is_view && !planned.contains(&user_key) && !refused.contains(&user_key) {
                        refuse(
                            &user,
                            format!(
                                "uses a logical tile of {} partitions (more than {b}), which partition tiling does not rewrite for this op (rule: partition tiling)",
                                logical[&key(value)].tile.partitions()
                            ),
                        );
                        failed = true;
                    }
                }
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            let limits = crate::free_cut::Limits {
                budget: self.free_tile_elements,
                max_tile_bytes: self.max_tile_bytes,
                uniform: self.uniform,
                max_unrolled: self.max_unrolled,
            };
            if plans.is_empty() && logical.is_empty() {
                if !crate::free_cut::run(&operation, &limits) {
                    pass.signal_failure();
                    return false;
                }
                return true;
            }
            // 3. Rewrite: physical tiles first, then every op per block, then the logical allocs.
            let rewriter = Rewriter::new(&operation);
            let mut ctx = Ctx {
                rewriter: &rewriter,
                block: b,
                logical: &logical,
                physical: HashMap::new(),
            };
            for alloc in &allocs {
                let Ok(result) = alloc.result(0) else {
                    continue;
                };
                let value: Value = result.into();
                if let Some(l) = logical.get(&key(value)) {
                    match rewriter.alloc_before(*alloc, &l.physical(b)) {
                        Ok(phys) => {
                            ctx.physical.insert(key(value), phys);
                        }
                        Err(e) => {
                            refuse(alloc, format!("could not be tiled: {e}"));
                            pass.signal_failure();
                            return false;
                        }
                    }
                }
            }
            for (v, p) in &plans {
                if let Err(e) = self.apply(&ctx, v, p) {
                    refuse(&v.op(), format!("could not be tiled: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            for alloc in &allocs {
                if alloc
                    .result(0)
                    .is_ok_and(|r| logical.contains_key(&key(r.into())))
                {
                    rewriter.erase(*alloc);
                }
            }
            // 4. The free-axis cut of the physical ops.
            if !crate::free_cut::run(&operation, &limits) {
                pass.signal_failure();
                return false;
            }
            true
        })
    }
}
