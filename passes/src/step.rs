//! The one MLIR pass wrapper of this crate's Rust passes.
//!
//! Every pass is a [`Step`]: a `Clone` value built from its validated options that runs on an
//! operation, reports its refusals and says whether it succeeded. [`create`] turns any step
//! into a melior pass ([`StepPass`]): it runs the step and then, when the pass's `verify`
//! option asks for it ([`VerifyAfter`]), the verifier of `sundial-verify` with that phase's
//! checks. `sundial-middle-end` runs the same steps in sequence inside one pass.
//!
//! melior's requirements, stated once here: a pass is `Clone` and holds no `Rc` (MLIR clones
//! it per thread for nested pipelines), its state is `'static` (the boxed value outlives every
//! context), and it needs an MLIR TypeID, the address of an 8-byte aligned static that no other
//! pass shares ([`PassId`]: never zero-sized, since zero-sized statics may share an address).

use crate::{registry::PassOptions, verify_pass::VerifyAfter};
use melior::{
    ContextRef,
    ir::{operation::OperationRef, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};

/// The anchor of one pass's MLIR TypeID: declare one `static` of it per pass.
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    /// A fresh anchor (its address, not its value, is the identity).
    pub const fn new() -> Self {
        PassId(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

/// A pass of this crate as a step: runs on `operation`, reports its refusals (signalling failure
/// through `pass`), and says whether it succeeded.
pub trait Step: Clone + 'static {
    /// The flag (`sundial-<name>`), as in the registry.
    const FLAG: &'static str;
    /// The registry's one-line summary.
    const SUMMARY: &'static str;
    /// MLIR's name of the pass (CamelCase, shown by MLIR's timing and crash reports).
    const CLASS: &'static str;
    /// The pass's TypeID anchor.
    const ID: &'static PassId;

    /// The step with validated `options` (the registry filled in the defaults).
    fn new(options: &PassOptions) -> Self;

    /// Runs the step; `false` when it refused (after signalling `pass`'s failure).
    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool;
}

/// A step as an MLIR pass: the step, then the verifier its `verify` option names.
#[derive(Clone, Debug)]
pub struct StepPass<S> {
    step: S,
    after: VerifyAfter,
}

impl<'c, S: Step> RunExternalPass<'c> for StepPass<S> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        if self.step.step(operation, pass) {
            self.after.check(&operation, pass);
        }
    }
}

/// The pass of step `S` with validated `options`: the registry's constructor of every pass of
/// this crate (`create: crate::step::create::<S>`).
pub fn create<S: Step>(options: &PassOptions) -> Pass {
    create_external(
        StepPass {
            step: S::new(options),
            after: VerifyAfter::from_options(options),
        },
        TypeId::create(S::ID),
        S::CLASS,
        S::FLAG,
        S::SUMMARY,
        "",
        &[],
    )
}
