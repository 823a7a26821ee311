//! `sundial-infer-intrinsic{contract=...}` (the seed's InferIntrinsicOnCC: `inferIntrinsicOnDAG`,
//! `checkAndExtractRoot`, `infer_fma`, `infer_cast`, `infer_broadcast_dag`; pass-rules §4; step
//! 3 of `sundial-middle-end`): folds chains of elementwise ops into single intrinsics, one
//! instruction instead of a chain.
//!
//! The expression DAG is the memory graph ([`crate::memory`], petgraph): a node is an op, a
//! flow edge carries the tile one op writes and the next reads. Walking the nodes in program
//! order, each one is a root candidate: for each tile it reads, `checkAndExtractRoot` finds the
//! op that produced it and folds the pair when a pattern matches and every gate holds, then
//! tries again (a cast fold can enable an fma fold):
//!
//! | DAG | fused op | class |
//! |---|---|---|
//! | `t = x op0 c; y = t op1 d` (two tensor-scalar steps) | `tensor_scalar_arith` op0/op1 | fma |
//! | `t = x op0 c; y = t op z` or `z op t` | `scalar_tensor_tensor_arith(x, op0, c, op, z)` (`reverse1` for `z op t`) | fma |
//! | `t = memset(c); y = x op t` or `t op x` | `tensor_scalar_arith(x, op, c)` (`reverse0` for `t op x`) | broadcast |
//! | `t:f32 = f(...); y = copy(t)` | `f` writing `y` | cast (output) |
//! | `t:f32 = copy(x: bf16/f16/fp8/8-16-bit int); y = g(t, ...)` | `g(x, ...)` | cast (input) |
//!
//! `c·x + d·y` folds one product into the sum (3 ops -> 2); `tile·tile + tile` has no single-op
//! form and is not fused.
//!
//! Gates (pass-rules §4; details ours):
//! - bit-identity: the engine model computes in fp32 and rounds each ALU step to fp32, so an
//!   fp32 intermediate loses nothing and an fma fold over one is exact; over a narrower
//!   intermediate the fold drops a rounding step, and happens only with `contract=true` (or when
//!   both ops carry `sundial.contract`). Broadcast folds need the constant exactly
//!   representable in the memset tile's dtype; cast folds are exact by construction (an fp32
//!   producer rounds once either way; widening bf16/fp16/fp8/8-16-bit integers to fp32 is
//!   exact), never across 32/64-bit integers;
//! - the intermediate is dead: a kernel-local `nisa.alloc` tile that no view aliases and no
//!   other op uses, written only by the producer before the consumer, read only by the
//!   consumer, once; the producer's inputs are not written between the two (so the fused op
//!   may read them at the consumer's place);
//! - engines: both ops on Vector (the Scalar engine only for the (mult, add) two-op form it
//!   has); never GpSimd (its tensor_scalar is rsqrt-only, and its integer arithmetic wraps
//!   where a fused float path would not [seed]); integer operands are never fma- or
//!   broadcast-fused;
//! - `fuse-io=false` skips DAGs that touch kernel arguments; `min-nonlocals` (default 0) is the
//!   fewest kernel-argument tiles a DAG must read to be fused (neuronx-cc's non-local
//!   threshold, not recovered [wiki]).
//!
//! Every fold removes an op, so the instruction count drops. Refusals: none. Not kept:
//! neuronx-cc's statistics (fma-fused, casts-folded, broadcasts-folded): Rust passes cannot
//! register MLIR statistics through the C API.

use crate::{
    emit::{Emit, Scalar, Step, TensorStep},
    memory::{BufferKind, MemoryGraph, blocks},
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{Rewriter, erase_dead_views, refuse, set_operand},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{BlockRef, Value, ValueLike, operation::OperationRef},
    pass::ExternalPass,
};
use petgraph::stable_graph::NodeIndex;
use sundial_dialects::{
    build::BuildError,
    dtype::Dtype,
    enums::{Engine, Space, Target},
    spec::OperandKind,
    tile::Tile,
    verify::{phase::EXPANDED_ATTR, target_of},
    view::{View, spec_entry_of_raw},
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-infer-intrinsic",
    summary: "Fuse elementwise chains into single intrinsics (fma, broadcast, cast folds)",
    description: "InferIntrinsicOnCC over the memory graph: two tensor-scalar steps -> one two-op tensor_scalar; tensor_scalar then tensor_tensor -> scalar_tensor_tensor; memset constant then tensor_tensor -> tensor_scalar; fp32 producer then dtype copy, or widening copy then consumer -> one op. Bit-identical by default; contract=true also folds over intermediates narrower than fp32. Only dead kernel-local intermediates; never GpSimd or integer fma chains.",
    options: &[
        PassOption {
            name: "contract",
            kind: OptionKind::Bool,
            default: "false",
            help: "Also fold where a rounding step is dropped (intermediates narrower than fp32)",
        },
        PassOption {
            name: "fuse-io",
            kind: OptionKind::Bool,
            default: "true",
            help: "Fuse DAGs that touch kernel arguments",
        },
        PassOption {
            name: "fuse-unpinned",
            kind: OptionKind::Bool,
            default: "false",
            help: "Also fuse into ops whose encoding the ISA table does not pin on the target (the result cannot be selected)",
        },
        PassOption {
            name: "target",
            kind: OptionKind::Enum(&Target::NAMES),
            default: "",
            help: "Target for the pinned check (default: the module's sundial.target)",
        },
        PassOption {
            name: "min-nonlocals",
            kind: OptionKind::Uint,
            default: "0",
            help: "Fewest kernel-argument tiles a DAG must read to be fused",
        },
        VERIFY_AFTER,
    ],
    create: crate::step::create::<Infer>,
};

/// Discardable marker: an op that may be contracted (fused across a rounding step), as MLIR
/// arith's `fastmath<contract>`.
pub const CONTRACT_ATTR: &str = "sundial.contract";

/// The fused form of a tensor-scalar step feeding a tensor-tensor op.
const STT: &str = "scalar_tensor_tensor_arith";

/// Ops fold only across this many ops when a fold moves a write earlier (cast output).
const WINDOW: usize = 64;

/// Ops that compute in fp32 on Vector/Scalar (their inputs may be any dtype the table allows:
/// a widening copy before them folds in).
const FP32_CONSUMERS: &[&str] = &[
    "tensor_scalar_arith",
    "tensor_tensor_arith",
    "scalar_tensor_tensor_arith",
    "activation",
    "tensor_copy",
    "reciprocal",
    "tensor_reduce_arith",
];

/// Ops whose single destination an output cast may fold into (fp32 compute on Vector/Scalar).
const FP32_PRODUCERS: &[&str] = &[
    "tensor_scalar_arith",
    "tensor_tensor_arith",
    "scalar_tensor_tensor_arith",
    "activation",
    "tensor_copy",
    "reciprocal",
];

#[derive(Clone, Debug)]
pub(crate) struct Infer {
    contract: bool,
    fuse_unpinned: bool,
    /// The `target` option; the module's `sundial.target` when absent.
    target: Option<Target>,
    /// The target the current module is compiled for (set per run).
    module_target: Option<Target>,
    fuse_io: bool,
    min_nonlocals: usize,
}

/// A fold found in the graph.
enum Fold<'c, 'a> {
    /// Replace the consumer by a new op (built by `build`), erase the producer.
    Fuse(FusedOp<'c, 'a>),
    /// The consumer reads the copy's source instead of the intermediate; erase the copy.
    WidenInput {
        operand: usize,
        source: Value<'c, 'a>,
    },
    /// The producer writes the copy's destination; erase the copy.
    CastOutput { operand: usize, dst: Value<'c, 'a> },
}

/// The op a fusion builds.
enum FusedOp<'c, 'a> {
    TwoStep {
        dst: Value<'c, 'a>,
        data: Value<'c, 'a>,
        step0: Step<'c, 'a>,
        step1: Step<'c, 'a>,
        engine: Engine,
    },
    ScalarTensorTensor {
        dst: Value<'c, 'a>,
        data: Value<'c, 'a>,
        step0: Step<'c, 'a>,
        step1: TensorStep<'c, 'a>,
    },
    Broadcast {
        dst: Value<'c, 'a>,
        data: Value<'c, 'a>,
        step: Step<'c, 'a>,
    },
}

fn tile_of(value: Value<'_, '_>) -> Option<Tile> {
    Tile::from_type(value.r#type()).ok()
}

/// A single tensor-scalar step of `v` (no op1, not a marked or composite step).
fn single_step<'c, 'a>(v: &View<'c, 'a>) -> Option<Step<'c, 'a>> {
    if v.mnemonic() != "tensor_scalar_arith" || v.has_attr("op1") || v.has_attr(EXPANDED_ATTR) {
        return None;
    }
    let op = static_op(&v.str_attr("op0")?)?;
    let scalar = match v.attr("imm0").and_then(|_| v.float_attr("imm0")) {
        Some(x) => Scalar::Imm(x as f32),
        None => Scalar::Tile(v.value("operand0")?),
    };
    Some(Step {
        op,
        scalar,
        reverse: v.bool_attr("reverse0"),
    })
}

/// The table's spelling of an ALU op, if it may fold (pow and mod are composite forms).
fn static_op(name: &str) -> Option<&'static str> {
    if name == "pow" || name == "mod" {
        return None;
    }
    sundial_dialects::nisa::ARITH_OPS
        .iter()
        .copied()
        .find(|n| *n == name)
}

/// Whether every tile `v` names has a float dtype.
fn all_float(v: &View<'_, '_>) -> bool {
    v.tile_operands()
        .iter()
        .all(|t| tile_of(t.value).is_some_and(|t| t.dtype.is_float()))
}

/// Whether `value` is exactly representable in `dtype` (a memset of it stores it unchanged).
fn exact_in(value: f64, dtype: Dtype) -> bool {
    let single = value as f32;
    if single as f64 != value && !value.is_infinite() {
        return false;
    }
    match dtype {
        Dtype::F32 => true,
        Dtype::Bf16 => single.to_bits() & 0xFFFF == 0,
        Dtype::F16 => half::f16::from_f32(single).to_f32() == single,
        _ => false,
    }
}

/// The engine `v` runs on (explicit, else its table default).
fn engine(v: &View<'_, '_>) -> Engine {
    v.engine()
}

impl Infer {
    /// The gates every fold of producer `p` into consumer `c` through tile `t` needs.
    fn gates(&self, g: &MemoryGraph<'_, '_>, p: NodeIndex, c: NodeIndex, t: Value<'_, '_>) -> bool {
        let Some(place) = g.place(t) else {
            return false;
        };
        let (pn, cn) = (&g.graph[p], &g.graph[c]);
        let private = g.is_private(place.buffer);
        let single_write = pn.writes.len() == 1 && pn.writes[0].place == place;
        let p_reads_t = pn.reads.iter().any(|r| r.place.buffer == place.buffer);
        let reads_once = cn
            .reads
            .iter()
            .filter(|r| r.place.buffer == place.buffer)
            .count()
            == 1;
        let only_reader = g.readers_of(p, place.buffer) == [c];
        let inputs_stable = g
            .overwriters_of_reads(p)
            .iter()
            .all(|&m| g.graph[m].position > cn.position);
        let args: std::collections::BTreeSet<usize> = pn
            .reads
            .iter()
            .chain(cn.reads.iter())
            .chain(cn.writes.iter())
            .map(|a| a.place.buffer)
            .filter(|&b| g.buffers[b].kind == BufferKind::Argument)
            .collect();
        private
            && single_write
            && !p_reads_t
            && reads_once
            && only_reader
            && inputs_stable
            && (self.fuse_io || args.is_empty())
            && args.len() >= self.min_nonlocals
    }

    /// Whether a fold may produce `mnemonic`: its ISA-table row pins an encoding on the module's
    /// target (on some target when none is known), or `fuse-unpinned` is set. Fusing into an
    /// op the back end cannot encode would turn a kernel that compiles into one that does not
    /// (the selector would refuse the fused op), so the fold waits for its layout.
    fn may_fuse_into(&self, mnemonic: &str) -> bool {
        if self.fuse_unpinned {
            return true;
        }
        let Some(row) = sundial_codegen::isa::row(mnemonic) else {
            return false;
        };
        match self.module_target {
            Some(t) => row.pinned(t),
            None => Target::ALL.iter().any(|&t| row.pinned(t)),
        }
    }

    fn may_contract(&self, pv: &View<'_, '_>, cv: &View<'_, '_>, t: &Tile) -> bool {
        t.dtype == Dtype::F32
            || self.contract
            || (pv.has_attr(CONTRACT_ATTR) && cv.has_attr(CONTRACT_ATTR))
    }

    /// The fold of producer `p` into consumer `c` through `t`, if a pattern matches.
    fn pattern<'c, 'a>(
        &self,
        g: &MemoryGraph<'c, 'a>,
        p: NodeIndex,
        c: NodeIndex,
        cv: &View<'c, 'a>,
        t: Value<'c, 'a>,
        operand: usize,
    ) -> Option<Fold<'c, 'a>> {
        // Only these produce a foldable intermediate: look at the name before building a view.
        let (_, pspec) = spec_entry_of_raw(g.graph[p].op.to_raw())?;
        if !matches!(pspec.name, "tensor_scalar_arith" | "memset" | "tensor_copy") {
            return None;
        }
        let pv = View::of(g.graph[p].op)?;
        if !(pv.is_nisa() && self.gates(g, p, c, t)) {
            return None;
        }
        let tt = tile_of(t)?;
        let (pe, ce) = (engine(&pv), engine(cv));
        let fp32_engine = |e: Engine| matches!(e, Engine::Vector | Engine::Scalar);
        // Cast input: a widening copy before an fp32 consumer.
        if pv.mnemonic() == "tensor_copy"
            && FP32_CONSUMERS.contains(&cv.mnemonic())
            && fp32_engine(ce)
        {
            let x = pv.value("src")?;
            let xt = tile_of(x)?;
            let widens = matches!(
                xt.dtype,
                Dtype::Bf16
                    | Dtype::F16
                    | Dtype::F8E4M3
                    | Dtype::F8E4M3Fn
                    | Dtype::F8E5M2
                    | Dtype::F8E3M4
                    | Dtype::I8
                    | Dtype::U8
                    | Dtype::I16
                    | Dtype::U16
            );
            let spec = cv
                .spec()
                .operands
                .iter()
                .find(|o| o.name == operand_group(cv, operand))?;
            let accepts = match spec.kind {
                OperandKind::Tile { spaces, dtypes, .. } => {
                    spaces.contains(xt.space) && dtypes.contains(xt.dtype)
                }
                _ => false,
            };
            if tt.dtype == Dtype::F32 && widens && xt.shape == tt.shape && accepts {
                return Some(Fold::WidenInput { operand, source: x });
            }
            return None;
        }
        let both_vector = pe == Engine::Vector && ce == Engine::Vector;
        // Broadcast: a constant tile into a tensor-tensor op.
        if pv.mnemonic() == "memset"
            && cv.mnemonic() == "tensor_tensor_arith"
            && ce == Engine::Vector
        {
            let value = pv
                .float_attr("value")
                .or_else(|| pv.int_attr("value").map(|i| i as f64))?;
            let op = static_op(&cv.str_attr("op")?)?;
            let (lhs, rhs) = (cv.value("lhs")?, cv.value("rhs")?);
            let t_is_lhs = lhs == t;
            let other = if t_is_lhs { rhs } else { lhs };
            if !exact_in(value, tt.dtype) || other == t || !all_float(cv) {
                return None;
            }
            return Some(Fold::Fuse(FusedOp::Broadcast {
                dst: cv.value("dst")?,
                data: other,
                step: Step {
                    op,
                    scalar: Scalar::Imm(value as f32),
                    reverse: t_is_lhs,
                },
            }));
        }
        // fma: a tensor-scalar step feeding a tensor-scalar step or a tensor-tensor op.
        if let Some(step0) = single_step(&pv) {
            if !all_float(&pv) || !all_float(cv) || !self.may_contract(&pv, cv, &tt) {
                return None;
            }
            let data = pv.value("data")?;
            if let Some(step1) = single_step(cv) {
                let scalar_form = pe == Engine::Scalar
                    && ce == Engine::Scalar
                    && step0.op == "mult"
                    && step1.op == "add";
                if cv.value("data")? != t || !(both_vector || scalar_form) {
                    return None;
                }
                return Some(Fold::Fuse(FusedOp::TwoStep {
                    dst: cv.value("dst")?,
                    data,
                    step0,
                    step1,
                    engine: pe,
                }));
            }
            if cv.mnemonic() == "tensor_tensor_arith" && both_vector {
                let op = static_op(&cv.str_attr("op")?)?;
                let (lhs, rhs) = (cv.value("lhs")?, cv.value("rhs")?);
                let t_is_rhs = rhs == t;
                let other = if t_is_rhs { lhs } else { rhs };
                let psum = |v: Value| tile_of(v).is_some_and(|t| t.space == Space::Psum);
                if other == t || (psum(data) && psum(other)) || !self.may_fuse_into(STT) {
                    return None;
                }
                return Some(Fold::Fuse(FusedOp::ScalarTensorTensor {
                    dst: cv.value("dst")?,
                    data,
                    step0,
                    step1: TensorStep {
                        op,
                        tensor: other,
                        reverse: t_is_rhs,
                    },
                }));
            }
        }
        None
    }

    /// The cast-output fold of copy `c` into the producer of its source.
    fn cast_output<'c, 'a>(
        &self,
        g: &MemoryGraph<'c, 'a>,
        c: NodeIndex,
        cv: &View<'c, 'a>,
    ) -> Option<(NodeIndex, Fold<'c, 'a>)> {
        if cv.mnemonic() != "tensor_copy" {
            return None;
        }
        let (t, y) = (cv.value("src")?, cv.value("dst")?);
        let p = g.unique_producer(c, t)?;
        let pv = View::of(g.graph[p].op)?;
        if !pv.is_nisa()
            || !FP32_PRODUCERS.contains(&pv.mnemonic())
            || !matches!(engine(&pv), Engine::Vector | Engine::Scalar)
            || !self.gates(g, p, c, t)
        {
            return None;
        }
        let (tt, yt) = (tile_of(t)?, tile_of(y)?);
        let dst_group = pv
            .tile_operands()
            .into_iter()
            .find(|o| o.write && o.value == t)?;
        let spec = pv
            .spec()
            .operands
            .iter()
            .find(|o| o.name == dst_group.group)?;
        let accepts = match spec.kind {
            OperandKind::Tile { spaces, dtypes, .. } => {
                spaces.contains(yt.space) && dtypes.contains(yt.dtype)
            }
            _ => false,
        };
        let (pp, cp) = (g.graph[p].position, g.graph[c].position);
        let y_place = g.place(y)?;
        let quiet = cp - pp <= WINDOW
            && g.nodes_between(pp, cp).iter().all(|&m| {
                let node = &g.graph[m];
                node.reads.iter().chain(node.writes.iter()).all(|a| {
                    a.place.buffer != y_place.buffer || !a.place.region.overlaps(y_place.region)
                })
            });
        let p_touches_y = g.graph[p]
            .reads
            .iter()
            .any(|r| r.place.buffer == y_place.buffer);
        // The producer will name y: y must exist there (defined before it, or outside the block).
        let producer = g.graph[p].op;
        let y_before_p = sundial_dialects::verify::defining_op(y).is_none_or(|def| {
            let block =
                |op: mlir_sys::MlirOperation| unsafe { mlir_sys::mlirOperationGetBlock(op).ptr };
            block(def.to_raw()) != block(producer.to_raw())
                || unsafe {
                    mlir_sys::mlirOperationIsBeforeInBlock(def.to_raw(), producer.to_raw())
                }
        });
        let ok = tt.dtype == Dtype::F32
            && !yt.dtype.is_int()
            && yt.shape == tt.shape
            && accepts
            && quiet
            && !p_touches_y
            && y_before_p;
        ok.then_some((
            p,
            Fold::CastOutput {
                operand: dst_group.index,
                dst: y,
            },
        ))
    }

    /// The first fold rooted at `c`: (producer, fold, the intermediate tile).
    fn find<'c, 'a>(
        &self,
        g: &MemoryGraph<'c, 'a>,
        c: NodeIndex,
    ) -> Option<(NodeIndex, Fold<'c, 'a>, Value<'c, 'a>)> {
        // Only fp32-computing ops are roots: look at the name before building a view.
        let (_, spec) = spec_entry_of_raw(g.graph[c].op.to_raw())?;
        if !FP32_CONSUMERS.contains(&spec.name) {
            return None;
        }
        let cv = View::of(g.graph[c].op)?;
        if !cv.is_nisa() {
            return None;
        }
        if let Some((p, fold)) = self.cast_output(g, c, &cv) {
            return Some((p, fold, cv.value("src")?));
        }
        for operand in cv.tile_operands().into_iter().filter(|o| !o.write) {
            let Some(p) = g.unique_producer(c, operand.value) else {
                continue;
            };
            if let Some(fold) = self.pattern(g, p, c, &cv, operand.value, operand.index) {
                return Some((p, fold, operand.value));
            }
        }
        None
    }

    fn run_block<'c, 'a>(
        &self,
        rewriter: &Rewriter<'c>,
        block: BlockRef<'c, 'a>,
    ) -> Result<(), (OperationRef<'c, 'a>, BuildError)> {
        let mut g = MemoryGraph::build(block);
        for c in g.nodes_in_order() {
            // Bounded: every fold removes an op of the block.
            for _ in 0..16 {
                if !g.graph.contains_node(c) {
                    break;
                }
                let Some((p, fold, t)) = self.find(&g, c) else {
                    break;
                };
                let buffer = g.place(t).map(|pl| pl.buffer);
                let consumer = g.graph[c].op;
                let producer = g.graph[p].op;
                match fold {
                    Fold::Fuse(fused) => {
                        let e = Emit {
                            rewriter,
                            anchor: consumer,
                        };
                        let new = build(&e, fused).map_err(|err| (consumer, err))?;
                        rewriter.erase(consumer);
                        rewriter.erase(producer);
                        g.absorb(c, p, false);
                        g.replace_op(c, new);
                        if let Some(b) = buffer {
                            g.drop_reads(c, b);
                        }
                    }
                    Fold::WidenInput { operand, source } => {
                        set_operand(&consumer, operand, source);
                        rewriter.erase(producer);
                        g.absorb(c, p, false);
                        if let Some(b) = buffer {
                            g.drop_reads(c, b);
                        }
                    }
                    Fold::CastOutput { operand, dst } => {
                        set_operand(&producer, operand, dst);
                        rewriter.erase(consumer);
                        g.absorb(p, c, true);
                        if let Some(b) = buffer {
                            g.drop_reads(p, b);
                        }
                        // The copy is gone: its node's work is the producer's now.
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The operand group of operand `index` of `v`.
fn operand_group(v: &View<'_, '_>, index: usize) -> &'static str {
    v.spec()
        .operands
        .iter()
        .find(|o| {
            v.group(o.name)
                .is_some_and(|(start, len)| (start..start + len).contains(&index))
        })
        .map(|o| o.name)
        .unwrap_or("")
}

fn build<'c, 'a>(
    e: &Emit<'_, 'c, 'a>,
    fused: FusedOp<'c, 'a>,
) -> Result<OperationRef<'c, 'a>, BuildError> {
    match fused {
        FusedOp::TwoStep {
            dst,
            data,
            step0,
            step1,
            engine,
        } => e.tensor_scalar(dst, data, step0, Some(step1), engine),
        FusedOp::ScalarTensorTensor {
            dst,
            data,
            step0,
            step1,
        } => e.scalar_tensor_tensor(dst, data, step0, step1, Engine::Vector),
        FusedOp::Broadcast { dst, data, step } => {
            e.tensor_scalar(dst, data, step, None, Engine::Vector)
        }
    }
}

impl crate::step::Step for Infer {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialInferIntrinsic";
    const ID: &'static PassId = &PASS_ID;

    fn new(options: &PassOptions) -> Self {
        Infer {
            contract: options.flag("contract"),
            fuse_unpinned: options.flag("fuse-unpinned"),
            target: options.get("target").and_then(Target::from_name),
            module_target: None,
            fuse_io: options.get("fuse-io") != Some("false"),
            min_nonlocals: options
                .get("min-nonlocals")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        self.module_target = self.target.or_else(|| target_of(&operation));
        sundial_dialects::tile::with_caches(|| -> bool {
            let rewriter = Rewriter::new(&operation);
            for block in blocks(&operation) {
                if let Err((op, e)) = self.run_block(&rewriter, block) {
                    refuse(&op, format!("could not be fused: {e}"));
                    pass.signal_failure();
                    return false;
                }
            }
            erase_dead_views(&operation);
            true
        })
    }
}
