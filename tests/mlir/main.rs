//! The one integration-test binary that links MLIR (each such binary is ~200 MB in debug, so
//! every MLIR-touching test of the workspace lives here, one module per subject).

mod embedding;
mod expected;
/// The example front end's kernel builder (`cargo run --example frontend`), whose logic
/// `isel::the_example_front_end_compiles_its_kernel` runs.
#[path = "../../examples/frontend/kernel.rs"]
mod frontend_kernel;
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
