// A logical 256-partition tile: with no middle end (--pass-pipeline='') allocation cannot
// place it. (The default middle end tiles it, but its HBM nisa.slice views are not selectable
// yet: selection does not fold view chains.)
module attributes {sundial.target = "cayman"} {
  func.func @copy(%in: memref<256x64xf32, "hbm">, %out: memref<256x64xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
    "nisa.dma_copy"(%t, %in) : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "hbm">) -> ()
    "nisa.dma_copy"(%out, %t) : (memref<256x64xf32, "hbm">, memref<256x64xf32, "sbuf">) -> ()
    return
  }
}
