//! `sundial-resolve-engine`: every NISA op that takes an engine gets an explicit, concrete one
//! (pass-rules §2; step 1 of `sundial-middle-end`).
//!
//! An op whose `engine` is absent or `"unknown"` gets, in this order:
//! 1. `tensor_tensor_arith` with op add, subtract or mult, dst and both inputs int32/uint32,
//!    none in PSUM: GpSimd (the seed's rule, `tensor_ops.py:104-115`: GpSimd computes native
//!    32-bit wrapping integers where Vector computes in fp32);
//! 2. a register op (`load_register`, `store_register`, whose table engine is "any
//!    sequencer"): the engine of the ops that share its register (the producer and the users,
//!    through `nisa.ap` views), which must agree: a register lives in one engine's
//!    sequencer [ours];
//! 3. otherwise the resolved default of the op table (`nisa::resolved_default_engine`: Vector
//!    for the polymorphic `tensor_tensor_arith`, `tensor_scalar_arith`, `tensor_copy`,
//!    `memset`; the fixed engine of every other op); `nc_transpose` gets the Vector engine up
//!    to 32 x 32 and the Tensor engine beyond (NKI's "best engine for the shape").
//!
//! Explicit engines are kept: the verifier already refuses the illegal ones (GpSimd with a
//! PSUM operand, GpSimd `tensor_scalar_arith` other than rsqrt, the Scalar engine's
//! `tensor_scalar_arith` forms, Scalar `tensor_copy` on sunda, an engine outside the op's
//! row). Generic ops (`generic_*`, `tensor_partition_reduce`) are left to the passes that
//! lower them. Refusals: a register whose ops name no engine, or several. Options: none.

use crate::{
    registry::{PassInfo, PassOptions},
    rewrite::{collect_views, refuse, set_str, users},
    step::PassId,
    verify_pass::VERIFY_AFTER,
};
use melior::{
    ir::{
        Value, ValueLike,
        operation::{OperationLike, OperationRef},
        r#type::TypeLike,
    },
    pass::ExternalPass,
};
use sundial_dialects::{
    dtype::Dtype,
    enums::{Engine, Space},
    nisa::resolved_default_engine,
    spec::OperandKind,
    verify::{defining_op, nki_parity::VECTOR_TRANSPOSE_MAX, phase::GENERIC_OPS},
    view::View,
};

static PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-resolve-engine",
    summary: "Give every NISA op that takes an engine an explicit, concrete one",
    description: "int32/uint32 tensor_tensor add/subtract/mult without PSUM operands -> gpsimd; register ops -> the engine of the ops sharing the register; otherwise the table's (resolved) default engine. Explicit engines are kept (the verifier checks them).",
    options: &[VERIFY_AFTER],
    create: crate::step::create::<ResolveEngine>,
};

#[derive(Clone, Debug)]
pub(crate) struct ResolveEngine {}

/// The engine rule 1 or 3 gives `v`, or `None` for a register op (rule 2).
fn rule_engine(v: &View<'_, '_>) -> Option<Engine> {
    match v.mnemonic() {
        "load_register" | "store_register" => None,
        "tensor_tensor_arith" => {
            let int_op = matches!(
                v.str_attr("op").as_deref(),
                Some("add" | "subtract" | "mult")
            );
            let tiles: Vec<_> = ["dst", "lhs", "rhs"].iter().map(|g| v.tile(g)).collect();
            let ints = tiles.iter().all(|t| {
                t.as_ref().is_some_and(|t| {
                    matches!(t.dtype, Dtype::I32 | Dtype::U32) && t.space != Space::Psum
                })
            });
            Some(if int_op && ints {
                Engine::Gpsimd
            } else {
                resolved_default_engine(v.spec())
            })
        }
        // NKI picks "the best engine for the tile shape": the Vector engine takes at most
        // 32 x 32, beyond that only the PE array can transpose (the verifier's rule).
        "nc_transpose" => {
            let small = v.tile("data").is_some_and(|t| {
                t.partitions() <= VECTOR_TRANSPOSE_MAX
                    && t.free_size().is_some_and(|f| f <= VECTOR_TRANSPOSE_MAX)
            });
            Some(if small {
                Engine::Vector
            } else {
                Engine::Tensor
            })
        }
        _ => Some(resolved_default_engine(v.spec())),
    }
}

/// Whether `v` needs resolving: it takes an engine, is no generic op, and names none or
/// unknown.
fn unresolved(v: &View<'_, '_>) -> bool {
    v.is_nisa()
        && !v.spec().engines.is_empty()
        && !GENERIC_OPS.iter().any(|(name, _)| *name == v.mnemonic())
        && v.explicit_engine().is_none_or(|e| e == Engine::Unknown)
}

/// The register values `v` defines or reads.
fn registers<'c, 'a>(v: &View<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut out: Vec<Value<'c, 'a>> = Vec::new();
    for operand in v.spec().operands {
        if matches!(operand.kind, OperandKind::Reg) {
            out.extend(v.values(operand.name));
        }
    }
    for index in 0..v.op().result_count() {
        if let Ok(r) = v.op().result(index) {
            out.push(r.into());
        }
    }
    // Results of a register op are registers; tiles are memrefs.
    out.retain(|r| !unsafe { mlir_sys::mlirTypeIsAMemRef(r.r#type().to_raw()) });
    out
}

/// The concrete engines of the ops sharing `reg` (its producer, its users, and through a
/// `nisa.ap` the ap's users), skipping `this` and ops whose engine is not yet known.
fn sharing_engines(reg: Value<'_, '_>, this: &OperationRef<'_, '_>, out: &mut Vec<Engine>) {
    let mut ops: Vec<OperationRef> = users(reg);
    if let Some(def) = defining_op(reg) {
        ops.push(def);
    }
    let mut i = 0;
    while i < ops.len() && i < 4096 {
        let op = ops[i];
        i += 1;
        if op.to_raw().ptr == this.to_raw().ptr {
            continue;
        }
        let Some(v) = View::of(op) else { continue };
        if v.is_nisa() && v.mnemonic() == "ap" {
            if let Ok(r) = op.result(0) {
                ops.extend(users(r.into()));
            }
            continue;
        }
        if v.spec().engines.is_empty() {
            continue;
        }
        let engine = match v.explicit_engine() {
            Some(Engine::Unknown) | None => rule_engine(&v).unwrap_or(Engine::Unknown),
            Some(e) => e,
        };
        if engine != Engine::Unknown && !out.contains(&engine) {
            out.push(engine);
        }
    }
}

impl crate::step::Step for ResolveEngine {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialResolveEngine";
    const ID: &'static PassId = &PASS_ID;

    fn new(_options: &PassOptions) -> Self {
        ResolveEngine {}
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        sundial_dialects::tile::with_caches(|| -> bool {
            let targets: Vec<View> = collect_views(&operation, |spec| {
                !spec.engines.is_empty() && !GENERIC_OPS.iter().any(|(name, _)| *name == spec.name)
            })
            .into_iter()
            .filter(unresolved)
            .collect();
            // Decide everything first: a refusal leaves the IR untouched.
            let mut decided = Vec::with_capacity(targets.len());
            let mut failed = false;
            for v in &targets {
                let engine = match rule_engine(v) {
                    Some(e) => e,
                    None => {
                        let mut engines = Vec::new();
                        for reg in registers(v) {
                            sharing_engines(reg, &v.op(), &mut engines);
                        }
                        engines.sort();
                        match engines.as_slice() {
                            [e] if v.spec().engines.contains(e) => *e,
                            [] => {
                                refuse(
                                    &v.op(),
                                    "engine: no op that shares its register names an engine, so the sequencer that holds the register is unknown; write the engine (rule: register engine)",
                                );
                                failed = true;
                                continue;
                            }
                            several => {
                                let names: Vec<&str> = several.iter().map(|e| e.as_str()).collect();
                                refuse(
                                    &v.op(),
                                    format!(
                                        "engine: the ops that share its register run on {}; a register lives in one engine's sequencer (rule: register engine)",
                                        names.join(" and ")
                                    ),
                                );
                                failed = true;
                                continue;
                            }
                        }
                    }
                };
                decided.push((v.op(), engine));
            }
            if failed {
                pass.signal_failure();
                return false;
            }
            for (op, engine) in decided {
                set_str(&op, "engine", engine.as_str());
            }
            true
        })
    }
}
