//! Sundial: an MLIR middle and back end for NeuronCore accelerators — tools and embedding API.
//!
//! - [`session`]: the embedding API front ends call ([`Session`]: parse, verify, run pipelines,
//!   print; diagnostics as values).
//! - [`compile`]: [`Session::compile`], a NISA kernel to engine bundles and a manifest, as
//!   values.
//! - [`opt`]: the `sundial-opt` driver (mlir-opt conventions).
//! - [`translate`]: the `sundial-translate` driver (kernel -> one `.bin` per engine queue and
//!   `manifest.json`).
//! - [`fuzz`]: the `sundial-fuzz` harness (targets, mutators, crash-proof driver).
//! - [`run`]: the `sundial-run` driver (NISA kernels on the emulator, `.npy` arguments).
//! - [`expected`]: `--verify-diagnostics` matching of `expected-*` comments.
//! - [`render`]: diagnostics as source snippets (codespan-reporting) or JSON lines.
//! - [`source`]: `--split-input-file` chunking and the nesting guard.
//! - [`workload`]: generated kernels for benchmarks.
//!
//! The dialects live in `sundial-dialects`, the passes in `sundial-passes`, the back end
//! (allocation, selection, BIR -> bundles) in `sundial-isel`.

pub mod compile;
pub mod expected;
pub mod fuzz;
pub mod opt;
pub mod render;
pub mod run;
pub mod session;
pub mod source;
pub mod translate;
pub mod workload;

pub use compile::{CompileOptions, Compiled, Emit};
pub use session::{MiddleEndOptions, Parsed, Phase, RunOptions, Session};
pub use sundial_dialects::diag::{Diagnostic, Severity};

/// Stack size of the thread the tools run on: MLIR recurses per nesting level; together with
/// [`source::MAX_NESTING`] this keeps deep (but accepted) inputs far from overflow.
pub const TOOL_STACK_BYTES: usize = 512 * 1024 * 1024;

/// Runs `f` on a thread with [`TOOL_STACK_BYTES`] of stack and returns its result, or an
/// error if the thread cannot be started (address-space limits) or panicked.
pub fn with_big_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let handle = std::thread::Builder::new()
        .stack_size(TOOL_STACK_BYTES)
        .spawn(f)
        .map_err(|e| format!("cannot start the tool thread: {e}"))?;
    handle
        .join()
        .map_err(|_| "internal error: the tool thread panicked".to_string())
}

/// Adds the back end's passes (`sundial-allocate`, `sundial-isel`) to the pass registry, once
/// per process: `sundial-passes` cannot name them itself (the back end depends on it).
pub fn register_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(sundial_isel::register_passes);
}
