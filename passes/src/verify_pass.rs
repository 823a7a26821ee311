//! `sundial-verify`: the semantic verifier of the NISA and BIR dialects as a pass.
//!
//! `sundial-opt` runs the same checks after parsing and after the pipeline; the pass puts them
//! at a phase boundary of a pipeline (as IREE's `VerifyLowerings` does). Option `target`
//! overrides the module's `sundial.target` for target-gated rules.

use crate::registry::{OptionKind, PassInfo, PassOptions};
use melior::{
    ContextRef,
    ir::{operation::OperationRef, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use sundial_dialects::{enums::Target, verify::verify};

#[repr(align(8))]
struct PassId;
static VERIFY_PASS_ID: PassId = PassId;

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-verify",
    summary: "Check the semantic rules of the NISA and BIR dialects",
    description: "Runs the Rust semantic verifier (operand spaces and dtypes, engines, shapes, access patterns, MX and indirection rules, BIR opcode sequences) on every nisa/bir op under the anchor; fails the pipeline on the first broken rule of each op.",
    options: &[crate::registry::PassOption {
        name: "target",
        kind: OptionKind::Enum(&Target::NAMES),
        default: "",
        help: "Target for target-gated rules (default: the module's sundial.target)",
    }],
    create,
};

#[derive(Clone, Debug)]
struct VerifyPass {
    target: Option<Target>,
}

impl<'c> RunExternalPass<'c> for VerifyPass {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        if !verify(&operation, self.target) {
            pass.signal_failure();
        }
    }
}

fn create(options: &PassOptions) -> Pass {
    let target = options.get("target").and_then(Target::from_name);
    create_external(
        VerifyPass { target },
        TypeId::create(&VERIFY_PASS_ID),
        "SundialVerify",
        INFO.name,
        INFO.summary,
        "",
        &[],
    )
}
