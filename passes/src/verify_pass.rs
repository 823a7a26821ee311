//! `sundial-verify`: the semantic verifier of the NISA and BIR dialects as a pass.
//!
//! `sundial-opt` runs the same checks after parsing and after the pipeline; the pass puts them
//! at a phase boundary of a pipeline (as IREE's `VerifyLowerings` does). Option `target`
//! overrides the module's `sundial.target` for target-gated rules; option `phase` adds the
//! checks of a point of the middle end (`tiled`: at most 128 partitions per on-chip tile;
//! `selection`: also resolved engines and DGE modes, no generic or composite ops; see
//! `sundial_dialects::verify::phase`).

use crate::registry::{OptionKind, PassInfo, PassOption, PassOptions};
use crate::step::{PassId, Step};
use melior::{ir::operation::OperationRef, pass::ExternalPass};
use sundial_dialects::{
    enums::Target,
    verify::{Phase, verify_phase},
};

static VERIFY_PASS_ID: PassId = PassId::new();

/// The registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "sundial-verify",
    summary: "Check the semantic rules of the NISA and BIR dialects",
    description: "Runs the Rust semantic verifier (operand spaces and dtypes, engines, shapes, access patterns, MX and indirection rules, BIR opcode sequences) on every nisa/bir op under the anchor; fails the pipeline on the first broken rule of each op.",
    options: &[
        crate::registry::PassOption {
            name: "target",
            kind: OptionKind::Enum(&Target::NAMES),
            default: "",
            help: "Target for target-gated rules (default: the module's sundial.target)",
        },
        crate::registry::PassOption {
            name: "phase",
            kind: OptionKind::Enum(&Phase::NAMES),
            default: "logical",
            help: "Phase checks to add: logical (none), tiled (<= 128 partitions), selection",
        },
    ],
    create: crate::step::create::<VerifyPass>,
};

#[derive(Clone, Debug)]
struct VerifyPass {
    target: Option<Target>,
    phase: Phase,
}

impl Step for VerifyPass {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialVerify";
    const ID: &'static PassId = &VERIFY_PASS_ID;

    fn new(options: &PassOptions) -> Self {
        VerifyPass {
            target: options.get("target").and_then(Target::from_name),
            phase: options
                .get("phase")
                .and_then(Phase::parse)
                .unwrap_or_default(),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        let ok = verify_phase(&operation, self.target, self.phase);
        if !ok {
            pass.signal_failure();
        }
        ok
    }
}

/// The `verify` option of the middle-end passes: run the verifier of `sundial-verify` (with
/// the phase checks of the named phase) on the pass's result, inside the pass. The pipeline
/// writes `sundial-resolve-engine{verify=logical}` rather than `sundial-resolve-engine,
/// sundial-verify`: the same checks, one pass fewer, so MLIR's own verifier (which the pass
/// manager runs after every pass) walks the IR once per step instead of twice.
pub const VERIFY_AFTER: PassOption = PassOption {
    name: "verify",
    kind: OptionKind::Enum(&["none", "logical", "tiled", "selection"]),
    default: "none",
    help: "Verify the result, with this phase's checks (none: not)",
};

/// The `verify` option of a pass, parsed.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyAfter {
    phase: Option<Phase>,
    target: Option<Target>,
}

impl VerifyAfter {
    /// From the pass's options (its `target` option, if it has one, is the verifier's too).
    pub fn from_options(options: &PassOptions) -> Self {
        Self {
            phase: options.get("verify").and_then(Phase::parse),
            target: options.get("target").and_then(Target::from_name),
        }
    }

    /// Verifies `operation` if asked to; signals failure on a broken rule.
    pub fn check(&self, operation: &OperationRef<'_, '_>, pass: ExternalPass<'_>) {
        if let Some(phase) = self.phase
            && !verify_phase(operation, self.target, phase)
        {
            pass.signal_failure();
        }
    }
}
