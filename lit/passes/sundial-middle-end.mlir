// sundial-middle-end: the middle end as one pipeline, the verifier after every pass.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end{target=cayman contract=false})' | FileCheck %s
// The output is what instruction selection takes, and the pipeline is idempotent.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' -o %t.1
// RUN: sundial-opt %t.1 --pass-pipeline='builtin.module(sundial-verify{phase=selection})' -o /dev/null
// RUN: sundial-opt %t.1 --pass-pipeline='builtin.module(sundial-middle-end)' -o %t.2
// RUN: diff %t.1 %t.2
// --list-passes shows it with its options and what it stands for.
// RUN: sundial-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: Sundial pipelines:
// LIST-NEXT: sundial-middle-end {{.*}}
// LIST-NEXT: {target=...}
// LIST-NEXT: {contract=...}
// LIST-NEXT: = sundial-resolve-engine{verify=logical},sundial-decompose{verify=logical},sundial-infer-intrinsic{contract=false verify=logical},{{.*}},sundial-resolve-dge{verify=selection}

module attributes {sundial.target = "cayman"} {
// CHECK-LABEL: func.func @kernel
// Loads: a plain generic load is a DMA copy, resolved to hwdge (128 partitions, one dtype).
// CHECK: "nisa.dma_copy"(%[[X:.*]], %arg0) {dge_mode = "hwdge", engine = "dma"}
// An indexed load of HBM rows: swdge indirect DMA through a row-major view.
// CHECK: %[[G:.*]] = "nisa.ap"(%arg1, %arg2)
// CHECK: "nisa.dma_copy_indirect"(%[[R:.*]], %[[G]]) {dge_mode = "swdge", engine = "dma"}
// int32 add on GpSimd (the seed's rule).
// CHECK: "nisa.tensor_tensor_arith"({{.*}}) {engine = "gpsimd", op = "add"}
// (x * 2) + 1 fused into one two-op tensor_scalar on Vector.
// CHECK: "nisa.tensor_scalar_arith"(%[[Y:.*]], %[[X]]) {engine = "vector", imm0 = 2.000000e+00 : f32, imm1 = 1.000000e+00 : f32, op0 = "mult", op1 = "add"
// x ** 2 decomposed: a memset exponent and tensor_tensor_power on GpSimd.
// CHECK: "nisa.memset"({{.*}}) {engine = "vector", value = 2.000000e+00 : f32}
// CHECK: "nisa.tensor_tensor_power"({{.*}}) {engine = "gpsimd"}
// The partition reduction: cross_lane_reduce on GpSimd.
// CHECK: "nisa.cross_lane_reduce_arith"({{.*}}) {engine = "gpsimd", op = "max"}
// The store of one partition: below hwdge's 128 accessed partitions, so none.
// CHECK: "nisa.dma_copy"(%arg4, {{.*}}) {dge_mode = "none", engine = "dma"}
// CHECK-NOT: "nisa.generic
// CHECK-NOT: "nisa.tensor_partition_reduce"
// CHECK-NOT: "unknown"
// CHECK-NOT: "pow"
func.func @kernel(%in: memref<128x64xf32, "hbm">, %table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                  %ints: memref<128x64xi32, "sbuf">, %out: memref<1x64xf32, "hbm">) {
  %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.generic_load"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %rows = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.generic_indirect_load"(%rows, %table, %idx) : (memref<128x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%ints, %ints, %ints) {op = "add"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %y = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%y, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %sq = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%sq, %y) {op0 = "pow", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %m = "nisa.alloc"() : () -> memref<1x64xf32, "sbuf">
  "nisa.tensor_partition_reduce"(%m, %sq) {op = "max"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.dma_copy"(%out, %m) : (memref<1x64xf32, "hbm">, memref<1x64xf32, "sbuf">) -> ()
  return
}

// A logical tile of 256 partitions: partition tiling cuts it into two 128-partition blocks of
// one [128, 2, 64] tile before the rest of the pipeline (the reduction then has one
// cross-lane step per block and a Vector combine).
// CHECK-LABEL: func.func @logical
// CHECK: "nisa.alloc"() : () -> memref<128x2x64xf32, "sbuf">
// CHECK-NOT: memref<256x64xf32, "sbuf">
// CHECK-COUNT-2: "nisa.dma_copy"({{.*}}) {dge_mode = "hwdge", engine = "dma"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
// CHECK-COUNT-2: "nisa.cross_lane_reduce_arith"
// CHECK: "nisa.tensor_tensor_arith"(%arg1, %{{.*}}, %{{.*}}) {engine = "vector", op = "add"}
func.func @logical(%in: memref<256x64xf32, "hbm">, %d: memref<1x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
  "nisa.generic_load"(%t, %in) : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "hbm">) -> ()
  "nisa.tensor_partition_reduce"(%d, %t) {op = "add"} : (memref<1x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
  return
}
}
