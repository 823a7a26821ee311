// sundial-lower-generic-indirect: generic indirect loads and stores become an indirect access
// pattern (the table's row-major pattern, indexed along dimension 0) and a dma_copy_indirect
// on the DMA engine's own descriptor (dge none).
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-lower-generic-indirect)' | FileCheck %s
// Idempotent.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-lower-generic-indirect)' -o %t.1
// RUN: sundial-opt %t.1 --pass-pipeline='builtin.module(sundial-lower-generic-indirect)' -o %t.2
// RUN: diff %t.1 %t.2

// A row gather and a scatter; oob_mode and unique_indices carry over (an erroring gather stays
// an erroring DMA).
// CHECK-LABEL: func.func @rows
// CHECK: %[[G:.*]] = "nisa.ap"(%arg0, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 64, 128, 1, 64>} : (memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xbf16, "hbm">
// CHECK: "nisa.dma_copy_indirect"(%arg2, %[[G]]) {dge_mode = "none", engine = "dma", oob_mode = "skip"}
// CHECK: %[[S:.*]] = "nisa.ap"(%arg0, %arg1)
// CHECK: "nisa.dma_copy_indirect"(%[[S]], %arg2) {dge_mode = "none", engine = "dma", oob_mode = "error", unique_indices = false}
func.func @rows(%table: memref<4096x64xbf16, "hbm">, %idx: memref<128x1xui32, "sbuf">, %rows: memref<128x64xbf16, "sbuf">) {
  "nisa.generic_indirect_load"(%rows, %table, %idx) {oob_mode = "skip"}
      : (memref<128x64xbf16, "sbuf">, memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%table, %rows, %idx) {unique_indices = false, oob_mode = "error", dge_mode = "none"}
      : (memref<4096x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">, memref<128x1xui32, "sbuf">) -> ()
  return
}

// A 3-D table (rows of 8x16 elements) with uint16 indices: widened to int32 by a Vector copy
// (exact); a 1-D table gathers elements.
// CHECK-LABEL: func.func @wide
// CHECK: %[[W:.*]] = "nisa.alloc"() : () -> memref<32x1xi32, "sbuf">
// CHECK: "nisa.tensor_copy"(%[[W]], %arg1) {engine = "vector"}
// CHECK: %[[G:.*]] = "nisa.ap"(%arg0, %[[W]]) {operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 128, 32, 16, 8, 1, 16>} : (memref<1024x8x16xf32, "hbm">, memref<32x1xi32, "sbuf">) -> memref<32x8x16xf32, "hbm">
// CHECK: "nisa.dma_copy_indirect"(%arg2, %[[G]]) {dge_mode = "none", engine = "dma"}
// CHECK: %[[E:.*]] = "nisa.ap"(%arg3, %arg4) {operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 1, 64>} : (memref<100000xi32, "hbm">, memref<64x1xi32, "sbuf">) -> memref<64xi32, "hbm">
// CHECK: "nisa.dma_copy_indirect"(%arg5, %[[E]])
func.func @wide(%t3: memref<1024x8x16xf32, "hbm">, %idx16: memref<32x1xui16, "sbuf">, %blocks: memref<32x8x16xf32, "sbuf">,
                %t1: memref<100000xi32, "hbm">, %idx: memref<64x1xi32, "sbuf">, %elems: memref<64xi32, "sbuf">) {
  "nisa.generic_indirect_load"(%blocks, %t3, %idx16)
      : (memref<32x8x16xf32, "sbuf">, memref<1024x8x16xf32, "hbm">, memref<32x1xui16, "sbuf">) -> ()
  "nisa.generic_indirect_load"(%elems, %t1, %idx)
      : (memref<64xi32, "sbuf">, memref<100000xi32, "hbm">, memref<64x1xi32, "sbuf">) -> ()
  return
}
// CHECK-NOT: nisa.generic_indirect
