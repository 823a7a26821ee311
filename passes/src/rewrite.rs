//! Rewrite helpers for passes: collect first, then mutate.
//!
//! A pass never changes the IR while MLIR walks it (erasing the op a walk stands on is a
//! use-after-free). It collects its targets ([`collect`], or the blocks and nodes of
//! [`crate::memory`]), then rewrites them through a [`Rewriter`] (melior's `IrRewriter`):
//! insert before or after an op, replace an op, erase one. IRDL ops get no DCE or CSE from
//! MLIR, so [`erase_dead_views`] removes the `nisa.alloc` and view results a rewrite left
//! without users.
//!
//! Builders come from the op being rewritten ([`OpBuild::at`]): its context handle and its
//! location, so that new ops report errors where the op they replace was written.

use melior::IrRewriter;
use melior::ir::{
    Attribute, Operation, Value, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};
use sundial_dialects::{
    build::{Attrs, BuildError, OpBuild, tile_type_of},
    ffi::emit_error,
    tile::Tile,
    verify::view_rules::is_chain_op,
    view::View,
};

/// The ops nested in `root` (pre-order, `root` included) for which `pick` holds.
pub fn collect<'c, 'a>(
    root: &OperationRef<'c, 'a>,
    mut pick: impl FnMut(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        // Re-bound to the root's lifetimes: nested ops live as long as the root's IR, and
        // nothing is erased before the caller is done with the list.
        let op: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
        if pick(&op) {
            out.push(op);
        }
        WalkResult::Advance
    });
    out
}

/// Whether `op` is named `name` (`nisa.alloc`).
pub fn op_is(op: &OperationRef<'_, '_>, name: &str) -> bool {
    // The name's bytes, compared in place (no UTF-8 validation of the name for each op of
    // a walk).
    sundial_dialects::ffi::op_name_is(op.to_raw(), name)
}

/// The NISA ops named `mnemonic` nested in `root`, as views.
pub fn collect_nisa<'c, 'a>(root: &OperationRef<'c, 'a>, mnemonic: &str) -> Vec<View<'c, 'a>> {
    let name = format!("nisa.{mnemonic}");
    collect(root, |op| op_is(op, &name))
        .into_iter()
        .filter_map(View::of)
        .collect()
}

/// Whether `value` has a use.
pub fn has_uses(value: Value<'_, '_>) -> bool {
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// The ops that use `value` (one entry per use).
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(use_) {
            out.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(
                use_,
            )));
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    out
}

/// Emits `'<op>' op <message>` at `op` (a pass's refusal).
pub fn refuse(op: &OperationRef<'_, '_>, message: impl AsRef<str>) {
    emit_error(
        op.location(),
        &format!(
            "'{}' op {}",
            sundial_dialects::ffi::op_name(op.to_raw()),
            message.as_ref()
        ),
    );
}

/// Inserts, replaces and erases ops (melior's `IrRewriter`).
pub struct Rewriter<'c> {
    inner: IrRewriter<'c>,
}

impl<'c> Rewriter<'c> {
    /// A rewriter in the context of `op`.
    pub fn new(op: &OperationRef<'c, '_>) -> Self {
        Self {
            inner: IrRewriter::from_op(*op),
        }
    }

    /// Inserts `new` right before `anchor`.
    pub fn insert_before<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        new: Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        let base = self.inner.as_rewriter_base();
        base.set_insertion_point_before(anchor);
        let op = base.insert(new);
        // Re-bound to the anchor's block: the block owns the op now.
        unsafe { OperationRef::from_raw(op.to_raw()) }
    }

    /// Inserts `new` right after `anchor`.
    pub fn insert_after<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        new: Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        let base = self.inner.as_rewriter_base();
        base.set_insertion_point_after(anchor);
        let op = base.insert(new);
        unsafe { OperationRef::from_raw(op.to_raw()) }
    }

    /// Builds `build` and inserts it before `anchor`.
    pub fn build_before<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        build: OpBuild<'c, 'a>,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        Ok(self.insert_before(anchor, build.build()?))
    }

    /// Inserts a `nisa.alloc` of `tile` before `anchor` and returns the new tile.
    pub fn alloc_before<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        tile: &Tile,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let ty = tile_type_of(anchor.context(), tile)?;
        let op = self.build_before(anchor, OpBuild::at(&anchor, "nisa.alloc")?.result(ty))?;
        op.result(0)
            .map(Into::into)
            .map_err(|e| BuildError::Mlir(e.to_string()))
    }

    /// Replaces `old` by `new` (inserted where `old` was): the results of `old`, if any, are
    /// replaced by those of `new`, then `old` is erased.
    pub fn replace<'a>(
        &self,
        old: OperationRef<'c, 'a>,
        new: Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        let new = self.insert_before(old, new);
        for index in 0..old.result_count().min(new.result_count()) {
            if let (Ok(from), Ok(to)) = (old.result(index), new.result(index)) {
                self.replace_uses(from.into(), to.into());
            }
        }
        self.erase(old);
        new
    }

    /// Replaces every use of `from` by `to`.
    pub fn replace_uses(&self, from: Value<'c, '_>, to: Value<'c, '_>) {
        self.inner
            .as_rewriter_base()
            .replace_all_uses_with(from, to);
    }

    /// Erases `op`, whose results must have no uses left.
    pub fn erase(&self, op: OperationRef<'c, '_>) {
        self.inner.as_rewriter_base().erase_op(op);
    }
}

/// An `index` constant `value` inserted before `anchor`.
pub fn index_constant<'c, 'a>(
    rewriter: &Rewriter<'c>,
    anchor: OperationRef<'c, 'a>,
    value: i64,
) -> Result<Value<'c, 'a>, BuildError> {
    use melior::{
        dialect::arith,
        ir::{attribute::IntegerAttribute, r#type::Type},
    };
    // The context handle must outlive `ctx`: `to_ref` borrows it (on a temporary it dangles,
    // which crashes in release builds).
    let context = anchor.context();
    let ctx = unsafe { context.to_ref() };
    let index = Type::index(ctx);
    let constant = rewriter.insert_before(
        anchor,
        arith::constant(
            ctx,
            IntegerAttribute::new(index, value).into(),
            anchor.location(),
        ),
    );
    constant
        .result(0)
        .map(Into::into)
        .map_err(|e| BuildError::Mlir(e.to_string()))
}

/// Inserts before `op` an empty `scf.for %i = 0 to trips step 1` whose iterations are
/// independent (`sundial.range = "affine"`), and returns its induction variable and the
/// body's `scf.yield`, before which the caller builds the body.
pub fn affine_loop_before<'c, 'a>(
    rewriter: &Rewriter<'c>,
    op: OperationRef<'c, 'a>,
    trips: i64,
) -> Result<(Value<'c, 'a>, OperationRef<'c, 'a>), BuildError> {
    use melior::{
        dialect::scf,
        ir::{Block, BlockLike, Region, RegionLike, r#type::Type},
    };
    let context = op.context();
    let ctx = unsafe { context.to_ref() };
    let loc = op.location();
    let mlir = |e: String| BuildError::Mlir(e);
    let lower = index_constant(rewriter, op, 0)?;
    let upper = index_constant(rewriter, op, trips)?;
    let one = index_constant(rewriter, op, 1)?;
    let body = Block::new(&[(Type::index(ctx), loc)]);
    body.append_operation(scf::r#yield(&[], loc));
    let region = Region::new();
    region.append_block(body);
    let for_op = rewriter.insert_before(op, scf::r#for(lower, upper, one, region, loc));
    set_attr(
        &for_op,
        "sundial.range",
        Attrs::new(context).string("affine"),
    );
    let block = for_op
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| mlir("scf.for without a body".into()))?;
    // Re-bound to the op's lifetimes: the loop lives in the op's block.
    let iv: Value<'c, 'a> =
        unsafe { Value::from_raw(block.argument(0).map_err(|e| mlir(e.to_string()))?.to_raw()) };
    let terminator: OperationRef<'c, 'a> = unsafe {
        OperationRef::from_raw(
            block
                .terminator()
                .ok_or_else(|| mlir("scf.for without a yield".into()))?
                .to_raw(),
        )
    };
    Ok((iv, terminator))
}

/// Erases every `nisa.alloc` and view op (`nisa.ap`, `nisa.dynamic_ap`, and the reshape,
/// slice, permute and broadcast views) nested in `root` whose result has no use, and returns
/// how many it erased. One walk in reverse program order: a view is defined after its source
/// (dominance), so erasing a dead view first may leave its source dead for the same walk.
pub fn erase_dead_views(root: &OperationRef<'_, '_>) -> usize {
    let rewriter = Rewriter::new(root);
    let candidates = collect(root, |op| op_is(op, "nisa.alloc") || is_chain_op(op));
    let mut erased = 0;
    for op in candidates.into_iter().rev() {
        if op.result(0).is_ok_and(|r| !has_uses(r.into())) {
            rewriter.erase(op);
            erased += 1;
        }
    }
    erased
}

/// Sets attribute `name` of `op` (adding or replacing it).
pub fn set_attr<'c>(op: &OperationRef<'c, '_>, name: &str, value: Attribute<'c>) {
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            melior::StringRef::new(name).to_raw(),
            value.to_raw(),
        )
    }
}

/// Sets string attribute `name` of `op` to `value`.
pub fn set_str(op: &OperationRef<'_, '_>, name: &str, value: &str) {
    let attr = Attrs::new(op.context()).string(value);
    set_attr(op, name, attr);
}

/// The tile an access pattern ultimately views: `value` itself, or the tensor under its chain
/// of `nisa.ap` views.
pub fn view_root<'c: 'a, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut current = value;
    for _ in 0..64 {
        let Some(def) = sundial_dialects::verify::defining_op(current) else {
            break;
        };
        if !op_is(&def, "nisa.ap") {
            break;
        }
        match def.operand(0) {
            Ok(tensor) => current = tensor,
            Err(_) => break,
        }
    }
    current
}

/// Whether `value` (or the tensor it views) is an argument of a function: a kernel argument.
pub fn is_kernel_argument(value: Value<'_, '_>) -> bool {
    let root = view_root(value);
    unsafe {
        let raw = root.to_raw();
        if !mlir_sys::mlirValueIsABlockArgument(raw) {
            return false;
        }
        let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
        let parent = mlir_sys::mlirBlockGetParentOperation(block);
        !parent.ptr.is_null() && sundial_dialects::ffi::op_name(parent) == "func.func"
    }
}

/// The `nisa.ap` defining `value`, as a view, if there is one.
pub fn ap_of<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<View<'c, 'a>> {
    sundial_dialects::verify::defining_op(value)
        .filter(|d| op_is(d, "nisa.ap"))
        .and_then(View::of)
}

/// Sets operand `index` of `op` to `value`.
pub fn set_operand(op: &OperationRef<'_, '_>, index: usize, value: Value<'_, '_>) {
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// The NISA ops nested in `root` whose table row passes `pick`, as views (the row is looked up
/// from the op's name without copying it; a view is built only for the ops picked).
pub fn collect_views<'c, 'a>(
    root: &OperationRef<'c, 'a>,
    mut pick: impl FnMut(&'static sundial_dialects::spec::OpSpec) -> bool,
) -> Vec<View<'c, 'a>> {
    let nisa = sundial_dialects::nisa::OPS.as_ptr_range();
    collect(root, |op| {
        sundial_dialects::view::spec_entry_of_raw(op.to_raw())
            .is_some_and(|(_, spec)| nisa.contains(&(spec as *const _)) && pick(spec))
    })
    .into_iter()
    .filter_map(View::of)
    .collect()
}
