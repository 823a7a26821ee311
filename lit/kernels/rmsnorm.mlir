// RMSNorm written with a loop, as NKI's RMSNorm tutorial is: y = x / sqrt(mean(x^2) + eps) * w
// for x[256, 512] in HBM, one affine_range iteration per tile of 128 rows. The weight row
// w[1, 512] is broadcast to the 128 partitions once, before the loop (partition step 0).
// In the loop: square with an add-reduce into a [128, 1] sum, times 1/512 plus eps, rsqrt,
// scale x by that per-partition factor, multiply by the weights, store the tile.
// Verified as written, then unrolled; the row-tile offsets are t * 128 * 512.
// RUN: sundial-opt %s | FileCheck %s --check-prefix=LOOP
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-unroll,sundial-verify)' | FileCheck %s
// Run through the middle end, and run before and after it and sundial-unroll on the same
// random inputs: bit-identical.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' -o /dev/null
// RUN: sundial-run %s --random-inputs 6 --compare-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=SAME
// RUN: sundial-run %s --random-inputs 6 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: @rmsnorm computes the same after

// LOOP: scf.for
// LOOP: "nisa.dynamic_ap"
// LOOP: } {sundial.range = "affine"}

// The view of the sum column is loop-invariant: hoisted, built once.
// CHECK-LABEL: func.func @rmsnorm
// CHECK-NOT: scf.for
// CHECK: %[[W:.*]] = "nisa.ap"(%arg1) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 0, 128, 1, 512>}
// CHECK: "nisa.dma_copy"(%{{.*}}, %[[W]])
// CHECK: %[[SUM:.*]] = "nisa.ap"
// CHECK: "nisa.ap"(%arg0) {offset = 0 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// CHECK: "nisa.activation"({{.*}}) {op = "square"
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %[[SUM]])
// CHECK: "nisa.activation"({{.*}}) {op = "rsqrt"
// CHECK: "nisa.tensor_tensor_arith"
// CHECK: "nisa.ap"(%arg2) {offset = 0 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// CHECK: "nisa.ap"(%arg0) {offset = 65536 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %[[SUM]])
// CHECK: "nisa.ap"(%arg2) {offset = 65536 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// CHECK-NOT: "nisa.ap"
// CHECK: return

module attributes {sundial.target = "cayman"} {
func.func @rmsnorm(%x: memref<256x512xf32, "hbm">, %w: memref<1x512xf32, "hbm">, %y: memref<256x512xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = arith.constant 65536 : index
  %w_bc = "nisa.ap"(%w) {pattern = array<i64: 0, 128, 1, 512>}
      : (memref<1x512xf32, "hbm">) -> memref<128x512xf32, "hbm">
  %w_sb = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  "nisa.dma_copy"(%w_sb, %w_bc) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  %x_sb = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  %sq = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  %stats = "nisa.alloc"() : () -> memref<128x2xf32, "sbuf">
  %rstd = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %y_sb = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  scf.for %t = %c0 to %c2 step %c1 {
    %off = arith.muli %t, %rows : index
    %x_tile = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%x_sb, %x_tile) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    // The sum of squares goes to column 0 of the stats tile.
    %sum = "nisa.ap"(%stats) {pattern = array<i64: 2, 128, 1, 1>}
        : (memref<128x2xf32, "sbuf">) -> memref<128x1xf32, "sbuf">
    "nisa.activation"(%sq, %x_sb, %sum) {op = "square", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%rstd, %sum) {op0 = "mult", imm0 = 0.001953125 : f32, op1 = "add", imm1 = 1.0e-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation"(%rstd, %rstd) {op = "rsqrt", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%y_sb, %x_sb, %rstd) {op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%y_sb, %y_sb, %w_sb) {op = "mult"}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    %y_tile = "nisa.dynamic_ap"(%y, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%y_tile, %y_sb) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
  } {sundial.range = "affine"}
  return
}
}
