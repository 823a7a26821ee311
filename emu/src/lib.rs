//! Sundial's pure-Rust reference emulator for NeuronCore memory and data movement.
//!
//! It is the reference semantics later executors run NISA and BIR against. Layers,
//! bottom up (each module's doc says what it owns):
//!
//! - [`dtype`]: element types and their conversions; [`target`]: geometry.
//! - [`memory`]: HBM allocations, SBUF and PSUM, uninitialised-read fill.
//! - [`view`]: typed strided views over allocations.
//! - [`access`]: the access model (subscripts, variable space, order, `oob_mode`).
//! - [`indirection`]: the one definition of `indirect_dim` and of the index tiles an indirect
//!   access pattern takes, shared with the NISA verifier.
//! - [`offsets`]: the one offsets pipeline, its general and blocked paths and the gate.
//! - [`data`]: the one data primitive (read/write a list of offsets; all
//!   out-of-allocation handling).
//! - [`ops`]: `dma_copy`, `dma_copy_indirect`, `gather`, `indirect_copy`,
//!   IndirectSaveAccumulate and `dma_compute` on top of the engine.
//! - [`workloads`]: the seven benchmark workloads (used by `sundial-emu-bench`).
//! - [`error`]: the error type; nothing in the crate panics on bad input.

#![warn(missing_docs)]

pub mod access;
pub mod data;
pub mod dtype;
pub mod error;
pub mod indirection;
pub mod memory;
pub mod offsets;
pub mod ops;
pub mod target;
pub mod view;
pub mod workloads;

pub use access::{Access, Affine, IndirectTerm, OobMode, Subscript, VarSpace};
pub use data::{Combine, OffsetList, SKIP};
pub use dtype::DType;
pub use error::{EmuError, MAX_ELEMENTS, Result};
pub use memory::{AllocId, MemSpace, Memory};
pub use offsets::{Offsets, Path, PathChoice, Plan};
pub use ops::DmaOperand;
pub use ops::dma_compute::{ReduceOp, dma_compute};
pub use ops::dma_copy::dma_copy;
pub use ops::dma_copy_indirect::{dma_copy_indirect, indirect_load, indirect_save};
pub use ops::gather::{gather, nc_n_gather};
pub use ops::indirect_copy::{indirect_copy, local_gather};
pub use ops::indirect_save_accumulate::indirect_save_accumulate;
pub use target::Target;
pub use view::View;
