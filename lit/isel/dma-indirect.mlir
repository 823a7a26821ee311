// sundial-isel: dma_copy_indirect -> bir.dma_indirect 0xbb on the DMA engine. The
// tensor-indirect side is an HBM table: its data pattern keeps the view's indirect dimension
// first (step = the table's row pitch, which scales an index; num = the index count), then
// one index's elements; the index pattern is the on-chip index tile (one per partition).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// A gather of 128 rows of a 1024 x 64 fp32 table (an MoE token gather) and a scatter back.
// CHECK-LABEL: func.func @gather_scatter
// CHECK: "bir.dma_indirect"() {dst = {dtype = "float32", num_partitions = 128 : i64, offset = 4 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 187>, src = {data = {dtype = "float32", offset = 0 : i64, pattern = array<i64: 64, 128, 1, 64>, space = "hbm", tensor = 0 : i64}, index = {dtype = "int32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}, index_arg = 0 : i64, kind = "indirect", num_indices = 128 : i64}}
// CHECK: "bir.dma_indirect"() {dst = {data = {dtype = "float32", offset = 1024 : i64, pattern = array<i64: 128, 128, 1, 64>, space = "hbm", tensor = 2 : i64}, index = {{{.*}}}, index_arg = 0 : i64, kind = "indirect", num_indices = 128 : i64}, engine = "dma", opcodes = array<i64: 187>, src = {{{.*}}space = "sbuf"}, unique_indices = false}
module attributes {sundial.target = "cayman"} {
  func.func @gather_scatter(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xi32, "hbm">, %out: memref<512x128xf32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    // Columns 256..319 of the rows of a 512 x 128 output (byte offset 256 * 4).
    %s = "nisa.ap"(%out, %i) {pattern = array<i64: 128, 128, 1, 64>, offset = 256, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<512x128xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy_indirect"(%s, %rows) {unique_indices = false} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
