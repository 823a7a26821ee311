// The generic (not yet selected) loads and stores that the generic-load-to-gather and
// LowerGenericIndirect passes consume: GenericLoad, GenericIndirectLoad, GenericIndirectSave;
// and the generic partition reduction LegalizePartitionReduce consumes.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// A generic load from HBM, and one through an indirect access pattern (a gather candidate).
// CHECK-LABEL: func.func @generic_load
// CHECK: "nisa.generic_load"(%{{.*}}, %{{.*}}) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
// CHECK: %[[G:.*]] = "nisa.ap"
// CHECK: "nisa.generic_load"(%{{.*}}, %[[G]]) {oob_mode = "skip"}
func.func @generic_load(%dst: memref<128x64xf32, "sbuf">, %src: memref<128x64xf32, "hbm">,
                        %table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">) {
  "nisa.generic_load"(%dst, %src) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %rows = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.generic_load"(%dst, %rows) {oob_mode = "skip"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// Gather 128 rows of an HBM table (indirect dim 0) and scatter them back, plain and
// accumulating (IndirectSaveAccumulate), along dimension 1 of a 3-D tensor.
// CHECK-LABEL: func.func @generic_indirect
// CHECK: "nisa.generic_indirect_load"(%{{.*}}, %{{.*}}, %{{.*}}) {oob_mode = "skip"} : (memref<128x64xbf16, "sbuf">, memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> ()
// CHECK: "nisa.generic_indirect_save"(%{{.*}}, %{{.*}}, %{{.*}}) {unique_indices = false} : (memref<4096x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">, memref<128x1xui32, "sbuf">) -> ()
// CHECK: "nisa.generic_indirect_save"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = true, engine = "gpsimd", indirect_dim = 1 : i64}
func.func @generic_indirect(%rows: memref<128x64xbf16, "sbuf">, %table: memref<4096x64xbf16, "hbm">,
                            %idx: memref<128x1xui32, "sbuf">, %t3: memref<8x512x16xf32, "hbm">,
                            %part: memref<8x4x16xf32, "sbuf">, %idx4: memref<4xi32, "sbuf">) {
  "nisa.generic_indirect_load"(%rows, %table, %idx) {oob_mode = "skip"}
      : (memref<128x64xbf16, "sbuf">, memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%table, %rows, %idx) {unique_indices = false}
      : (memref<4096x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">, memref<128x1xui32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%t3, %part, %idx4) {indirect_dim = 1, accumulate = true, engine = "gpsimd"}
      : (memref<8x512x16xf32, "hbm">, memref<8x4x16xf32, "sbuf">, memref<4xi32, "sbuf">) -> ()
  return
}

// Reductions over the partitions, alone and with the trailing free axis; a logical tile of
// 512 partitions (tiles are logical before partition tiling).
// CHECK-LABEL: func.func @partition_reduce
// CHECK: "nisa.tensor_partition_reduce"(%{{.*}}, %{{.*}}) {op = "average"} : (memref<1x8x16xf32, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_partition_reduce"(%{{.*}}, %{{.*}}) {axis = array<i64: 0, 2>, op = "min"} : (memref<1x8xbf16, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_partition_reduce"(%{{.*}}, %{{.*}}) {axis = array<i64: 0, 1, 2>, op = "bitwise_and"} : (memref<1x1xi32, "sbuf">, memref<512x8x16xi32, "sbuf">) -> ()
func.func @partition_reduce(%d: memref<1x8x16xf32, "sbuf">, %s: memref<128x8x16xf32, "sbuf">, %d8: memref<1x8xbf16, "sbuf">,
                            %di: memref<1x1xi32, "sbuf">, %si: memref<512x8x16xi32, "sbuf">) {
  "nisa.tensor_partition_reduce"(%d, %s) {op = "average"} : (memref<1x8x16xf32, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%d8, %s) {op = "min", axis = array<i64: 0, 2>} : (memref<1x8xbf16, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%di, %si) {op = "bitwise_and", axis = array<i64: 0, 1, 2>} : (memref<1x1xi32, "sbuf">, memref<512x8x16xi32, "sbuf">) -> ()
  return
}
