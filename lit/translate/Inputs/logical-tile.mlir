// A logical 256-partition tile. With no middle end (--pass-pipeline='') allocation cannot
// place it; the default middle end tiles it into two 128-partition halves, cutting the HBM
// side of each DMA with nisa.slice, and selection folds those views
// (lit/translate/logical-tile.mlir).
module attributes {sundial.target = "cayman"} {
  func.func @copy(%in: memref<256x64xf32, "hbm">, %out: memref<256x64xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
    "nisa.dma_copy"(%t, %in) : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "hbm">) -> ()
    "nisa.dma_copy"(%out, %t) : (memref<256x64xf32, "hbm">, memref<256x64xf32, "sbuf">) -> ()
    return
  }
}
