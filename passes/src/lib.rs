//! Sundial's middle-end passes, their registry, and the textual pipeline parser.
//!
//! - [`registry`]: one declaration per Rust pass (flag, summary, options, constructor) and the
//!   list of upstream passes Sundial registers.
//! - [`pipeline`]: `builtin.module(pass{opt=v},func.func(...))` text to a configured
//!   pass manager, mixing Rust and upstream passes.
//! - [`verify_pass`]: `sundial-verify`, the dialects' semantic verifier (and its phase
//!   checks) as a pass.
//! - [`unroll`]: `sundial-unroll`, full unrolling of constant-bound loops into static NISA.
//! - the middle-end passes, one file each, named by flag: [`resolve_engine`],
//!   [`decompose`], [`infer_intrinsic`], [`partition_tiling`], [`legalize_partition_reduce`],
//!   [`generic_load_to_gather`], [`lower_generic_indirect`], [`resolve_dge`]; and
//!   [`middle_end`], the `sundial-middle-end` pipeline that runs them in order.
//! - [`step`]: the [`step::Step`] trait every pass implements and the one melior wrapper
//!   ([`step::create`]) that makes a step an MLIR pass.
//! - [`emit`]: short builders for the ops those passes insert.
//! - [`free_cut`]: the free-axis cut of `sundial-partition-tiling`.
//! - [`memory`]: the memory def-use and alias analysis over destination-passing tiles.
//! - [`rewrite`]: collect-then-mutate rewrite helpers and dead `nisa.alloc`/`nisa.ap` cleanup.

pub mod decompose;
pub mod emit;
pub mod free_cut;
pub mod generic_load_to_gather;
pub mod infer_intrinsic;
pub mod legalize_partition_reduce;
pub mod lower_generic_indirect;
pub mod memory;
pub mod middle_end;
pub mod partition_tiling;
pub mod pipeline;
pub mod registry;
pub mod resolve_dge;
pub mod resolve_engine;
pub mod rewrite;
pub mod step;
pub mod unroll;
pub mod verify_pass;
