//! Sundial's back end: from a static NISA kernel to NeuronCore instruction bundles.
//!
//! - [`allocate`]: `sundial-allocate`, on-chip memory allocation (a home partition and byte
//!   offset for every SBUF/PSUM `nisa.alloc`, space reused between tiles whose live ranges do
//!   not overlap) and the identities of HBM tensors.
//! - [`select`]: `sundial-isel`, instruction selection NISA -> BIR, driven by codegen's ISA
//!   table (`sundial_codegen::isa::select`).
//! - [`phys`]: physical access patterns of allocated tiles and their views, as BIR dictionaries.
//! - [`address`]: the DMA address map (how an SBUF/PSUM location or an HBM tensor becomes a
//!   64-bit DMA address).
//! - [`lower`]: BIR ops -> `sundial_codegen` instructions, with the memory regions each reads
//!   and writes.
//! - [`emit`]: engine ordering (codegen's sync pass), encoding and `run_isa_checks` of every
//!   bundle, per engine queue.
//! - [`ir`]: small IR helpers the modules share (targets, attributes, dictionaries).
//!
//! The passes are declared like the middle end's (`sundial_passes::registry::PassInfo`) and
//! added to that registry by [`register_passes`], which the root crate calls: `passes` never
//! depends on this crate.

pub mod address;
pub mod allocate;
pub mod emit;
pub mod ir;
pub mod lower;
pub mod phys;
pub mod select;

/// Registers `sundial-allocate` and `sundial-isel` with the pass registry (idempotent).
pub fn register_passes() {
    for info in [&allocate::INFO, &select::INFO] {
        // The only error is a flag taken by another declaration, which no build has: these
        // flags are this crate's.
        let _ = sundial_passes::registry::register(info);
    }
}
