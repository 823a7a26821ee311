// sundial-legalize-partition-reduce: partition-axis reductions become GpSimd cross_lane_reduce
// 0x7C/0x7D (plus Vector free-axis reductions, copies and combine steps).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-legalize-partition-reduce)' | FileCheck %s
// A second run changes nothing.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-legalize-partition-reduce)' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-legalize-partition-reduce)' -o %t.2
// RUN: diff %t.1 %t.2
// Every reduction it emits touches at most 128 partitions: the tiled phase holds for the
// first chunk; in the last one only the logical tile itself is left (partition tiling, not
// this pass, splits a buffer), named as the tensor of the slices' views.
// RUN: not sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-legalize-partition-reduce,sundial-verify{phase=tiled})' 2>&1 | FileCheck %s --check-prefix=TILED --implicit-check-not=error:
// TILED-COUNT-3: error: 'nisa.ap' op operand 'tensor': partition dimension 300 exceeds 128
// TILED-COUNT-2: error: 'nisa.ap' op operand 'tensor': partition dimension 256 exceeds 128

// add, max, average and the bit-vector ops over <= 128 partitions in SBUF: one instruction.
// CHECK-LABEL: func.func @direct
// CHECK-NEXT: "nisa.cross_lane_reduce_arith"(%arg0, %arg1) {engine = "gpsimd", op = "add"}
// CHECK-NEXT: "nisa.cross_lane_reduce_arith"(%arg0, %arg1) {engine = "gpsimd", op = "max"}
// CHECK-NEXT: "nisa.cross_lane_reduce_arith"(%arg0, %arg1) {engine = "gpsimd", op = "average"}
// CHECK-NEXT: "nisa.cross_lane_reduce_bitvec"(%arg2, %arg3) {engine = "gpsimd", op = "bitwise_xor"}
// CHECK-NEXT: return
func.func @direct(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">,
                  %di: memref<1x64xi32, "sbuf">, %si: memref<128x64xi32, "sbuf">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "add"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%d, %s) {op = "max", axis = array<i64: 0>} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%d, %s) {op = "average"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%di, %si) {op = "bitwise_xor"} : (memref<1x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// A PSUM source (a matmul result) is copied to SBUF first; a PSUM destination is written
// through SBUF.
// CHECK-LABEL: func.func @psum
// CHECK: %[[C:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_copy"(%[[C]], %arg1) {engine = "vector"}
// CHECK: %[[P:.*]] = "nisa.alloc"() : () -> memref<1x64xf32, "sbuf">
// CHECK: "nisa.cross_lane_reduce_arith"(%[[P]], %[[C]]) {engine = "gpsimd", op = "max"}
// CHECK: "nisa.tensor_copy"(%arg0, %[[P]]) {engine = "vector"}
func.func @psum(%d: memref<1x64xf32, "psum">, %s: memref<128x64xf32, "psum">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "max"} : (memref<1x64xf32, "psum">, memref<128x64xf32, "psum">) -> ()
  return
}

// Float min: negate, cross-lane max, negate.
// CHECK-LABEL: func.func @min
// CHECK: "nisa.tensor_scalar_arith"(%[[N:.*]], %arg1) {engine = "vector", imm0 = -1.000000e+00 : f32, op0 = "mult"
// CHECK: "nisa.cross_lane_reduce_arith"(%[[A:.*]], %[[N]]) {engine = "gpsimd", op = "max"}
// CHECK: "nisa.tensor_scalar_arith"(%arg0, %[[A]]) {engine = "vector", imm0 = -1.000000e+00 : f32, op0 = "mult"
func.func @min(%d: memref<1x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "min"} : (memref<1x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// Partition and free axes: the trailing free axis first on Vector, then across partitions;
// an average adds throughout and scales once by 1 / (128 * 16).
// CHECK-LABEL: func.func @free_axes
// CHECK: %[[R:.*]] = "nisa.alloc"() : () -> memref<128x8xf32, "sbuf">
// CHECK: "nisa.tensor_reduce_arith"(%[[R]], %arg1) {axis = array<i64: 2>, engine = "vector", op = "add"}
// CHECK: "nisa.cross_lane_reduce_arith"(%[[A:.*]], %[[R]]) {engine = "gpsimd", op = "add"}
// CHECK: "nisa.tensor_scalar_arith"(%arg0, %[[A]]) {engine = "vector", imm0 = 4.8828125E-4 : f32, op0 = "mult"
func.func @free_axes(%d: memref<1x8xf32, "sbuf">, %s: memref<128x8x16xf32, "sbuf">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "average", axis = array<i64: 0, 2>} : (memref<1x8xf32, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
  return
}

// -----

// A logical tile of 300 partitions: one cross-lane reduction per 128-partition slice (static
// views), partials combined on Vector; the last combine writes dst.
// CHECK-LABEL: func.func @logical
// CHECK: %[[ACC:.*]] = "nisa.alloc"() : () -> memref<1x64xf32, "sbuf">
// CHECK: %[[PART:.*]] = "nisa.alloc"() : () -> memref<1x64xf32, "sbuf">
// CHECK: %[[V0:.*]] = "nisa.ap"(%arg1) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 64, 128, 1, 64>} : (memref<300x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.cross_lane_reduce_arith"(%[[ACC]], %[[V0]]) {engine = "gpsimd", op = "max"}
// CHECK: %[[V1:.*]] = "nisa.ap"(%arg1) {offset = 8192 : i64, {{.*}}} : (memref<300x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.cross_lane_reduce_arith"(%[[PART]], %[[V1]]) {engine = "gpsimd", op = "max"}
// CHECK: "nisa.tensor_tensor_arith"(%[[ACC]], %[[ACC]], %[[PART]]) {engine = "vector", op = "max"}
// CHECK: %[[V2:.*]] = "nisa.ap"(%arg1) {offset = 16384 : i64, {{.*}}} : (memref<300x64xf32, "sbuf">) -> memref<44x64xf32, "sbuf">
// CHECK: "nisa.cross_lane_reduce_arith"(%[[PART]], %[[V2]]) {engine = "gpsimd", op = "max"}
// CHECK: "nisa.tensor_tensor_arith"(%arg0, %[[ACC]], %[[PART]]) {engine = "vector", op = "max"}
// The physical op over a logical tile is sliced the same way (bit-vector partials combined by
// tensor_tensor_bitvec).
// CHECK: "nisa.cross_lane_reduce_bitvec"
// CHECK: "nisa.cross_lane_reduce_bitvec"
// CHECK: "nisa.tensor_tensor_bitvec"(%arg2, %{{.*}}, %{{.*}}) {engine = "vector", op = "bitwise_or"}
func.func @logical(%d: memref<1x64xf32, "sbuf">, %s: memref<300x64xf32, "sbuf">,
                   %di: memref<1x4xui32, "sbuf">, %si: memref<256x4xui32, "sbuf">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "max"} : (memref<1x64xf32, "sbuf">, memref<300x64xf32, "sbuf">) -> ()
  "nisa.cross_lane_reduce_bitvec"(%di, %si) {op = "bitwise_or", engine = "gpsimd"} : (memref<1x4xui32, "sbuf">, memref<256x4xui32, "sbuf">) -> ()
  return
}
// CHECK-NOT: nisa.tensor_partition_reduce
