//! IR helpers shared by the back-end passes: the target an op compiles for, discardable
//! attributes read and written through the C API, and dictionary attributes.

use melior::{
    ContextRef, StringRef,
    ir::{
        Attribute, Identifier,
        attribute::AttributeLike,
        operation::{OperationLike, OperationRef},
    },
    pass::ExternalPass,
};
use sundial_dialects::{
    build::Attrs,
    enums::Target,
    ffi::string_attr_value,
    verify::{TARGET_ATTR, int_value},
};
use sundial_passes::rewrite::{collect, op_is, refuse};

/// The target named by `op` or its nearest ancestor's `sundial.target`: `Ok(None)` when none
/// names one, `Err` when the nearest one is malformed.
pub fn target_of(op: &OperationRef<'_, '_>) -> Result<Option<Target>, String> {
    let mut cursor = Some(op.to_raw());
    let mut depth = 0;
    while let Some(raw) = cursor {
        let op = unsafe { OperationRef::from_raw(raw) };
        if let Ok(attr) = op.attribute(TARGET_ATTR) {
            if !attr.is_string() {
                return Err(format!(
                    "attribute '{TARGET_ATTR}' must be a string (sunda|cayman|mariana)"
                ));
            }
            let text = string_attr_value(attr);
            return Target::from_name(&text).map(Some).ok_or_else(|| {
                format!(
                    "unknown target \"{text}\" in '{TARGET_ATTR}' (expected sunda|cayman|mariana)"
                )
            });
        }
        depth += 1;
        let parent = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
        cursor = (!parent.ptr.is_null() && depth < 10_000).then_some(parent);
    }
    Ok(None)
}

/// The target of a pass run: the pass option when given, else the module's.
pub fn resolve_target(
    op: &OperationRef<'_, '_>,
    option: Option<Target>,
    pass: &str,
) -> Result<Target, String> {
    if let Some(t) = option {
        return Ok(t);
    }
    match target_of(op)? {
        Some(t) => Ok(t),
        None => Err(format!(
            "{pass} needs a target: set `{TARGET_ATTR}` on the module or the pass option `target`"
        )),
    }
}

/// The body of each back-end pass: resolves the target ([`resolve_target`], refusing at
/// `operation` when there is none), then runs `f` on every `func.func` under it. Returns
/// whether everything succeeded; on failure `pass` has been signalled.
pub fn each_function(
    operation: &OperationRef<'_, '_>,
    option: Option<Target>,
    flag: &str,
    pass: ExternalPass<'_>,
    mut f: impl FnMut(OperationRef<'_, '_>, Target) -> bool,
) -> bool {
    let target = match resolve_target(operation, option, flag) {
        Ok(t) => t,
        Err(msg) => {
            refuse(operation, msg);
            pass.signal_failure();
            return false;
        }
    };
    // Decoded tile types and op names are remembered while the pass runs: selection reads
    // the tiles of every operand several times.
    let ok = sundial_dialects::tile::with_caches(|| {
        let mut ok = true;
        for func in collect(operation, |op| op_is(op, "func.func")) {
            ok &= f(func, target);
        }
        ok
    });
    if !ok {
        pass.signal_failure();
    }
    ok
}

/// Sets attribute `name` of `op` (a discardable `sundial.*` annotation or an inherent one).
pub fn set_attr<'c>(op: &OperationRef<'c, '_>, name: &str, value: Attribute<'c>) {
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            StringRef::new(name).to_raw(),
            value.to_raw(),
        );
    }
}

/// The integer attribute `name` of `op`, if it has one.
pub fn int_attr(op: &OperationRef<'_, '_>, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(int_value)
}

/// A dictionary attribute of `entries` (MLIR sorts the keys).
pub fn dict<'c>(context: ContextRef<'c>, entries: &[(&str, Attribute<'c>)]) -> Attribute<'c> {
    let attrs = Attrs::new(context);
    let named: Vec<mlir_sys::MlirNamedAttribute> = entries
        .iter()
        .map(|(k, v)| {
            let id: Identifier<'c> = attrs.identifier(k);
            unsafe { mlir_sys::mlirNamedAttributeGet(id.to_raw(), v.to_raw()) }
        })
        .collect();
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(
            raw_context(context),
            named.len() as isize,
            named.as_ptr(),
        ))
    }
}

/// The raw handle of a context reference (read from a local, never from a temporary: see
/// `sundial_dialects::build`).
pub fn raw_context(context: ContextRef<'_>) -> mlir_sys::MlirContext {
    let local = context;
    unsafe { local.to_ref() }.to_raw()
}

/// The name of `op` (`nisa.alloc`).
pub fn op_name<'c>(op: &OperationRef<'c, '_>) -> std::borrow::Cow<'c, str> {
    sundial_dialects::ffi::op_name(op.to_raw())
}
