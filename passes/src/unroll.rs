//! `sundial-unroll{max-unroll=N}`: fully unrolls constant-bound loops into the static form
//! that selection consumes.
//!
//! In order:
//! 1. **Hoisting.** In every `scf.for`, innermost first, the ops of
//!    [`sundial_dialects::loops::HOISTABLE`] (access patterns, the index arithmetic and program
//!    queries they use) whose operands are all defined outside the loop move in front of it:
//!    a loop-invariant access pattern is then built once, whether the loop is unrolled or not.
//! 2. **Unrolling.** Every loop with constant bounds and step (NKI `affine_range` /
//!    `sequential_range`), nested ones included, is replaced by one copy of its body per
//!    iteration, the induction variable replaced by its value (loop-carried `iter_args` are
//!    threaded through the copies). Before a loop nest is unrolled its unrolled size is
//!    counted: the ops it would produce (a loop that stays counts once, with one copy of its
//!    body; an inner loop whose bounds depend on an outer induction variable counts with its
//!    largest trip count; a loop counts at least one per iteration, even with an empty body). A nest over `max-unroll` ops fails the pass with an error at the
//!    loop, which names it and the size.
//! 3. **Folding.** Every `nisa.dynamic_ap` whose dynamic offset is now a constant becomes a
//!    static `nisa.ap` with the offset folded into its `offset` attribute; one still affine in
//!    variables (a kept loop's induction variable, a program id) keeps a dynamic offset rebuilt
//!    from the variables alone, its constant part folded into `offset`. Index arithmetic left
//!    without uses is erased, and the hoisting runs once more for what the folding built.
//!
//! Kept as loops: loops whose trip count lives in a register (NKI `dynamic_range`: a bound
//! computed from `nisa.register_index`; the hardware runs them with a loop instruction) and
//! loops with any other non-constant bound (a function argument, a program id). Static
//! loops inside them are still unrolled, and the access patterns in them still hoisted.

use crate::{
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    step::{PassId, Step},
};
use melior::{
    ir::{
        Location,
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    },
    pass::ExternalPass,
};
use mlir_sys::{MlirOperation, MlirValue};
use sundial_dialects::{
    ffi::{emit_error, op_name},
    loops::{
        Extremes, HOISTABLE, StaticLoop, describe_loop, eval_index, extremes, index_leaves,
        loop_bounds, static_loop, trip_count,
    },
};

static UNROLL_PASS_ID: PassId = PassId::new();

/// The default of `max-unroll`: ops one unrolled loop nest may produce.
pub const DEFAULT_MAX_UNROLL: u64 = 65536;

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-unroll",
    summary: "Fully unroll constant-bound loops into static NISA (loop-invariant access patterns hoisted)",
    description: "Hoists loop-invariant access patterns (and the index arithmetic and program queries they use) out of every scf.for, fully unrolls every loop with constant bounds and step (NKI affine_range / sequential_range, nested too), and folds each nisa.dynamic_ap whose offset becomes a constant into a static nisa.ap. Keeps loops whose trip count lives in a register (dynamic_range: a bound from nisa.register_index) and loops with other non-constant bounds. Fails at the loop when unrolling a loop nest would produce more than max-unroll ops.",
    options: &[PassOption {
        name: "max-unroll",
        kind: OptionKind::Uint,
        default: "65536",
        help: "Most ops one unrolled loop nest may produce",
    }],
    create: crate::step::create::<UnrollPass>,
};

#[derive(Clone, Debug)]
struct UnrollPass {
    max_unroll: u64,
}

impl Step for UnrollPass {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialUnroll";
    const ID: &'static PassId = &UNROLL_PASS_ID;

    fn new(options: &PassOptions) -> Self {
        // Validated as a u64 by the registry; the default when absent.
        let max_unroll = options
            .get("max-unroll")
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_MAX_UNROLL);
        UnrollPass { max_unroll }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        let ok = unroll(&operation, self.max_unroll);
        if !ok {
            pass.signal_failure();
        }
        ok
    }
}

/// Runs the pass on everything nested in `root`; `false` (after an error at the loop) when a
/// loop nest passes `max_unroll`.
pub fn unroll(root: &OperationRef<'_, '_>, max_unroll: u64) -> bool {
    hoist_all(root);
    // Each round unrolls the outermost static loops; the static loops of their bodies are
    // outermost in the next round. A round removes at least one loop, so this ends; the cap
    // only guards against a bug turning into a hang.
    for _ in 0..100_000 {
        let candidates = outermost_static_loops(root);
        if candidates.is_empty() {
            break;
        }
        let mut ok = true;
        for &(op, s) in &candidates {
            let size = unrolled(s.trip, block_size(body(op)));
            if size > u128::from(max_unroll) {
                emit_error(
                    location(op),
                    &format!(
                        "'scf.for' op unrolling {} would produce {size} ops ({} iterations), more than max-unroll={max_unroll}",
                        describe_loop(op),
                        s.trip
                    ),
                );
                ok = false;
            }
        }
        if !ok {
            return false;
        }
        for (op, s) in candidates {
            unsafe { unroll_loop(op, s) };
        }
    }
    fold_dynamic_aps(root);
    erase_dead_index_ops(root);
    // The constants the folding built inside kept loops are invariant too.
    hoist_all(root);
    true
}

fn location<'c>(op: MlirOperation) -> Location<'c> {
    unsafe { Location::from_raw(mlir_sys::mlirOperationGetLocation(op)) }
}

fn collect(root: &OperationRef<'_, '_>, name: &str) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    root.walk(WalkOrder::PostOrder, |op| {
        if op_name(op.to_raw()) == name {
            out.push(op.to_raw());
        }
        WalkResult::Advance
    });
    out
}

fn parent(op: MlirOperation) -> Option<MlirOperation> {
    let p = unsafe { mlir_sys::mlirOperationGetParentOperation(op) };
    (!p.ptr.is_null()).then_some(p)
}

/// Whether `op` is nested (at any depth) inside `ancestor`.
fn inside(op: MlirOperation, ancestor: MlirOperation) -> bool {
    let mut cursor = parent(op);
    while let Some(p) = cursor {
        if p.ptr == ancestor.ptr {
            return true;
        }
        cursor = parent(p);
    }
    false
}

/// Whether `value` is defined inside `op` (by an op nested in it, or as an argument of one
/// of its blocks).
fn defined_inside(value: MlirValue, op: MlirOperation) -> bool {
    unsafe {
        let owner = if mlir_sys::mlirValueIsABlockArgument(value) {
            mlir_sys::mlirBlockGetParentOperation(mlir_sys::mlirBlockArgumentGetOwner(value))
        } else {
            let def = mlir_sys::mlirOpResultGetOwner(value);
            if def.ptr == op.ptr {
                return true;
            }
            def
        };
        !owner.ptr.is_null() && (owner.ptr == op.ptr || inside(owner, op))
    }
}

fn body(op: MlirOperation) -> mlir_sys::MlirBlock {
    unsafe { mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(op, 0)) }
}

fn ops_of(block: mlir_sys::MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    if block.ptr.is_null() {
        return out;
    }
    let mut cursor = unsafe { mlir_sys::mlirBlockGetFirstOperation(block) };
    while !cursor.ptr.is_null() {
        out.push(cursor);
        cursor = unsafe { mlir_sys::mlirOperationGetNextInBlock(cursor) };
    }
    out
}

fn operands(op: MlirOperation) -> Vec<MlirValue> {
    let n = unsafe { mlir_sys::mlirOperationGetNumOperands(op) };
    (0..n)
        .map(|i| unsafe { mlir_sys::mlirOperationGetOperand(op, i) })
        .collect()
}

/// Step 1: moves the loop-invariant hoistable ops of every loop in front of it. Loops are
/// visited innermost first, so an op leaves a whole nest when it is invariant in all of it.
fn hoist_all(root: &OperationRef<'_, '_>) {
    for loop_op in collect(root, "scf.for") {
        for op in ops_of(body(loop_op)) {
            let name = op_name(op);
            let regions = unsafe { mlir_sys::mlirOperationGetNumRegions(op) };
            if regions == 0
                && HOISTABLE.contains(&&*name)
                && operands(op).iter().all(|&v| !defined_inside(v, loop_op))
            {
                unsafe { mlir_sys::mlirOperationMoveBefore(op, loop_op) };
            }
        }
    }
}

/// The static loops that no static loop encloses.
fn outermost_static_loops(root: &OperationRef<'_, '_>) -> Vec<(MlirOperation, StaticLoop)> {
    let mut out = Vec::new();
    for op in collect(root, "scf.for") {
        let Some(s) = static_loop(op) else { continue };
        let mut cursor = parent(op);
        let mut enclosed = false;
        while let Some(p) = cursor {
            if op_name(p) == "scf.for" && static_loop(p).is_some() {
                enclosed = true;
                break;
            }
            cursor = parent(p);
        }
        if !enclosed {
            out.push((op, s));
        }
    }
    out
}

/// The largest trip count of a loop over the iteration space of the loops around it, when its
/// bounds are affine in their (constant-bound) induction variables.
fn max_trip(op: MlirOperation) -> Option<u128> {
    let [lower, upper, step] = loop_bounds(op);
    let step = step?.as_constant()?;
    let Extremes::Range(lo, _) = extremes(&lower?, None) else {
        return None;
    };
    let Extremes::Range(_, hi) = extremes(&upper?, None) else {
        return None;
    };
    trip_count(lo.value, hi.value, step)
}

/// The size of `trip` copies of a body of `body` ops. An empty body still costs an
/// iteration each (the pass builds the copy and the induction variable's constant), so a
/// loop counts at least its trip count: a billion iterations of nothing is not free.
fn unrolled(trip: u128, body: u128) -> u128 {
    trip.saturating_mul(body).max(trip)
}

/// The number of ops `block` becomes once its static loops are unrolled (terminators not
/// counted).
fn block_size(block: mlir_sys::MlirBlock) -> u128 {
    let mut total: u128 = 0;
    let terminator = unsafe { mlir_sys::mlirBlockGetTerminator(block) };
    for op in ops_of(block) {
        if op.ptr == terminator.ptr {
            continue;
        }
        let size = if op_name(op) == "scf.for" {
            match max_trip(op) {
                Some(trip) => unrolled(trip, block_size(body(op))),
                None => 1u128.saturating_add(block_size(body(op))),
            }
        } else {
            let regions = unsafe { mlir_sys::mlirOperationGetNumRegions(op) };
            let mut size: u128 = 1;
            for r in 0..regions {
                let region = unsafe { mlir_sys::mlirOperationGetRegion(op, r) };
                let mut b = unsafe { mlir_sys::mlirRegionGetFirstBlock(region) };
                while !b.ptr.is_null() {
                    size = size.saturating_add(block_size(b));
                    b = unsafe { mlir_sys::mlirBlockGetNextInRegion(b) };
                }
            }
            size
        };
        total = total.saturating_add(size);
    }
    total
}

/// An `arith.constant` of type `ty` with value `value`, created detached.
unsafe fn constant(
    context: mlir_sys::MlirContext,
    loc: mlir_sys::MlirLocation,
    ty: mlir_sys::MlirType,
    value: i64,
) -> MlirOperation {
    unsafe {
        let name = mlir_sys::mlirStringRefCreateFromCString(c"arith.constant".as_ptr());
        let mut state = mlir_sys::mlirOperationStateGet(name, loc);
        let attr = mlir_sys::mlirNamedAttributeGet(
            mlir_sys::mlirIdentifierGet(
                context,
                mlir_sys::mlirStringRefCreateFromCString(c"value".as_ptr()),
            ),
            mlir_sys::mlirIntegerAttrGet(ty, value),
        );
        mlir_sys::mlirOperationStateAddAttributes(&mut state, 1, &attr);
        mlir_sys::mlirOperationStateAddResults(&mut state, 1, &ty);
        mlir_sys::mlirOperationCreate(&mut state)
    }
}

/// Step 2 for one loop: one copy of the body per iteration, in front of the loop, then the
/// loop is erased.
///
/// # Safety
/// `op` is an `scf.for` in a block, with the constant bounds `s`.
unsafe fn unroll_loop(op: MlirOperation, s: StaticLoop) {
    unsafe {
        let block = mlir_sys::mlirOperationGetBlock(op);
        let context = mlir_sys::mlirOperationGetContext(op);
        let loc = mlir_sys::mlirOperationGetLocation(op);
        let iv_type = mlir_sys::mlirValueGetType(mlir_sys::mlirBlockGetArgument(body(op), 0));
        // Operands: lower, upper, step, then the initial values of the iter_args.
        let mut carried: Vec<MlirValue> = operands(op).into_iter().skip(3).collect();
        for k in 0..s.trip {
            // The values of an induction variable lie between two i64 constants.
            let value = s.value(k).and_then(|v| i64::try_from(v).ok()).unwrap_or(0);
            let c = constant(context, loc, iv_type, value);
            mlir_sys::mlirBlockInsertOwnedOperationBefore(block, op, c);
            let copy = mlir_sys::mlirOperationClone(op);
            mlir_sys::mlirBlockInsertOwnedOperationBefore(block, op, copy);
            let copy_body = body(copy);
            mlir_sys::mlirValueReplaceAllUsesOfWith(
                mlir_sys::mlirBlockGetArgument(copy_body, 0),
                mlir_sys::mlirOperationGetResult(c, 0),
            );
            for (j, &v) in carried.iter().enumerate() {
                mlir_sys::mlirValueReplaceAllUsesOfWith(
                    mlir_sys::mlirBlockGetArgument(copy_body, j as isize + 1),
                    v,
                );
            }
            let terminator = mlir_sys::mlirBlockGetTerminator(copy_body);
            for inner in ops_of(copy_body) {
                if inner.ptr != terminator.ptr {
                    mlir_sys::mlirOperationMoveBefore(inner, op);
                }
            }
            carried = operands(terminator);
            mlir_sys::mlirOperationDestroy(copy);
        }
        for (j, &v) in carried.iter().enumerate() {
            mlir_sys::mlirValueReplaceAllUsesOfWith(
                mlir_sys::mlirOperationGetResult(op, j as isize),
                v,
            );
        }
        mlir_sys::mlirOperationDestroy(op);
    }
}

/// Step 3: every `nisa.dynamic_ap` with a constant dynamic offset becomes a static `nisa.ap`;
/// one whose offset is still affine in variables (kept loops, program ids) gets its constant
/// part folded into `offset` and the rest rebuilt from the variables alone.
fn fold_dynamic_aps(root: &OperationRef<'_, '_>) {
    let mut built = Built::new();
    for op in collect(root, "nisa.dynamic_ap") {
        let ops = operands(op);
        let Some(&dynamic) = ops.get(1) else { continue };
        let Some(expr) = eval_index(dynamic) else {
            continue;
        };
        match expr.as_constant() {
            Some(value) => unsafe { fold_to_ap(op, value) },
            None => unsafe { simplify_offset(op, &expr, &mut built) },
        }
    }
}

fn attr_i64(op: MlirOperation, name: &std::ffi::CStr) -> Option<i64> {
    unsafe {
        let raw = mlir_sys::mlirOperationGetAttributeByName(
            op,
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
        );
        melior::ir::Attribute::from_option_raw(raw).and_then(sundial_dialects::verify::int_value)
    }
}

/// An `arith` binary op on two index values, created in front of `before`.
unsafe fn binary(
    name: &std::ffi::CStr,
    a: MlirValue,
    b: MlirValue,
    before: MlirOperation,
) -> MlirValue {
    unsafe {
        let mut state = mlir_sys::mlirOperationStateGet(
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
            mlir_sys::mlirOperationGetLocation(before),
        );
        let ty = mlir_sys::mlirValueGetType(a);
        mlir_sys::mlirOperationStateAddOperands(&mut state, 2, [a, b].as_ptr());
        mlir_sys::mlirOperationStateAddResults(&mut state, 1, &ty);
        let op = mlir_sys::mlirOperationCreate(&mut state);
        mlir_sys::mlirBlockInsertOwnedOperationBefore(
            mlir_sys::mlirOperationGetBlock(before),
            before,
            op,
        );
        mlir_sys::mlirOperationGetResult(op, 0)
    }
}

/// Whether `value` is the one-term form `simplify_offset` would build from `terms`: the
/// variable itself (coefficient 1), or `arith.muli` of it and an `arith.constant`.
fn canonical(value: MlirValue, terms: &[(MlirValue, i64)]) -> bool {
    let [(leaf, coef)] = terms else { return false };
    if *coef == 1 {
        return value.ptr == leaf.ptr;
    }
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value) {
            return false;
        }
        let op = mlir_sys::mlirOpResultGetOwner(value);
        if op_name(op) != "arith.muli" {
            return false;
        }
        let ops = operands(op);
        let is_const = |v: MlirValue| {
            mlir_sys::mlirValueIsAOpResult(v)
                && op_name(mlir_sys::mlirOpResultGetOwner(v)) == "arith.constant"
        };
        ops.len() == 2
            && ((ops[0].ptr == leaf.ptr && is_const(ops[1]))
                || (ops[1].ptr == leaf.ptr && is_const(ops[0])))
    }
}

/// The variable parts already rebuilt: (block, terms as (leaf value, coefficient)) -> value.
/// Ops are visited in block order, so a value built for an earlier op of the same block
/// dominates the later ones and is reused instead of rebuilt.
type Built = std::collections::HashMap<(usize, Vec<(usize, i64)>), MlirValue>;

/// Rebuilds the dynamic offset of `op` as `sum(coef * var)` from the variables' own values
/// and adds the constant part to `offset`. Left alone when it already has that form (see
/// [`canonical`]), or when a variable is not an `index` value.
///
/// # Safety
/// `op` is a verified `nisa.dynamic_ap` in a block whose dynamic offset reads as `expr`.
unsafe fn simplify_offset(
    op: MlirOperation,
    expr: &sundial_dialects::loops::Affine,
    built: &mut Built,
) {
    unsafe {
        let dynamic = mlir_sys::mlirOperationGetOperand(op, 1);
        let leaves = index_leaves(dynamic);
        let mut values = Vec::new();
        for (var, coef) in &expr.terms {
            let Some(&(_, v)) = leaves.iter().find(|(w, _)| w == var) else {
                return;
            };
            let Ok(coef) = i64::try_from(*coef) else {
                return;
            };
            if !mlir_sys::mlirTypeIsAIndex(mlir_sys::mlirValueGetType(v)) {
                return;
            }
            values.push((v, coef));
        }
        let Some(offset) = i64::try_from(expr.constant)
            .ok()
            .and_then(|c| c.checked_add(attr_i64(op, c"offset").unwrap_or(0)))
        else {
            return;
        };
        let context = mlir_sys::mlirOperationGetContext(op);
        let loc = mlir_sys::mlirOperationGetLocation(op);
        let block = mlir_sys::mlirOperationGetBlock(op);
        let key = (
            block.ptr as usize,
            values.iter().map(|(v, c)| (v.ptr as usize, *c)).collect(),
        );
        // Already in the rebuilt form (`var` or `var * c`, no constant part): kept, and
        // reused by the later ops of the block.
        if expr.constant == 0 && canonical(dynamic, &values) {
            built.entry(key).or_insert(dynamic);
            return;
        }
        let mut sum: Option<MlirValue> = built.get(&key).copied();
        let todo = if sum.is_some() { Vec::new() } else { values };
        for (v, coef) in todo {
            let term = if coef == 1 {
                v
            } else {
                let c = constant(context, loc, mlir_sys::mlirValueGetType(v), coef);
                mlir_sys::mlirBlockInsertOwnedOperationBefore(block, op, c);
                binary(c"arith.muli", v, mlir_sys::mlirOperationGetResult(c, 0), op)
            };
            sum = Some(match sum {
                None => term,
                Some(s) => binary(c"arith.addi", s, term, op),
            });
        }
        let Some(sum) = sum else { return };
        built.insert(key, sum);
        mlir_sys::mlirOperationSetOperand(op, 1, sum);
        let attr = mlir_sys::mlirIntegerAttrGet(mlir_sys::mlirIntegerTypeGet(context, 64), offset);
        mlir_sys::mlirOperationSetAttributeByName(
            op,
            mlir_sys::mlirStringRefCreateFromCString(c"offset".as_ptr()),
            attr,
        );
    }
}

/// Replaces `nisa.dynamic_ap` `op`, whose dynamic offset is `dynamic`, by a static `nisa.ap`.
///
/// # Safety
/// `op` is a verified `nisa.dynamic_ap` in a block.
unsafe fn fold_to_ap(op: MlirOperation, dynamic: i128) {
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(op);
        let mut attrs = Vec::new();
        let mut offset: i128 = 0;
        let mut segments = None;
        let n = mlir_sys::mlirOperationGetNumAttributes(op);
        for i in 0..n {
            let named = mlir_sys::mlirOperationGetAttribute(op, i);
            let name =
                sundial_dialects::ffi::string_ref_lossy(mlir_sys::mlirIdentifierStr(named.name));
            match name.as_str() {
                "offset" => {
                    offset = sundial_dialects::verify::int_value(melior::ir::Attribute::from_raw(
                        named.attribute,
                    ))
                    .unwrap_or(0) as i128;
                }
                "operandSegmentSizes" => segments = Some(named.attribute),
                _ => attrs.push(named),
            }
        }
        // [tensor, dynamic_offset, vector_offset?, scalar_offset?] -> [tensor, vector?, scalar?].
        let sizes: Vec<i32> = match segments {
            Some(a) if mlir_sys::mlirAttributeIsADenseI32Array(a) => (0..4)
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(a, i))
                .collect(),
            _ => vec![1, 1, 0, 0],
        };
        let new_sizes = [1, sizes[2], sizes[3]];
        // Out of i64 (never for a verified op) saturates: the verifier then reports it.
        let total = i64::try_from(offset.saturating_add(dynamic)).unwrap_or(i64::MAX);
        let i64_type = mlir_sys::mlirIntegerTypeGet(context, 64);
        let ident = |text: &std::ffi::CStr| {
            mlir_sys::mlirIdentifierGet(
                context,
                mlir_sys::mlirStringRefCreateFromCString(text.as_ptr()),
            )
        };
        attrs.push(mlir_sys::mlirNamedAttributeGet(
            ident(c"offset"),
            mlir_sys::mlirIntegerAttrGet(i64_type, total),
        ));
        attrs.push(mlir_sys::mlirNamedAttributeGet(
            ident(c"operandSegmentSizes"),
            mlir_sys::mlirDenseI32ArrayGet(context, 3, new_sizes.as_ptr()),
        ));
        let ops: Vec<MlirValue> = operands(op)
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| i != 1)
            .map(|(_, v)| v)
            .collect();
        let result = mlir_sys::mlirOperationGetResult(op, 0);
        let result_type = mlir_sys::mlirValueGetType(result);
        let name = mlir_sys::mlirStringRefCreateFromCString(c"nisa.ap".as_ptr());
        let mut state =
            mlir_sys::mlirOperationStateGet(name, mlir_sys::mlirOperationGetLocation(op));
        mlir_sys::mlirOperationStateAddOperands(&mut state, ops.len() as isize, ops.as_ptr());
        mlir_sys::mlirOperationStateAddResults(&mut state, 1, &result_type);
        mlir_sys::mlirOperationStateAddAttributes(&mut state, attrs.len() as isize, attrs.as_ptr());
        let ap = mlir_sys::mlirOperationCreate(&mut state);
        mlir_sys::mlirBlockInsertOwnedOperationBefore(mlir_sys::mlirOperationGetBlock(op), op, ap);
        mlir_sys::mlirValueReplaceAllUsesOfWith(result, mlir_sys::mlirOperationGetResult(ap, 0));
        mlir_sys::mlirOperationDestroy(op);
    }
}

/// The index arithmetic and program queries that nothing uses any more, erased (users first).
fn erase_dead_index_ops(root: &OperationRef<'_, '_>) {
    const PURE: &[&str] = &[
        "arith.constant",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.index_cast",
        "nisa.program_id",
        "nisa.num_programs",
    ];
    loop {
        let mut dead = Vec::new();
        root.walk(WalkOrder::PostOrder, |op| {
            let raw = op.to_raw();
            let unused = (0..op.result_count()).all(|i| unsafe {
                mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(raw, i as isize))
                    .ptr
                    .is_null()
            });
            if unused && PURE.contains(&&*op_name(raw)) {
                dead.push(raw);
            }
            WalkResult::Advance
        });
        if dead.is_empty() {
            break;
        }
        for op in dead {
            unsafe { mlir_sys::mlirOperationDestroy(op) };
        }
    }
}
