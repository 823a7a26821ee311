//! The one integration-test binary that links MLIR (each such binary is ~200 MB in debug, so
//! every MLIR-touching test of the workspace lives here, one module per subject).

mod embedding;
mod expected;
mod fuzz;
mod fuzz_harness;
mod irdl;
mod isa_tables;
mod isel;
mod limits;
mod loops;
mod middle_end_property;
mod passes;
mod pipeline;
mod render;
mod run;
mod source;
mod toolkit;
mod translation;
mod views;
