//! The semantic verifier: every rule IRDL cannot express.
//!
//! IRDL (generated from the op tables) already checks op names, operand and result counts,
//! base types and the presence of required attributes while MLIR parses. This verifier runs
//! after parsing (and after every Sundial pass) and checks, for every `nisa.*` and `bir.*` op:
//!
//! 1. **table rules**, read from the op's [`OpSpec`] row: attribute kinds and values (enum
//!    spellings, integer ranges, array lengths), unknown attributes, the `engine` attribute
//!    against the op's legal engines, each tile operand's memory space and dtype, register
//!    operands, the oldest target that has the op (when the module names one with
//!    `sundial.target`);
//! 2. **op rules** ([`nisa_rules`], [`bir_rules`]): shapes that must agree, per-partition
//!    `[P, 1]` operands, "immediate or tile" exclusivity, MX scale geometry, access-pattern
//!    bounds, indirection rules, collective group rules, BIR access patterns and micro-pair
//!    opcode sequences;
//! 3. **phase checks** ([`phase`], NISA only, when asked for through [`verify_phase`]): rules
//!    that hold from a point of the pipeline on. Tiles are *logical* before partition tiling
//!    (an SBUF/PSUM tile may have more than 128 partitions); the 128-partition rule holds from
//!    [`Phase::Tiled`] on.
//!
//! Each failure is an MLIR error at the op's location, worded
//! `'<op>' op <operand or attribute>: <what is wrong> (rule: ...)` where a rule has a short
//! name. Loops ([`loop_rules`]): the verifier walks into loop bodies like any region, checks
//! `scf.for` steps, and checks a `nisa.dynamic_ap` over the whole iteration space where its
//! offset is affine in constant-bound loops. It does not check: data-dependent facts (index
//! values, OOB at run time, dynamic offsets that are not affine in constant-bound loops),
//! SBUF capacity (allocation is a later pass), or anything else about ops of other dialects.

use melior::ir::attribute::AttributeLike;

pub mod bir_rules;
pub mod loop_rules;
pub mod nisa_rules;
pub mod nki_parity;
pub mod phase;
pub mod view_rules;

pub use phase::Phase;

use crate::view::FastSet;
use crate::{
    dtype::DtypeSet,
    enums::{Engine, Target},
    ffi::{emit_error, print_type, string_attr_cow, string_attr_value},
    spec::{AttrKind, AttrSpec, OpSpec, OperandKind, Presence},
    tile::InlineTile,
};
use melior::ir::{
    Attribute, Type, Value, ValueLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};
use mlir_sys::MlirOperation;

/// The attribute a module uses to name its target.
pub const TARGET_ATTR: &str = "sundial.target";

/// The attribute every NISA instruction may carry to name itself (NKI's `name=`); the verifier
/// prints it in the instruction's diagnostics.
pub const NAME_ATTR: &str = "name";

/// Verifies every NISA and BIR op nested in `root` (including `root`), emitting one error per
/// broken rule through the context's diagnostic engine. Returns whether everything passed.
///
/// The target of an op is `target` when given, else the `sundial.target` attribute of the
/// op's nearest enclosing op that has one (a nested module may name its own target), else
/// unknown (target-gated rules are then skipped). A malformed `sundial.target` is reported at
/// the op that carries it.
pub fn verify(root: &OperationRef<'_, '_>, target: Option<Target>) -> bool {
    verify_phase(root, target, Phase::Logical)
}

/// [`verify`], plus the checks of `phase` ([`phase`]): the rules that hold only from a point
/// of the pipeline on (at most 128 partitions once tiled; resolved engines and DGE modes, no
/// generic or composite ops once ready for instruction selection).
///
/// Inside [`remembering_verified`], a top-level `root` whose IR is exactly as a verification
/// that passed saw it (the same [`Snapshot`], the same `target`) is not walked again for the
/// checks that verification already ran: `true` at once when `phase` adds none, else one walk
/// with the added phase checks only.
pub fn verify_phase(root: &OperationRef<'_, '_>, target: Option<Target>, phase: Phase) -> bool {
    let remembered = MEMO.with(|m| m.borrow().is_some());
    if !remembered || parent_op(root.to_raw()).is_some() {
        return verify_walk(root, target, None, phase, None);
    }
    let now = snapshot(root);
    // The phase of the last passed verification, if it saw this very IR for this target.
    let since = MEMO.with(|m| match m.borrow().as_ref().and_then(Option::as_ref) {
        Some(passed) if passed.snapshot == now && passed.target == target => Some(passed.phase),
        _ => None,
    });
    if since.is_some_and(|checked| phase <= checked) {
        return true;
    }
    // Otherwise, when the last passed verification saw the same ops with only some of them
    // changed in place: those, what reads them, and the added phase checks of the rest.
    let incremental = since.is_none().then(|| {
        MEMO.with(|m| match m.borrow().as_ref().and_then(Option::as_ref) {
            Some(passed) if passed.target == target => {
                reverify_set(root, &passed.snapshot, &now).map(|set| (set, passed.phase))
            }
            _ => None,
        })
    });
    let ok = match incremental.flatten() {
        Some((set, checked)) => verify_incremental(root, target, &now, &set, checked, phase),
        None => verify_walk(root, target, since, phase, None),
    };
    MEMO.with(|m| {
        if let Some(slot) = m.borrow_mut().as_mut() {
            *slot = ok.then_some(Passed {
                snapshot: now,
                target,
                phase,
            });
        }
    });
    ok
}

/// A verification that passed: the IR it saw, its target and its phase.
struct Passed {
    snapshot: Snapshot,
    target: Option<Target>,
    phase: Phase,
}

thread_local! {
    /// `None` outside [`remembering_verified`]; inside, the last verification of a top-level
    /// op that passed, if any.
    static MEMO: std::cell::RefCell<Option<Option<Passed>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with [`verify_phase`] remembering its last passed verification of a top-level op
/// (a module), so that verifying the same unchanged IR again costs one [`snapshot`] instead of
/// a walk of every rule: a compilation verifies after parsing, after every middle-end step and
/// after every pipeline, and most steps change nothing on a given kernel. Nested calls share
/// the outer memory. The caller keeps one MLIR context alive for the whole of `f`: snapshots
/// compare pointers, which only mean the same IR while their context lives.
pub fn remembering_verified<R>(f: impl FnOnce() -> R) -> R {
    /// Forgets on the way out, also when `f` unwinds.
    struct Forget;
    impl Drop for Forget {
        fn drop(&mut self) {
            MEMO.with(|m| *m.borrow_mut() = None);
        }
    }
    if MEMO.with(|m| m.borrow().is_some()) {
        return f();
    }
    MEMO.with(|m| *m.borrow_mut() = Some(None));
    let _forget = Forget;
    f()
}

/// The verifier's walk, in walk order: every rule of `phase` (`since = None`), or only the
/// phase checks after `since` on IR that passed `since`'s (the table and op rules hold on it);
/// with an `in_full` set, every rule of `phase` on the ops in it and the phase checks after
/// `since` (`Some`) on the others.
fn verify_walk(
    root: &OperationRef<'_, '_>,
    target: Option<Target>,
    since: Option<Phase>,
    phase: Phase,
    in_full: Option<&FastSet<usize>>,
) -> bool {
    let (mut walker, mut errors) = if since.is_none() || in_full.is_some() {
        let (w, e) = Walker::new(root, target, phase);
        (Some(w), e)
    } else {
        (None, 0)
    };
    crate::tile::with_caches(|| {
        root.walk(WalkOrder::PreOrder, |op| {
            errors += match (&mut walker, in_full) {
                (Some(w), Some(set)) if set.contains(&(op.to_raw().ptr as usize)) => w.op(&op),
                (Some(w), None) => w.op(&op),
                _ => phase_checks(&op, since, phase),
            };
            WalkResult::Advance
        });
    });
    errors == 0
}

/// The phase checks after `since` up to `phase` on `op` alone (a NISA op whose table and op
/// rules passed); the number of errors emitted.
fn phase_checks(op: &OperationRef<'_, '_>, since: Option<Phase>, phase: Phase) -> usize {
    match crate::view::spec_entry_of_raw(op.to_raw()) {
        Some((full, spec)) if !full.starts_with("bir.") => match op_view(op, spec, full) {
            Ok(mut v) => {
                phase::check(&mut v, since, phase);
                v.errors
            }
            Err(reported) => reported,
        },
        _ => 0,
    }
}

/// Every rule of a phase on one op at a time, as the full walk from `root` runs them (the
/// op's own rules only, not those of the ops nested in it).
struct Walker {
    target: Option<Target>,
    phase: Phase,
    root_raw: MlirOperation,
    /// The target named above `root` (when a pass is anchored below the module).
    outer: Option<Target>,
    /// The target of the ops of one parent, looked up once per parent (a kernel's ops share
    /// it).
    parent_target: (*mut std::ffi::c_void, Option<Target>),
}

impl Walker {
    /// The walker, and the number of errors found looking up the target above `root`.
    fn new(root: &OperationRef<'_, '_>, target: Option<Target>, phase: Phase) -> (Walker, usize) {
        let mut errors = 0usize;
        let root_raw = root.to_raw();
        let mut outer = None;
        if target.is_none() {
            let mut cursor = parent_op(root_raw);
            let mut depth = 0;
            while let Some(raw) = cursor {
                match module_target(raw) {
                    Ok(None) => {}
                    Ok(Some(t)) => {
                        outer = Some(t);
                        break;
                    }
                    Err(msg) => {
                        emit_error(root.location(), &msg);
                        errors += 1;
                        break;
                    }
                }
                depth += 1;
                cursor = parent_op(raw).filter(|_| depth < 10_000);
            }
        }
        let walker = Walker {
            target,
            phase,
            root_raw,
            outer,
            parent_target: (std::ptr::null_mut(), None),
        };
        (walker, errors)
    }

    /// Verifies `op` (not what is nested in it); returns the number of errors emitted.
    fn op(&mut self, op: &OperationRef<'_, '_>) -> usize {
        let mut errors = 0usize;
        let raw = op.to_raw();
        let own = module_target(raw);
        if let Err(msg) = &own {
            emit_error(op.location(), msg);
            errors += 1;
        }
        // Loops, launch grids and HBM-buffer argument attributes (any dialect).
        errors += loop_rules::check_structure(op);
        // Only NISA and BIR ops need a target; the lookup walks up to `root` at most.
        let Some((full, spec)) = crate::view::spec_entry_of_raw(raw) else {
            return errors;
        };
        let op_target = self.target.or_else(|| match own {
            Ok(Some(t)) => Some(t),
            Err(_) => None,
            Ok(None) if raw.ptr == self.root_raw.ptr => self.outer,
            Ok(None) => {
                let parent = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
                if parent.ptr != self.parent_target.0 {
                    let t = nearest_target(parent, self.root_raw).unwrap_or(self.outer);
                    self.parent_target = (parent.ptr, t);
                }
                self.parent_target.1
            }
        });
        errors + verify_op(op, full, spec, op_target, self.phase)
    }
}

/// The ops to verify again after a change in place: `None` unless `now` has the same ops in
/// the same places as `passed` (the snapshot of a verification that passed) and every op whose
/// entry changed has no regions; else the changed ops, every op that uses a result of one
/// (transitively), none of which may have regions either, and the ancestors of all of those.
/// `None` also when that is more than a quarter of the ops (a full walk is then as cheap).
///
/// Why this is every op whose rules can read a change: an op's rules read the op itself, the
/// ops that define its operands (views, access patterns, loop bounds and registers, each
/// through the chain of definitions), its ancestors (the target, loops, launch grids) and
/// nothing else. A changed op reaches the first group through its uses; an op with regions
/// is an ancestor of ops that read its operands through its block arguments (a loop's
/// bounds), so a change at or below one is verified in full; ancestors are verified again as
/// ops (a cost of one op each).
fn reverify_set(
    root: &OperationRef<'_, '_>,
    passed: &Snapshot,
    now: &Snapshot,
) -> Option<FastSet<usize>> {
    let (old, new) = (&passed.0[..], &now.0[..]);
    let (mut i, mut j) = (0usize, 0usize);
    let mut ops = 0usize;
    let mut changed: Vec<usize> = Vec::new();
    while j < new.len() {
        let (old_entry, new_entry) = (entry_at(old, i)?, entry_at(new, j)?);
        let (old_end, new_end) = (old_entry.end, new_entry.end);
        if old[i] != new[j] {
            return None;
        }
        if old[i..old_end] != new[j..new_end] {
            if old_entry.regions > 0 || new_entry.regions > 0 {
                return None;
            }
            changed.push(new[j]);
        }
        ops += 1;
        (i, j) = (old_end, new_end);
    }
    if i != old.len() {
        return None;
    }
    let limit = ops / 4;
    if changed.len() > limit {
        return None;
    }
    let mut set: FastSet<usize> = changed.iter().copied().collect();
    let mut queue = changed;
    while let Some(ptr) = queue.pop() {
        let op = MlirOperation {
            ptr: ptr as *mut std::ffi::c_void,
        };
        let results = unsafe { mlir_sys::mlirOperationGetNumResults(op) };
        for k in 0..results {
            let value = unsafe { mlir_sys::mlirOperationGetResult(op, k) };
            let mut use_ = unsafe { mlir_sys::mlirValueGetFirstUse(value) };
            while !unsafe { mlir_sys::mlirOpOperandIsNull(use_) } {
                let user = unsafe { mlir_sys::mlirOpOperandGetOwner(use_) };
                if unsafe { mlir_sys::mlirOperationGetNumRegions(user) } > 0 {
                    return None;
                }
                if set.insert(user.ptr as usize) {
                    if set.len() > limit {
                        return None;
                    }
                    queue.push(user.ptr as usize);
                }
                use_ = unsafe { mlir_sys::mlirOpOperandGetNextUse(use_) };
            }
        }
    }
    let root_raw = root.to_raw();
    let mut ancestors: Vec<usize> = Vec::new();
    for &ptr in &set {
        let mut cursor = MlirOperation {
            ptr: ptr as *mut std::ffi::c_void,
        };
        while cursor.ptr != root_raw.ptr {
            let Some(parent) = parent_op(cursor) else {
                break;
            };
            ancestors.push(parent.ptr as usize);
            cursor = parent;
        }
    }
    set.extend(ancestors);
    Some(set)
}

/// Where a snapshot entry's parts are: the layout of `cpp/snapshot.cpp`'s records, read in one
/// place.
struct Entry {
    /// One past its last word.
    end: usize,
    /// The op's number of regions.
    regions: usize,
    /// The word holding the op's attribute dictionary.
    dict: usize,
}

/// The snapshot entry that starts at word `at` of `words` (`None` if the words do not hold a
/// whole entry there).
fn entry_at(words: &[usize], at: usize) -> Option<Entry> {
    let word = |k: usize| words.get(k).copied();
    // Identity, name, location, block; operands (value, type each).
    let mut k = at.checked_add(4)?;
    k = k.checked_add(1)?.checked_add(word(k)?.checked_mul(2)?)?;
    // Result types, the attribute dictionary, successors.
    k = k.checked_add(1)?.checked_add(word(k)?)?;
    let dict = k;
    k = k.checked_add(1)?;
    k = k.checked_add(1)?.checked_add(word(k)?)?;
    let regions = word(k)?;
    k += 1;
    for _ in 0..regions {
        // Blocks (identity, arguments with their types), then 0.
        loop {
            let block = word(k)?;
            k += 1;
            if block == 0 {
                break;
            }
            k = k.checked_add(1)?.checked_add(word(k)?.checked_mul(2)?)?;
        }
    }
    (k <= words.len()).then_some(Entry {
        end: k,
        regions,
        dict,
    })
}

/// Verifies the ops of `set` (in walk order, so errors come in the order a full walk gives
/// them) with every rule of `phase`, and the other ops, which passed `checked`'s rules as
/// they are, with the phase checks `phase` adds to those.
fn verify_incremental(
    root: &OperationRef<'_, '_>,
    target: Option<Target>,
    now: &Snapshot,
    set: &FastSet<usize>,
    checked: Phase,
    phase: Phase,
) -> bool {
    LAST_INCREMENTAL.with(|n| n.set(Some(set.len())));
    if phase > checked {
        // One walk: the set with every rule, the others with the added phase checks, each
        // error where a full walk reports it.
        return verify_walk(root, target, Some(checked), phase, Some(set));
    }
    let (mut walker, mut errors) = Walker::new(root, target, phase);
    crate::tile::with_caches(|| {
        let words = &now.0[..];
        let mut at = 0usize;
        while let Some(Entry { end, .. }) = entry_at(words, at) {
            if set.contains(&words[at]) {
                let raw = MlirOperation {
                    ptr: words[at] as *mut std::ffi::c_void,
                };
                // SAFETY: `now` was taken of the IR as it is, so the op is alive.
                let op = unsafe { OperationRef::from_raw(raw) };
                errors += walker.op(&op);
            }
            at = end;
        }
    });
    errors == 0
}

thread_local! {
    /// [`last_incremental`].
    static LAST_INCREMENTAL: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// How many ops the last verification on this thread that re-verified only what changed
/// verified in full, taken (for tests and benchmarks: whether a change took that path).
pub fn last_incremental() -> Option<usize> {
    LAST_INCREMENTAL.with(|n| n.take())
}

fn parent_op(raw: MlirOperation) -> Option<MlirOperation> {
    let parent = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
    (!parent.ptr.is_null()).then_some(parent)
}

/// The target named by `raw` or its nearest ancestor up to `stop` (inclusive): `None` when none
/// names one, `Some(None)` when the nearest one is malformed (reported where it is written).
fn nearest_target(raw: MlirOperation, stop: MlirOperation) -> Option<Option<Target>> {
    let mut cursor = Some(raw);
    while let Some(op) = cursor {
        match module_target(op) {
            Ok(None) => {}
            Ok(Some(t)) => return Some(Some(t)),
            Err(_) => return Some(None),
        }
        if op.ptr == stop.ptr {
            break;
        }
        cursor = parent_op(op);
    }
    None
}

/// The target `op` runs for: the `sundial.target` of `op` or of its nearest enclosing op that
/// names one (`None` when none does or the nearest one is malformed, which the verifier
/// reports where it is written).
pub fn target_of(op: &OperationRef<'_, '_>) -> Option<Target> {
    let mut cursor = Some(op.to_raw());
    let mut depth = 0;
    while let Some(raw) = cursor {
        match module_target(raw) {
            Ok(None) => {}
            Ok(Some(t)) => return Some(t),
            Err(_) => return None,
        }
        depth += 1;
        cursor = parent_op(raw).filter(|_| depth < 10_000);
    }
    None
}

fn module_target(raw: MlirOperation) -> Result<Option<Target>, String> {
    let attr = unsafe {
        let name = mlir_sys::mlirStringRefCreateFromCString(c"sundial.target".as_ptr());
        Attribute::from_option_raw(mlir_sys::mlirOperationGetAttributeByName(raw, name))
    };
    let Some(attr) = attr else { return Ok(None) };
    if !attr.is_string() {
        return Err(format!(
            "attribute '{TARGET_ATTR}' must be a string (sunda|cayman|mariana)"
        ));
    }
    let text = string_attr_value(attr);
    Target::from_name(&text).map(Some).ok_or_else(|| {
        format!(
            "attribute '{TARGET_ATTR}': unknown target \"{text}\" (expected sunda|cayman|mariana)"
        )
    })
}

/// The view the rules read `op` through, or the error (reported at `op`) that it cannot be
/// read as `name`: `Err` carries the number of errors emitted.
fn op_view<'o, 'a, 'c>(
    op: &'o OperationRef<'c, 'a>,
    spec: &'static OpSpec,
    name: &'static str,
) -> Result<OpView<'o, 'a, 'c>, usize> {
    OpView::new(op, spec, name).map_err(|msg| {
        emit_error(op.location(), &format!("'{name}' op {msg}"));
        1
    })
}

/// Verifies one op; returns the number of errors emitted.
fn verify_op(
    op: &OperationRef<'_, '_>,
    name: &'static str,
    spec: &'static OpSpec,
    target: Option<Target>,
    phase: Phase,
) -> usize {
    let bir = name
        .strip_prefix("bir.")
        .and_then(|rest| crate::bir::op(rest));
    let mut v = match op_view(op, spec, name) {
        Ok(v) => v,
        Err(reported) => return reported,
    };
    v.check_table(target);
    // Op rules assume the table rules hold: they read tiles and attributes freely.
    if v.errors == 0 {
        match bir {
            None => nisa_rules::check(&mut v, target),
            Some(b) => bir_rules::check(&mut v, b, target),
        }
    }
    if v.errors == 0 && bir.is_none() {
        phase::check(&mut v, None, phase);
    }
    v.errors
}

/// An op seen through its table row: operands by name, attributes, and error reporting.
pub struct OpView<'o, 'a, 'c> {
    /// The op.
    pub op: &'o OperationRef<'c, 'a>,
    /// Its table row.
    pub spec: &'static OpSpec,
    /// Its full name (`nisa.gather`).
    pub name: &'static str,
    groups: Vec<(usize, usize)>,
    /// The decoded tile of each operand, by position (`None`: not a valid tile), decoded
    /// once per op: the rules read operand tiles many times.
    operand_tiles: Vec<Option<InlineTile>>,
    /// The instruction's `name` (NKI's `name=`), printed in its diagnostics.
    label: Option<String>,
    /// [`OpView::engine`], once read.
    engine: std::cell::OnceCell<Engine>,
    /// Errors emitted so far.
    pub errors: usize,
}

impl<'o, 'a, 'c> OpView<'o, 'a, 'c> {
    fn new(
        op: &'o OperationRef<'c, 'a>,
        spec: &'static OpSpec,
        name: &'static str,
    ) -> Result<Self, String> {
        let groups = crate::view::operand_groups(op, spec)?;
        let label = crate::ffi::attribute_of(op, NAME_ATTR)
            .filter(|a| a.is_string() && name.starts_with("nisa."))
            .map(string_attr_value);
        let raw = op.to_raw();
        let count = unsafe { mlir_sys::mlirOperationGetNumOperands(raw) }.max(0);
        let operand_tiles = (0..count)
            .map(|k| {
                let ty = unsafe {
                    Type::from_raw(mlir_sys::mlirValueGetType(
                        mlir_sys::mlirOperationGetOperand(raw, k),
                    ))
                };
                crate::tile::is_tile_type(ty)
                    .then(|| InlineTile::of_type(ty).ok())
                    .flatten()
            })
            .collect();
        Ok(Self {
            op,
            spec,
            name,
            groups,
            operand_tiles,
            label,
            engine: std::cell::OnceCell::new(),
            errors: 0,
        })
    }

    /// Emits `'<op>' op <message>` at the op. Like MLIR's own verifiers, only the first
    /// broken rule of an op is reported: later ones are often consequences of it.
    pub fn error(&mut self, message: impl AsRef<str>) {
        if self.errors == 0 {
            let label = self
                .label
                .as_ref()
                .map(|l| format!("(name {l:?}) "))
                .unwrap_or_default();
            emit_error(
                self.op.location(),
                &format!("'{}' op {label}{}", self.name, message.as_ref()),
            );
        }
        self.errors += 1;
    }

    /// The values of operand group `name` (empty if absent).
    pub fn values(&self, name: &str) -> Vec<Value<'c, 'a>> {
        let Some(i) = self.spec.operand_index(name) else {
            return Vec::new();
        };
        let (start, len) = self.groups[i];
        (start..start + len)
            .filter_map(|k| self.op.operand(k).ok())
            .collect()
    }

    /// The first value of operand group `name`.
    pub fn value(&self, name: &str) -> Option<Value<'c, 'a>> {
        let i = self.spec.operand_index(name)?;
        let (start, len) = self.groups[i];
        (len > 0).then(|| self.op.operand(start).ok()).flatten()
    }

    /// The decoded tile of operand `name` (first value of the group), if it is a tile.
    pub fn tile(&self, name: &str) -> Option<InlineTile> {
        let i = self.spec.operand_index(name)?;
        let (start, len) = self.groups[i];
        if len == 0 {
            return None;
        }
        self.operand_tiles.get(start).copied().flatten()
    }

    /// The decoded tiles of operand group `name`.
    pub fn tiles(&self, name: &str) -> Vec<InlineTile> {
        let Some(i) = self.spec.operand_index(name) else {
            return Vec::new();
        };
        let (start, len) = self.groups[i];
        (start..start + len)
            .filter_map(|k| self.operand_tiles.get(k).copied().flatten())
            .collect()
    }

    /// The attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<Attribute<'c>> {
        crate::ffi::attribute_of(self.op, name)
    }

    /// A string attribute's value, or the table's default when absent.
    pub fn str_attr(&self, name: &str) -> Option<String> {
        crate::view::str_attr_of(self.attr(name), self.spec, name)
    }

    /// An integer attribute's value, or the table's default when absent.
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        crate::view::int_attr_of(self.attr(name), self.spec, name)
    }

    /// A float attribute's value, or the table's default when absent.
    pub fn float_attr(&self, name: &str) -> Option<f64> {
        crate::view::float_attr_of(self.attr(name), self.spec, name)
    }

    /// A bool attribute's value, or the table's default when absent (`false` without one).
    /// (It read every absent bool as false, so an absent `unique_indices`, whose default is
    /// true, read as false.)
    pub fn bool_attr(&self, name: &str) -> bool {
        crate::view::bool_attr_of(self.attr(name), self.spec, name)
    }

    /// A dense i64 array attribute's values, or the table's default when absent.
    pub fn i64_array(&self, name: &str) -> Option<Vec<i64>> {
        crate::view::i64_array_of(self.attr(name), self.spec, name)
    }

    /// The engine the op names (or its default engine when absent), read once per op.
    pub fn engine(&self) -> Engine {
        *self.engine.get_or_init(|| {
            self.attr("engine")
                .filter(|a| a.is_string())
                .and_then(|a| Engine::parse(&string_attr_cow(a)))
                .unwrap_or(self.spec.default_engine)
        })
    }

    fn check_table(&mut self, target: Option<Target>) {
        let spec = self.spec;
        // Operands.
        for (i, operand) in spec.operands.iter().enumerate() {
            let (start, len) = self.groups[i];
            for k in start..start + len {
                let Ok(value) = self.op.operand(k) else {
                    continue;
                };
                self.check_operand(operand.name, operand.kind, value.r#type());
            }
        }
        // Attributes.
        for attr in spec.attrs {
            match self.attr(attr.name) {
                Some(value) => self.check_attr(attr, value),
                None if attr.presence == Presence::Required => {
                    self.error(format!(
                        "attribute '{}' is required ({})",
                        attr.name,
                        attr.kind.describe()
                    ));
                }
                None => {}
            }
        }
        self.check_engine();
        self.check_unknown_attrs();
        if let (Some(min), Some(t)) = (spec.min_target, target)
            && t < min
        {
            self.error(format!(
                "is not available on {t} (NeuronCore v{}); it needs {min} (v{}) or newer (rule: target)",
                t.nc_version(),
                min.nc_version()
            ));
        } else if let Some(t) = target {
            self.check_engine_floor(t);
        }
    }

    /// The per-engine floor of the op's ISA row (`sundial_codegen::isa::Row::min_on`, the one
    /// statement of it): on some engines an op exists only from a later core than its own
    /// floor (rng on GpSimd from v3, the XORWOW state transfers on Vector from v4).
    fn check_engine_floor(&mut self, t: Target) {
        use sundial_codegen::isa::{self, MinTarget};
        if self.dialect() != "nisa" {
            return;
        }
        let Some(row) = isa::row(self.spec.name) else {
            return;
        };
        let engine = self.engine();
        let Some(hw) = sundial_codegen::model::Engine::from_name(engine.as_str()) else {
            // Unknown: the engine is resolved later, to one the target has.
            return;
        };
        let MinTarget::From(min) = row.min_on(hw) else {
            return;
        };
        if row.min_on(hw).admits(t) {
            return;
        }
        let elsewhere: Vec<&str> = row
            .engines
            .iter()
            .filter(|&&e| row.min_on(e).admits(t))
            .map(|e| e.name())
            .collect();
        let hint = if elsewhere.is_empty() {
            String::new()
        } else {
            format!("; on {t} use {}", elsewhere.join(" or "))
        };
        self.error(format!(
            "engine \"{engine}\" needs {min} (NeuronCore v{}) or newer for this op, not {t} (v{}){hint} (rule: engine target)",
            min.nc_version(),
            t.nc_version()
        ));
    }

    fn check_operand(&mut self, name: &str, kind: OperandKind, ty: Type<'c>) {
        match kind {
            OperandKind::Tile { spaces, dtypes, .. } => {
                self.check_tile_operand(name, spaces, dtypes, ty)
            }
            OperandKind::Reg => {
                if !is_reg(ty) {
                    self.error(format!(
                        "operand '{name}': expected a register (!{}.reg), got '{}'",
                        self.dialect(),
                        print_type(ty)
                    ));
                }
            }
            OperandKind::TileOrReg { spaces, dtypes } => {
                if !is_reg(ty) {
                    self.check_tile_operand(name, spaces, dtypes, ty);
                }
            }
            OperandKind::Index => {
                if !melior::ir::r#type::TypeLike::is_index(&ty) {
                    self.error(format!(
                        "operand '{name}': expected an index, got '{}'",
                        print_type(ty)
                    ));
                }
            }
        }
    }

    fn check_tile_operand(
        &mut self,
        name: &str,
        spaces: crate::spec::Spaces,
        dtypes: DtypeSet,
        ty: Type<'c>,
    ) {
        match InlineTile::of_type(ty) {
            Err(msg) => self.error(format!("operand '{name}': {msg}")),
            Ok(tile) => {
                if !spaces.contains(tile.space) {
                    self.error(format!(
                        "operand '{name}': memory space \"{}\" is not allowed (allowed: {}) (rule: operand space)",
                        tile.space,
                        spaces.describe()
                    ));
                }
                if !dtypes.contains(tile.dtype) {
                    let hint = if tile.dtype == crate::dtype::Dtype::Tf32 {
                        " (tf32 is a matmul mode: only nisa.matmul operands may be tf32)"
                    } else {
                        ""
                    };
                    self.error(format!(
                        "operand '{name}': dtype {} is not legal here (legal: {}){hint} (rule: operand dtype)",
                        tile.dtype.mlir_name(),
                        dtypes.describe()
                    ));
                }
            }
        }
    }

    fn dialect(&self) -> &str {
        self.name.split('.').next().unwrap_or("nisa")
    }

    fn check_attr(&mut self, spec: &AttrSpec, value: Attribute<'c>) {
        if let Err(msg) = check_attr_value(&spec.kind, value) {
            self.error(format!("attribute '{}': {msg}", spec.name));
        }
    }

    fn check_engine(&mut self) {
        let Some(attr) = self.attr("engine") else {
            return;
        };
        let is_bir = self.dialect() == "bir";
        if self.spec.engines.is_empty() && !is_bir {
            // Reported by check_unknown_attrs.
            return;
        }
        if !attr.is_string() {
            if !is_bir {
                self.error("attribute 'engine': expected a string (one of unknown|tensor|scalar|gpsimd|dma|vector|sync)");
            }
            return;
        }
        let text = string_attr_cow(attr);
        let Some(engine) = Engine::parse(&text) else {
            if !is_bir {
                self.error(format!(
                    "attribute 'engine': unknown engine \"{text}\" (expected one of {})",
                    Engine::NAMES.join("|")
                ));
            }
            return;
        };
        let legal = if is_bir {
            self.spec.engines.contains(&engine)
        } else {
            crate::nisa::engine_legal(self.spec, engine)
        };
        if !legal {
            let list = self
                .spec
                .engines
                .iter()
                .map(|e| e.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            let extra = if is_bir { "" } else { ", or unknown" };
            self.error(format!(
                "engine \"{engine}\" is not legal for this op (legal: {list}{extra}) (rule: engine)"
            ));
        }
    }

    fn check_unknown_attrs(&mut self) {
        let count = unsafe { mlir_sys::mlirOperationGetNumAttributes(self.op.to_raw()) }.max(0);
        for i in 0..count {
            let named = unsafe { mlir_sys::mlirOperationGetAttribute(self.op.to_raw(), i) };
            let raw_name = unsafe { mlir_sys::mlirIdentifierStr(named.name) };
            // Borrowed (no copy per attribute of every op); lossy only for invalid UTF-8.
            let bytes =
                unsafe { std::slice::from_raw_parts(raw_name.data as *const u8, raw_name.length) };
            let attr_name: std::borrow::Cow<'_, str> = match std::str::from_utf8(bytes) {
                Ok(text) => std::borrow::Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(bytes),
            };
            // Dialect-prefixed attributes are discardable annotations (e.g. `sundial.note`).
            if attr_name.contains('.') || self.spec.attr(&attr_name).is_some() {
                continue;
            }
            if attr_name == "operandSegmentSizes" && self.spec.needs_segment_sizes() {
                continue;
            }
            // Every NISA instruction may carry NKI's `name=` (a string).
            if attr_name == NAME_ATTR && self.dialect() == "nisa" {
                if !self.attr(NAME_ATTR).is_some_and(|a| a.is_string()) {
                    self.error("attribute 'name': expected a string (NKI's name=)");
                }
                continue;
            }
            if attr_name == "engine" && (!self.spec.engines.is_empty()) {
                continue;
            }
            let mut known: Vec<&str> = self.spec.attrs.iter().map(|a| a.name).collect();
            if !self.spec.engines.is_empty() && self.spec.attr("engine").is_none() {
                known.push("engine");
            }
            let known = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            self.error(format!(
                "unknown attribute '{attr_name}' (this op accepts: {known})"
            ));
        }
    }
}

fn is_reg(ty: Type<'_>) -> bool {
    let text = print_type(ty);
    text == "!nisa.reg" || text == "!bir.reg"
}

/// An integer attribute's value (signless, signed, unsigned or `index`), if it is one whose
/// value fits in i64. See [`int_value_checked`] for why the others are refused.
pub fn int_value(attr: Attribute<'_>) -> Option<i64> {
    int_value_checked(attr).ok()
}

/// An integer attribute's value, or the sentence saying why it is not a usable integer.
///
/// `true` / `false` are MLIR `i1` integer attributes, but not integers in NISA or BIR (reading
/// them as integers gave -1 and 0). Integers wider than 64 bits cannot be read through MLIR's
/// C API without truncation (`2^64 : i128` read as 0), and unsigned values above `i64::MAX`
/// would wrap negative; both are refused instead of being silently changed.
pub fn int_value_checked(attr: Attribute<'_>) -> Result<i64, String> {
    if !attr.is_integer() || attr.is_bool() {
        return Err("expected an integer".into());
    }
    unsafe {
        let raw = attr.to_raw();
        let ty = mlir_sys::mlirAttributeGetType(raw);
        if mlir_sys::mlirTypeIsAIndex(ty) {
            return Ok(mlir_sys::mlirIntegerAttrGetValueInt(raw));
        }
        let width = mlir_sys::mlirIntegerTypeGetWidth(ty);
        if width > 64 {
            return Err(format!(
                "{width}-bit integers are not supported (at most 64 bits)"
            ));
        }
        if mlir_sys::mlirIntegerTypeIsUnsigned(ty) {
            let value = mlir_sys::mlirIntegerAttrGetValueUInt(raw);
            i64::try_from(value)
                .map_err(|_| format!("value {value} does not fit in a signed 64-bit integer"))
        } else if mlir_sys::mlirIntegerTypeIsSigned(ty) {
            Ok(mlir_sys::mlirIntegerAttrGetValueSInt(raw))
        } else {
            Ok(mlir_sys::mlirIntegerAttrGetValueInt(raw))
        }
    }
}

/// A float attribute's value, if it is one.
pub fn float_value(attr: Attribute<'_>) -> Option<f64> {
    if !attr.is_float() {
        return None;
    }
    Some(unsafe { mlir_sys::mlirFloatAttrGetValueDouble(attr.to_raw()) })
}

/// A dense i64 array attribute's values, if it is one.
pub fn i64_array_value(attr: Attribute<'_>) -> Option<Vec<i64>> {
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(attr.to_raw()) {
            return None;
        }
        let n = mlir_sys::mlirDenseArrayGetNumElements(attr.to_raw()).max(0);
        Some(
            (0..n)
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(attr.to_raw(), i))
                .collect(),
        )
    }
}

/// The elements of an array-of-i64-arrays attribute, if it is one.
pub fn i64_array_list(attr: Attribute<'_>) -> Option<Vec<Vec<i64>>> {
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(attr.to_raw()) {
            return None;
        }
        let n = mlir_sys::mlirArrayAttrGetNumElements(attr.to_raw()).max(0);
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let elem = Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(attr.to_raw(), i));
            out.push(i64_array_value(elem)?);
        }
        Some(out)
    }
}

/// Checks an attribute value against its kind; the error is the sentence after
/// "attribute 'name': ".
pub fn check_attr_value(kind: &AttrKind, value: Attribute<'_>) -> Result<(), String> {
    match kind {
        AttrKind::Enum(vocab) => {
            let Some(text) = value.is_string().then(|| string_attr_cow(value)) else {
                return Err(format!(
                    "expected a string, one of {}",
                    vocab.values.join("|")
                ));
            };
            if vocab.values.contains(&text.as_ref()) {
                Ok(())
            } else {
                Err(format!(
                    "unknown {} \"{text}\" (expected one of {})",
                    vocab.name,
                    vocab.values.join("|")
                ))
            }
        }
        AttrKind::EnumSubset(vocab, allowed) => {
            let Some(text) = value.is_string().then(|| string_attr_cow(value)) else {
                return Err(format!("expected a string, one of {}", allowed.join("|")));
            };
            if allowed.contains(&text.as_ref()) {
                Ok(())
            } else if vocab.values.contains(&text.as_ref()) {
                Err(format!(
                    "{} \"{text}\" is not allowed here (allowed: {})",
                    vocab.name,
                    allowed.join("|")
                ))
            } else {
                Err(format!(
                    "unknown {} \"{text}\" (allowed here: {})",
                    vocab.name,
                    allowed.join("|")
                ))
            }
        }
        AttrKind::Bool => value
            .is_bool()
            .then_some(())
            .ok_or_else(|| "expected true or false".to_string()),
        AttrKind::Int { min, max } => {
            let v = int_value_checked(value)?;
            if v < *min || v > *max {
                Err(format!("value {v} is out of range [{min}, {max}]"))
            } else {
                Ok(())
            }
        }
        AttrKind::Float => {
            let v = float_value(value)
                .ok_or_else(|| "expected a float (e.g. 1.0 : f32)".to_string())?;
            check_f32(v)
        }
        AttrKind::Number => {
            if let Some(v) = float_value(value) {
                check_f32(v)
            } else if value.is_integer() && !value.is_bool() {
                // An integer, but possibly one that does not fit in 64 bits.
                int_value_checked(value).map(|_| ())
            } else {
                Err("expected an integer or a float".into())
            }
        }
        AttrKind::I64Array { min_len, max_len } => {
            let v = i64_array_value(value).ok_or_else(|| "expected array<i64: ...>".to_string())?;
            if v.len() < *min_len || v.len() > *max_len {
                if min_len == max_len {
                    Err(format!(
                        "expected exactly {min_len} elements, got {}",
                        v.len()
                    ))
                } else {
                    Err(format!(
                        "expected {min_len} to {max_len} elements, got {}",
                        v.len()
                    ))
                }
            } else {
                Ok(())
            }
        }
        AttrKind::I64ArrayList => i64_array_list(value).map(|_| ()).ok_or_else(|| {
            "expected an array of array<i64: ...> (e.g. [array<i64: 0, 1>])".to_string()
        }),
        AttrKind::F32Array => {
            let ok = unsafe { mlir_sys::mlirAttributeIsADenseF32Array(value.to_raw()) };
            ok.then_some(())
                .ok_or_else(|| "expected array<f32: ...>".to_string())
        }
        AttrKind::Str => value
            .is_string()
            .then_some(())
            .ok_or_else(|| "expected a string".to_string()),
        AttrKind::Ap { .. } => {
            let ok = unsafe { mlir_sys::mlirAttributeIsADictionary(value.to_raw()) };
            ok.then_some(()).ok_or_else(|| {
                "expected an access pattern dictionary {space = ..., ...}".to_string()
            })
        }
        AttrKind::AsmBytes => {
            let text = value
                .is_string()
                .then(|| string_attr_value(value))
                .ok_or_else(|| "expected a string".to_string())?;
            bir_rules::check_asm_bytes(&text)
        }
    }
}

fn check_f32(v: f64) -> Result<(), String> {
    if v.is_nan() {
        Err("NaN is not a legal immediate".into())
    } else if v.is_finite() && v.abs() > f32::MAX as f64 {
        // Scientific notation: `{v}` printed 1e300 as 301 digits.
        Err(format!("value {v:e} does not fit in f32"))
    } else {
        Ok(())
    }
}

/// The op defining `value`, if it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        OperationRef::from_option_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()))
    }
}

/// Everything the verifier reads of the IR under an op, recorded exactly: per op (in walk
/// order) its identity, name, location, parent block, operands (values and types), result
/// types, attribute dictionary (inherent attributes kept as properties included), successors,
/// and the blocks of its regions with their argument types. Types, attributes (a dictionary
/// too) and names are uniqued in their context, so equal handles are equal values.
///
/// Two equal snapshots of one root, taken while one context lives, mean the IR did not change
/// in anything the verifier's result depends on: a pass step that left its input as it was
/// need not be verified again with checks that already passed on it (the middle end's steps
/// mostly find nothing to do on a given kernel, and a verifier walk costs ~20x a snapshot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot(Vec<usize>);

unsafe extern "C" {
    /// `dialects/cpp/snapshot.cpp`: writes up to `capacity` words of the snapshot of `root`
    /// to `out`, returns how many words the whole snapshot has.
    fn sundialSnapshot(root: MlirOperation, out: *mut usize, capacity: usize) -> usize;
}

thread_local! {
    /// The length of the last snapshot taken: the next one (of the same module, one step
    /// later) is about as long, so its buffer is sized once and the walk runs once.
    static LAST_SNAPSHOT_LEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Records the [`Snapshot`] of `root` and everything nested in it: one C++ walk
/// (`cpp/snapshot.cpp`; through the C API it took about ten calls per op), a second one only
/// when the buffer sized from the last snapshot's length was too small.
pub fn snapshot(root: &OperationRef<'_, '_>) -> Snapshot {
    let mut out: Vec<usize> = Vec::new();
    let mut capacity = LAST_SNAPSHOT_LEN.with(|l| l.get()).max(64);
    loop {
        out.reserve_exact(capacity);
        // SAFETY: `out` has room for `capacity` words; the walk writes no more than that and
        // only reads the IR, which `root` keeps alive.
        let needed = unsafe { sundialSnapshot(root.to_raw(), out.as_mut_ptr(), capacity) };
        if needed <= capacity {
            // SAFETY: the walk initialised the first `needed` words.
            unsafe { out.set_len(needed) };
            LAST_SNAPSHOT_LEN.with(|l| l.set(needed));
            return Snapshot(out);
        }
        capacity = needed;
    }
}

impl Snapshot {
    /// Whether `after` records the same IR as `self` except for discardable attributes named
    /// in `annotations` (added, removed or changed on ops that are otherwise as they were):
    /// the ops, their order and nesting, operands, types, locations and every other attribute
    /// are equal. When neither verifier reads those names, both give on `after` the answer
    /// they gave on `self` (how `sundial-translate` skips verifying again after
    /// `sundial-allocate`, which only annotates).
    ///
    /// # Safety
    ///
    /// Both snapshots must have been taken of IR of one context that is still alive: the
    /// attribute dictionaries they record are read through their handles.
    pub unsafe fn differs_only_in(&self, after: &Snapshot, annotations: &[&str]) -> bool {
        let (old, new) = (&self.0[..], &after.0[..]);
        if old.len() != new.len() {
            return false;
        }
        let mut at = 0usize;
        while at < old.len() {
            let (Some(Entry { end, dict, .. }), Some(Entry { end: new_end, .. })) =
                (entry_at(old, at), entry_at(new, at))
            else {
                return false;
            };
            if end != new_end {
                return false;
            }
            // Every word but the attribute dictionary's equal (the same ops, operands, types,
            // locations and nesting), then the dictionaries up to the annotations.
            if old[at..dict] != new[at..dict] || old[dict + 1..end] != new[dict + 1..end] {
                return false;
            }
            // SAFETY: the caller guarantees the dictionaries' context is alive.
            if old[dict] != new[dict] && !unsafe { equal_except(old[dict], new[dict], annotations) }
            {
                return false;
            }
            at = end;
        }
        true
    }
}

/// Whether the dictionary attributes `a` and `b` (raw handles) hold the same entries once
/// those named in `skip` are left out.
unsafe fn equal_except(a: usize, b: usize, skip: &[&str]) -> bool {
    let kept = |raw: usize| {
        let dict = mlir_sys::MlirAttribute {
            ptr: raw as *const std::ffi::c_void,
        };
        // SAFETY (caller): a live dictionary attribute; its entries are uniqued handles.
        let n = unsafe { mlir_sys::mlirDictionaryAttrGetNumElements(dict) }.max(0);
        (0..n).filter_map(move |i| {
            let named = unsafe { mlir_sys::mlirDictionaryAttrGetElement(dict, i) };
            let name = unsafe { mlir_sys::mlirIdentifierStr(named.name) };
            // SAFETY: the identifier's bytes live as long as the context.
            let text = unsafe { std::slice::from_raw_parts(name.data as *const u8, name.length) };
            (!skip.iter().any(|s| s.as_bytes() == text))
                .then_some((named.name.ptr as usize, named.attribute.ptr as usize))
        })
    };
    kept(a).eq(kept(b))
}
