//! Parsing that fills in the attributes NISA text may leave implied.
//!
//! MLIR's generic form needs an `operandSegmentSizes` attribute on every op with more than one
//! optional or variadic operand group, and IRDL demands it whenever the op's definition has
//! such groups, even when none is used. For the access-pattern ops ([`IMPLIED_SEGMENTS`]) the
//! attribute is implied when the op is written without any optional operand (no
//! `vector_offset`, no `scalar_offset`: a static `nisa.ap`, or a `nisa.dynamic_ap` with only
//! its dynamic offset), so kernels need not write `array<i32: 1, 0, 0>` on every pattern. An
//! op that gives an optional operand still writes the attribute: its value says which group
//! the operand belongs to. Every other op keeps MLIR's rule (the lit suite tests that a
//! missing attribute is still reported there).
//!
//! MLIR's C API verifies whatever it parses, so [`parse_module`] parses through a small C++
//! function that does not (`dialects/cpp/parse.cpp`), adds the implied attributes
//! ([`complete`]), and then runs MLIR's verifier (IRDL included) on the module: for text that
//! writes the attributes out, the result and the diagnostics are those of
//! `mlirModuleCreateParse`.

use crate::{ffi::op_name, spec::Arity};
use melior::{
    Context,
    ir::{
        Module,
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    },
};
use mlir_sys::{MlirContext, MlirModule, MlirOperation, MlirStringRef};

/// The NISA ops (mnemonics) whose `operandSegmentSizes` is implied when no optional operand
/// is given.
pub const IMPLIED_SEGMENTS: &[&str] = &["ap", "dynamic_ap"];

unsafe extern "C" {
    /// `dialects/cpp/parse.cpp`: `mlirModuleCreateParse` without the verifier.
    fn sundialParseModuleUnverified(context: MlirContext, source: MlirStringRef) -> MlirModule;
}

/// Parses `source` into a module, fills in the implied attributes, then verifies the module
/// with MLIR's verifier. `None` when parsing or verification failed; the diagnostics went
/// to the context's handlers.
///
/// # Safety
/// `source` must point to `source.length` readable bytes followed by a NUL byte: MLIR's lexer
/// reads one byte past the text and relies on the NUL to stop.
pub unsafe fn parse_module(context: &Context, source: MlirStringRef) -> Option<Module<'_>> {
    let raw = unsafe { sundialParseModuleUnverified(context.to_raw(), source) };
    let module = unsafe { Module::from_option_raw(raw) }?;
    complete(&module.as_operation());
    let verified = unsafe { mlir_sys::mlirOperationVerify(module.as_operation().to_raw()) };
    verified.then_some(module)
}

/// Adds the implied `operandSegmentSizes` to every op under `root` (included) that leaves it
/// implied. Ops that write the attribute, or whose operands do not fit the implied form, are
/// left alone for the verifier to judge.
pub fn complete(root: &OperationRef<'_, '_>) {
    root.walk(WalkOrder::PreOrder, |op| {
        imply_segments(op.to_raw());
        WalkResult::Advance
    });
}

fn imply_segments(op: MlirOperation) {
    let name = op_name(op);
    let Some(spec) = name
        .strip_prefix("nisa.")
        .filter(|m| IMPLIED_SEGMENTS.contains(m))
        .and_then(crate::nisa::op)
    else {
        return;
    };
    unsafe {
        let attr_name = mlir_sys::mlirStringRefCreateFromCString(c"operandSegmentSizes".as_ptr());
        if !mlir_sys::mlirOperationGetAttributeByName(op, attr_name)
            .ptr
            .is_null()
        {
            return;
        }
        let sizes: Vec<i32> = spec
            .operands
            .iter()
            .map(|o| i32::from(o.arity == Arity::One))
            .collect();
        let singles: i32 = sizes.iter().sum();
        // Only the form without optional operands is implied.
        if mlir_sys::mlirOperationGetNumOperands(op) != singles as isize {
            return;
        }
        let context = mlir_sys::mlirOperationGetContext(op);
        let value = mlir_sys::mlirDenseI32ArrayGet(context, sizes.len() as isize, sizes.as_ptr());
        mlir_sys::mlirOperationSetAttributeByName(op, attr_name, value);
    }
}
