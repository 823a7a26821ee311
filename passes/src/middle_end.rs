//! `sundial-middle-end`: the middle end as one named pipeline (pass-rules §1), with the
//! verifier after every pass and the phase checks where a phase begins.
//!
//! | # | pass | then verifies |
//! |---|---|---|
//! | 1 | `sundial-resolve-engine` | logical |
//! | 2 | `sundial-decompose` | logical |
//! | 3 | `sundial-infer-intrinsic{contract, target}` | logical |
//! | 4 | `sundial-partition-tiling` | tiled |
//! | 5 | `sundial-legalize-partition-reduce` | tiled |
//! | 6 | `sundial-generic-load-to-gather{target}` | tiled |
//! | 7 | `sundial-lower-generic-indirect` | tiled |
//! | 8 | `sundial-resolve-dge{target}` | selection |
//!
//! `sundial-middle-end` is one pass that runs the eight as steps, each followed by the verifier
//! of `sundial-verify` with the phase's checks; MLIR's own verifier runs after it, as after any
//! pass. A step that left the IR exactly as the last verification saw it (the same
//! `sundial_dialects::verify::Snapshot`) is not verified again, or only with the checks its
//! phase adds (`sundial_dialects::verify::remembering_verified`): on a given kernel most steps
//! find nothing to do, and each verification is a walk of the whole module. The equivalent pipeline of separate passes (what [`expand`] writes, and
//! `--list-passes` shows) verifies the same way (each pass's `verify=<phase>`) but lets MLIR's
//! verifier walk the IR after every one of them: eight times the structural checks, which made
//! the middle end ~1.5x slower on a 100,000-op kernel, with nothing more to find (no step
//! builds anything MLIR's verifier checks and Sundial's does not, except SSA dominance, which
//! the final check still covers). Write the expansion to see each step's IR or timing
//! (`--mlir-print-ir-after-all`, `--mlir-timing`).
//!
//! Afterwards every op that takes an engine or a DGE mode carries a concrete one, no generic or
//! composite op remains, and no SBUF/PSUM tile has more than 128 partitions (what instruction
//! selection takes). The tiled phase starts after `sundial-partition-tiling`, which precedes
//! the legalizations [wiki]; what it refuses (views of logical tiles, on-chip kernel arguments
//! beyond 128 partitions, ops with no tiling rule) stops the pipeline there.
//!
//! Options: `target` (default the module's `sundial.target`) goes to the passes that take one
//! (and the verifiers they run: the steps before use the module's target, the last one's
//! selection-phase check the option's); `contract` (false) to `sundial-infer-intrinsic`.

use crate::{
    registry::{OptionKind, PassOption, PassOptions, PipelineInfo},
    step::{PassId, Step},
};
use melior::{ir::operation::OperationRef, pass::ExternalPass};
use sundial_dialects::{
    enums::Target,
    verify::{Phase, remembering_verified, verify_phase},
};

/// The registry entry.
pub const INFO: PipelineInfo = PipelineInfo {
    name: "sundial-middle-end",
    summary: "The middle end: resolve engines, decompose, fuse, legalize, select loads, resolve DGE (verifier after each)",
    options: &[
        PassOption {
            name: "target",
            kind: OptionKind::Enum(&Target::NAMES),
            default: "",
            help: "Target (default: the module's sundial.target)",
        },
        PassOption {
            name: "contract",
            kind: OptionKind::Bool,
            default: "false",
            help: "Let sundial-infer-intrinsic drop rounding steps",
        },
    ],
    expand,
    create: Some(crate::step::create::<MiddleEnd>),
};

/// One step of the compound pass.
#[derive(Clone, Debug)]
enum Stage {
    ResolveEngine(crate::resolve_engine::ResolveEngine),
    Decompose(crate::decompose::Decompose),
    Infer(crate::infer_intrinsic::Infer),
    Tiling(crate::partition_tiling::Tiling),
    Legalize(crate::legalize_partition_reduce::Legalize),
    ToGather(crate::generic_load_to_gather::ToGather),
    Lower(crate::lower_generic_indirect::Lower),
    ResolveDge(crate::resolve_dge::ResolveDge),
}

impl Stage {
    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        match self {
            Stage::ResolveEngine(p) => p.step(operation, pass),
            Stage::Decompose(p) => p.step(operation, pass),
            Stage::Infer(p) => p.step(operation, pass),
            Stage::Tiling(p) => p.step(operation, pass),
            Stage::Legalize(p) => p.step(operation, pass),
            Stage::ToGather(p) => p.step(operation, pass),
            Stage::Lower(p) => p.step(operation, pass),
            Stage::ResolveDge(p) => p.step(operation, pass),
        }
    }
}

static PASS_ID: PassId = PassId::new();

/// The compound pass: the steps in order, each verified with its phase's checks.
#[derive(Clone, Debug)]
struct MiddleEnd {
    stages: Vec<(Stage, Phase)>,
    target: Option<Target>,
}

/// The options of pass `name` from `raw` pairs (the pass's defaults filled in).
fn options_of(name: &str, raw: &[(&str, &str)]) -> PassOptions {
    let raw: Vec<(String, String)> = raw
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    crate::registry::lookup(name)
        .and_then(|info| info.parse_options(&raw).ok())
        .unwrap_or_default()
}

/// The step `S` with the options `raw` (and its defaults), as the pass `S::FLAG` would have.
fn stage<S: Step>(raw: &[(&str, &str)]) -> S {
    S::new(&options_of(S::FLAG, raw))
}

impl Step for MiddleEnd {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialMiddleEnd";
    const ID: &'static PassId = &PASS_ID;

    fn new(options: &PassOptions) -> Self {
        let target = options.get("target").filter(|t| !t.is_empty());
        let contract = if options.flag("contract") {
            "true"
        } else {
            "false"
        };
        let with_target: Vec<(&str, &str)> =
            target.map(|t| vec![("target", t)]).unwrap_or_default();
        let stages = vec![
            (Stage::ResolveEngine(stage(&[])), Phase::Logical),
            (Stage::Decompose(stage(&[])), Phase::Logical),
            (
                Stage::Infer(stage(
                    &[&[("contract", contract)], with_target.as_slice()].concat(),
                )),
                Phase::Logical,
            ),
            (Stage::Tiling(stage(&[])), Phase::Tiled),
            (Stage::Legalize(stage(&[])), Phase::Tiled),
            (Stage::ToGather(stage(&with_target)), Phase::Tiled),
            (Stage::Lower(stage(&[])), Phase::Tiled),
            (Stage::ResolveDge(stage(&with_target)), Phase::Selection),
        ];
        MiddleEnd {
            stages,
            target: target.and_then(Target::from_name),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        let target = self.target;
        // A step that left the IR exactly as the last verification saw it (the same
        // snapshot) is not verified again for the checks that verification ran: the verifier
        // would read the same IR and find the same (nothing). A later phase runs only the
        // checks it adds (Logical < Tiled < Selection). Inside a compilation the memory
        // starts with the verification after parsing.
        remembering_verified(|| {
            sundial_dialects::tile::with_caches(|| {
                for (stage, phase) in &mut self.stages {
                    if !stage.step(operation, pass) {
                        return false;
                    }
                    if !verify_phase(&operation, target, *phase) {
                        pass.signal_failure();
                        return false;
                    }
                }
                true
            })
        })
    }
}

/// The pipeline of separate passes `sundial-middle-end{options}` is equivalent to: each pass
/// verifies its result itself (its `verify` option: the checks of `sundial-verify`).
pub fn expand(options: &PassOptions) -> String {
    let target = options.get("target").filter(|t| !t.is_empty());
    let pass = |name: &str, takes_target: bool, extra: &[&str]| {
        let mut opts: Vec<String> = extra.iter().map(|e| e.to_string()).collect();
        if let (true, Some(t)) = (takes_target, target) {
            opts.push(format!("target={t}"));
        }
        format!("{name}{{{}}}", opts.join(" "))
    };
    let contract = if options.flag("contract") {
        "contract=true"
    } else {
        "contract=false"
    };
    [
        pass("sundial-resolve-engine", false, &["verify=logical"]),
        pass("sundial-decompose", false, &["verify=logical"]),
        pass(
            "sundial-infer-intrinsic",
            true,
            &[contract, "verify=logical"],
        ),
        pass("sundial-partition-tiling", false, &["verify=tiled"]),
        pass(
            "sundial-legalize-partition-reduce",
            false,
            &["verify=tiled"],
        ),
        pass("sundial-generic-load-to-gather", true, &["verify=tiled"]),
        pass("sundial-lower-generic-indirect", false, &["verify=tiled"]),
        pass("sundial-resolve-dge", true, &["verify=selection"]),
    ]
    .join(",")
}
