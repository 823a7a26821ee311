// A DMA copy with an NKI priority, which no source maps onto the descriptor's priority class.
module attributes {sundial.target = "cayman"} {
  func.func @priority(%in: memref<128x64xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy"(%t, %in) {priority = 2} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
