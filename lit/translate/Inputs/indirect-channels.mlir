// A DMA-indirect gather of 64 rows: DMA_INDIRECT1D has 128 index channels.
module attributes {sundial.target = "cayman"} {
  func.func @short(%table: memref<1024x64xf32, "hbm">, %idx: memref<64x1xi32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<64x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<64x1xi32, "sbuf">, memref<64x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 64, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<64x1xi32, "sbuf">) -> memref<64x64xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<64x64xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "hbm">) -> ()
    return
  }
}
