//! Sundial codegen: NeuronCore bundle encoders, indirect-fork descriptors, ISA validators, and a
//! table-driven decoder / disassembler / assembler. Pure Rust, no MLIR.
//!
//! Data flow: an [`model::Instruction`] is lowered by the op encoders (`ops`) into 64-byte
//! [`bundle::Bundle`]s in one of three [`bundle::CodeGenMode`]s; [`validate`] checks bundles
//! against named rules; [`decode`] and [`text`] turn bundles into text and back; [`lift`] turns
//! bundles back into instructions ([`decode_instructions`]). Every wire
//! offset lives once, in [`formats`]; arch constants live in [`arch`], dtype facts in [`dtype`].
//!
//! Sources (cited per row in the tables): the seeds (`indirect-gather-descriptors`,
//! `dve-datamove-encoding`) first, then header-derived facts, then compiler-derived facts.

#![warn(missing_docs)]

pub mod addr4;
pub mod arch;
pub mod bundle;
pub mod cli;
pub mod data4d;
pub mod decode;
pub mod dtype;
pub mod enums;
pub mod error;
pub mod fields;
pub mod formats;
pub mod indirect;
pub mod isa;
pub mod lift;
pub mod model;
mod ops;
pub mod render;
pub mod sync;
pub mod tensor;
pub mod text;
pub mod validate;

pub use arch::{ArchModel, Target};
pub use bundle::{
    Bundle, CodeGen, CodeGenMode, OpcodeSet, bundle_count, checked_bundle_count, collect, generate,
    generate_append, generate_reference, generate_stream, generate_vec, isa_check, run_isa_checks,
};
pub use error::{DecodeError, EncodeError, ParseError, SequenceProblem};
pub use isa::{SelectError, SelectQuery, Selection, select};
pub use lift::decode_instructions;
pub use ops::{GATHER_CHUNK, TRANSPOSE_WIDE_PARTITIONS, gather_chunks, psum_dtype};
pub use sync::{Item, Queue, Region, SyncError, SyncItem, SyncOptions, SyncPlan, assign_sync};
