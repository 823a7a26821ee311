//! Sundial's middle-end passes, their registry, and the textual pipeline parser.
//!
//! - [`registry`]: one declaration per Rust pass (flag, summary, options, constructor) and the
//!   list of upstream passes Sundial registers.
//! - [`pipeline`]: `builtin.module(pass{opt=v},func.func(...))` text to a configured
//!   pass manager, mixing Rust and upstream passes.
//! - [`verify_pass`]: `sundial-verify`, the dialects' semantic verifier as a pass.
//! - [`unroll`]: `sundial-unroll`, full unrolling of constant-bound loops into static NISA.

pub mod pipeline;
pub mod registry;
pub mod unroll;
pub mod verify_pass;
