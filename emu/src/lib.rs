//! Sundial's pure-Rust reference emulator for NeuronCore memory, data movement and compute.
//!
//! It is the reference semantics later executors run NISA and BIR against. Layers,
//! bottom up (each module's doc says what it owns):
//!
//! - [`dtype`]: element types and their conversions; [`target`]: geometry.
//! - [`memory`]: HBM allocations, SBUF and PSUM, uninitialised-read fill.
//! - [`view`]: typed strided views over allocations.
//! - [`access`]: the access model (subscripts, variable space, order, `oob_mode`).
//! - [`offsets`]: the one offsets pipeline, its general and blocked paths and the gate.
//! - [`data`]: the one data primitive (read/write a list of offsets; all
//!   out-of-allocation handling).
//! - [`ops`]: `dma_copy`, `dma_copy_indirect`, `gather`, `indirect_copy`,
//!   IndirectSaveAccumulate and `dma_compute` on top of the engine; and the compute ops
//!   (element-wise ALU ops, activation, reductions, scans, selects, copies) over on-chip
//!   tiles, with the engines' accumulator registers ([`Accumulators`]).
//! - [`workloads`]: the seven benchmark workloads (used by `sundial-emu-bench`).
//! - [`error`]: the error type; nothing in the crate panics on bad input.

#![warn(missing_docs)]

pub mod access;
pub mod data;
pub mod dtype;
pub mod error;
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
// compute ops (elementwise, activation, reduce, select, copy)
pub use ops::accumulator::{
    AccEngine, Accumulators, ReduceCmd, activation_read_accumulator, dve_read_accumulator,
};
pub use ops::activation::{Activation, activation};
pub use ops::alu::AluOp;
pub use ops::copy::{Number, memset, tensor_copy};
pub use ops::iota::{AffineSelect, iota, tensor_scalar_affine_select};
pub use ops::reduce::{
    cross_lane_reduce_arith, cross_lane_reduce_bitvec, tensor_reduce_arith, tensor_reduce_bitvec,
};
pub use ops::scalar_tensor_tensor::{TensorStage, scalar_tensor_tensor_arith};
pub use ops::scan::{Cumulative, ScanOps, tensor_scalar_cache_cumulative, tensor_tensor_scan};
pub use ops::select::{MaxReduce, RangeSelect, copy_predicated, range_select, select_reduce};
pub use ops::tensor_scalar::{
    BitStage, Stage, tensor_scalar_addr, tensor_scalar_arith, tensor_scalar_bitvec,
};
pub use ops::tensor_scalar_reduce::{FreeReduce, tensor_scalar_cache_reduce};
pub use ops::tensor_tensor::{tensor_tensor_arith, tensor_tensor_bitvec, tensor_tensor_power};
pub use ops::tile::{Engine, Scalar};
pub use ops::vector_unary::{Exponential, exponential, reciprocal};
pub use target::Target;
pub use view::View;
