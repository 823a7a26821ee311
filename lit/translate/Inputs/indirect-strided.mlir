// A DMA-indirect gather of every other element of each table row: DMA_INDIRECT1D's per-index
// elements are one contiguous run.
module attributes {sundial.target = "cayman"} {
  func.func @strided(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xi32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 128, 2, 32>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x32xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<128x32xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x32xf32, "sbuf">, memref<128x32xf32, "hbm">) -> ()
    return
  }
}
