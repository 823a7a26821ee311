//! `sundial-middle-end`: the middle end as one named pipeline (pass-rules §1), with the
//! verifier after every pass and the phase checks where a phase begins.
//!
//! | # | pass | then |
//! |---|---|---|
//! | 1 | `sundial-resolve-engine` | `sundial-verify` |
//! | 2 | `sundial-decompose` | `sundial-verify` |
//! | 3 | `sundial-infer-intrinsic{contract}` | `sundial-verify` |
//! | 4 | (`sundial-partition-tiling`: not yet in this pipeline) | |
//! | 5 | `sundial-legalize-partition-reduce` | `sundial-verify{phase=tiled}` |
//! | 6 | `sundial-generic-load-to-gather{target}` | `sundial-verify{phase=tiled}` |
//! | 7 | `sundial-lower-generic-indirect` | `sundial-verify{phase=tiled}` |
//! | 8 | `sundial-resolve-dge{target}` | `sundial-verify{phase=selection}` |
//!
//! Afterwards every op that takes an engine or a DGE mode carries a concrete one, no generic or
//! composite op remains, and no SBUF/PSUM tile has more than 128 partitions (what instruction
//! selection takes). The tiled phase starts after the partition-reduce legalization, which
//! tiling precedes [wiki]: until `sundial-partition-tiling` joins at step 4, a kernel whose
//! logical tiles have more than 128 partitions outside partition reductions stops there with
//! the phase check's diagnostic.
//!
//! Options: `target` (default the module's `sundial.target`) goes to the passes and verifiers
//! that take one; `contract` (false) to `sundial-infer-intrinsic`.

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

/// The pipeline text `sundial-middle-end{options}` stands for.
pub fn expand(options: &PassOptions) -> String {
    let target = options.get("target").filter(|t| !t.is_empty());
    let with_target = |pass: &str, extra: &str| {
        let mut opts: Vec<String> = Vec::new();
        if let Some(t) = target {
            opts.push(format!("target={t}"));
        }
        if !extra.is_empty() {
            opts.push(extra.to_string());
        }
        if opts.is_empty() {
            pass.to_string()
        } else {
            format!("{pass}{{{}}}", opts.join(" "))
        }
    };
    let verify = |phase: &str| with_target("sundial-verify", &format!("phase={phase}"));
    let contract = if options.flag("contract") {
        "sundial-infer-intrinsic{contract=true}"
    } else {
        "sundial-infer-intrinsic"
    };
    [
        "sundial-resolve-engine".to_string(),
        verify("logical"),
        "sundial-decompose".to_string(),
        verify("logical"),
        contract.to_string(),
        verify("logical"),
        "sundial-legalize-partition-reduce".to_string(),
        verify("tiled"),
        with_target("sundial-generic-load-to-gather", ""),
        verify("tiled"),
        "sundial-lower-generic-indirect".to_string(),
        verify("tiled"),
        with_target("sundial-resolve-dge", ""),
        verify("selection"),
    ]
    .join(",")
}
