// A DMA-indirect gather from one HBM tensor into another.
module attributes {sundial.target = "cayman"} {
  func.func @hbm_to_hbm(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xi32, "hbm">, %out: memref<128x64xf32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy_indirect"(%out, %g) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
