// sundial-generic-load-to-gather: the can_lower_generic_load_to_gather ladder.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-generic-load-to-gather)' | FileCheck %s
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-generic-load-to-gather{enable-gather=false enable-dge-on-indirect-dma=false})' | FileCheck %s --check-prefix=OFF
// Idempotent.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-generic-load-to-gather)' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-generic-load-to-gather)' -o %t.2
// RUN: diff %t.1 %t.2

module attributes {sundial.target = "cayman"} {
// Plain generic loads are DMA copies; through a static view too. A register-offset view is a
// dma_copy_indirect whose DGE mode sundial-resolve-dge decides.
// CHECK-LABEL: func.func @plain
// CHECK: "nisa.dma_copy"(%arg0, %arg1) {engine = "dma"}
// CHECK: %[[V:.*]] = "nisa.ap"(%arg1)
// CHECK: "nisa.dma_copy"(%arg2, %[[V]]) {engine = "dma", oob_mode = "skip"}
// CHECK: "nisa.dma_copy_indirect"(%arg0, %{{.*}}) {engine = "dma"}
func.func @plain(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">, %d2: memref<64x64xf32, "sbuf">,
                 %sidx: memref<1x1xi32, "sbuf">) {
  "nisa.generic_load"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %v = "nisa.ap"(%s) {pattern = array<i64: 64, 64, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  "nisa.generic_load"(%d2, %v) {oob_mode = "skip"} : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "hbm">) -> ()
  %r = "nisa.load_register"(%sidx) {engine = "dma"} : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %w = "nisa.ap"(%s, %r) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<128x64xf32, "hbm">, !nisa.reg) -> memref<128x64xf32, "hbm">
  "nisa.generic_load"(%d, %w) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// Step 1: an on-chip, single-partition gather with oob skip is nc_n_gather (GpSimd); the row
// of a multi-partition tile is viewed alone. With oob_mode error it is never a gather (gather
// reads 0 out of range): it falls to the DMA engine's form.
// CHECK-LABEL: func.func @gather
// CHECK: %[[ROW:.*]] = "nisa.ap"(%arg1) {offset = 1024 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 512, 1, 1, 512>} : (memref<4x512xf32, "sbuf">) -> memref<1x512xf32, "sbuf">
// CHECK: "nisa.gather"(%arg0, %[[ROW]], %arg2) {engine = "gpsimd"}
// CHECK: "nisa.gather"(%arg0, %arg3, %arg2) {engine = "gpsimd"}
// CHECK: "nisa.dma_copy_indirect"(%arg0, %{{.*}}) {dge_mode = "none", engine = "dma"}
// OFF-LABEL: func.func @gather
// OFF-NOT: nisa.gather
// OFF: "nisa.dma_copy_indirect"(%arg0, %{{.*}}) {dge_mode = "none", engine = "dma", oob_mode = "skip"}
func.func @gather(%d: memref<1x256xf32, "sbuf">, %t: memref<4x512xf32, "sbuf">, %idx: memref<1x256xui32, "sbuf">,
                  %row: memref<1x512xf32, "sbuf">) {
  %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 512, 1, 1, 256>, offset = 1024, indirect_dim = 1, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4x512xf32, "sbuf">, memref<1x256xui32, "sbuf">) -> memref<1x256xf32, "sbuf">
  "nisa.generic_load"(%d, %g) {oob_mode = "skip"} : (memref<1x256xf32, "sbuf">, memref<1x256xf32, "sbuf">) -> ()
  "nisa.generic_indirect_load"(%d, %row, %idx) {indirect_dim = 1, oob_mode = "skip"}
      : (memref<1x256xf32, "sbuf">, memref<1x512xf32, "sbuf">, memref<1x256xui32, "sbuf">) -> ()
  "nisa.generic_load"(%d, %g) : (memref<1x256xf32, "sbuf">, memref<1x256xf32, "sbuf">) -> ()
  return
}

// Step 2: an HBM row gather with a [128, 1] int32 index is an indirect DMA on swdge; the
// generic indirect load gets its row-major indirect view. Scatters too. An accumulating
// scatter is dma_compute's scatter read-modify-write, dst(HBM)[idx] += rows(SBUF), the
// destination read back through the same view; rows in HBM are staged into SBUF first (a
// same-dtype dma_copy, bit-exact), since no read-modify-write mode reads HBM rows into an
// indirect HBM destination.
// CHECK-LABEL: func.func @dge
// CHECK: "nisa.dma_copy_indirect"(%arg2, %{{.*}}) {dge_mode = "swdge", engine = "dma"}
// CHECK: %[[G:.*]] = "nisa.ap"(%arg0, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 64, 128, 1, 64>} : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
// CHECK: "nisa.dma_copy_indirect"(%arg2, %[[G]]) {dge_mode = "swdge", engine = "dma", oob_mode = "skip"}
// CHECK: %[[S:.*]] = "nisa.ap"(%arg0, %arg1)
// CHECK: "nisa.dma_copy_indirect"(%[[S]], %arg2) {dge_mode = "swdge", engine = "dma", unique_indices = false}
// CHECK: %[[A:.*]] = "nisa.ap"(%arg0, %arg1)
// CHECK: "nisa.dma_compute"(%[[A]], %[[A]], %arg2) {engine = "dma"} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
// CHECK: %[[H:.*]] = "nisa.ap"(%arg0, %arg1)
// CHECK: %[[T:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.dma_copy"(%[[T]], %arg3) {engine = "dma"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
// CHECK: "nisa.dma_compute"(%[[H]], %[[H]], %[[T]]) {engine = "dma", oob_mode = "skip"} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
// CHECK-NOT: nisa.generic_indirect_save
// OFF-LABEL: func.func @dge
// OFF: "nisa.dma_copy_indirect"(%arg2, %{{.*}}) {dge_mode = "none", engine = "dma"}
// OFF: "nisa.generic_indirect_load"{{.*}}dge_mode = "none"
// OFF: "nisa.generic_indirect_save"{{.*}}dge_mode = "none"
// OFF: "nisa.generic_indirect_save"{{.*}}accumulate = true, dge_mode = "none"
// OFF: "nisa.generic_indirect_save"{{.*}}accumulate = true, dge_mode = "none"
func.func @dge(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">,
               %hrows: memref<128x64xf32, "hbm">) {
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.generic_load"(%rows, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.generic_indirect_load"(%rows, %table, %idx) {oob_mode = "skip"}
      : (memref<128x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%table, %rows, %idx) {unique_indices = false}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%table, %rows, %idx) {accumulate = true}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  "nisa.generic_indirect_save"(%table, %hrows, %idx) {accumulate = true, oob_mode = "skip"}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  return
}

// Step 3: not DGE-eligible (the index is not one row per partition): the DMA engine's form;
// the generic indirect op stays for sundial-lower-generic-indirect, with dge none.
// CHECK-LABEL: func.func @fallback
// CHECK: "nisa.generic_indirect_load"(%arg1, %arg0, %arg2) {dge_mode = "none", indirect_dim = 1 : i64}
func.func @fallback(%t3: memref<8x512x16xf32, "hbm">, %part: memref<8x4x16xf32, "sbuf">, %idx4: memref<4xi32, "sbuf">) {
  "nisa.generic_indirect_load"(%part, %t3, %idx4) {indirect_dim = 1}
      : (memref<8x4x16xf32, "sbuf">, memref<8x512x16xf32, "hbm">, memref<4xi32, "sbuf">) -> ()
  return
}
}

// -----

// sunda has no DGE: the DMA engine's form.
// CHECK-LABEL: func.func @sunda
// CHECK: "nisa.dma_copy_indirect"(%arg2, %{{.*}}) {dge_mode = "none", engine = "dma"}
module attributes {sundial.target = "sunda"} {
func.func @sunda(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.generic_load"(%rows, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}
}
// CHECK-NOT: nisa.generic_load
