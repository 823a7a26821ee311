//! Sundial's pure-Rust reference emulator for NeuronCore memory, data movement and the
//! compute ops whose semantics are public.
//!
//! It is the reference semantics later executors run NISA and BIR against. Layers,
//! bottom up (each module's doc says what it owns):
//!
//! - [`dtype`]: element types and their conversions; [`target`]: geometry (the codegen
//!   crate's architecture model and [`Target`] vocabulary).
//! - [`memory`]: HBM allocations, SBUF and PSUM (the physical 128 partitions, or a logical
//!   machine with more for kernels before partition tiling), uninitialised-read fill and the
//!   opt-in uninitialised-read check (a written-shadow per allocation).
//! - [`view`]: typed strided views over allocations.
//! - [`access`]: the access model (subscripts, variable space, order, `oob_mode`).
//! - [`indirection`]: the one definition of `indirect_dim` and of the index tiles an indirect
//!   access pattern takes, shared with the NISA verifier.
//! - [`offsets`]: the one offsets pipeline, its general and blocked paths and the gate.
//! - [`data`]: the one data primitive (read/write a list of offsets; all
//!   out-of-allocation handling).
//! - [`ops`]: `dma_copy`, `dma_copy_indirect`, `gather`, `indirect_copy`,
//!   IndirectSaveAccumulate and `dma_compute` on top of the engine; and the compute ops
//!   over on-chip tiles: element-wise ALU ops, activation, reductions, scans, selects,
//!   copies, matmul into PSUM, transposes, the quadrant shuffle, top-8, batch-norm statistics, MX quantisation,
//!   RNG and dropout, registers, collectives over a rank group. Engine state beyond memory
//!   lives in [`Accumulators`], [`RngState`] and [`Registers`], held by the executor next
//!   to its [`Memory`].
//! - [`workloads`]: the seven benchmark workloads (used by `sundial-emu-bench`).
//! - [`error`]: the error type; nothing in the crate panics on bad input.

#![warn(missing_docs)]

pub mod access;
pub mod data;
pub mod dtype;
pub mod error;
pub mod fused;
pub mod indirection;
pub mod memory;
pub mod offsets;
pub mod ops;
mod shadow;
pub mod target;
pub mod view;
pub mod workloads;

pub use access::{Access, Affine, IndirectTerm, OobMode, Subscript, VarSpace};
pub use data::{Combine, OffsetList, SKIP};
pub use dtype::DType;
pub use error::{EmuError, MAX_ELEMENTS, Result};
pub use memory::{AllocId, Contents, MAX_HBM_BYTES, MAX_LOGICAL_PARTITIONS, MemSpace, Memory};
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
    cross_lane_reduce_arith, cross_lane_reduce_bitvec, tensor_partition_reduce,
    tensor_reduce_arith, tensor_reduce_bitvec,
};
pub use ops::scalar_tensor_tensor::{TensorStage, scalar_tensor_tensor_arith};
pub use ops::scan::{Cumulative, ScanOps, tensor_scalar_cache_cumulative, tensor_tensor_scan};
pub use ops::select::{MaxReduce, RangeSelect, copy_predicated, range_select, select_reduce};
pub use ops::tensor_scalar::{
    BitStage, Stage, tensor_scalar_addr, tensor_scalar_arith, tensor_scalar_bitvec,
};
pub use ops::tensor_scalar_reduce::{FreeReduce, tensor_scalar_cache_reduce};
pub use ops::tensor_tensor::{tensor_tensor_arith, tensor_tensor_bitvec, tensor_tensor_power};
pub use ops::tile::Scalar;
pub use ops::vector_unary::{Exponential, exponential, reciprocal};

// compute ops (matmul, transpose, statistics, MX, RNG, registers, collectives)
pub use ops::bn_stats::{bn_aggr, bn_stats};
pub use ops::collectives::{
    AllToAllV, RankGroup, all_gather, all_reduce, all_to_all, all_to_all_v, collective_permute,
    collective_permute_implicit, collective_permute_implicit_reduce, current_processing_rank_id,
    rank_id, rank_id_store, reduce_scatter, send_recv,
};
pub use ops::dma_transpose::{dma_gather_transpose, dma_transpose};
pub use ops::dropout::{DropProb, dropout};
pub use ops::matmul::{MatmulMxOptions, MatmulOptions, nc_matmul, nc_matmul_mx};
pub use ops::max8::{find_index8, match_replace8, max8};
pub use ops::nonzero_with_count::nonzero_with_count;
pub use ops::quantize_mx::{MxScaleRule, quantize_mx};
pub use ops::refused::{check_op, refusal};
pub use ops::registers::{
    RegSource, RegisterId, Registers, register_load, register_move, register_store,
};
pub use ops::rng::{RngState, rand_get_state, rand_set_state, rand2, rng, set_rng_seed};
pub use ops::sequence_bounds::sequence_bounds;
pub use ops::stream_shuffle::{SHUFFLE_KEEP, stream_shuffle};
pub use ops::transpose::{nc_transpose, stream_transpose};
/// The shared vocabularies the compute ops take (engines, ALU ops, activation functions,
/// the PE perf mode).
pub use sundial_codegen::enums::{ActivationFunc, BirAluOp};
pub use sundial_codegen::model::{Engine, PerfOptMode};
pub use target::Target;
pub use view::View;
