// A kernel the semantic verifier rejects: sundial-run reports it as sundial-opt does.
module {
  func.func @bad(%a: memref<128x64xf32, "hbm">, %b: memref<64x64xf32, "hbm">) {
    "nisa.dma_copy"(%b, %a) : (memref<64x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
