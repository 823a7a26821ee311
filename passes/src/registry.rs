//! The registry of Sundial's Rust passes, and of the upstream passes Sundial makes available.
//!
//! Each Rust pass is declared once as a [`PassInfo`]: its flag (the name used in pipelines,
//! the registry key and the name of its lit test file), a summary, its options with defaults,
//! and a constructor. MLIR's C API cannot add passes to MLIR's global registry, so pipelines
//! are parsed by [`crate::pipeline`], which looks Rust passes up here and hands every other
//! element to MLIR's own pipeline parser.
//!
//! Crates that build on this one (the instruction selector, which depends on `passes`)
//! declare their passes the same way and add them with [`register`]; the root crate does so
//! once per process, so this crate never depends on them.

use melior::pass::Pass;
use std::{
    collections::BTreeMap,
    sync::{Once, RwLock},
};

/// The kind of a pass option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` / `false`.
    Bool,
    /// A non-negative integer.
    Uint,
    /// A string from a closed set.
    Enum(&'static [&'static str]),
}

/// One option of a pass (`{name=value}` in a pipeline).
#[derive(Clone, Copy, Debug)]
pub struct PassOption {
    /// Name.
    pub name: &'static str,
    /// Kind.
    pub kind: OptionKind,
    /// Value when absent (empty: absent means "not set").
    pub default: &'static str,
    /// One-line help.
    pub help: &'static str,
}

/// Parsed option values of one pass instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions(pub BTreeMap<String, String>);

impl PassOptions {
    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A bool option (`false` when unset).
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) == Some("true")
    }
}

/// A Rust pass.
pub struct PassInfo {
    /// The flag, e.g. `sundial-verify`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Longer description for `--list-passes`.
    pub description: &'static str,
    /// Options.
    pub options: &'static [PassOption],
    /// Creates an instance with validated options.
    pub create: fn(&PassOptions) -> Pass,
}

impl PassInfo {
    /// Validates `raw` option pairs against the declared options and fills in defaults.
    pub fn parse_options(&self, raw: &[(String, String)]) -> Result<PassOptions, String> {
        parse_options(self.name, "pass", self.options, raw)
    }
}

/// Validates `raw` option pairs of `what` (`pass` or `pipeline`) `name` against `options`
/// and fills in defaults.
fn parse_options(
    name: &str,
    what: &str,
    options: &[PassOption],
    raw: &[(String, String)],
) -> Result<PassOptions, String> {
    let mut out = BTreeMap::new();
    for (key, value) in raw {
        let Some(opt) = options.iter().find(|o| o.name == key) else {
            let known = options.iter().map(|o| o.name).collect::<Vec<_>>();
            return Err(format!(
                "{what} '{name}' has no option '{key}' (options: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        let ok = match opt.kind {
            OptionKind::Bool => value == "true" || value == "false",
            OptionKind::Uint => value.parse::<u64>().is_ok(),
            OptionKind::Enum(values) => values.contains(&value.as_str()),
        };
        if !ok {
            let expected = match opt.kind {
                OptionKind::Bool => "true or false".to_string(),
                OptionKind::Uint => "a non-negative integer".to_string(),
                OptionKind::Enum(values) => format!("one of {}", values.join("|")),
            };
            return Err(format!(
                "{what} '{name}' option '{key}': invalid value '{value}' (expected {expected})"
            ));
        }
        if out.insert(key.clone(), value.clone()).is_some() {
            return Err(format!("{what} '{name}' option '{key}' is given twice"));
        }
    }
    for opt in options {
        if !opt.default.is_empty() {
            out.entry(opt.name.to_string())
                .or_insert_with(|| opt.default.to_string());
        }
    }
    Ok(PassOptions(out))
}

/// A named pipeline: a sequence of Rust passes usable in a pipeline like one pass
/// (`builtin.module(sundial-middle-end{target=cayman})`).
pub struct PipelineInfo {
    /// The flag, e.g. `sundial-middle-end`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Options (handed to the passes that take them).
    pub options: &'static [PassOption],
    /// The pipeline text the element is equivalent to, given validated options.
    pub expand: fn(&PassOptions) -> String,
    /// A single pass that does the same (faster, see `middle_end`); `None`: the pipeline is
    /// added as its expansion.
    pub create: Option<fn(&PassOptions) -> Pass>,
}

impl PipelineInfo {
    /// Validates `raw` option pairs against the declared options and fills in defaults.
    pub fn parse_options(&self, raw: &[(String, String)]) -> Result<PassOptions, String> {
        parse_options(self.name, "pipeline", self.options, raw)
    }
}

/// Every named pipeline.
pub static PIPELINES: &[PipelineInfo] = &[crate::middle_end::INFO];

/// Looks up a named pipeline by flag.
pub fn lookup_pipeline(name: &str) -> Option<&'static PipelineInfo> {
    PIPELINES.iter().find(|p| p.name == name)
}

/// Every Rust pass of this crate.
pub static PASSES: &[PassInfo] = &[
    crate::verify_pass::INFO,
    crate::resolve_engine::INFO,
    crate::resolve_dge::INFO,
    crate::decompose::INFO,
    crate::infer_intrinsic::INFO,
    crate::partition_tiling::INFO,
    crate::legalize_partition_reduce::INFO,
    crate::generic_load_to_gather::INFO,
    crate::lower_generic_indirect::INFO,
    crate::unroll::INFO,
];

/// The passes other crates registered ([`register`]), in registration order.
static REGISTERED: RwLock<Vec<&'static PassInfo>> = RwLock::new(Vec::new());

/// Adds a pass declared by another crate, so that pipelines and `--list-passes` find it.
/// Registering the same declaration again does nothing; another declaration under a flag that
/// is already taken is an error naming it.
pub fn register(info: &'static PassInfo) -> Result<(), String> {
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    let taken = PASSES
        .iter()
        .chain(registered.iter().copied())
        .find(|p| p.name == info.name);
    match taken {
        Some(p) if std::ptr::eq(p, info) => Ok(()),
        Some(_) => Err(format!("pass '{}' is already registered", info.name)),
        None => {
            registered.push(info);
            Ok(())
        }
    }
}

/// Every Rust pass: this crate's, then the registered ones.
pub fn all() -> Vec<&'static PassInfo> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    PASSES.iter().chain(registered.iter().copied()).collect()
}

/// Looks up a Rust pass by flag.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    all().into_iter().find(|p| p.name == name)
}

/// The upstream MLIR passes Sundial registers (MLIR's generic `Transforms` group); they can be
/// used in pipelines next to the Rust passes.
pub const UPSTREAM_PASSES: &[(&str, &str)] = &[
    ("canonicalize", "Canonicalize operations"),
    ("cse", "Eliminate common sub-expressions"),
    ("inline", "Inline function calls"),
    ("symbol-dce", "Eliminate dead symbols"),
    ("symbol-privatize", "Mark symbols private"),
    ("sccp", "Sparse conditional constant propagation"),
    (
        "loop-invariant-code-motion",
        "Hoist loop invariant instructions outside of the loop",
    ),
    (
        "control-flow-sink",
        "Sink operations into conditional blocks",
    ),
    ("remove-dead-values", "Remove dead values"),
    ("strip-debuginfo", "Strip debug info from all operations"),
    (
        "topological-sort",
        "Sort regions without SSA dominance in topological order",
    ),
    ("print-op-stats", "Print statistics of operations"),
    ("mem2reg", "Promotes memory slots into values"),
    ("sroa", "Scalar Replacement of Aggregates"),
];

/// Registers the upstream passes with MLIR's global registry (once per process: registering
/// twice double-frees inside MLIR).
pub fn register_upstream_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe { mlir_sys::mlirRegisterTransformsPasses() });
}
