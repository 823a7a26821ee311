//! The NISA and BIR dialects of Sundial on MLIR (through melior).
//!
//! - [`spec`]: the vocabulary of the op tables; [`nisa`] and [`bir`]: the tables themselves
//!   (one row per op: operands, results, attributes, engines, provenance).
//! - [`irdl`]: the IRDL definitions generated from the tables; [`context`]: an MLIR context
//!   with the upstream dialects Sundial accepts and NISA/BIR loaded from that IRDL.
//! - [`enums`], [`dtype`], [`tile`]: typed views of attribute vocabularies, element types and
//!   tiles (`memref<... , "sbuf">`).
//! - [`build`]: table-driven op builders for front ends and passes that build IR in memory.
//! - [`verify`]: the semantic verifier for everything IRDL cannot express, and the phase
//!   checks of the middle end.
//! - [`fold`]: folding a chain of views (reshape, slice, permute, broadcast, access patterns)
//!   into one physical access pattern (pure Rust; the verifier, emulator driver and selection
//!   share it).
//! - [`view`]: typed views of ops for passes (operands by group name, attributes with the
//!   table's defaults).
//! - [`loops`]: loops, dynamic offsets, registers and launch grids as the verifier and the
//!   passes read them.
//! - [`implied`]: parsing that fills in the attributes the text may leave implied.
//! - [`diag`], [`ffi`]: diagnostics as Rust values, and panic-free string/printing helpers.

pub mod bir;
pub mod build;
pub mod context;
pub mod diag;
pub mod docs;
pub mod dtype;
pub mod enums;
pub mod ffi;
pub mod fold;
pub mod implied;
pub mod irdl;
pub mod loops;
pub mod nisa;
pub mod spec;
pub mod tile;
pub mod verify;
pub mod view;

pub use context::{ContextError, create_context};
