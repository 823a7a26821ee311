//! Generated workloads for benchmarks: NISA kernels of a chosen size that exercise every pass
//! of `sundial-middle-end`.
//!
//! [`middle_end_kernel`] writes one `func.func` made of repeated blocks of [`OPS_PER_BLOCK`]
//! NISA ops, each block touching its own tiles (so that its chains are fusable) and the
//! kernel's arguments:
//!
//! - a generic load from HBM (generic-load-to-gather: a DMA copy; resolve-dge: hwdge);
//! - `(x * 2) + 1` through a dead fp32 tile (infer-intrinsic: one two-op tensor_scalar), with
//!   engines left to resolve-engine (Vector);
//! - an int32 add (resolve-engine: GpSimd);
//! - a memset constant into a tensor_tensor (infer-intrinsic: a broadcast fold);
//! - `x ** 2` (decompose: memset + tensor_tensor_power);
//! - a partition reduction (legalize-partition-reduce: cross_lane_reduce);
//! - a store by DMA (resolve-dge).

use std::fmt::Write;

/// NISA ops in one block of [`middle_end_kernel`] (allocations included).
pub const OPS_PER_BLOCK: usize = 16;

/// A kernel of `blocks` blocks (`blocks * OPS_PER_BLOCK` NISA ops), as MLIR text. The DGE
/// modes need a target: run it with `sundial-middle-end{target=cayman}` (the text names none,
/// so that `mlir-opt --irdl-file=...` reads it as it is).
pub fn middle_end_kernel(blocks: usize) -> String {
    const F: &str = "memref<128x64xf32, \"sbuf\">";
    const I: &str = "memref<128x64xi32, \"sbuf\">";
    const H: &str = "memref<128x64xf32, \"hbm\">";
    const R: &str = "memref<1x64xf32, \"sbuf\">";
    const O: &str = "memref<1x64xf32, \"hbm\">";
    let mut s = String::with_capacity(blocks * 2600 + 512);
    let _ = writeln!(
        s,
        "func.func @kernel(%in: {H}, %ints: {I}, %y: {F}, %out: {O}) {{"
    );
    for b in 0..blocks {
        let _ = write!(
            s,
            r#"  %x{b} = "nisa.alloc"() : () -> {F}
  "nisa.generic_load"(%x{b}, %in) : ({F}, {H}) -> ()
  %t{b} = "nisa.alloc"() : () -> {F}
  "nisa.tensor_scalar_arith"(%t{b}, %x{b}) {{op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}} : ({F}, {F}) -> ()
  "nisa.tensor_scalar_arith"(%y, %t{b}) {{op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}} : ({F}, {F}) -> ()
  %i{b} = "nisa.alloc"() : () -> {I}
  "nisa.tensor_tensor_arith"(%i{b}, %ints, %ints) {{op = "add"}} : ({I}, {I}, {I}) -> ()
  %c{b} = "nisa.alloc"() : () -> {F}
  "nisa.memset"(%c{b}) {{value = 0.5 : f32}} : ({F}) -> ()
  %m{b} = "nisa.alloc"() : () -> {F}
  "nisa.tensor_tensor_arith"(%m{b}, %x{b}, %c{b}) {{op = "mult"}} : ({F}, {F}, {F}) -> ()
  %p{b} = "nisa.alloc"() : () -> {F}
  "nisa.tensor_scalar_arith"(%p{b}, %m{b}) {{op0 = "pow", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}} : ({F}, {F}) -> ()
  %r{b} = "nisa.alloc"() : () -> {R}
  "nisa.tensor_partition_reduce"(%r{b}, %p{b}) {{op = "max"}} : ({R}, {F}) -> ()
  "nisa.dma_copy"(%out, %r{b}) : ({O}, {R}) -> ()
"#
        );
    }
    s.push_str("  return\n}\n");
    s
}
