//! `sundial-middle-end`: the middle end as one named pipeline (pass-rules §1), with the
//! verifier after every pass and the phase checks where a phase begins.
//!
//! | # | pass | then verifies |
//! |---|---|---|
//! | 1 | `sundial-resolve-engine` | logical |
//! | 2 | `sundial-decompose` | logical |
//! | 3 | `sundial-infer-intrinsic{contract}` | logical |
//! | 4 | (`sundial-partition-tiling`: not yet in this pipeline) | |
//! | 5 | `sundial-legalize-partition-reduce` | tiled |
//! | 6 | `sundial-generic-load-to-gather{target}` | tiled |
//! | 7 | `sundial-lower-generic-indirect` | tiled |
//! | 8 | `sundial-resolve-dge{target}` | selection |
//!
//! Each pass runs the verifier of `sundial-verify` (with the phase's checks) on its own result
//! (`verify=<phase>`), and MLIR's verifier runs after each, as the pass manager does.
//!
//! Afterwards every op that takes an engine or a DGE mode carries a concrete one, no generic or
//! composite op remains, and no SBUF/PSUM tile has more than 128 partitions (what instruction
//! selection takes). The tiled phase starts after the partition-reduce legalization, which
//! tiling precedes [wiki]: until `sundial-partition-tiling` joins at step 4, a kernel whose
//! logical tiles have more than 128 partitions outside partition reductions stops there with
//! the phase check's diagnostic.
//!
//! Options: `target` (default the module's `sundial.target`) goes to the passes that take one
//! (and the verifiers they run: the steps before use the module's target, the last one's
//! selection-phase check the option's); `contract` (false) to `sundial-infer-intrinsic`.

use crate::registry::{OptionKind, PassOption, PassOptions, PipelineInfo};
use sundial_dialects::enums::Target;

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
};

/// The pipeline text `sundial-middle-end{options}` stands for: each pass verifies its result
/// itself (its `verify` option: the checks of `sundial-verify`, one pass fewer for MLIR's own
/// verifier to follow).
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
            false,
            &[contract, "verify=logical"],
        ),
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
