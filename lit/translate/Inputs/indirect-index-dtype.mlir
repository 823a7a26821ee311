// A DMA-indirect gather through 16-bit indices: the DMA engine reads 32-bit ones.
module attributes {sundial.target = "cayman"} {
  func.func @narrow(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xui16, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<128x1xui16, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<128x1xui16, "sbuf">, memref<128x1xui16, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xui16, "sbuf">) -> memref<128x64xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
